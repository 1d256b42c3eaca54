package providers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// lookupAll looks every request up through c and fails on a miss.
func lookupAll(t *testing.T, c *Cache, reqs []llm.Request) {
	t.Helper()
	miss := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		t.Fatal("a stored reply went to the model")
		return llm.Response{}, nil
	})
	for _, r := range reqs {
		if resp, err := c.Wrap("openai", miss).Complete(context.Background(), r); err != nil || !resp.Cached {
			t.Fatalf("lookup: %+v, %v", resp, err)
		}
	}
}

// endLeasePeriod ends the running lease period and its rest, as time
// would, so the next lookup takes the lock again.
func endLeasePeriod(c *Cache) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLease()
	c.lease.resting = time.Time{}
}

// A lease's open outlives its lock: lookups across lease periods, their
// rests and this process's own writes open the file once, and the lock is
// given back between periods all the same (a writer elsewhere gets in).
func TestCacheLeaseKeepsItsOpenAcrossPeriods(t *testing.T) {
	if !leaseKeepsOpen {
		t.Skip("here a lease gives its lock back by closing")
	}
	path := filepath.Join(t.TempDir(), "calls.db")
	reqs := warmCache(t, path, 20)
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	lookupAll(t, c, reqs[:1])
	before := c.opens.Load()
	// A file that grew is opened afresh (its new pages are beyond the map).
	grew, last := 0, fileSize(t, path)
	lookup := func() {
		if size := fileSize(t, path); size != last {
			grew, last = grew+1, size
		}
		lookupAll(t, c, reqs)
	}
	for range 5 {
		endLeasePeriod(c)
		// In the rest between periods the file is free.
		other, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		other.timeout = time.Nanosecond // a writer that finds the file held fails at once
		other.put([]byte("other"), cacheEntry{Text: "x"})
		other.Flush()
		if st := other.Stats(); st.Faults != 0 {
			t.Fatalf("a writer elsewhere found the file locked after the lease period ended: %+v", st)
		}
		lookup()
		c.put([]byte("own"), cacheEntry{Text: "y"}) // our own write gives the lock back and takes it again
		c.Flush()
		lookup()
	}
	// Each period the own write's read-write open; the lease's open stays.
	if opens := c.opens.Load() - before; opens != int64(5+grew) {
		t.Errorf("5 lease periods with a write each opened the file %d times, want %d (the writes, and a fresh open for each of the %d times the file grew)", opens, 5+grew, grew)
	}
}

// Through the open it kept, the lease sees what was committed elsewhere
// while it did not hold the lock: new entries in a file of the same size,
// and a file that grew beyond the lease's memory map or was replaced.
func TestCacheLeaseSeesWhatChangedWhileUnlocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	reqs := warmCache(t, path, 4)
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	lookupAll(t, c, reqs)
	write := func(n int, size int) []llm.Request {
		t.Helper()
		w, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Repeat("x", size)
		model := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
			return llm.Response{Text: text, Model: "m"}, nil
		})
		out := make([]llm.Request, n)
		for i := range out {
			out[i] = testRequest()
			out[i].Messages = []llm.Message{{Role: "user", Content: fmt.Sprintf("NEW %d %d", size, i)}}
			if _, err := w.Wrap("openai", model).Complete(context.Background(), out[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if st := w.Stats(); st.Faults != 0 {
			t.Fatalf("writer: %+v", st)
		}
		return out
	}
	size := func() int64 { return fileSize(t, path) }

	endLeasePeriod(c)
	before := size()
	few := write(1, 10)
	if size() != before {
		t.Fatalf("one small entry grew the file %d -> %d; this case wants the same size", before, size())
	}
	lookupAll(t, c, few)

	endLeasePeriod(c)
	before = size()
	// More than the map the file starts with (cacheMapSize).
	many := write(cacheMapSize/(16<<10)+50, 16<<10)
	if size() == before {
		t.Fatalf("%d KB of entries did not grow the file", (cacheMapSize/(16<<10)+50)*16)
	}
	lookupAll(t, c, many)

	endLeasePeriod(c)
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	replaced := write(3, 10)
	lookupAll(t, c, replaced)
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A lookup finds its own key and no neighbour: the lease's cursor seeks to
// the first key at or after the one asked for, within one read transaction
// and after our own commits began new ones.
func TestCacheLookupFindsOnlyItsKey(t *testing.T) {
	c, err := OpenCache(filepath.Join(t.TempDir(), "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, k := range []string{"b", "bc", "d"} {
		c.put([]byte(k), cacheEntry{Text: "text of " + k})
		c.Flush()
	}
	for range 2 { // the second round in the same lease transaction
		for _, k := range []string{"a", "b", "bb", "bc", "bcd", "c", "d", "e"} {
			e, found := c.get([]byte(k))
			if want := k == "b" || k == "bc" || k == "d"; found != want || found && e.Text != "text of "+k {
				t.Errorf("lookup %q: found %v %q", k, found, e.Text)
			}
		}
	}
	if st := c.Stats(); st.Faults != 0 {
		t.Fatal(st)
	}
}

// In a lease period, this process's own commit hands the lease its lock
// and read transaction straight back, so the lookup after it (the one
// before the next model call) takes no lock and begins no transaction;
// it sees the entry just committed, and once the period is over the file
// is free for a writer elsewhere as before.
func TestCacheOwnCommitHandsTheLeaseBack(t *testing.T) {
	if !leaseKeepsOpen {
		t.Skip("here a lease gives its lock back by closing")
	}
	path := filepath.Join(t.TempDir(), "calls.db")
	reqs := warmCache(t, path, 2)
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	own := testRequest()
	own.Messages = []llm.Message{{Role: "user", Content: "TOTAL 99.50"}}
	model := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		return llm.Response{Text: `{"total":99.5}`, Model: "m"}, nil
	})
	// The whole round must fall in one lease period (100 ms); a loaded
	// machine gets a few tries.
	inPeriod := false
	for try := 0; try < 20 && !inPeriod; try++ {
		endLeasePeriod(c)
		lookupAll(t, c, reqs[:1]) // starts a period
		c.mu.Lock()
		period := c.lease.opened
		c.mu.Unlock()
		own.Messages[0].Content = fmt.Sprintf("TOTAL %d.50", 100+try)
		if _, err := c.Wrap("openai", model).Complete(context.Background(), own); err != nil {
			t.Fatal(err)
		}
		c.Flush() // the commit
		c.mu.Lock()
		inPeriod = c.lease.opened.Equal(period)
		locked, tx := c.lease.locked, c.lease.tx
		c.mu.Unlock()
		if inPeriod && (!locked || tx == nil) {
			t.Fatalf("after its own commit the lease holds its lock %v and a read transaction %v; want both back", locked, tx != nil)
		}
	}
	if !inPeriod {
		t.Skip("no lookup and commit fitted in one lease period on this machine")
	}
	lookupAll(t, c, []llm.Request{own})
	endLeasePeriod(c)
	other, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	other.timeout = time.Nanosecond // fails at once if the lock were still held
	other.put([]byte("other"), cacheEntry{Text: "x"})
	other.Flush()
	if st := other.Stats(); st.Faults != 0 {
		t.Fatalf("a writer elsewhere found the file locked after the period ended: %+v", st)
	}
}
