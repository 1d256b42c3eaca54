package providers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// countingModel answers every call with a reply naming its prompt and
// counts the calls.
func countingModel(calls *atomic.Int64) llm.Client {
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "reply to " + req.Messages[0].Content, Model: "m"}, nil
	})
}

func promptN(i int) llm.Request {
	return llm.Request{Model: "m", Purpose: "generator", Messages: []llm.Message{{Role: "user", Content: fmt.Sprint("doc ", i)}}}
}

// storedKeys counts the entries committed to the file, read by a handle of
// the test's own.
func storedKeys(t *testing.T, db *bolt.DB) int {
	t.Helper()
	n := 0
	err := db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(callsBucket); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// holdFile opens the cache file read-only, taking a shared lock as another
// process's lookups would: the Cache's writer cannot commit until release
// is called, while lookups go on.
func holdFile(t *testing.T, path string) (db *bolt.DB, release func()) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			db.Close()
		}
	}
	t.Cleanup(release)
	return db, release
}

// A reply is stored write-behind: the call returns before the commit, and a
// second call for the same prompt in the same process is served from the
// queue, not sent to the model again, while the file cannot be written.
func TestCachePutVisibleBeforeCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c := mustOpenCache(t, path)
	c.timeout = 10 * time.Second // the writer waits for the file instead of giving up
	holder, release := holdFile(t, path)

	var calls atomic.Int64
	w := c.Wrap("openai", countingModel(&calls))
	first, err := w.Complete(context.Background(), promptN(1))
	if err != nil || first.Cached {
		t.Fatalf("first call: %+v, %v; want a live reply", first, err)
	}
	if n := storedKeys(t, holder); n != 0 {
		t.Fatalf("%d entries in the file while it was locked", n)
	}
	again, err := w.Complete(context.Background(), promptN(1))
	if err != nil || !again.Cached || again.Text != first.Text || calls.Load() != 1 {
		t.Fatalf("repeat before the commit: %+v, %v, %d model calls; want the queued reply and 1 call", again, err, calls.Load())
	}

	release()
	c.Flush()
	if st := c.Stats(); st.Faults != 0 || st.Hits != 1 {
		t.Errorf("stats = %+v, want one hit and no fault", st)
	}
	// Committed now: another Cache on the file finds it.
	other := mustOpenCache(t, path)
	defer other.Close()
	if resp, err := other.Wrap("openai", countingModel(&calls)).Complete(context.Background(), promptN(1)); err != nil || !resp.Cached {
		t.Errorf("after Flush another cache got %+v, %v; want the stored reply", resp, err)
	}
}

// Close waits for every queued write: replies queued while the file was
// locked are all in the file once Close returns.
func TestCacheCloseCommitsEverythingQueued(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c := mustOpenCache(t, path)
	c.timeout = 10 * time.Second
	holder, release := holdFile(t, path)

	const n = 40
	var calls atomic.Int64
	w := c.Wrap("openai", countingModel(&calls))
	for i := range n {
		if _, err := w.Complete(context.Background(), promptN(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := storedKeys(t, holder); got != 0 {
		t.Fatalf("%d entries committed while the file was locked", got)
	}
	release()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := storedKeys(t, db); got != n {
		t.Errorf("%d of %d queued replies in the file after Close", got, n)
	}
	if f := c.Stats().Faults; f != 0 {
		t.Errorf("%d faults", f)
	}
	db.Close()
	// A call already past its lookup when Close came still stores its
	// reply, at once.
	c.put([]byte("late"), cacheEntry{Text: "paid"})
	db, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := storedKeys(t, db); got != n+1 {
		t.Errorf("a put after Close: %d entries, want %d", got, n+1)
	}
}

// TestCacheWriteBehindHelper is the child side of
// TestCacheSecondProcessSeesEntriesAfterClose: it makes n calls through a
// cache and closes it, without flushing, then exits.
func TestCacheWriteBehindHelper(t *testing.T) {
	path := os.Getenv("REFLECT_CACHE_WB_PATH")
	if path == "" {
		t.Skip("helper process for TestCacheSecondProcessSeesEntriesAfterClose")
	}
	n, _ := strconv.Atoi(os.Getenv("REFLECT_CACHE_WB_N"))
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	w := c.Wrap("openai", countingModel(&calls))
	for i := range n {
		if _, err := w.Complete(context.Background(), promptN(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if f := c.Stats().Faults; f != 0 {
		t.Fatalf("%d faults", f)
	}
}

// What one process stored is there for the next once the first closed its
// cache and exited.
func TestCacheSecondProcessSeesEntriesAfterClose(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "calls.db")
	const n = 60
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheWriteBehindHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REFLECT_CACHE_WB_PATH="+path, "REFLECT_CACHE_WB_N="+strconv.Itoa(n))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	c := mustOpenCache(t, path)
	defer c.Close()
	var calls atomic.Int64
	w := c.Wrap("openai", countingModel(&calls))
	for i := range n {
		resp, err := w.Complete(context.Background(), promptN(i))
		if err != nil || !resp.Cached || resp.Text != fmt.Sprint("reply to doc ", i) {
			t.Errorf("call %d: %+v, %v; want the reply the other process stored", i, resp, err)
		}
	}
	if calls.Load() != 0 {
		t.Errorf("%d of %d calls went to the model", calls.Load(), n)
	}
}

// BenchmarkCacheMissAndStore: calls one after another, each a miss whose
// reply is stored, through an instant model: what the cache adds to a paid
// call on its critical path (a batch at concurrency 1). opens/call counts
// the file's opens, lookups' and commits' together.
func BenchmarkCacheMissAndStore(b *testing.B) {
	c, err := OpenCache(filepath.Join(b.TempDir(), "calls.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var calls atomic.Int64
	w := c.Wrap("openai", countingModel(&calls))
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		if resp, err := w.Complete(context.Background(), promptN(i)); err != nil || resp.Cached {
			b.Fatal(resp, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(c.opens.Load())/float64(b.N), "opens/call")
}

// Opening a cache file that is already set up only reads it: no commit,
// so no exclusive lock for other processes to wait behind.
func TestOpenCacheOnlyReadsAReadyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	fillCache(t, mustOpenCache(t, path), 3)
	before := txID(t, path)
	c := mustOpenCache(t, path)
	if c.Damage() != nil {
		t.Fatal(c.Damage())
	}
	if after := txID(t, path); after != before {
		t.Errorf("opening a ready cache committed (tx %d -> %d)", before, after)
	}
	if c.opens.Load() != 1 {
		t.Errorf("OpenCache opened the file %d times, want 1 read-only open", c.opens.Load())
	}
}

// A cache file that does not exist yet is created behind the run: OpenCache
// returns once the empty file is made and locked, and bbolt writes its
// first pages (two syncs) while the run goes on. Lookups meanwhile miss, as
// they would in a new file, and go to the model; their replies are kept.
// Another process opening the file in the meantime waits for it as it did
// for a creation in the foreground, and finds a cache, never an empty
// file; a directory that cannot take the file still fails OpenCache at once.
func TestOpenCacheCreatesANewFileBehindTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("another process opening the new cache: %v", err)
	}
	if err := other.View(func(tx *bolt.Tx) error {
		if tx.Bucket(callsBucket) == nil {
			return errors.New("no calls bucket")
		}
		return nil
	}); err != nil {
		t.Fatalf("another process found the new cache unfinished: %v", err)
	}
	other.Close()
	calls := 0
	model := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		calls++
		return llm.Response{Text: `{"total":12.5}`, Model: "m"}, nil
	})
	req := testRequest()
	if _, err := c.Wrap("openai", model).Complete(context.Background(), req); err != nil || calls != 1 {
		t.Fatalf("first call: %v, %d model calls", err, calls)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Faults != 0 {
		t.Fatalf("faults creating the cache: %+v", st)
	}
	again, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if resp, err := again.Wrap("openai", model).Complete(context.Background(), req); err != nil || !resp.Cached || calls != 1 {
		t.Fatalf("the next run: %+v, %v, %d model calls; want the reply kept", resp, err, calls)
	}

	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Create(filepath.Join(ro, "probe")); err == nil {
		f.Close()
		return // a user who writes anywhere (root): nothing to refuse
	}
	if _, err := OpenCache(filepath.Join(ro, "calls.db")); err == nil {
		t.Fatal("OpenCache in a directory it cannot write to succeeded")
	}
}
