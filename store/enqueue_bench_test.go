package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkEnqueue: one caller queueing needs_review results one after
// another, as an MCP agent's calls do: Enqueue (a transaction and its
// fsyncs before it returns) vs EnqueueDurable (an fsynced outbox append,
// committed behind). Reports p50/p99 of the call.
func BenchmarkEnqueue(b *testing.B) {
	for _, durable := range []bool{false, true} {
		name := map[bool]string{false: "transaction", true: "durable-outbox"}[durable]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(filepath.Join(b.TempDir(), "reflect.db"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			lat := make([]time.Duration, 0, b.N)
			i := 0
			for b.Loop() {
				trace := fmt.Sprintf("t-%d", i)
				i++
				doc := Document{Text: "Globex Ltd\nTotal 583.20 GBP " + trace}
				t0 := time.Now()
				if durable {
					_, err = s.EnqueueDurable(ctx, "bench", doc, "v1", needsReview(trace))
				} else {
					_, _, err = s.Enqueue(ctx, "bench", doc, "v1", needsReview(trace))
				}
				lat = append(lat, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if err := s.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
