package store

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

func savedDoc(i int) (Document, pipeline.Result) {
	id := fmt.Sprintf("doc-%06d", i)
	return Document{ID: id, Text: fmt.Sprintf("ACME Ltd\nInvoice A-%d\nTotal %d.00 EUR", i, 10+i)},
		pipeline.Result{ID: id, Status: pipeline.StatusOK, Schema: "invoice",
			Data: pipeline.Record{"total": float64(10 + i)}, FieldOrder: []string{"total"}}
}

// saveAll adds the documents numbered by order through one Saver, half of
// them with their result already encoded (as a batch that printed it passes
// it), and checks every done reported success before Close returned.
func saveAll(t *testing.T, s *Store, c Corpus, order []int) {
	t.Helper()
	v, err := s.NewSaver(c, "v1")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	stored := 0
	for _, i := range order {
		doc, res := savedDoc(i)
		var encoded []byte
		if i%2 == 0 {
			if encoded, err = res.MarshalJSON(); err != nil {
				t.Fatal(err)
			}
		}
		v.Add(doc, res, encoded, func(err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s: %v", doc.ID, err)
			}
			stored++
		})
	}
	v.Close()
	if stored != len(order) {
		t.Fatalf("done called %d times for %d documents before Close returned", stored, len(order))
	}
}

// A Saver stores every document with its result, in the order added,
// whether the caller encoded the result or not and whatever the ids' order.
func TestSaverStoresEveryResultAsEncoded(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "r.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1500
	ascending, descending := make([]int, n), make([]int, n)
	for i := range n {
		ascending[i], descending[i] = i, 2*n-1-i
	}
	c := Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice"}
	saveAll(t, s, c, ascending)
	saveAll(t, s, c, descending)
	rows, err := s.Summaries(ctx, c.ID)
	if err != nil || len(rows) != 2*n {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for seq, row := range rows {
		want := seq
		if seq >= n {
			want = descending[seq-n]
		}
		doc, res := savedDoc(want)
		if row.DocID != doc.ID || row.Status != pipeline.StatusOK {
			t.Fatalf("row %d is %s (%s), want %s stored in the order added", seq, row.DocID, row.Status, doc.ID)
		}
		got, ok, err := s.Result(ctx, c.ID, doc.ID)
		if err != nil || !ok {
			t.Fatalf("%s: no result (%v)", doc.ID, err)
		}
		a, _ := got.MarshalJSON()
		b, _ := res.MarshalJSON()
		if !bytes.Equal(a, b) {
			t.Fatalf("%s stored as %s, want %s", doc.ID, a, b)
		}
	}
}

// Documents saved in id order leave the pages they append to full rather
// than half empty (bbolt's split default), so a batch writes and syncs
// about half the bytes.
func TestSaverPacksAppendedPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, 3000)
	for i := range order {
		order[i] = i
	}
	saveAll(t, s, Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice"}, order)
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bktDocs, bktSummaries, bktChanges, bktDocIndex, bktResults, bktLatest, bktChangeIdx} {
			st := tx.Bucket(name).Stats()
			if fill := float64(st.LeafInuse) / float64(st.LeafAlloc); fill < 0.8 {
				t.Errorf("bucket %s: leaf pages %.0f%% full, want at least 80%%", name, 100*fill)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
