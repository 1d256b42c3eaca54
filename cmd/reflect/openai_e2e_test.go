package main

import (
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
