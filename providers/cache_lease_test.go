package providers

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// warmCache returns a cache file at path holding n replies, and the
// requests that find them.
func warmCache(t testing.TB, path string, n int) []llm.Request {
	t.Helper()
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	model := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		return llm.Response{Text: `{"total":1}`, Model: "m"}, nil
	})
	reqs := make([]llm.Request, n)
	for i := range reqs {
		reqs[i] = testRequest()
		reqs[i].Messages = []llm.Message{{Role: "user", Content: fmt.Sprintf("TOTAL %d.50", i)}}
		if _, err := c.Wrap("openai", model).Complete(context.Background(), reqs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return reqs
}

// Lookups one after another share a read-only open of the file instead of
// opening it for every batch, and the lease ends by itself soon after.
func TestCacheLookupsShareAnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	reqs := warmCache(t, path, 50)
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	miss := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		t.Fatal("a stored reply went to the model")
		return llm.Response{}, nil
	})
	before := c.opens.Load()
	for _, r := range reqs {
		resp, err := c.Wrap("openai", miss).Complete(context.Background(), r)
		if err != nil || !resp.Cached {
			t.Fatalf("lookup: %+v, %v", resp, err)
		}
	}
	if opens := c.opens.Load() - before; opens >= int64(len(reqs)) {
		t.Errorf("%d lookups opened the file %d times; a lease should serve several", len(reqs), opens)
	}
	// A writer in this process (another Cache on the file) still gets the
	// file once the lease has run out.
	w, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	w.timeout = 3 * leaseMax
	w.put([]byte("k"), cacheEntry{Text: "x"})
	w.Flush()
	if st := w.Stats(); st.Faults != 0 {
		t.Fatalf("a write after the lease ran out failed: %+v", st)
	}
}

// A process looking up without pause does not keep a writer elsewhere out
// for longer than a lease: its write lands within the default lock timeout,
// every time (a skipped write is a paid reply lost).
func TestCacheLeaseLetsAWriterIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	reqs := warmCache(t, path, 20)
	reader, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	miss := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		return llm.Response{Text: "{}"}, nil
	})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; !stop.Load(); i++ {
				_, _ = reader.Wrap("openai", miss).Complete(context.Background(), reqs[i%len(reqs)])
			}
		}()
	}
	for reader.Stats().Hits < 100 {
		runtime.Gosched() // the readers are at it before the writer starts
	}
	writer, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		writer.put(fmt.Appendf(nil, "w%d", i), cacheEntry{Text: "paid"})
	}
	writer.Flush()
	stop.Store(true)
	wg.Wait()
	if st := writer.Stats(); st.Faults != 0 {
		t.Fatalf("%d of 5 writes were skipped while another cache looked up without pause", st.Faults)
	}
	if st := reader.Stats(); st.Hits == 0 || st.Faults != 0 {
		t.Fatalf("reader: %+v", st)
	}
}

// BenchmarkCacheLookup: 32 goroutines looking up stored replies, as a cached
// rerun at --batch-concurrency 32 does; opens/lookup is how often the file
// was opened (1 would be an open per lookup).
func BenchmarkCacheLookup(b *testing.B) {
	path := filepath.Join(b.TempDir(), "calls.db")
	reqs := warmCache(b, path, 256)
	c, err := OpenCache(path)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	cl := c.Wrap("openai", llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		b.Fatal("miss")
		return llm.Response{}, nil
	}))
	var next atomic.Int64
	before := c.opens.Load()
	b.SetParallelism(32)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cl.Complete(context.Background(), reqs[next.Add(1)%int64(len(reqs))]); err != nil {
				b.Error(err)
			}
		}
	})
	b.ReportMetric(float64(c.opens.Load()-before)/float64(b.N), "opens/lookup")
}
