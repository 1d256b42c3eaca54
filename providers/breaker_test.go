package providers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// downRun sends n calls through a breaker in front of the real OpenAI SDK
// aimed at url, and returns their errors.
func downRun(t *testing.T, url string, n, workers int) []error {
	t.Helper()
	live := newTestOpenAI(t, url, nil) // 2 SDK retries: 3 requests a call
	b := NewBreaker("openai at "+url+"/v1", BreakerOptions{})
	c := b.Wrap(live)
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				_, errs[i] = c.Complete(context.Background(), testRequest())
			}
		}()
	}
	wg.Wait()
	return errs
}

// TestBreakerStopsCallingADownEndpoint: a provider answering 503 costs
// Threshold calls (each with the SDK's retries), not one per document:
// n and 8n documents make the same number of requests, and every refused
// document gets one clear error naming the endpoint.
func TestBreakerStopsCallingADownEndpoint(t *testing.T) {
	var hits []int
	for _, n := range []int{40, 320} {
		srv := newFakeServer(t, reply(http.StatusServiceUnavailable, `{"error":{"message":"overloaded","type":"server_error"}}`))
		errs := downRun(t, srv.URL, n, 1)
		hits = append(hits, srv.count())
		for i, err := range errs {
			if err == nil {
				t.Fatalf("call %d succeeded against a down server", i)
			}
			if i >= DefaultBreakerThreshold {
				if !errors.Is(err, ErrProviderDown) || !strings.Contains(err.Error(), srv.URL+"/v1") || !strings.Contains(err.Error(), "503") {
					t.Fatalf("call %d: %v; want ErrProviderDown naming the endpoint and the cause", i, err)
				}
			}
		}
	}
	if want := DefaultBreakerThreshold * 3; hits[0] != want || hits[1] != want {
		t.Errorf("requests to a down server for 40 and 320 calls: %v, want %d each", hits, want)
	}
}

func TestBreakerConcurrentBatch(t *testing.T) {
	srv := newFakeServer(t, reply(http.StatusBadGateway, `{"error":{"message":"bad gateway"}}`))
	const workers = 8
	errs := downRun(t, srv.URL, 400, workers)
	down := 0
	for _, err := range errs {
		if errors.Is(err, ErrProviderDown) {
			down++
		}
	}
	// At most every worker's call in flight when the breaker opened reached
	// the server.
	if max := (DefaultBreakerThreshold + workers) * 3; srv.count() > max || down < 400-DefaultBreakerThreshold-workers {
		t.Errorf("%d requests (want <= %d), %d of 400 calls refused at once", srv.count(), max, down)
	}
}

// TestBreakerRefusedConnection: nothing listening at all.
func TestBreakerRefusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	errs := downRun(t, url, 20, 1)
	if last := errs[len(errs)-1]; !errors.Is(last, ErrProviderDown) || !strings.Contains(last.Error(), url) {
		t.Errorf("refused connection: %v", last)
	}
}

// TestBreakerUnusableRepliesAreNotDown: a server that answers, however
// badly, is up; every call reaches it.
func TestBreakerUnusableRepliesAreNotDown(t *testing.T) {
	srv := newFakeServer(t, reply(http.StatusOK, `{"id":"x","object":"chat.completion","model":"m","choices":[]}`))
	errs := downRun(t, srv.URL, 10, 1)
	for i, err := range errs {
		if err == nil || errors.Is(err, ErrProviderDown) {
			t.Fatalf("call %d: %v; want the reply's own error", i, err)
		}
	}
	if srv.count() != 10 {
		t.Errorf("%d requests, want 10", srv.count())
	}
}

// TestBreakerRecovers: after the cooldown one probe goes through; a good
// answer closes the breaker, a failed one opens it for another cooldown.
func TestBreakerRecovers(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	clock := func() time.Time { return now }
	var up atomic.Bool
	var calls atomic.Int64
	inner := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		if up.Load() {
			return llm.Response{Text: "{}"}, nil
		}
		return llm.Response{}, fmt.Errorf("dial: %w", &net.OpError{Op: "dial", Err: errors.New("connection refused")})
	})
	b := NewBreaker("test endpoint", BreakerOptions{Threshold: 2, Cooldown: time.Minute, Now: clock})
	c := b.Wrap(inner)
	call := func() error { _, err := c.Complete(context.Background(), llm.Request{}); return err }
	for range 5 {
		_ = call()
	}
	if calls.Load() != 2 {
		t.Fatalf("%d calls reached a down endpoint, want 2", calls.Load())
	}
	now = now.Add(61 * time.Second)
	if err := call(); errors.Is(err, ErrProviderDown) || calls.Load() != 3 {
		t.Fatalf("the probe after the cooldown: %v (%d calls)", err, calls.Load())
	}
	if err := call(); !errors.Is(err, ErrProviderDown) || calls.Load() != 3 {
		t.Fatalf("a failed probe must reopen at once: %v (%d calls)", err, calls.Load())
	}
	now = now.Add(61 * time.Second)
	up.Store(true)
	for i := range 3 {
		if err := call(); err != nil {
			t.Fatalf("call %d after recovery: %v", i, err)
		}
	}
	if open, _ := b.State(); open {
		t.Error("still open after a good probe")
	}
}

// TestBreakerIgnoresCallerCancel: a caller that gives up says nothing about
// the endpoint.
func TestBreakerIgnoresCallerCancel(t *testing.T) {
	inner := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		return llm.Response{}, ctx.Err()
	})
	b := NewBreaker("e", BreakerOptions{Threshold: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 5 {
		_, _ = b.Wrap(inner).Complete(ctx, llm.Request{})
	}
	if open, _ := b.State(); open {
		t.Error("cancelled calls opened the breaker")
	}
}

// TestBreakerFailsTheRestOfABatchAtOnce runs documents through the real
// pipeline: after the breaker opens each document's error names the
// endpoint, and the server sees no more requests.
func TestBreakerFailsTheRestOfABatchAtOnce(t *testing.T) {
	srv := newFakeServer(t, reply(http.StatusInternalServerError, `{"error":{"message":"boom"}}`))
	b := NewBreaker("openai at "+srv.URL+"/v1", BreakerOptions{})
	p, err := pipeline.New(pipeline.Config{
		Schema:    pipeline.Invoice(),
		Generator: pipeline.NewLLMGenerator(b.Wrap(newTestOpenAI(t, srv.URL, nil)), pipeline.LLMOptions{Model: "gpt-4o-mini"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		res, err := p.Extract(context.Background(), pipeline.Document{Text: fmt.Sprintf("ACME LTD invoice %d total 12.50", i)})
		msg := res.ErrorMessage
		if err != nil {
			msg = err.Error()
		}
		if msg == "" {
			t.Fatalf("document %d: no error against a down server", i)
		}
		if i >= DefaultBreakerThreshold && !strings.Contains(msg, "is down") {
			t.Errorf("document %d: %q, want the breaker's error", i, msg)
		}
	}
	if srv.count() != DefaultBreakerThreshold*3 {
		t.Errorf("%d requests for 30 documents, want %d", srv.count(), DefaultBreakerThreshold*3)
	}
}

func TestConfigEndpoint(t *testing.T) {
	c := Config{OpenAIBaseURL: "http://user:pw@localhost:11434/v1?key=x", AWSRegion: "eu-west-1"}
	if got := c.Endpoint(ProviderOpenAI); strings.Contains(got, "pw") || strings.Contains(got, "key=x") || !strings.Contains(got, "localhost:11434") {
		t.Errorf("openai endpoint %q", got)
	}
	if got := c.Endpoint(ProviderAnthropic); got != "anthropic at https://api.anthropic.com" {
		t.Errorf("anthropic endpoint %q", got)
	}
	if got := c.Endpoint(ProviderBedrock); !strings.Contains(got, "eu-west-1") {
		t.Errorf("bedrock endpoint %q", got)
	}
}
