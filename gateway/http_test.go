package gateway

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/mcp"
)

// A streamable-HTTP upstream behind a bearer: auth.token_env is read at
// connect time and sent; without it the required upstream refuses to start.
func TestHTTPUpstreamWithToken(t *testing.T) {
	up := newCounterServer("read_notes")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return up.srv }, nil)
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer up-secret" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	cfg := UpstreamConfig{Name: "remote", URL: "http://" + ln.Addr().String() + "/mcp", TokenEnv: "GW_TEST_UPSTREAM_TOKEN",
		System: "notes", Environment: "dev", Required: true}
	t.Setenv("GW_TEST_UPSTREAM_TOKEN", "")
	g, err := New(Options{Upstreams: []UpstreamConfig{cfg}, Decider: newTestEngine(), Logger: quietLogger(), ConnectTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "GW_TEST_UPSTREAM_TOKEN") {
		t.Fatalf("started without the token: %v", err)
	}
	t.Setenv("GW_TEST_UPSTREAM_TOKEN", "up-secret")
	_, cs := startGateway(t, Options{Upstreams: []UpstreamConfig{cfg}, Decider: newTestEngine(), Mode: ModeEnforce})
	if res := call(t, cs, "remote__read_notes", map[string]any{}); res.IsError || up.count("read_notes") != 1 {
		t.Fatalf("call over the HTTP upstream: %s", text(res))
	}
}

// The HTTP front: with a token every request needs it; a configured
// client's token is accepted too and maps to its stable session id.
func TestHTTPFrontBearerAndClients(t *testing.T) {
	up := newCounterServer("read_notes")
	eng := newTestEngine()
	t.Setenv("GW_TEST_CLIENT_TOKEN", "client-secret")
	g, err := New(Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "dev", Server: up.srv}}, Decider: eng,
		Mode: ModeEnforce, Logger: quietLogger(), Clients: []ClientConfig{{TokenEnv: "GW_TEST_CLIENT_TOKEN", SessionID: "claude-desktop-ana"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = g.ServeHTTP(ctx, ln, "front-secret") }()
	url := "http://" + ln.Addr().String() + "/mcp"
	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no bearer: HTTP %d", resp.StatusCode)
	}
	for tok, session := range map[string]string{"front-secret": "mcp-http:", "client-secret": "claude-desktop-ana"} {
		hc := &http.Client{Transport: bearerTransport{token: tok, next: http.DefaultTransport}}
		c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		call(t, cs, "notes__read_notes", map[string]any{})
		got := envString(eng.last(), "agent", "session_id")
		if !strings.HasPrefix(got, session) {
			t.Errorf("token %s: session_id %q, want %q...", tok, got, session)
		}
		_ = cs.Close()
	}
	// Off loopback needs a token (checked before anything listens there).
	for host, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true, "0.0.0.0": false, "192.168.1.5": false, "": false} {
		if IsLoopback(host) != want {
			t.Errorf("IsLoopback(%q) != %v", host, want)
		}
	}
}

// The HTTP front is hardened by reflect mcp's own handler: a web page's
// Origin is refused, the session cap holds, a malformed body gets a
// JSON-RPC error.
func TestHTTPFrontHardenedAsReflectMCP(t *testing.T) {
	up := newCounterServer("read_notes")
	g, err := New(Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "dev", Server: up.srv}},
		Decider: newTestEngine(), Mode: ModeEnforce, Logger: quietLogger(), HTTP: mcp.HTTPOptions{MaxSessions: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = g.ServeHTTP(ctx, ln, "") }()
	url := "http://" + ln.Addr().String() + "/mcp"
	post := func(origin, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if code, body := post("http://localhost:6274", initialize); code != http.StatusServiceUnavailable {
		t.Errorf("a second session over a cap of 1: HTTP %d %s", code, body)
	}
	if code, body := post("https://evil.example", initialize); code != http.StatusForbidden || !strings.Contains(body, "origin") {
		t.Errorf("foreign Origin: HTTP %d %s", code, body)
	}
	if code, body := post("", `{"jsonrpc":"2.0",`); code != http.StatusBadRequest || !strings.Contains(body, `"jsonrpc":"2.0"`) {
		t.Errorf("malformed body: HTTP %d %s", code, body)
	}
}
