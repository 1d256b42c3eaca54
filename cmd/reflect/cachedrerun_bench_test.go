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
// -cpu 1 and several -count). The goal (a cached rerun ≥ 50× faster
// than the first run at concurrency 32, whose ideal is 1,000 × 50 ms / 32)
// leaves about 60 µs per document.
func BenchmarkCachedRerun(b *testing.B) {
	const docs = 500
	corpus := fakeCorpus(docs)
	srv := startFakeModel(b, time.Millisecond)
	b.Setenv("OPENAI_BASE_URL", srv.url+"/v1")
	b.Setenv("OPENAI_API_KEY", "sk-bench")
	b.Setenv("REFLECT_PROVIDER", "")
	for _, conc := range []int{1, 32} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			cache := filepath.Join(b.TempDir(), "calls.db")
			args := []string{"extract", "--batch", "--batch-concurrency", fmt.Sprint(conc), "--cache", cache, "--log-level", "error"}
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
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*docs), "doc-µs")
			b.ReportMetric(0, "calls")
		})
	}
}
