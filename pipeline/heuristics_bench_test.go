package pipeline

import (
	"context"
	"testing"
)

// BenchmarkHeuristicsReceipts runs every heuristic over the labelled receipts
// with their human labels as the record, the work verify does per document.
func BenchmarkHeuristicsReceipts(b *testing.B) {
	rows := loadReceipts(b)
	s := Invoice()
	recs := make([]Record, len(rows))
	for i, r := range rows {
		rec, err := s.NormalizeRecord(r.Expected, Strict)
		if err != nil {
			b.Fatalf("%s: %v", r.ID, err)
		}
		recs[i] = rec
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, r := range rows {
			if rep := RunHeuristics(r.Text, s, recs[i]); len(rep) == 0 {
				b.Fatal("empty report")
			}
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkAnalyzeReceipts is the document analysis alone (analyze: dates,
// amounts, labels, tax summary), the part of verify every check reads.
func BenchmarkAnalyzeReceipts(b *testing.B) {
	rows := loadReceipts(b)
	s := Invoice()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, r := range rows {
			if _, err := analyze(ctx, r.Text, s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "docs/s")
}
