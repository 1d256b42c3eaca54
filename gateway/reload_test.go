package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// POST /admin/reload hot-adds an upstream into a running HTTP gateway; open
// sessions get tools/list_changed and see the new tools.
func TestAdminReload(t *testing.T) {
	up := newCounterServer("read_notes")
	uln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	usrv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return up.srv }, nil)}
	go func() { _ = usrv.Serve(uln) }()
	defer usrv.Close()
	var mu sync.Mutex
	var cfgs []UpstreamConfig
	var cfgErr error
	env := map[string]string{}
	base := newCounterServer("list_things")
	g, err := New(Options{Builtins: []Builtin{{Name: "base", System: "b", Environment: "dev", Server: base.srv}},
		Decider: newTestEngine(), Mode: ModeEnforce, Logger: quietLogger(), Getenv: func(k string) string { mu.Lock(); defer mu.Unlock(); return env[k] },
		Reload: func() (ReloadConfig, error) {
			mu.Lock()
			defer mu.Unlock()
			return ReloadConfig{Upstreams: cfgs}, cfgErr
		}})
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
	root := "http://" + ln.Addr().String()
	changed := make(chan struct{}, 8)
	cs := connectHTTP(t, root+"/mcp", &mcpsdk.ClientOptions{ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	defer cs.Close()
	listTools(t, cs)
	reload := func(token string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, root+"/admin/reload", nil)
		if token != "" {
			req.Header.Set("Authorization", "bearer "+token)
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
	mu.Lock()
	cfgs = []UpstreamConfig{{Name: "notes", URL: "http://" + uln.Addr().String() + "/mcp", System: "n", Environment: "dev", Required: true},
		{Name: "ghost", Command: []string{"/nonexistent"}, System: "g", Environment: "dev", Required: true}}
	mu.Unlock()
	code, body := reload("")
	if code != 200 || jsonOf(t, body["added"]) != `["notes"]` || !strings.Contains(jsonOf(t, body["failed"]), "ghost") {
		t.Fatalf("reload: %d %v", code, body)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed after the hot-add")
	}
	if res := call(t, cs, "notes__read_notes", map[string]any{}); res.IsError {
		t.Fatalf("hot-added tool: %s", text(res))
	}
	if code, body := reload(""); code != 200 || jsonOf(t, body["added"]) != `[]` || len(body["failed"].([]any)) != 1 {
		t.Fatalf("second reload retries only the failed one: %d %v", code, body)
	}
	mu.Lock()
	cfgErr = errors.New("line 3: bad")
	env["REEFLEX_MCP_ADMIN_TOKEN"] = "adm"
	mu.Unlock()
	if code, _ := reload(""); code != 401 {
		t.Fatalf("no admin token: %d", code)
	}
	if code, body := reload("adm"); code != 400 || body["error"] != "invalid_config" {
		t.Fatalf("invalid config: %d %v", code, body)
	}
}
