package providers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// Every openAIOK reply is 1000 prompt + 200 completion tokens of gpt-4o-mini.
const (
	okTokens = 1200
	okCost   = (1000*0.15 + 200*0.60) / 1e6
)

func TestBudgetTokensPerDocCountRetries(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	c := NewBudget(3*okTokens-100, 0).Wrap(newTestOpenAI(t, srv.URL, nil))
	doc := llm.WithDocument(context.Background())
	// Attempts of one document (a retry repeats the request) share its limit:
	// two fit, the third would start at 2400 of 3500 and is let through on the
	// estimate of its prompt, the fourth starts over the limit.
	for i := range 3 {
		if _, err := c.Complete(doc, testRequest()); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	_, err := c.Complete(doc, testRequest())
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "--max-tokens-per-doc") || !strings.Contains(err.Error(), "3600 tokens") {
		t.Fatalf("4th attempt: err = %v, want ErrBudget naming the 3600 tokens used and the flag", err)
	}
	if srv.count() != 3 {
		t.Errorf("server saw %d requests, want 3: a refused call must not be sent", srv.count())
	}
	// Another document, even one with the same text, has its own count.
	if _, err := c.Complete(llm.WithDocument(context.Background()), testRequest()); err != nil {
		t.Errorf("a new document with the same text was refused: %v", err)
	}
}

func TestBudgetTokensPerDocWithoutScopeKeysByText(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	c := NewBudget(okTokens, 0).Wrap(newTestOpenAI(t, srv.URL, nil))
	ctx := context.Background()
	if _, err := c.Complete(ctx, testRequest()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(ctx, testRequest()); !errors.Is(err, ErrBudget) {
		t.Errorf("second call on the same text: err = %v, want ErrBudget", err)
	}
	other := testRequest()
	other.Source, other.Messages[1].Content = "TOTAL 99.00", "TOTAL 99.00"
	if _, err := c.Complete(ctx, other); err != nil {
		t.Errorf("another text was refused: %v", err)
	}
}

func TestBudgetRefusesPromptLargerThanLimit(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	c := NewBudget(100, 0).Wrap(newTestOpenAI(t, srv.URL, nil))
	req := testRequest()
	req.Messages[1].Content = strings.Repeat("word ", 200) // about 250 tokens
	if _, err := c.Complete(llm.WithDocument(context.Background()), req); !errors.Is(err, ErrBudget) {
		t.Errorf("err = %v, want ErrBudget before any call", err)
	}
	if srv.count() != 0 {
		t.Errorf("server saw %d requests", srv.count())
	}
}

func TestBudgetChargesFailedCallsThatWereBilled(t *testing.T) {
	// A reply cut off at the token limit is an error, but the vendor bills it.
	cut := `{"id":"x","model":"gpt-4o-mini","choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","content":"{\"total\":"}}],"usage":{"prompt_tokens":1000,"completion_tokens":512}}`
	srv := newFakeServer(t, reply(200, cut))
	b := NewBudget(1515, 1)
	c := b.Wrap(newTestOpenAI(t, srv.URL, nil))
	doc := llm.WithDocument(context.Background())
	resp, err := c.Complete(doc, testRequest())
	if err == nil || !strings.Contains(err.Error(), "token limit") {
		t.Fatalf("err = %v, want the cut-off reply reported", err)
	}
	if resp.Usage.InputTokens != 1000 || resp.Usage.OutputTokens != 512 {
		t.Errorf("failed call's usage = %+v, want the billed tokens", resp.Usage)
	}
	if want := (1000*0.15 + 512*0.60) / 1e6; math.Abs(b.Spent()-want) > 1e-12 {
		t.Errorf("Spent = %v, want %v", b.Spent(), want)
	}
	if _, err := c.Complete(doc, testRequest()); !errors.Is(err, ErrBudget) {
		t.Errorf("retry after 1512 billed tokens of 1515: err = %v, want ErrBudget", err)
	}
	if srv.count() != 1 {
		t.Errorf("server saw %d requests, want 1", srv.count())
	}
}

func TestBudgetRunCost(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	b := NewBudget(0, 1.5*okCost)
	c := b.Wrap(newTestOpenAI(t, srv.URL, nil))
	for i := range 2 { // the second starts under the limit and ends over it
		if _, err := c.Complete(llm.WithDocument(context.Background()), testRequest()); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	_, err := c.Complete(llm.WithDocument(context.Background()), testRequest())
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "--max-cost") {
		t.Fatalf("err = %v, want ErrBudget naming --max-cost", err)
	}
	if math.Abs(b.Spent()-2*okCost) > 1e-12 || srv.count() != 2 {
		t.Errorf("Spent = %v after %d requests, want %v after 2", b.Spent(), srv.count(), 2*okCost)
	}
}

func TestBudgetCachedCallsCostNothing(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	cache, err := OpenCache(filepath.Join(t.TempDir(), "calls.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cache.Close() })
	live := newTestOpenAI(t, srv.URL, nil)

	t.Run("budget inside the cache", func(t *testing.T) {
		b := NewBudget(okTokens+100, okCost/2)
		c := cache.Wrap("openai", b.Wrap(live))
		if _, err := c.Complete(llm.WithDocument(context.Background()), testRequest()); err != nil {
			t.Fatal(err)
		}
		// Both limits are now spent, yet a call already paid for is answered.
		for i := range 3 {
			resp, err := c.Complete(llm.WithDocument(context.Background()), testRequest())
			if err != nil || !resp.Cached {
				t.Fatalf("repeat %d: cached=%v err=%v, want a free cache hit", i, resp.Cached, err)
			}
		}
		if b.Spent() != okCost || srv.count() != 1 {
			t.Errorf("Spent = %v with %d requests, want one call's cost", b.Spent(), srv.count())
		}
		req := testRequest()
		req.Messages[1].Content = "TOTAL 13.50"
		if _, err := c.Complete(context.Background(), req); !errors.Is(err, ErrBudget) {
			t.Errorf("a new call past --max-cost: err = %v", err)
		}
	})
	t.Run("budget outside the cache", func(t *testing.T) {
		b := NewBudget(okTokens+100, 1)
		c := b.Wrap(cache.Wrap("openai", live))
		doc := llm.WithDocument(context.Background())
		for i := range 3 { // each hit would be 1200 tokens if it were charged
			resp, err := c.Complete(doc, testRequest())
			if err != nil || !resp.Cached {
				t.Fatalf("call %d: cached=%v err=%v", i, resp.Cached, err)
			}
		}
		if b.Spent() != 0 {
			t.Errorf("Spent = %v on cache hits, want 0", b.Spent())
		}
	})
}

func TestBudgetConcurrentDocuments(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	const limitCalls, docs = 10, 64
	b := NewBudget(2*okTokens+100, (limitCalls-0.5)*okCost)
	c := b.Wrap(newTestOpenAI(t, srv.URL, nil))
	var (
		wg               sync.WaitGroup
		mu               sync.Mutex
		answered, budget int
	)
	for d := range docs {
		wg.Go(func() {
			ctx := llm.WithDocument(context.Background())
			req := testRequest()
			req.Source = fmt.Sprint("doc ", d)
			for range 3 { // generator, a retry, critic: the third is over the token limit
				_, err := c.Complete(ctx, req)
				mu.Lock()
				switch {
				case err == nil:
					answered++
				case errors.Is(err, ErrBudget):
					budget++
				default:
					t.Errorf("doc %d: %v", d, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// The cost limit is reached on the 10th call; calls in flight then finish,
	// at most one per other document.
	if answered < limitCalls || answered > limitCalls+docs-1 {
		t.Errorf("%d calls answered, want between %d and %d", answered, limitCalls, limitCalls+docs-1)
	}
	if answered+budget != 3*docs || srv.count() != answered {
		t.Errorf("answered %d + refused %d != %d calls, or server saw %d", answered, budget, 3*docs, srv.count())
	}
	if want := float64(answered) * okCost; math.Abs(b.Spent()-want) > 1e-9 {
		t.Errorf("Spent = %v, want %v (every answered call charged once)", b.Spent(), want)
	}
}

func TestNewBudgetOff(t *testing.T) {
	for _, tc := range []struct {
		tokens int
		cost   float64
	}{{0, 0}, {-1, -1}, {0, math.NaN()}} {
		if b := NewBudget(tc.tokens, tc.cost); b != nil {
			t.Errorf("NewBudget(%d, %v) = %+v, want nil (no limit)", tc.tokens, tc.cost, b)
		}
	}
	var b *Budget
	inner := NewScripted("x")
	if b.Wrap(inner) != llm.Client(inner) || b.Spent() != 0 {
		t.Error("a nil budget must pass calls straight through")
	}
	// A NaN cost limit beside a token limit is no cost limit, not a refusal
	// of every call.
	srv := newFakeServer(t, reply(200, openAIOK))
	c := NewBudget(10*okTokens, math.NaN()).Wrap(newTestOpenAI(t, srv.URL, nil))
	for range 2 {
		if _, err := c.Complete(context.Background(), testRequest()); err != nil {
			t.Fatal(err)
		}
	}
}
