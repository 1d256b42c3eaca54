package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCachedRerun reruns `reflect extract --batch` over 500 documents
// whose every model call is already in the cache, so what is left is
// reflect's own work per document: reading the line, rendering the prompts,
// keying and looking up the cache, verifying, writing the result. One
// operation is one whole rerun; allocs/op and B/op are per rerun, and
// doc-µs is wall time per document (noisy on a shared machine: run with
// -cpu 1 and several -count). The rerun of a single document is the fixed
// cost of a run (opening the cache, loading the schema, building its label
// index), which the per-document figure leaves out.
//
// The goal (a cached rerun ≥ 50× faster than the first run at
// concurrency 32, whose ideal is 1,000 calls × 50 ms / 32 = 1.5625 s) leaves
// 31 ms for the whole rerun, about 60 µs per document once the run's fixed
// cost is paid: the per-document figure is printed against that.
func BenchmarkCachedRerun(b *testing.B) {
	srv := startFakeModel(b, time.Millisecond)
	b.Setenv("OPENAI_BASE_URL", srv.url+"/v1")
	b.Setenv("OPENAI_API_KEY", "sk-bench")
	b.Setenv("REFLECT_PROVIDER", "")
	var fixed time.Duration
	for _, run := range []struct{ docs, conc int }{{1, 1}, {500, 1}, {500, 32}} {
		corpus := fakeCorpus(run.docs)
		b.Run(fmt.Sprintf("docs=%d/concurrency=%d", run.docs, run.conc), func(b *testing.B) {
			cache := filepath.Join(b.TempDir(), "calls.db")
			args := []string{"extract", "--batch", "--batch-concurrency", fmt.Sprint(run.conc), "--cache", cache, "--log-level", "error"}
			runBatchBench(b, corpus, args) // fills the cache
			srv.reset(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				runBatchBench(b, corpus, args)
			}
			b.StopTimer()
			if st := srv.stats(b); st.Requests != 0 {
				b.Fatalf("cached reruns made %d model calls, want 0", st.Requests)
			}
			perRun := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*run.docs), "doc-µs")
			b.ReportMetric(0, "calls")
			if run.docs == 1 {
				fixed = perRun
				benchFigure("cached rerun: fixed cost of a run (1 document)", fmt.Sprintf("%.1f ms", ms(fixed)), "-", true)
				return
			}
			perDoc := float64((perRun - fixed).Microseconds()) / float64(run.docs-1)
			benchFigure(fmt.Sprintf("cached rerun: each document beyond the first, c=%d", run.conc), fmt.Sprintf("%.0f µs", perDoc), "≤ 60 µs", perDoc <= 60)
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
