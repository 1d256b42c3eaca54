package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkBatchThroughput runs `reflect extract --batch` over 500 documents
// against a local OpenAI-compatible server that answers every call after a
// fixed delay (50ms: far below a real model's, so reflect's own overhead
// shows), and reports the run's speed as a ratio to the ideal
// (documents × calls × delay / concurrency): 1.0 means reflect adds nothing.
// Then it reruns with a warm cache and reports the speed-up.
func BenchmarkBatchThroughput(b *testing.B) {
	const docs, calls, delay = 500, 2, 50 * time.Millisecond
	corpus := fakeCorpus(docs)
	for _, conc := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			srv := newFakeOpenAI(b, delay)
			b.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
			b.Setenv("OPENAI_API_KEY", "sk-bench")
			b.Setenv("REFLECT_PROVIDER", "")
			cache := filepath.Join(b.TempDir(), "calls.db")
			args := []string{"extract", "--batch", "--batch-concurrency", fmt.Sprint(conc), "--cache", cache, "--log-level", "error"}
			var cold, warm time.Duration
			for b.Loop() {
				start := time.Now()
				runBatchBench(b, corpus, args)
				cold = time.Since(start)
				if n := srv.requests.Load(); n != docs*calls {
					b.Fatalf("cold run made %d requests, want %d", n, docs*calls)
				}
				start = time.Now()
				runBatchBench(b, corpus, args)
				warm = time.Since(start)
				if n := srv.requests.Load(); n != docs*calls {
					b.Fatalf("cached rerun made %d requests, want 0", n-docs*calls)
				}
			}
			ideal := time.Duration(docs*calls) * delay / time.Duration(conc)
			b.ReportMetric(ideal.Seconds()/cold.Seconds(), "ratio-to-ideal")
			b.ReportMetric(cold.Seconds(), "cold-s")
			b.ReportMetric(warm.Seconds(), "cached-s")
			b.ReportMetric(cold.Seconds()/warm.Seconds(), "cache-speedup")
		})
	}
}

func runBatchBench(b *testing.B, corpus string, args []string) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, Stdio{In: strings.NewReader(corpus), Out: &out, Err: &errb})
	if code := ExitCode(err); code > ExitNeedsReview {
		b.Fatalf("batch failed (exit %d): %v\n%s", code, err, errb.String())
	}
}
