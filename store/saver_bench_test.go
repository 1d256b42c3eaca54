package store_test

import (
	"fmt"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// BenchmarkSaver is the store's share of extract --batch --save: documents
// with their results through a Saver, group-committed.
func BenchmarkSaver(b *testing.B) {
	const n = 5000
	for b.Loop() {
		b.StopTimer()
		s, err := store.Open(b.TempDir()+"/r.db", store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		v, err := s.NewSaver(store.Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice"}, storetest.Version)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for i := range n {
			doc, res := storetest.Synthetic(i, nil)
			doc.ID = fmt.Sprintf("d-%06d", i)
			v.Add(doc, res, nil, func(err error) {
				if err != nil {
					b.Error(err)
				}
			})
		}
		v.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/doc")
}
