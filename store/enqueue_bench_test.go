package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/internal/benchfig"
)

// BenchmarkEnqueue: callers queueing needs_review results one after
// another, as an MCP agent's calls do: Enqueue (a transaction and its
// fsyncs before it returns) vs EnqueueDurable (an fsynced outbox append,
// committed behind), with 1 caller and with 8 at once (8 agents on one
// `reflect mcp --http`). Reports p50/p99 of the call and, sampled between
// the calls so it sees the same disk, the p50 of a 4 KB append made
// durable: the floor no durable answer beats.
func BenchmarkEnqueue(b *testing.B) {
	for _, durable := range []bool{false, true} {
		for _, callers := range []int{1, 8} {
			name := fmt.Sprintf("%s/callers=%d", map[bool]string{false: "transaction", true: "durable-outbox"}[durable], callers)
			b.Run(name, func(b *testing.B) { benchEnqueue(b, durable, callers) })
		}
	}
}

func benchEnqueue(b *testing.B, durable bool, callers int) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), "reflect.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	probe, err := benchfig.NewSyncProbe(filepath.Dir(s.Path()))
	if err != nil {
		b.Fatal(err)
	}
	defer probe.Close()
	lat := make([]time.Duration, b.N)
	enqueue := func(i int) error {
		trace := fmt.Sprintf("t-%d", i)
		doc := Document{Text: "Globex Ltd\nTotal 583.20 GBP " + trace}
		t0 := time.Now()
		var err error
		if durable {
			_, err = s.EnqueueDurable(ctx, "bench", doc, "v1", needsReview(trace))
		} else {
			_, _, err = s.Enqueue(ctx, "bench", doc, "v1", needsReview(trace))
		}
		lat[i] = time.Since(t0)
		return err
	}
	b.ResetTimer()
	// Rounds of one call per caller, all at once, then a probe sample.
	for round := 0; round*callers < b.N; round++ {
		var wg sync.WaitGroup
		errs := make(chan error, callers)
		for i := round * callers; i < min(b.N, (round+1)*callers); i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := enqueue(i); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := probe.Sample(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(probe.P50().Microseconds()), "fdatasync-p50-µs")
}
