package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

// A provider that is down costs a few calls, not three per document: after
// the breaker trips the rest of the batch fails at once with one error that
// names the endpoint.
func TestBatchStopsCallingADownProvider(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"message":"overloaded","type":"server_error"}}`))
	}))
	t.Cleanup(srv.Close)
	const docs = 12
	r := runWith(t, map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-x", "REFLECT_MAX_RETRIES": "-1"},
		fakeCorpus(docs), "extract", "--batch", "--no-cache")
	rs := decodeLines(t, r.out)
	if len(rs) != docs {
		t.Fatalf("want %d lines, got %d: %s", docs, len(rs), r.err)
	}
	if n := calls.Load(); n > providers.DefaultBreakerThreshold+4 {
		t.Fatalf("%d calls to a server answering 503, want at most the breaker threshold plus in-flight calls", n)
	}
	endpoint := "openai at " + srv.URL
	down := 0
	for i, res := range rs {
		if res.Status != pipeline.StatusError {
			t.Fatalf("line %d: %s, want error", i+1, res.Status)
		}
		if strings.Contains(res.ErrorMessage, "model provider is down") {
			down++
			if !strings.Contains(res.ErrorMessage, endpoint) {
				t.Errorf("line %d does not name the endpoint %q: %s", i+1, endpoint, res.ErrorMessage)
			}
		}
	}
	if down < docs-providers.DefaultBreakerThreshold-4 {
		t.Fatalf("only %d of %d lines carry the provider-down error", down, docs)
	}
}
