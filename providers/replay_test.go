package providers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// stage answers like a model would for one stage: a reply naming the stage,
// the document and the attempt.
func stage(purpose string, attempt func(src string) int) llm.Client {
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		if req.Purpose != purpose {
			return llm.Response{}, fmt.Errorf("%s client got a %s call", purpose, req.Purpose)
		}
		return llm.Response{Text: fmt.Sprintf("%s of %s #%d", purpose, req.Source, attempt(req.Source))}, nil
	})
}

func counter() func(string) int {
	var mu sync.Mutex
	n := map[string]int{}
	return func(src string) int {
		mu.Lock()
		defer mu.Unlock()
		n[src]++
		return n[src]
	}
}

// record runs docs through a Generator and a Critic tapped by one Recorder,
// concurrently, with a retry of the Generator on every third document.
func record(t *testing.T, rec *Recorder, docs []string) {
	t.Helper()
	gen := rec.Tap(stage("generator", counter()))
	crit := rec.Tap(stage("critic", counter()))
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Go(func() {
			calls := []string{"generator", "critic"}
			if i%3 == 0 {
				calls = []string{"generator", "generator", "critic"}
			}
			for _, purpose := range calls {
				c := gen
				if purpose == "critic" {
					c = crit
				}
				if _, err := c.Complete(context.Background(), llm.Request{Purpose: purpose, Source: d}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func TestRecorderReplayRoundTrip(t *testing.T) {
	docs := make([]string, 30)
	for i := range docs {
		docs[i] = fmt.Sprintf("invoice %d — Σ total €%d,00", i, i*10)
	}
	dir := t.TempDir()
	rec := NewRecorder()
	record(t, rec, docs)
	first, second := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := rec.Save(first); err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(second); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(first)
	b, _ := os.ReadFile(second)
	if !bytes.Equal(a, b) {
		t.Error("saving twice gave two different files")
	}

	fix, err := LoadFixture(first)
	if err != nil {
		t.Fatal(err)
	}
	if len(fix.Entries) != 2*len(docs) {
		t.Fatalf("%d entries, want one per stage and document (%d)", len(fix.Entries), 2*len(docs))
	}
	replay := NewReplay(fix)
	for i, d := range docs {
		want := 1
		if i%3 == 0 {
			want = 2 // the retry's reply replaced the first
		}
		got, err := replay.Complete(context.Background(), llm.Request{Purpose: "generator", Source: d})
		if err != nil || got.Text != fmt.Sprintf("generator of %s #%d", d, want) {
			t.Errorf("doc %d generator: %q, %v", i, got.Text, err)
		}
		got, err = replay.Complete(context.Background(), llm.Request{Purpose: "critic", Source: d})
		if err != nil || got.Text != fmt.Sprintf("critic of %s #1", d) {
			t.Errorf("doc %d critic: %q, %v", i, got.Text, err)
		}
	}
	_, err = replay.Complete(context.Background(), llm.Request{Purpose: "critic", Source: "never recorded"})
	if !errors.Is(err, ErrNoRecording) {
		t.Errorf("unrecorded document: err = %v, want ErrNoRecording", err)
	}

	// Recording goes on after a Save, and the next Save has it.
	if _, err := rec.Tap(stage("critic", counter())).Complete(context.Background(), llm.Request{Purpose: "critic", Source: "late"}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(second); err != nil {
		t.Fatal(err)
	}
	if fix, _ := LoadFixture(second); fix == nil || len(fix.Entries) != 2*len(docs)+1 {
		t.Error("the second Save lost the late entry")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestRecorderFileDoesNotDependOnCallOrder(t *testing.T) {
	docs := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	var files [][]byte
	for run := range 4 {
		rec := NewRecorder()
		order := append([]string(nil), docs...)
		for i := range order { // a different completion order each run
			j := (i*3 + run) % len(order)
			order[i], order[j] = order[j], order[i]
		}
		for _, d := range order {
			for _, p := range []string{"critic", "generator"} {
				if _, err := rec.Tap(stage(p, counter())).Complete(context.Background(), llm.Request{Purpose: p, Source: d}); err != nil {
					t.Fatal(err)
				}
			}
		}
		path := filepath.Join(t.TempDir(), "fix.json")
		if err := rec.Save(path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		files = append(files, b)
	}
	for i := 1; i < len(files); i++ {
		if !bytes.Equal(files[0], files[i]) {
			t.Fatalf("run %d wrote a different file from run 0 for the same calls:\n%s\n---\n%s", i, files[0], files[i])
		}
	}
	// Generator entries come before critic entries.
	if g, c := bytes.LastIndex(files[0], []byte(`"generator"`)), bytes.Index(files[0], []byte(`"critic"`)); g < 0 || c < 0 || g > c {
		t.Errorf("entries not grouped generator then critic:\n%s", files[0])
	}
}

func TestRecorderIgnoresFailedCalls(t *testing.T) {
	rec := NewRecorder()
	c := rec.Tap(llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		return llm.Response{Text: "partial"}, errors.New("cut off")
	}))
	if _, err := c.Complete(context.Background(), llm.Request{Purpose: "generator", Source: "x"}); err == nil {
		t.Fatal("error swallowed")
	}
	path := filepath.Join(t.TempDir(), "fix.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if fix, err := LoadFixture(path); err != nil || len(fix.Entries) != 0 {
		t.Errorf("fixture = %+v, %v; want no entries", fix, err)
	}
}

func TestRecordedFixtureHoldsNoKey(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	rec := NewRecorder()
	c := rec.Tap(newTestOpenAI(t, srv.URL, nil))
	if _, err := c.Complete(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fix.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte(`{\"total\":12.5}`)) {
		t.Errorf("reply not recorded: %s", b)
	}
	if bytes.Contains(b, []byte(testKey)) || bytes.Contains(b, []byte("Bearer")) {
		t.Errorf("fixture holds the key: %s", b)
	}
}

func TestFixtureLoadSaveErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadFixture(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want os.ErrNotExist in the chain", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"version":1,"entries":[{"purpose":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFixture(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("truncated file: err = %v, want it to name the file", err)
	}
	if err := NewRecorder().Save(filepath.Join(dir, "no", "such", "dir", "fix.json")); err == nil {
		t.Error("save into a missing directory reported no error")
	}
}

func TestReplayHonoursContext(t *testing.T) {
	r := NewReplay(&Fixture{Entries: []FixtureEntry{{Purpose: "generator", SourceSHA256: SourceKey("x"), Output: "{}"}}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Complete(ctx, llm.Request{Purpose: "generator", Source: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if resp, err := r.Complete(context.Background(), llm.Request{Purpose: "generator", Source: "x"}); err != nil || resp.Text != "{}" {
		t.Errorf("resp = %+v, err = %v", resp, err)
	}
}
