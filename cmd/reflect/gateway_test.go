package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/store"
)

var (
	gatewayBinOnce sync.Once
	gatewayBin     string
	gatewayBinErr  error
)

// TestMain removes the binaries reflectBin and benchReflect built: each
// run of the package left a 108 MB directory in the temp dir (177 of them
// after one session).
func TestMain(m *testing.M) {
	code := m.Run()
	for _, bin := range []string{gatewayBin, benchBin} {
		if bin != "" {
			os.RemoveAll(filepath.Dir(bin))
		}
	}
	os.Exit(code)
}

// reflectBin builds the real binary once for the gateway tests.
func reflectBin(t *testing.T) string {
	t.Helper()
	gatewayBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "reflect-gw-bin-")
		if err != nil {
			gatewayBinErr = err
			return
		}
		gatewayBin = filepath.Join(dir, "reflect")
		cmd := exec.Command("go", "build", "-o", gatewayBin, "./cmd/reflect")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			gatewayBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if gatewayBinErr != nil {
		t.Fatal(gatewayBinErr)
	}
	return gatewayBin
}

// The self-probe passes against the real binary: blocked, fail closed. It
// leaves nothing in the user's store: its decoy tool is not among the pins
// there afterwards (user report: doctor__delete_thing stayed pinned).
func TestGatewayCheck(t *testing.T) {
	bin := reflectBin(t)
	userStore := filepath.Join(t.TempDir(), "reflect.db")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "REFLECT_STORE="+userStore)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("gateway", "pins"); err != nil {
		t.Fatalf("gateway pins before the check: %v\n%s", err, out)
	}
	out, err := run("gateway", "check")
	if err != nil || !strings.Contains(out, "PASS") || !strings.Contains(out, "failing closed") {
		t.Fatalf("gateway check: %v\n%s", err, out)
	}
	pins, err := run("gateway", "pins")
	if err != nil || strings.Contains(pins, "doctor__") {
		t.Fatalf("the check left its decoy in the user's store (%v):\n%s", err, pins)
	}
}

func memoryConfig(t *testing.T, mode string) (cfg, storePath string) {
	t.Helper()
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	dir := t.TempDir()
	cfg = filepath.Join(dir, "reeflex-mcp.yaml")
	body := fmt.Sprintf("mode: %s\nupstreams:\n  - name: memory\n    command: [%q]\n    env: {MEMORY_FILE_PATH: %q}\n"+
		"    target: {system: memory, environment: production}\n  - name: later\n    command: [/nonexistent]\n"+
		"    target: {system: x, environment: dev}\n    required: false\n    surprise: 1\n", mode, mem, filepath.Join(dir, "mem.jsonl"))
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, filepath.Join(dir, "reflect.db")
}

// `reflect gateway` over stdio as a real subprocess: the npm memory server
// and reflect's own tools behind one entry, driven by a go-sdk client.
func TestGatewayStdioSubprocess(t *testing.T) {
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--provider", "local")
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	names := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names[tool.Name] = true
	}
	for _, want := range []string{"reflect__extract", "reflect__validate", "reflect__review_status", "memory__read_graph", "memory__delete_entities"} {
		if !names[want] {
			t.Errorf("%s not listed: %v", want, names)
		}
	}
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "reflect__validate", Arguments: map[string]any{
		"text": "ACME CORP, Invoice #INV-1001, Total: $108.50", "data": map[string]any{"vendor_name": "ACME CORP", "total": 108.5},
		"heuristics_only": true}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(sc), `"status"`) || res.Meta["decision_id"] == nil {
		t.Errorf("reflect__validate through the gateway: %s", jsonString(res))
	}
	if !strings.Contains(stderr.String(), `unknown key \"surprise\"`) {
		t.Errorf("the unknown registry key was not warned about:\n%s", stderr.String())
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// kill -9 of the gateway with a pending hold, restart, approve, retry runs:
// the engine's hold and the tracked hold are in the store.
func TestGatewayKillRestartApproveRetry(t *testing.T) {
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	names := make([]string, 25)
	for i := range names {
		names[i] = fmt.Sprintf("entity-%02d", i)
	}
	args := map[string]any{"entityNames": names}
	start := func() (*exec.Cmd, *mcpsdk.ClientSession) {
		cmd := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--no-reflect-tools", "--hold-wait", "0s")
		cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, nil).
			Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cmd, cs
	}
	callDelete := func(cs *mcpsdk.ClientSession) *mcpsdk.CallToolResult {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "memory__delete_entities", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cmd, cs := start()
	held := callDelete(cs)
	txt := resultText(held)
	if !held.IsError || !strings.Contains(txt, "held for approval") {
		t.Fatalf("25 deletions in production: %s", txt)
	}
	id := strings.Fields(strings.SplitN(txt, "hold_id=", 2)[1])[0]
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: nothing is flushed on the way out
		t.Fatal(err)
	}
	_ = cmd.Wait()
	_ = cs.Close()
	approve := exec.Command(bin, "holds", "approve", id, "--store", storePath, "--reviewer", "ana")
	if out, err := approve.CombinedOutput(); err != nil {
		t.Skipf("reflect holds approve is not available here (%v): %s", err, out)
	}
	cmd2, cs2 := start()
	defer func() { _ = cs2.Close(); _ = cmd2.Wait() }()
	ok := callDelete(cs2)
	if ok.IsError || ok.Meta["parent_decision_id"] == nil {
		t.Fatalf("retry after restart and approval: %s", jsonString(ok))
	}
	if again := callDelete(cs2); !again.IsError {
		t.Fatalf("a second retry ran: %s", jsonString(again))
	}
}

func resultText(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The MCP Inspector's CLI (a client nobody here wrote, whose SDK validates
// structured results against the advertised output schema) through the
// gateway: the proxied reflect__validate and an npm server's tool.
func TestGatewayInspector(t *testing.T) {
	insp, err := exec.LookPath("mcp-inspector")
	if err != nil || testing.Short() {
		t.Skip("mcp-inspector not installed (make test-deps installs it)")
	}
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	env := []string{"REEFLEX_MCP_CONFIG=" + cfg, "REFLECT_STORE=" + storePath, "REFLECT_PROVIDER=local", "REEFLEX_CORE_URL=", "REEFLEX_MODE="}
	inspect := func(args ...string) map[string]any {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, insp, append([]string{"--cli", bin, "gateway"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("inspector printed no JSON: %s", out.String())
		}
		return m
	}
	list := inspect("--method", "tools/list")
	names := map[string]bool{}
	for _, tl := range list["tools"].([]any) {
		names[tl.(map[string]any)["name"].(string)] = true
	}
	if !names["reflect__validate"] || !names["memory__read_graph"] {
		t.Fatalf("tools via the inspector: %v", names)
	}
	res := inspect("--method", "tools/call", "--tool-name", "reflect__validate",
		"--tool-arg", "text=ACME CORP, Invoice #INV-1001, Total: $108.50",
		"--tool-arg", `data={"vendor_name":"ACME CORP","total":108.5}`, "--tool-arg", "heuristics_only=true")
	sc, _ := res["structuredContent"].(map[string]any)
	if res["isError"] == true || sc["status"] == nil {
		t.Fatalf("reflect__validate via the inspector: %v", res)
	}
	graph := inspect("--method", "tools/call", "--tool-name", "memory__read_graph")
	if graph["isError"] == true || graph["structuredContent"] == nil {
		t.Fatalf("memory__read_graph via the inspector: %v", graph)
	}
}

// The built-in reflect__validate queues its needs_review result under the
// caller's queue (the client's name), not the gateway's: so a fresh gateway
// process for the same client, which never saw the result, still holds a
// call carrying the flagged value, reading it from the store. Settled by a
// reviewer in another process meanwhile, the same call runs in that same
// gateway process (the guard follows the store's change log).
func TestGatewayBuiltinQueuesForCaller(t *testing.T) {
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	start := func() (*mcpsdk.ClientSession, func()) {
		cmd := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--provider", "local", "--hold-wait", "0s")
		cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, nil).
			Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs, func() { _ = cs.Close(); _ = cmd.Wait() }
	}
	callTool := func(cs *mcpsdk.ClientSession, name string, args map[string]any) *mcpsdk.CallToolResult {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cs, stop := start()
	res := callTool(cs, "reflect__validate", map[string]any{
		"text": "ACME CORP\nInvoice #INV-1001\nDate: 2026-03-02\nTotal: $108.50", "data": map[string]any{"vendor_name": "ACME CORP", "total": 683.2},
		"heuristics_only": true})
	var out struct {
		Status  string `json:"status"`
		TraceID string `json:"trace_id"`
		Flagged []struct {
			Field string `json:"field"`
		} `json:"flagged_fields"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.Status != "needs_review" || out.TraceID == "" {
		t.Fatalf("validate: %s", b)
	}
	stop()

	st, err := store.Open(storePath, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	corpus, doc, ok, err := st.FindTrace(ctx, out.TraceID)
	if err != nil || !ok || corpus != store.QueueCorpusID("claude-code") {
		t.Fatalf("result queued in %q (found %v, %v), want the caller's queue claude-code", corpus, ok, err)
	}

	cs2, stop2 := start()
	defer stop2()
	args := map[string]any{"entities": []any{map[string]any{"name": "inv-1001", "entityType": "invoice", "observations": []any{"683.2"}}}}
	held := callTool(cs2, "memory__create_entities", args)
	if !held.IsError || !strings.Contains(resultText(held), out.TraceID) || !strings.Contains(resultText(held), "unreviewed value") {
		t.Fatalf("a fresh gateway let the unreviewed value through: %s", resultText(held))
	}
	var ds []store.Decision
	for _, f := range out.Flagged {
		ds = append(ds, store.Decision{CorpusID: corpus, DocID: doc, Field: f.Field, Action: store.ActionCorrect, Value: 108.5,
			Reviewer: "ana", At: time.Now().UTC()})
	}
	if _, err := st.Decide(ctx, ds...); err != nil {
		t.Fatal(err)
	}
	if ok := callTool(cs2, "memory__create_entities", args); ok.IsError {
		t.Fatalf("settled in another process, still held: %s", resultText(ok))
	}
}

// The MCP Inspector's CLI against the gateway's streamable HTTP front (the
// front reflect mcp's hardening guards: the Inspector sends no Origin, as a
// command-line client does not): the tools list and a proxied call.
func TestGatewayInspectorOverHTTP(t *testing.T) {
	insp, err := exec.LookPath("mcp-inspector")
	if err != nil || testing.Short() {
		t.Skip("mcp-inspector not installed (make test-deps installs it)")
	}
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	port := lcClosedPort(t)
	gw := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--provider", "local",
		"--transport", "streamable-http", "--host", "127.0.0.1", "--port", port, "--allow-origin", "https://app.example.com")
	gw.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	var stderr bytes.Buffer
	gw.Stderr = &stderr
	if err := gw.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = gw.Process.Signal(os.Interrupt); _ = gw.Wait() }()
	url := "http://127.0.0.1:" + port + "/mcp"
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gateway did not listen:\n%s", stderr.String())
		}
	}
	// reflect mcp's Origin check, with the operator's --allow-origin.
	for origin, want := range map[string]int{"https://evil.example": http.StatusForbidden, "https://app.example.com": http.StatusOK} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize",`+
			`"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Origin %s: HTTP %d, want %d", origin, resp.StatusCode, want)
		}
	}
	inspect := func(args ...string) map[string]any {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, insp, append([]string{"--cli", url, "--transport", "http"}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("inspector printed no JSON: %s", out.String())
		}
		return m
	}
	names := map[string]bool{}
	for _, tl := range inspect("--method", "tools/list")["tools"].([]any) {
		names[tl.(map[string]any)["name"].(string)] = true
	}
	if !names["reflect__validate"] || !names["memory__read_graph"] {
		t.Fatalf("tools via the inspector over HTTP: %v", names)
	}
	res := inspect("--method", "tools/call", "--tool-name", "reflect__validate",
		"--tool-arg", "text=ACME CORP, Invoice #INV-1001, Total: $108.50",
		"--tool-arg", `data={"vendor_name":"ACME CORP","total":108.5}`, "--tool-arg", "heuristics_only=true")
	if sc, _ := res["structuredContent"].(map[string]any); res["isError"] == true || sc["status"] == nil {
		t.Fatalf("reflect__validate via the inspector over HTTP: %v", res)
	}
	if graph := inspect("--method", "tools/call", "--tool-name", "memory__read_graph"); graph["isError"] == true {
		t.Fatalf("memory__read_graph via the inspector over HTTP: %v", graph)
	}
}
