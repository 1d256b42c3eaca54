package gateway

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The three npm reference servers behind one gateway: every tool appears
// once, namespaced, with the upstream's schemas and annotations unchanged.
func TestAggregatesRealServers(t *testing.T) {
	ups := npmUpstreams(t)
	maps, _, err := LoadMappings("")
	if err != nil {
		t.Fatal(err)
	}
	eng := newTestEngine()
	_, cs := startGateway(t, Options{Upstreams: ups, Mappings: maps, Decider: eng, Mode: ModeEnforce})
	got := listTools(t, cs)
	total := 0
	for _, u := range ups {
		direct := connectStdio(t, u.Command, u.Env)
		for tool, err := range direct.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			total++
			p, ok := got[u.Name+"__"+tool.Name]
			if !ok {
				t.Errorf("%s__%s missing from the gateway's tools/list", u.Name, tool.Name)
				continue
			}
			want := *tool
			want.Name = p.Name
			if a, b := jsonOf(t, &want), jsonOf(t, p); a != b {
				t.Errorf("%s changed on the way through:\n direct %s\n proxied %s", p.Name, a, b)
			}
		}
	}
	if len(got) != total || total < 30 {
		t.Errorf("gateway lists %d tools, the upstreams %d", len(got), total)
	}
	for name := range got {
		if _, _, ok := SplitName(name); !ok {
			t.Errorf("tool %q is not namespaced", name)
		}
	}
}

// A call is forwarded with the prefix stripped; structured content and the
// upstream's content come back unchanged, tagged with the decision ids.
func TestForwardsResultsUnchanged(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	eng := newTestEngine()
	_, cs := startGateway(t, Options{Upstreams: ups, Decider: eng, Mode: ModeEnforce})
	direct := connectStdio(t, ups[0].Command, nil)
	args := map[string]any{"location": "Chicago"}
	via := call(t, cs, "everything__get-structured-content", args)
	want := call(t, direct, "get-structured-content", args)
	if via.IsError || jsonOf(t, via.StructuredContent) != jsonOf(t, want.StructuredContent) || jsonOf(t, via.Content) != jsonOf(t, want.Content) {
		t.Fatalf("proxied result differs:\n via %s\n direct %s", jsonOf(t, via), jsonOf(t, want))
	}
	if via.Meta["decision_id"] == nil || via.Meta["gateway_correlation_id"] == nil {
		t.Errorf("allow is not tagged with decision ids: %v", via.Meta)
	}
	env := eng.last()
	if envString(env, "params", "tool_name") != "get-structured-content" || envString(env, "action", "ability") != "everything/get-structured-content" {
		t.Errorf("envelope names the wrong tool: %v", env)
	}
	// isError from the upstream passes through as it is.
	bad := call(t, cs, "everything__get-sum", map[string]any{"a": "x", "b": 2})
	if !bad.IsError {
		t.Errorf("upstream error not passed through: %s", jsonOf(t, bad))
	}
}

// Each classification tier, against the real servers' own tool lists.
func TestClassificationTiers(t *testing.T) {
	ups := npmUpstreams(t)
	maps, _, err := LoadMappings("")
	if err != nil {
		t.Fatal(err)
	}
	eng := newTestEngine()
	_, cs := startGateway(t, Options{Upstreams: ups, Mappings: maps, Decider: eng, Mode: ModeEnforce})
	cases := []struct {
		tool   string
		args   map[string]any
		source string
		verb   string
		count  string
	}{
		{"filesystem__read_multiple_files", map[string]any{"paths": []string{"hello.txt", "a", "b"}}, SourceMapping, "read", "3"},
		{"filesystem__write_file", map[string]any{"path": "new.txt", "content": "x"}, SourceMapping, "create", "1"},
		{"memory__delete_entities", map[string]any{"entityNames": []string{"a", "b"}}, SourceAnnDestruct, "delete", "2"},
		{"everything__echo", map[string]any{"message": "hi"}, SourceAnnRead, "read", "1"},
		{"memory__create_entities", map[string]any{"entities": []any{}}, "heuristic:create", "create", "1"},
		{"everything__toggle-simulated-logging", map[string]any{}, SourceDefault, "execute", "1"},
	}
	for _, c := range cases {
		call(t, cs, c.tool, c.args)
		env := eng.last()
		if got := envString(env, "context", "classification_source"); got != c.source {
			t.Errorf("%s: classification_source %q, want %q", c.tool, got, c.source)
		}
		if got := envString(env, "action", "verb"); got != c.verb {
			t.Errorf("%s: verb %q, want %q", c.tool, got, c.verb)
		}
		if got := envString(env, "magnitude", "count"); got != c.count {
			t.Errorf("%s: count %s, want %s", c.tool, got, c.count)
		}
	}
	// Annotations sent in the request are never read.
	ctx := context.Background()
	_, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "everything__toggle-simulated-logging", Arguments: map[string]any{},
		Meta: mcpsdk.Meta{"annotations": map[string]any{"readOnlyHint": true}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := envString(eng.last(), "context", "classification_source"); got != SourceDefault {
		t.Errorf("request annotations were trusted: %s", got)
	}
}

// Observe forwards every verdict; enforce forwards allow, blocks deny and
// hold with the reference's texts.
func TestModesAndVerdicts(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	for _, mode := range []Mode{ModeObserve, ModeEnforce} {
		eng := newTestEngine()
		eng.set("echo", VerdictAllow)
		eng.set("get-sum", VerdictDeny)
		eng.set("get-env", VerdictApproval)
		eng.set("get-tiny-image", "maybe")
		_, cs := startGateway(t, Options{Upstreams: ups, Decider: eng, Mode: mode})
		allow := call(t, cs, "everything__echo", map[string]any{"message": "hi"})
		deny := call(t, cs, "everything__get-sum", map[string]any{"a": 1, "b": 2})
		hold := call(t, cs, "everything__get-env", map[string]any{})
		odd := call(t, cs, "everything__get-tiny-image", map[string]any{})
		if allow.IsError || !strings.Contains(text(allow), "hi") {
			t.Errorf("%s: allow not forwarded: %s", mode, text(allow))
		}
		if mode == ModeObserve {
			for _, r := range []*mcpsdk.CallToolResult{deny, hold, odd} {
				if r.IsError {
					t.Errorf("observe blocked a call: %s", text(r))
				}
			}
			continue
		}
		if !deny.IsError || !strings.HasPrefix(text(deny), "reeflex-mcp: denied -- test says deny [rule=test/deny] decision_id=") {
			t.Errorf("deny: %s", text(deny))
		}
		if !hold.IsError || !strings.HasPrefix(text(hold), "reeflex-mcp: held for approval -- test says require_approval [rule=test/require_approval] hold_id=") ||
			!strings.Contains(text(hold), "A human must approve it (reflect holds approve ") ||
			!strings.HasSuffix(text(hold), "then retry this exact call with the same arguments.") || strings.Contains(text(hold), "reeflex-holds") {
			t.Errorf("hold: %s", text(hold))
		}
		if !odd.IsError || !strings.Contains(text(odd), "failing closed") {
			t.Errorf("unknown verdict: %s", text(odd))
		}
	}
}

// An unreachable engine blocks in enforce and fails open in observe.
func TestEngineUnreachable(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	remote, err := NewRemote("http://127.0.0.1:1", "", time.Second, true)
	if err != nil {
		t.Fatal(err)
	}
	_, enf := startGateway(t, Options{Upstreams: ups, Decider: remote, Mode: ModeEnforce})
	res := call(t, enf, "everything__echo", map[string]any{"message": "hi"})
	if !res.IsError || !strings.HasPrefix(text(res), "reeflex-mcp: reeflex-core unreachable -- failing closed: ") {
		t.Errorf("enforce with no engine: %s", text(res))
	}
	_, obs := startGateway(t, Options{Upstreams: ups, Decider: remote, Mode: ModeObserve})
	if res := call(t, obs, "everything__echo", map[string]any{"message": "hi"}); res.IsError {
		t.Errorf("observe with no engine blocked: %s", text(res))
	}
}

// Obligations: audit:full is honoured, an unknown one blocks before dispatch
// in enforce and is only recorded in observe.
func TestObligations(t *testing.T) {
	ups := npmUpstreams(t)[1:3] // filesystem, memory
	for _, mode := range []Mode{ModeEnforce, ModeObserve} {
		eng := newTestEngine()
		eng.obl["read_graph"] = []string{"audit:full"}
		eng.obl["create_entities"] = []string{"audit:full", "redact:pii"}
		_, cs := startGateway(t, Options{Upstreams: ups, Decider: eng, Mode: mode})
		if res := call(t, cs, "memory__read_graph", map[string]any{}); res.IsError {
			t.Errorf("%s: known obligation blocked: %s", mode, text(res))
		}
		res := call(t, cs, "memory__create_entities", map[string]any{"entities": []any{
			map[string]any{"name": "ana", "entityType": "person", "observations": []string{"x"}}}})
		graph := call(t, cs, "memory__read_graph", map[string]any{})
		created := strings.Contains(jsonOf(t, graph.StructuredContent), "ana")
		if mode == ModeEnforce {
			if !res.IsError || !strings.HasPrefix(text(res), "reeflex-mcp: unsupported obligation 'redact:pii' -- cannot honor, failing closed decision_id=") {
				t.Errorf("unknown obligation: %s", text(res))
			}
			if created {
				t.Error("the blocked call reached the upstream")
			}
		} else if res.IsError || !created {
			t.Errorf("observe: the call was not forwarded: %s", text(res))
		}
	}
}

// A required upstream that fails refuses to start; an optional one is down
// and its tools hidden.
func TestUpstreamDown(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	bad := UpstreamConfig{Name: "ghost", Command: []string{"/nonexistent/mcp-server"}, System: "ghost", Environment: "dev", Required: true}
	g, err := New(Options{Upstreams: append(ups, bad), Decider: newTestEngine(), Logger: quietLogger(), UpstreamStderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Fatalf("a failed required upstream started: %v", err)
	}
	bad.Required = false
	// A command that starts but never speaks MCP: the connect timeout.
	slow := UpstreamConfig{Name: "mute", Command: []string{"sleep", "30"}, System: "mute", Environment: "dev"}
	_, cs := startGateway(t, Options{Upstreams: append(ups, bad, slow), Decider: newTestEngine(), ConnectTimeout: 5 * time.Second})
	tools := listTools(t, cs)
	for name := range tools {
		if strings.HasPrefix(name, "ghost__") || strings.HasPrefix(name, "mute__") {
			t.Errorf("a down upstream's tool is listed: %s", name)
		}
	}
	if _, ok := tools["everything__echo"]; !ok {
		t.Error("the healthy upstream's tools are missing")
	}
	res := call(t, cs, "ghost__anything", map[string]any{})
	if !res.IsError || text(res) != "reeflex-mcp: unknown tool or upstream unavailable: 'ghost__anything'" {
		t.Errorf("a call to a down upstream: %s", jsonOf(t, res))
	}
}

// The per-call timeout turns a slow upstream into an isError result.
func TestCallTimeout(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	_, cs := startGateway(t, Options{Upstreams: ups, Decider: newTestEngine(), Mode: ModeEnforce, CallTimeout: 500 * time.Millisecond})
	res := call(t, cs, "everything__trigger-long-running-operation", map[string]any{"duration": 5, "steps": 5})
	if !res.IsError || !strings.Contains(text(res), "timed out after 500ms") {
		t.Errorf("slow upstream: %s", jsonOf(t, res))
	}
	if res := call(t, cs, "everything__echo", map[string]any{"message": "still up"}); res.IsError {
		t.Errorf("upstream unusable after a timeout: %s", text(res))
	}
}

// The arguments go upstream byte for byte.
func TestArgumentsForwardedRaw(t *testing.T) {
	ups := npmUpstreams(t)[:1]
	eng := newTestEngine()
	_, cs := startGateway(t, Options{Upstreams: ups, Decider: eng, Mode: ModeEnforce})
	res := call(t, cs, "everything__echo", json.RawMessage(`{"message":"1.50 ünïcode \u2028"}`))
	if !strings.Contains(text(res), "1.50 ünïcode \u2028") {
		t.Errorf("echo: %q", text(res))
	}
}
