package store_test

import (
	"context"
	"fmt"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSummaries100k times loading the review queue of a 100,000-document
// corpus, file open and close included, as the TUI's first screen does.
func BenchmarkSummaries100k(b *testing.B) {
	ctx := context.Background()
	const n = 100_000
	s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := storetest.Populate(ctx, s, "bench", n); err != nil {
		b.Fatal(err)
	}
	b.Logf("populated %d documents in %v", n, time.Since(start).Round(time.Millisecond))
	b.ResetTimer()
	for b.Loop() {
		sums, err := s.Summaries(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if len(sums) != n {
			b.Fatalf("got %d summaries, want %d", len(sums), n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkDecide times one reviewer decision end to end (open, commit with
// fsync, close) in a 10,000-document store: the latency before "saved".
func BenchmarkDecide(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := storetest.Populate(ctx, s, "bench", 10_000); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		d := store.Decision{CorpusID: "bench", DocID: fmt.Sprintf("doc-%06d", i%10_000), Field: "total",
			Action: store.ActionCorrect, Value: float64(i), Reviewer: "bench"}
		if _, err := s.Decide(ctx, d); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
