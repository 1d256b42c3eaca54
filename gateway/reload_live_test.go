package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/reflect-mcp/reflect/policy"
)

// reloadable is a registry the test edits between reloads.
type reloadable struct {
	mu  sync.Mutex
	rc  ReloadConfig
	err error
}

func (r *reloadable) set(rc ReloadConfig, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rc, r.err = rc, err
}

func (r *reloadable) load() (ReloadConfig, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rc, r.err
}

// serveFront serves g's HTTP front on loopback and returns its root URL.
func serveFront(t *testing.T, g *Gateway) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = g.ServeHTTP(ctx, ln, "") }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

func postReload(t *testing.T, root, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, root+"/admin/reload", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// A live session over the real HTTP front, proxying the npm servers: each
// reload that changes the catalogue reaches it as exactly one
// tools/list_changed, and it sees new tools come and removed ones go
// without reconnecting. A reload that changes nothing pushes nothing.
func TestReloadSeenByLiveSession(t *testing.T) {
	// Two server-memory children: their catalogue is fixed, so every
	// list_changed the session gets is the reload's (server-everything
	// lists more tools on its own after initialize).
	memory := npmUpstreams(t)[2]
	notes := memory
	notes.Name, notes.System = "notes", "notes"
	notes.Env = map[string]string{"MEMORY_FILE_PATH": t.TempDir() + "/notes.jsonl"}
	reg := &reloadable{}
	g, err := New(Options{Upstreams: []UpstreamConfig{memory}, Decider: newTestEngine(), Mode: ModeEnforce,
		Logger: quietLogger(), UpstreamStderr: io.Discard, Reload: reg.load})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := g.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	root := serveFront(t, g)
	var pushed atomic.Int32
	arrived := make(chan struct{}, 16)
	cs := connectHTTP(t, root+"/mcp", &mcpsdk.ClientOptions{ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) {
		pushed.Add(1)
		arrived <- struct{}{}
	}})
	t.Cleanup(func() { _ = cs.Close() })
	if tools := listTools(t, cs); tools["memory__read_graph"] == nil || tools["notes__read_graph"] != nil {
		t.Fatalf("before: %v", sortedKeys(tools))
	}
	want := 0
	reload := func(rc ReloadConfig, field, name string) {
		t.Helper()
		reg.set(rc, nil)
		code, body := postReload(t, root, "")
		if code != 200 || !strings.Contains(jsonOf(t, body[field]), name) {
			t.Fatalf("reload: %d %v", code, body)
		}
		if name == "" {
			return
		}
		want++
		select {
		case <-arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("no tools/list_changed after the reload that %s %s", field, name)
		}
	}
	reload(ReloadConfig{Upstreams: []UpstreamConfig{memory, notes}}, "added", "notes")
	if tools := listTools(t, cs); tools["notes__read_graph"] == nil || tools["memory__read_graph"] == nil {
		t.Fatalf("after the add: %v", sortedKeys(tools))
	}
	if res := call(t, cs, "notes__create_entities", map[string]any{"entities": []any{map[string]any{"name": "hot", "entityType": "t", "observations": []any{}}}}); res.IsError || !strings.Contains(text(res), "hot") {
		t.Fatalf("hot-added tool: %s", jsonOf(t, res))
	}
	// A changed env is a changed upstream: a fresh child with the new file.
	moved := memory
	moved.Env = map[string]string{"MEMORY_FILE_PATH": t.TempDir() + "/moved.jsonl"}
	reload(ReloadConfig{Upstreams: []UpstreamConfig{moved, notes}}, "replaced", "memory")
	if res := call(t, cs, "memory__read_graph", map[string]any{}); res.IsError {
		t.Fatalf("replaced upstream: %s", text(res))
	}
	reload(ReloadConfig{Upstreams: []UpstreamConfig{moved}}, "removed", "notes")
	if tools := listTools(t, cs); tools["notes__read_graph"] != nil || tools["memory__read_graph"] == nil {
		t.Fatalf("after the removal: %v", sortedKeys(tools))
	}
	if res := call(t, cs, "notes__read_graph", map[string]any{}); !res.IsError || !strings.Contains(text(res), "unknown tool") {
		t.Fatalf("a removed tool still answers: %s", jsonOf(t, res))
	}
	// Nothing changed: no push. The next reload's notification, which comes
	// after any earlier one on the same stream, closes the count.
	reg.set(ReloadConfig{Upstreams: []UpstreamConfig{moved}}, nil)
	if code, body := postReload(t, root, ""); code != 200 || body["note"] == nil {
		t.Fatalf("no-op reload: %d %v", code, body)
	}
	reload(ReloadConfig{Upstreams: []UpstreamConfig{moved, notes}}, "added", "notes")
	if got := int(pushed.Load()); got != want {
		t.Fatalf("%d tools/list_changed for %d reloads that changed the catalogue", got, want)
	}
}

const denyBroadDeletes = `rules:
  - id: ops/no_broad_deletes
    priority: 900
    verdict: deny
    reason: ops pack says no broad deletes
    when:
      all:
        - {field: action.verb, eq: delete}
        - {field: target.environment, eq: production}
`

// The operator pack is reloaded with the rest; one that fails to load is
// refused with the loader's error and the pack before keeps deciding.
func TestReloadPack(t *testing.T) {
	up := newCounterServer("delete_notes")
	packA, err := policy.LoadPack("ops.yaml", []byte(denyBroadDeletes))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.New(policy.Options{Pack: packA, Logger: quietLogger(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	reg := &reloadable{}
	load := func(src string) func() (ReloadConfig, error) {
		return func() (ReloadConfig, error) {
			p, err := policy.LoadPack("ops.yaml", []byte(src))
			if err != nil {
				return ReloadConfig{}, fmt.Errorf("%w: %w", ErrInvalidPolicy, err)
			}
			return ReloadConfig{Pack: p}, nil
		}
	}
	g, cs := startGateway(t, Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "production", Server: up.srv}},
		Decider: InProcess(eng), Mode: ModeEnforce, Reload: func() (ReloadConfig, error) { return reg.load() }})
	u, _ := lastGatewayURL.Load(t.Name())
	root := strings.TrimSuffix(u.(string), "/mcp")
	args := map[string]any{"names": names(25)}
	governedByA := func(when string) {
		t.Helper()
		res := call(t, cs, "notes__delete_notes", args)
		if !strings.Contains(text(res), "ops pack says no broad deletes [rule=ops/no_broad_deletes]") {
			t.Fatalf("%s: pack A is not deciding: %s", when, text(res))
		}
	}
	governedByA("before")
	bad := strings.Replace(denyBroadDeletes, "verdict: deny", "verdict: block", 1)
	rc, err := load(bad)()
	reg.set(rc, err)
	code, body := postReload(t, root, "")
	if code != 400 || body["error"] != "invalid_policy" || !strings.Contains(fmt.Sprint(body["detail"]), `ops.yaml:4: unknown verdict "block"`) {
		t.Fatalf("bad pack: %d %v", code, body)
	}
	if _, err := g.ReloadFromConfig(context.Background()); !errors.Is(err, ErrInvalidPolicy) {
		t.Fatalf("SIGHUP path: %v", err)
	}
	governedByA("after the refused pack")
	// A pack that loads replaces it: the base pack's R2 holds again.
	rc, err = load("rules: []\n")()
	reg.set(rc, err)
	if code, body := postReload(t, root, ""); code != 200 || body["pack_reloaded"] != true {
		t.Fatalf("good pack: %d %v", code, body)
	}
	if res := call(t, cs, "notes__delete_notes", args); !strings.Contains(text(res), "[rule=reeflex.policy/irreversible_broad_prod]") {
		t.Fatalf("after the good pack: %s", text(res))
	}
	if n := up.count("delete_notes"); n != 0 {
		t.Fatalf("delete_notes ran %d times", n)
	}
}

// Beyond loopback the admin route needs REEFLEX_MCP_ADMIN_TOKEN: without it
// it is refused, whatever else the request carries.
func TestAdminReloadBeyondLoopback(t *testing.T) {
	var reloads atomic.Int32
	env := map[string]string{}
	var mu sync.Mutex
	g, err := New(Options{Decider: newTestEngine(), Logger: quietLogger(),
		Getenv: func(k string) string { mu.Lock(); defer mu.Unlock(); return env[k] },
		Reload: func() (ReloadConfig, error) { reloads.Add(1); return ReloadConfig{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	h := g.Handler("front-token")
	do := func(local, bearer string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/admin/reload", nil)
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.ParseIP(local), Port: 8080}))
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if code, body := do("192.0.2.10", ""); code != 403 || !strings.Contains(body, "admin_token_required") {
		t.Fatalf("no admin token, beyond loopback: %d %s", code, body)
	}
	if code, body := do("192.0.2.10", "front-token"); code != 403 {
		t.Fatalf("the front's token opened the admin route beyond loopback: %d %s", code, body)
	}
	if code, _ := do("127.0.0.1", "front-token"); code != 200 {
		t.Fatalf("loopback with the front token: %d", code)
	}
	mu.Lock()
	env["REEFLEX_MCP_ADMIN_TOKEN"] = "adm"
	mu.Unlock()
	if code, _ := do("192.0.2.10", "front-token"); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	if code, body := do("192.0.2.10", "adm"); code != 200 {
		t.Fatalf("admin token beyond loopback: %d %s", code, body)
	}
	if n := reloads.Load(); n != 2 {
		t.Fatalf("%d reloads ran, want 2", n)
	}
}
