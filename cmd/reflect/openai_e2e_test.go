package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// With OPENAI_BASE_URL pointing at an OpenAI-compatible server, extract works
// end to end, Critic included, and an identical second run makes no request.
func TestExtractAgainstOpenAICompatibleServer(t *testing.T) {
	srv := newFakeOpenAI(t, 0)
	cache := filepath.Join(t.TempDir(), "calls.db")
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-test-secret"}
	runIt := func() runOut {
		t.Helper()
		return runWith(t, env, "From: Acme Ltd\nInvoice #A-7\nTotal: 42.50 USD", "extract", "--cache", cache)
	}
	r := runIt()
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	res := decodeResult(t, r.out)
	if res.Data["total"] != 42.5 || res.CriticSummary != "All fields grounded." || res.Usage == nil || res.Usage.Calls != 2 {
		t.Fatalf("want generator + critic results: %+v", res)
	}
	if got := srv.requests.Load(); got != 2 {
		t.Fatalf("first run made %d requests, want 2", got)
	}
	if a, _ := srv.auth.Load().(string); a != "Bearer sk-test-secret" {
		t.Fatalf("auth header %q", a)
	}
	if strings.Contains(r.err, "sk-test-secret") || strings.Contains(r.out, "sk-test-secret") {
		t.Fatal("the API key leaked into output or logs")
	}
	r = runIt()
	if r.code != ExitOK {
		t.Fatalf("second run: exit %d\n%s", r.code, r.err)
	}
	if got := srv.requests.Load(); got != 2 {
		t.Fatalf("second identical run made %d more requests, want 0", got-2)
	}
	if res := decodeResult(t, r.out); res.Usage == nil || res.Usage.CachedCalls != 2 {
		t.Fatalf("second run's usage should show cached calls: %+v", res.Usage)
	}
}

func TestBatchBudgetsFailOnlyTheDocument(t *testing.T) {
	srv := newFakeOpenAI(t, time.Millisecond)
	r := runWith(t, map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-x"},
		fakeCorpus(3), "extract", "--batch", "--no-cache", "--max-tokens-per-doc", "200")
	rs := decodeLines(t, r.out)
	if len(rs) != 3 {
		t.Fatalf("want 3 lines, got %d: %s", len(rs), r.err)
	}
	for _, res := range rs {
		if res.Status != pipeline.StatusError || !strings.Contains(res.ErrorMessage, "max-tokens-per-doc") {
			t.Fatalf("each document should fail its token budget clearly: %+v", res)
		}
	}
}

// Ctrl-C mid-batch stops cleanly, and a rerun pays for no call twice: the
// calls made before the interrupt come from the cache.
func TestInterruptedBatchResumesFromCache(t *testing.T) {
	srv := newFakeOpenAI(t, 20*time.Millisecond)
	cache := filepath.Join(t.TempDir(), "calls.db")
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-x"}
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv("REFLECT_PROVIDER", "")
	corpus := fakeCorpus(40)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for srv.requests.Load() < 20 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	var out, errb bytes.Buffer
	err := Run(ctx, []string{"extract", "--batch", "--batch-concurrency", "4", "--cache", cache, "--log-level", "error"},
		Stdio{In: strings.NewReader(corpus), Out: &out, Err: &errb})
	if ExitCode(err) != ExitInterrupted {
		t.Fatalf("interrupted batch: exit %d (%v)", ExitCode(err), err)
	}
	first := srv.requests.Load()
	for _, res := range decodeLines(t, out.String()) {
		if res.Status == pipeline.StatusError {
			t.Fatalf("an interrupted document must not be printed as an error line: %+v", res)
		}
	}
	r := runWith(t, env, corpus, "extract", "--batch", "--batch-concurrency", "4", "--cache", cache, "--log-level", "error")
	if r.code != ExitOK || len(decodeLines(t, r.out)) != 40 {
		t.Fatalf("rerun: exit %d, %d lines\n%s", r.code, len(decodeLines(t, r.out)), r.err)
	}
	if total := srv.requests.Load(); total > 80 {
		t.Fatalf("calls made before the interrupt were paid again: %d requests in all for 80 calls (first run %d)", total, first)
	}
}

// --record keeps every reply; replaying the fixture gives the same result
// with no server at all.
func TestRecordThenReplay(t *testing.T) {
	srv := newFakeOpenAI(t, 0)
	fixture := filepath.Join(t.TempDir(), "rec.json")
	text := "From: Acme Ltd\nInvoice #A-9\nTotal: 19.50 USD"
	r := runWith(t, map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1"}, text, "extract", "--no-cache", "--record", fixture)
	if r.code != ExitOK {
		t.Fatalf("live run: exit %d %s", r.code, r.err)
	}
	live := decodeResult(t, r.out)
	srv.Close()
	r = run(t, text, "extract", "--provider", "replay", "--replay", fixture)
	if r.code != ExitOK {
		t.Fatalf("replay: exit %d %s", r.code, r.err)
	}
	replayed := decodeResult(t, r.out)
	if mustJSON(live.Data) != mustJSON(replayed.Data) || live.CriticSummary != replayed.CriticSummary {
		t.Fatalf("replay differs from the recorded run:\n%+v\n%+v", live, replayed)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Budgets: a cache hit costs nothing, so it is served after the run's money
// is spent; two documents with the same text each get their own token limit.
func TestBudgetsAndTheCache(t *testing.T) {
	srv := newFakeOpenAI(t, 0)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1"}
	cache := filepath.Join(t.TempDir(), "calls.db")
	a := `{"id":"a","text":"From: Acme Ltd\nInvoice #A-1\nTotal: 10.50 USD"}` + "\n"
	b := `{"id":"b","text":"From: Acme Ltd\nInvoice #B-2\nTotal: 20.50 USD"}` + "\n"
	if r := runWith(t, env, a, "extract", "--batch", "--cache", cache); r.code != ExitOK {
		t.Fatalf("warming the cache: exit %d %s", r.code, r.err)
	}
	// b spends past the limit live; a then comes from the cache.
	r := runWith(t, env, b+a, "extract", "--batch", "--cache", cache, "--max-cost", "0.00001")
	rs := decodeLines(t, r.out)
	if len(rs) != 2 || rs[1].Status != pipeline.StatusOK {
		t.Fatalf("a cached document must be served after the budget is spent: %s", r.out)
	}
	if rs[0].Status != pipeline.StatusError || !strings.Contains(rs[0].ErrorMessage, "max-cost") {
		t.Fatalf("b's critic call should be refused by --max-cost: %+v", rs[0])
	}
	// Same text twice, no cache: each document has its own token budget. The
	// limit is the smallest that lets one document through, so a budget shared
	// by text would refuse the second.
	limit := 0
	for l := 200; l <= 4000 && limit == 0; l += 25 {
		r := runWith(t, env, a, "extract", "--batch", "--no-cache", "--max-tokens-per-doc", fmt.Sprint(l))
		if r.code == ExitOK {
			limit = l
		}
	}
	if limit == 0 {
		t.Fatal("no token limit lets one document through")
	}
	r = runWith(t, env, a+strings.Replace(a, `"id":"a"`, `"id":"a2"`, 1), "extract", "--batch", "--no-cache", "--max-tokens-per-doc", fmt.Sprint(limit))
	for _, res := range decodeLines(t, r.out) {
		if res.Status != pipeline.StatusOK {
			t.Fatalf("identical texts must not share a per-document budget: %+v", res)
		}
	}
}

// --batch-concurrency sizes the run's connection pool: 100 documents at
// once, each a Generator then a Critic call, arriving in two bursts with a
// pause between (input read from a pipe), find the first burst's
// connections waiting in the pool after the pause, instead of dialling again
// whatever the default idle pool (64 per host) had no room to keep (36 or
// more). Counted as dials in the second burst: the first may dial a few
// more than 100, as the transport dials while it waits for a busy
// connection and keeps whichever comes first.
func TestBatchConcurrencySizesTheConnectionPool(t *testing.T) {
	const conc = 100
	srv := newFakeOpenAI(t, 20*time.Millisecond)
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-x")
	t.Setenv("REFLECT_PROVIDER", "")
	in, feed := io.Pipe()
	corpus := strings.SplitAfter(fakeCorpus(2*conc), "\n")
	var firstBurst int64
	var out syncBuf
	go func() {
		_, _ = io.WriteString(feed, strings.Join(corpus[:conc], ""))
		// A document's line is written after its Critic answer was read
		// to the end, and net/http pools a connection before the reader
		// sees that end: once the first burst's lines are out, its
		// connections wait in the pool (a fixed sleep raced the server's
		// delay under load).
		for strings.Count(out.String(), "\n") < conc {
			time.Sleep(5 * time.Millisecond)
		}
		firstBurst = srv.conns.Load()
		_, _ = io.WriteString(feed, strings.Join(corpus[conc:], ""))
		feed.Close()
	}()
	var errb bytes.Buffer
	err := Run(context.Background(), []string{"extract", "--batch", "--no-cache", "--batch-concurrency", fmt.Sprint(conc), "--log-level", "error"},
		Stdio{In: in, Out: &out, Err: &errb})
	if n := len(decodeLines(t, out.String())); n != 2*conc || srv.requests.Load() != 4*conc {
		t.Fatalf("%d lines, %d requests (exit %d)\n%s", n, srv.requests.Load(), ExitCode(err), errb.String())
	}
	if again := srv.conns.Load() - firstBurst; again > conc/10 {
		t.Fatalf("the second burst of %d documents dialled %d new connections (the first opened %d); want the pooled ones reused",
			conc, again, firstBurst)
	}
}
