package gateway

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeReflect answers validate like reflect does for golden inv-004: total
// 683.2 flagged, needs_review.
func fakeReflect() *mcpsdk.Server {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "reflect", Version: "1"}, nil)
	s.AddTool(&mcpsdk.Tool{Name: "validate", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{StructuredContent: map[string]any{"status": "needs_review", "trace_id": "trace-inv004",
				"data":           map[string]any{"vendor_name": "Globex Ltd", "total": 683.2},
				"flagged_fields": []any{map[string]any{"field": "total", "value": 683.2, "confidence": 0.011}}},
				Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "{}"}}}, nil
		})
	return s
}

// A total reflect flagged, passed as an amount, is held naming the trace id
// and the field, whatever the policy says; settled, the same call runs.
func TestUnreviewedValueHeld(t *testing.T) {
	pay := newCounterServer("send_payment")
	var settled atomic.Bool
	guard := NewUnreviewedGuard("reflect", func(_ context.Context, id string) (bool, error) {
		return id == "trace-inv004" && settled.Load(), nil
	}, nil)
	eng := newTestEngine() // allows everything
	_, cs := startGateway(t, Options{Builtins: []Builtin{
		{Name: "reflect", System: "reflect", Environment: "production", Server: fakeReflect()},
		{Name: "pay", System: "pay", Environment: "staging", Server: pay.srv}},
		Decider: eng, Mode: ModeEnforce, Guard: guard})
	if res := call(t, cs, "pay__send_payment", map[string]any{"amount": 683.2}); res.IsError {
		t.Fatalf("before any extraction: %s", text(res))
	}
	call(t, cs, "reflect__validate", map[string]any{})
	for _, args := range []map[string]any{{"amount": 683.2}, {"payment": map[string]any{"amount": "683.20"}}} {
		res := call(t, cs, "pay__send_payment", args)
		if !res.IsError || !strings.Contains(text(res), "trace-inv004") || !strings.Contains(text(res), "field total") {
			t.Fatalf("unreviewed value went through: %s", text(res))
		}
	}
	if res := call(t, cs, "pay__send_payment", map[string]any{"amount": 583.2}); res.IsError {
		t.Fatalf("another value held: %s", text(res))
	}
	settled.Store(true)
	if res := call(t, cs, "pay__send_payment", map[string]any{"amount": 683.2}); res.IsError {
		t.Fatalf("settled value still held: %s", text(res))
	}
	if n := pay.count("send_payment"); n != 3 {
		t.Fatalf("send_payment ran %d times, want 3", n)
	}
}

// A built-in upstream is told which front client and session a call is for.
func TestBuiltinSeesFrontClient(t *testing.T) {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "b", Version: "1"}, nil)
	got := make(chan mcpsdk.Meta, 1)
	s.AddTool(&mcpsdk.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			got <- req.Params.Meta
			return &mcpsdk.CallToolResult{}, nil
		})
	_, cs := startGateway(t, Options{Builtins: []Builtin{{Name: "b", System: "b", Environment: "dev", Server: s}}, Decider: newTestEngine()})
	call(t, cs, "b__whoami", map[string]any{})
	m := <-got
	if m[MetaClient] != "gateway-test" || !strings.HasPrefix(m[MetaSession].(string), "mcp-http:") {
		t.Fatalf("built-in saw _meta %v", m)
	}
}
