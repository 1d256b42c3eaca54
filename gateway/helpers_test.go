package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// needBin skips when an npm server is not installed (make test-deps installs them).
func needBin(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (make test-deps installs it with npm)", name)
	}
	return p
}

// testEngine stands in for the separate policy package in unit tests: it
// answers by tool name and keeps holds the way the engine does (a
// resubmission of an approved hold is allowed once). It records every
// envelope it is asked about.
type testEngine struct {
	mu      sync.Mutex
	verdict map[string]string   // tool name -> verdict; default allow
	obl     map[string][]string // tool name -> obligations
	holds   map[string]*testHold
	seen    []Envelope
	down    bool
	n       int
}

type testHold struct {
	status, decisionID, expires string
}

func newTestEngine() *testEngine {
	return &testEngine{verdict: map[string]string{}, obl: map[string][]string{}, holds: map[string]*testHold{}}
}

func (e *testEngine) Decide(_ context.Context, env Envelope) (Decision, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seen = append(e.seen, env)
	if e.down {
		return Decision{}, ErrEngineUnreachable
	}
	e.n++
	id := fmt.Sprintf("%032x", e.n)
	tool := env["params"].(map[string]any)["tool_name"].(string)
	ap := env["approval"].(map[string]any)
	if ap["present"] == true {
		hid, _ := ap["hold_id"].(string)
		h := e.holds[hid]
		switch {
		case h == nil:
			return Decision{Decision: VerdictDeny, Rule: ruleHoldValidation, Reason: "reeflex_hold_not_found", DecisionID: id, Obligations: []string{}}, nil
		case h.status == "pending":
			return Decision{Decision: VerdictDeny, Rule: ruleHoldValidation, Reason: reasonNotApproved, DecisionID: id, Obligations: []string{}}, nil
		case h.status == "approved":
			h.status = "consumed"
			return Decision{Decision: VerdictAllow, Rule: "reeflex.policy/approved_resubmission", Reason: "approved hold resubmission",
				DecisionID: id, ParentDecisionID: h.decisionID, Obligations: []string{}}, nil
		}
		return Decision{Decision: VerdictDeny, Rule: ruleHoldValidation, Reason: "reeflex_hold_" + h.status, DecisionID: id, Obligations: []string{}}, nil
	}
	v := e.verdict[tool]
	if v == "" {
		v = VerdictAllow
	}
	d := Decision{Decision: v, Rule: "test/" + v, Reason: "test says " + v, DecisionID: id, Obligations: append([]string{}, e.obl[tool]...)}
	if v == VerdictApproval {
		d.HoldID = fmt.Sprintf("%032x", 1<<40+e.n)
		d.ExpiresTS = time.Now().Add(time.Hour).UTC().Format("2006-01-02T15:04:05Z")
		e.holds[d.HoldID] = &testHold{status: "pending", decisionID: id, expires: d.ExpiresTS}
	}
	return d, nil
}

func (e *testEngine) HoldStatus(_ context.Context, id string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if h := e.holds[id]; h != nil {
		return h.status, nil
	}
	return "", os.ErrNotExist
}

func (e *testEngine) resolve(id, status string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.holds[id].status = status
}

func (e *testEngine) set(tool, verdict string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.verdict[tool] = verdict
}

func (e *testEngine) last() Envelope {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.seen) == 0 {
		return nil
	}
	return e.seen[len(e.seen)-1]
}

func quietLogger() *slog.Logger {
	if os.Getenv("GATEWAY_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// npmUpstreams are the three reference servers over stdio.
func npmUpstreams(t testing.TB) []UpstreamConfig {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(root+"/hello.txt", []byte("hello from the filesystem server\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []UpstreamConfig{
		{Name: "everything", Command: []string{needBin(t, "mcp-server-everything"), "stdio"}, System: "everything", Environment: "production", Required: true},
		{Name: "filesystem", Command: []string{needBin(t, "mcp-server-filesystem"), root}, System: "filesystem", Environment: "production", Required: true},
		{Name: "memory", Command: []string{needBin(t, "mcp-server-memory")}, Env: map[string]string{"MEMORY_FILE_PATH": root + "/memory.jsonl"},
			System: "memory", Environment: "production", Required: true},
	}
}

// startGateway starts g and serves its streamable HTTP front on loopback;
// it returns a connected go-sdk client session.
func startGateway(t testing.TB, opts Options) (*Gateway, *mcpsdk.ClientSession) {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	if opts.UpstreamStderr == nil {
		opts.UpstreamStderr = io.Discard
	}
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := g.Start(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = g.ServeHTTP(ctx, ln, "")
	}()
	lastGatewayURL.Store(t.Name(), "http://"+ln.Addr().String()+"/mcp")
	cs := connectHTTP(t, "http://"+ln.Addr().String()+"/mcp", nil)
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		<-done
		g.Close()
	})
	return g, cs
}

func connectHTTP(t testing.TB, url string, opts *mcpsdk.ClientOptions) *mcpsdk.ClientSession {
	t.Helper()
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "gateway-test", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// connectStdio is a go-sdk client on a stdio server run directly.
func connectStdio(t testing.TB, argv []string, env map[string]string) *mcpsdk.ClientSession {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "direct-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t testing.TB, cs *mcpsdk.ClientSession, name string, args any) *mcpsdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func text(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func listTools(t testing.TB, cs *mcpsdk.ClientSession) map[string]*mcpsdk.Tool {
	t.Helper()
	out := map[string]*mcpsdk.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func envString(env Envelope, path ...string) string {
	var cur any = env
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[p]
	}
	switch v := cur.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}

type annotations = mcpsdk.ToolAnnotations
