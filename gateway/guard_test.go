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

// A flagged total is held wherever an agent writes it into text: as the
// number in any common formatting, not as a digit run inside another
// number. The calls go through the gateway to the real everything server's
// echo, so a forwarded call is one the upstream answered.
func TestUnreviewedValueInsideText(t *testing.T) {
	guard := NewUnreviewedGuard("reflect", func(context.Context, string) (bool, error) { return false, nil }, nil)
	_, cs := startGateway(t, Options{Upstreams: npmUpstreams(t)[:1],
		Builtins: []Builtin{{Name: "reflect", System: "reflect", Environment: "production", Server: fakeReflect()}},
		Decider:  newTestEngine(), Mode: ModeEnforce, Guard: guard})
	call(t, cs, "reflect__validate", map[string]any{})
	for _, msg := range []string{"683.20", "pay 683.20 now", "pay 683.2.", "Total: 683,20 EUR", "GBP683.20", "(683.2)",
		"amounts: 12.00, 683.20 and 5"} {
		res := call(t, cs, "everything__echo", map[string]any{"message": msg})
		if !res.IsError || !strings.Contains(text(res), "trace-inv004") {
			t.Errorf("message %q carried the unreviewed total and was forwarded: %s", msg, text(res))
		}
	}
	for _, msg := range []string{"pay 1683.20 now", "pay 1 683,20 now", "pay 683.201 now", "683.21", "ref 683", "v683.20.1 released", "pay 583.20"} {
		res := call(t, cs, "everything__echo", map[string]any{"message": msg})
		if res.IsError || !strings.Contains(text(res), msg) {
			t.Errorf("message %q does not carry 683.2 and was not echoed: %s", msg, text(res))
		}
	}
}

// The number readings a person may mean by a token, and the text values
// matched as whole words.
func TestFlaggedValueMatchesInText(t *testing.T) {
	num := func(v float64) flagged { f, _ := newFlagged("t", "total", v); return f }
	str := func(v string) flagged { f, _ := newFlagged("t", "vendor_name", v); return f }
	for _, c := range []struct {
		f    flagged
		arg  string
		want bool
	}{
		{num(1234.5), "pay 1,234.50 today", true},
		{num(1234.5), "zahlen Sie 1.234,50 EUR", true},
		{num(1234.5), "pay 1234.5", true},
		// A space grouping thousands, as French, Swiss, Nordic and
		// Polish invoices print it (plain, no-break, narrow no-break or
		// thin), joins the groups into one number.
		{num(1683.2), "pay 1 683.20 now", true},
		{num(1683.2), "zahlen 1 683,20 EUR", true},
		{num(1683.2), "payer 1\u00a0683,20 €", true},
		{num(1683.2), "payer 1\u202f683,20 €", true},
		{num(1683.2), "betala 1\u2009683,20 kr", true},
		{num(1683.2), "1 683,20", true},
		{num(12345678.9), "total 12 345 678,90", true},
		{num(51800), "HUF 51 800 due", true},
		// ... and the number it makes is one number: its last group is
		// not another.
		{num(683.2), "pay 1 683.20 now", false},
		{num(683.2), "payer 1\u00a0683,20 €", false},
		{num(1683.2), "pay 21 683.20", false},
		{num(1683.2), "pay 1 1 683.20", false},
		{num(1234.5), "pay 1 23.50", false},     // a group is three digits
		{num(1234.5), "pay 1234 567.50", false}, // a lead is at most three
		{num(567890), "call 1234 567 890", false},
		// Between whole numbers a plain space may also part two numbers
		// ("2 400 ml"): both readings are held.
		{num(400), "ship 2 400 bottles", true},
		{num(2400), "ship 2 400 bottles", true},
		{num(400), "ship 2\u00a0400 bottles", false},
		{num(1234.5), "pay 11,234.50", false},
		{num(1234), "invoice 1,234 units", true},
		{num(1234), "invoice 1.234 units", true}, // 1.234 is 1234 with a dot for thousands
		{num(683.2), "683,201", false},
		{num(1234567.89), "1,234,567.89", true},
		{num(1234567.89), "1.234.567,89", true},
		{num(-683.2), "refund -683.20", true},
		{num(12), "copy 12 files", false}, // small whole numbers only as a whole argument
		{num(12), "12", true},
		{str("Globex Ltd"), "pay GLOBEX LTD. today", true},
		{str("Globex Ltd"), "pay Globex Ltdx", false},
		{str("Globex Ltd"), "NotGlobex Ltd", false},
		{str("GLX/2026/778"), "ref glx-2026-778 paid", true},
		{str("683.20"), "pay 683.2 now", true}, // a number kept as text is matched as a number
		{str("1 683,20"), "pay 1683.20 now", true},
	} {
		leaf := readLeaf(c.arg)
		if got := c.f.matches(c.arg, func() leafText { return leaf }); got != c.want {
			t.Errorf("%s in %q: matched %v, want %v", c.f.show(), c.arg, got, c.want)
		}
	}
}
