package providers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

func TestCacheHitMakesNoHTTPCall(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	cache, err := OpenCache(filepath.Join(t.TempDir(), "sub", "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	c := cache.Wrap("openai", newTestOpenAI(t, srv.URL, nil))
	ctx := context.Background()

	first, err := c.Complete(ctx, testRequest())
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || first.Usage.CostUSD == 0 {
		t.Errorf("first call = %+v, want a live, priced reply", first)
	}
	second, err := c.Complete(ctx, testRequest())
	if err != nil {
		t.Fatal(err)
	}
	if srv.count() != 1 {
		t.Fatalf("server saw %d requests, want 1: the repeat was not served from cache", srv.count())
	}
	if !second.Cached || second.Text != first.Text || second.Model != first.Model {
		t.Errorf("hit = %+v, want cached copy of %+v", second, first)
	}
	if second.Usage.CostUSD != 0 || second.Usage.InputTokens != 0 || second.Usage.OutputTokens != 0 {
		t.Errorf("hit usage = %+v, want zero", second.Usage)
	}

	// Every part of the key matters.
	variants := map[string]func(*llm.Request){
		"prompt version": func(r *llm.Request) { r.PromptVersion = "generator.v2" },
		"model":          func(r *llm.Request) { r.Model = "gpt-4.1-mini" },
		"purpose":        func(r *llm.Request) { r.Purpose = "critic" },
		"messages":       func(r *llm.Request) { r.Messages = append(r.Messages, llm.Message{Role: "user", Content: "again"}) },
		"schema":         func(r *llm.Request) { r.JSONSchema = []byte(`{"type":"object"}`) },
		"max tokens":     func(r *llm.Request) { r.MaxTokens = 1024 },
	}
	want := 1
	for name, change := range variants {
		req := testRequest()
		change(&req)
		resp, err := c.Complete(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want++
		if resp.Cached || srv.count() != want {
			t.Errorf("different %s: cached=%v, server saw %d requests, want %d", name, resp.Cached, srv.count(), want)
		}
	}
	// Same call under another provider name is another entry.
	other := cache.Wrap("local", newTestOpenAI(t, srv.URL, nil))
	if resp, _ := other.Complete(ctx, testRequest()); resp.Cached {
		t.Error("provider is not part of the key")
	}
	st := cache.Stats()
	if st.Hits != 1 || st.Faults != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestCacheKeyIgnoresSchemaWhitespace(t *testing.T) {
	a, b := testRequest(), testRequest()
	b.JSONSchema = []byte("{\n  \"type\": \"object\",\"properties\":{\"total\":{\"type\":[\"number\",\"null\"]}},\"required\":[\"total\"],\"additionalProperties\":false}")
	if string(CacheKey("openai", a)) != string(CacheKey("openai", b)) {
		t.Error("reformatting the schema changed the key")
	}
	b.Source = "something else" // already inside Messages
	if string(CacheKey("openai", a)) != string(CacheKey("openai", b)) {
		t.Error("Source changed the key")
	}
}

func TestCacheNeverStoresErrors(t *testing.T) {
	srv := newFakeServer(t, reply(400, `{"error":{"message":"bad request"}}`), reply(200, openAIOK))
	cache, err := OpenCache(filepath.Join(t.TempDir(), "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cache.Close() })
	c := cache.Wrap("openai", newTestOpenAI(t, srv.URL, nil))
	if _, err := c.Complete(context.Background(), testRequest()); err == nil {
		t.Fatal("400 not reported")
	}
	resp, err := c.Complete(context.Background(), testRequest())
	if err != nil || resp.Cached {
		t.Fatalf("after a failure: resp=%+v err=%v, want a live reply", resp, err)
	}
	if srv.count() != 2 {
		t.Errorf("server saw %d requests, want 2", srv.count())
	}
}

func TestCacheClosedPassesThrough(t *testing.T) {
	var calls atomic.Int64
	inner := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "x"}, nil
	})
	cache, err := OpenCache(filepath.Join(t.TempDir(), "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := cache.Wrap("p", inner)
	_, _ = c.Complete(context.Background(), testRequest())
	cache.Close()
	resp, _ := c.Complete(context.Background(), testRequest())
	if resp.Cached || calls.Load() != 2 {
		t.Errorf("after Close: cached=%v calls=%d", resp.Cached, calls.Load())
	}
}

func TestOpenCacheRejectsNonBolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	if err := os.WriteFile(path, []byte("this is not a bbolt file, just some text that is long enough"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCache(path); err == nil {
		t.Error("a text file was accepted as a cache")
	}
}

// exercise makes n distinct calls through c, tagged with who, waits for
// their replies to be committed (stored write-behind), and returns how many
// reached the inner client.
func exercise(t testing.TB, c *Cache, who string, n int) int64 {
	var calls atomic.Int64
	inner := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "reply to " + req.Messages[0].Content, Model: req.Model}, nil
	})
	w := c.Wrap("openai", inner)
	for i := range n {
		req := llm.Request{Model: "m", Purpose: "generator", Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("%s-%d", who, i)}}}
		resp, err := w.Complete(context.Background(), req)
		if err != nil {
			t.Errorf("%s call %d: %v", who, i, err)
			continue
		}
		if resp.Text != "reply to "+req.Messages[0].Content {
			t.Errorf("%s call %d: text %q", who, i, resp.Text)
		}
	}
	c.Flush()
	return calls.Load()
}

func TestCacheTwoInstancesConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	a, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	const workers, n = 4, 15
	var wg sync.WaitGroup
	for w := range workers {
		for _, c := range []*Cache{a, b} {
			wg.Go(func() {
				name := fmt.Sprintf("%p-%d", c, w)
				if got := exercise(t, c, name, n); got != n {
					t.Errorf("%s: %d inner calls on first pass, want %d", name, got, n)
				}
			})
		}
	}
	wg.Wait()
	if a.Stats().Faults+b.Stats().Faults != 0 {
		t.Fatalf("faults under concurrency: a=%+v b=%+v", a.Stats(), b.Stats())
	}
	// Everything either instance stored is visible through the other.
	for w := range workers {
		if got := exercise(t, b, fmt.Sprintf("%p-%d", a, w), n); got != 0 {
			t.Errorf("b missed %d entries written by a", got)
		}
		if got := exercise(t, a, fmt.Sprintf("%p-%d", b, w), n); got != 0 {
			t.Errorf("a missed %d entries written by b", got)
		}
	}
}

// TestCacheHelperProcess is the child side of TestCacheTwoProcesses.
func TestCacheHelperProcess(t *testing.T) {
	path := os.Getenv("REFLECT_CACHE_HELPER_PATH")
	if path == "" {
		t.Skip("helper process for TestCacheTwoProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("REFLECT_CACHE_HELPER_N"))
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	who := os.Getenv("REFLECT_CACHE_HELPER_WHO")
	if got := exercise(t, c, who, n); got != int64(n) {
		t.Fatalf("%d inner calls, want %d", got, n)
	}
	if f := c.Stats().Faults; f != 0 {
		t.Fatalf("%d cache faults", f)
	}
}

func TestCacheTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "calls.db")
	const n = 25
	var wg sync.WaitGroup
	for _, who := range []string{"proc-a", "proc-b"} {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), "REFLECT_CACHE_HELPER_PATH="+path, "REFLECT_CACHE_HELPER_N="+strconv.Itoa(n), "REFLECT_CACHE_HELPER_WHO="+who)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", who, err, out)
			}
		})
	}
	// This process uses the file at the same time.
	parent, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := exercise(t, parent, "parent", n); got != n {
		t.Errorf("parent: %d inner calls, want %d", got, n)
	}
	wg.Wait()
	for _, who := range []string{"proc-a", "proc-b", "parent"} {
		if got := exercise(t, parent, who, n); got != 0 {
			t.Errorf("%d of %s's entries missing", got, who)
		}
	}
}

func TestCacheLockTimeoutDegradesToMiss(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	c.timeout = 50 * time.Millisecond
	// Another holder keeps the file locked for a whole run: exactly what the
	// cache avoids doing itself.
	holder, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	calls := 0
	w := c.Wrap("p", llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls++
		return llm.Response{Text: "live"}, nil
	}))
	resp, err := w.Complete(context.Background(), testRequest())
	if err != nil || resp.Text != "live" || calls != 1 {
		t.Fatalf("resp=%+v err=%v calls=%d: a locked cache must not fail the call", resp, err, calls)
	}
	c.Flush() // the store's fault is the writer's, once its commit gives up
	if f := c.Stats().Faults; f != 2 {
		t.Errorf("faults = %d, want 2 (lookup and store)", f)
	}
	if !errors.Is(c.update(func(*bolt.Tx) error { return nil }), berrors.ErrTimeout) {
		t.Error("expected the lock to be held")
	}
}

// fillCache stores n distinct replies through c.
func fillCache(t *testing.T, c *Cache, n int) {
	t.Helper()
	if got := exercise(t, c, "fill", n); got != int64(n) {
		t.Fatalf("%d inner calls filling the cache, want %d", got, n)
	}
}

// damage overwrites every page of the bbolt file after the two meta pages.
func damage(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096
	for i := 2 * pageSize; i < len(b); i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCacheDamagedFileIsNotACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	c.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	fillCache(t, c, 200)
	damage(t, path)

	// A cache opened before the damage: the lookup fails, the model answers,
	// and the cache is off for the rest of the run.
	if got := exercise(t, c, "fill", 3); got != 3 {
		t.Errorf("%d of 3 calls reached the model, want all", got)
	}
	if st := c.Stats(); st.Faults != 1 || st.Hits != 0 {
		t.Errorf("stats = %+v, want one fault and no hit", st)
	}
	if !strings.Contains(logged.String(), "corrupt") || strings.Count(logged.String(), "set aside") != 1 {
		t.Errorf("damage not logged once with where the file went: %s", logged.String())
	}
	// The damaged file was moved aside, so the next start gets a fresh cache.
	if aside, _ := filepath.Glob(path + ".damaged-*"); len(aside) != 1 {
		t.Errorf("set-aside files: %v", aside)
	}
	if c2, err := OpenCache(path); err != nil || c2.Damage() != nil {
		t.Errorf("OpenCache after the damage was set aside: %v, damage %v", err, c2.Damage())
	}
	assertUnlocked(t, path)

	// Damage found at open: reported through Damage, set aside, and the
	// lock let go.
	fillCache(t, mustOpenCache(t, path), 200)
	damage(t, path)
	c3, err := OpenCache(path)
	if err != nil || !errors.Is(c3.Damage(), ErrCacheCorrupt) {
		t.Fatalf("OpenCache on a damaged file: %v, damage %v; want a fresh cache and ErrCacheCorrupt", err, c3.Damage())
	}
	assertUnlocked(t, path)
	if got := exercise(t, c3, "fill", 3); got != 3 {
		t.Errorf("%d of 3 calls reached the model through the fresh cache", got)
	}
	if aside, _ := filepath.Glob(path + ".damaged-*"); len(aside) != 2 {
		t.Errorf("set-aside files: %v", aside)
	}
}

// mustOpenCache opens the cache at path, closed (its queued writes
// committed) when the test ends.
func mustOpenCache(t *testing.T, path string) *Cache {
	t.Helper()
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// assertUnlocked fails if another opener would wait for path's file lock.
func assertUnlocked(t *testing.T, path string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 100 * time.Millisecond, ReadOnly: true})
	if errors.Is(err, berrors.ErrTimeout) {
		t.Fatal("the damaged file is still locked after a panic inside bbolt")
	}
	if db != nil {
		db.Close()
	}
}

// txID is the id of the file's last committed transaction.
func txID(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	return tx.ID()
}

func TestCacheKeepsTheFreelist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.db")
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	fillCache(t, c, 5)
	// bbolt commits once on a plain read-write open only to write out a
	// freelist the file lacks; a file without one makes every write open walk
	// the whole file, so each cache write would cost in proportion to the
	// cache's size.
	before := txID(t, path)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if after := txID(t, path); after != before {
		t.Errorf("opening the cache committed (tx %d -> %d): the cache wrote it without a freelist", before, after)
	}
}

func TestCacheManyGoroutinesOneInstance(t *testing.T) {
	c, err := OpenCache(filepath.Join(t.TempDir(), "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var calls atomic.Int64
	w := c.Wrap("p", llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "reply to " + req.Messages[0].Content}, nil
	}))
	const goroutines, perG, keys = 32, 20, 10
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range perG {
				content := fmt.Sprint("doc ", (g+i)%keys)
				resp, err := w.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: content}}})
				if err != nil || resp.Text != "reply to "+content {
					t.Errorf("goroutine %d call %d: %q, %v", g, i, resp.Text, err)
				}
			}
		})
	}
	wg.Wait()
	st := c.Stats()
	if st.Faults != 0 || st.Hits+st.Misses != goroutines*perG || st.Misses != calls.Load() {
		t.Errorf("stats = %+v with %d inner calls, want no faults and every call a hit or a miss", st, calls.Load())
	}
	if calls.Load() < keys {
		t.Errorf("%d inner calls for %d distinct keys", calls.Load(), keys)
	}
	// Every key is stored: a second pass is all hits.
	for k := range keys {
		resp, err := w.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: fmt.Sprint("doc ", k)}}})
		if err != nil || !resp.Cached {
			t.Errorf("key %d not stored: cached=%v err=%v", k, resp.Cached, err)
		}
	}
}
