package mcp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// authTransport adds a bearer token to every request.
type authTransport struct {
	token string
	base  http.RoundTripper
}

func (a authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return a.base.RoundTrip(r)
}

// serveHTTP runs s on a fresh loopback port and returns its URL. The server
// stops when the test ends, and must stop cleanly.
func serveHTTP(t testing.TB, s *Server, token string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeListener(ctx, ln, token) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeListener: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/"
}

func httpSession(t testing.TB, url, token string) (*mcpsdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = authTransport{token: token, base: http.DefaultTransport}
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "http-test", Version: "1.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func TestHTTPNoToken(t *testing.T) {
	st := openStore(t)
	url := serveHTTP(t, newTestServer(t, Config{Build: (&scriptBuilder{}).build, Store: st}), "")
	cs, err := httpSession(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"extract", "review_status", "validate"}) {
		t.Fatalf("tools over HTTP: %v", names)
	}
	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(683.2), "heuristics_only": true})
	if env["status"] != "needs_review" || !slices.Equal(flaggedNames(env), []string{"total"}) {
		t.Fatalf("validate over HTTP: %v", env)
	}
	// The queue is named for the HTTP client.
	if ans := call(t, cs, "review_status", map[string]any{"trace_id": env["trace_id"]}); ans["status"] != "pending" || ans["queue"] != "http-test" {
		t.Errorf("review_status over HTTP: %v", ans)
	}
}

func TestHTTPBearerToken(t *testing.T) {
	const token = "s3cret-token"
	url := serveHTTP(t, newTestServer(t, Config{Build: (&scriptBuilder{}).build}), token)

	for name, tok := range map[string]string{"no token": "", "wrong token": "s3cret-tokeN"} {
		if _, err := httpSession(t, url, tok); err == nil {
			t.Errorf("%s: session established", name)
		}
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: HTTP %d, WWW-Authenticate %q; want 401 Bearer", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}

	cs, err := httpSession(t, url, token)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true})
	if env["status"] != "ok" {
		t.Fatalf("validate with token: %v", env)
	}
}

func TestServeHTTPRefusesOpenAddress(t *testing.T) {
	s := newTestServer(t, Config{Build: (&scriptBuilder{}).build})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.ServeHTTP(ctx, "0.0.0.0:0", "")
	if err == nil || !strings.Contains(err.Error(), "without an auth token") {
		t.Fatalf("non-loopback without token: %v", err)
	}
	// With a cancelled context a loopback address serves and stops cleanly.
	cctx, ccancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(cctx, "127.0.0.1:0", "") }()
	ccancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("loopback serve: %v", err)
	}
	for addr, want := range map[string]bool{
		"127.0.0.1:8765": true, "localhost:1": true, "[::1]:80": true,
		"0.0.0.0:8765": false, ":8765": false, "10.0.0.5:80": false, "[::]:80": false,
	} {
		if got := IsLoopbackAddr(addr); got != want {
			t.Errorf("IsLoopbackAddr(%q) = %v", addr, got)
		}
	}
}
