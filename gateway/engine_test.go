package gateway

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reflect-mcp/reflect/policy"
)

func newEngine(t *testing.T) *policy.Engine {
	t.Helper()
	e, err := policy.New(policy.Options{Logger: quietLogger(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "note-" + string(rune('a'+i%26))
	}
	return out
}

// Through the real engine in process: a read is allowed (R1), an
// unclassifiable tool in production is denied terminally (R3), 25 deletions
// are held (R2); a human approves in the engine and the identical retry runs
// once, with the parent decision id.
func TestThroughPolicyEngine(t *testing.T) {
	up := newCounterServer("read_notes", "delete_notes", "frobnicate")
	eng := newEngine(t)
	_, cs := startGateway(t, Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "production", Server: up.srv}},
		Decider: InProcess(eng), Mode: ModeEnforce})
	read := call(t, cs, "notes__read_notes", map[string]any{})
	if read.IsError || read.Meta["decision_id"] == nil {
		t.Fatalf("read: %s", jsonOf(t, read))
	}
	frob := call(t, cs, "notes__frobnicate", map[string]any{})
	if !strings.HasPrefix(text(frob), "reeflex-mcp: denied -- irreversible systemic change in production is not allowed even with approval [rule=reeflex.policy/irreversible_systemic_prod]") {
		t.Fatalf("floor in production: %s", text(frob))
	}
	args := map[string]any{"names": names(25)}
	held := call(t, cs, "notes__delete_notes", args)
	if !strings.HasPrefix(text(held), "reeflex-mcp: held for approval -- irreversible broad change in production requires human approval [rule=reeflex.policy/irreversible_broad_prod] hold_id=") {
		t.Fatalf("25 deletions: %s", text(held))
	}
	id := holdID(t, held)
	if again := call(t, cs, "notes__delete_notes", args); !strings.Contains(text(again), "still held") || holdID(t, again) != id {
		t.Fatalf("still pending: %s", text(again))
	}
	if _, err := eng.Resolve(context.Background(), id, policy.Resolution{Decision: "approve",
		Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}}); err != nil {
		t.Fatal(err)
	}
	ok := call(t, cs, "notes__delete_notes", args)
	if ok.IsError || ok.Meta["parent_decision_id"] == nil {
		t.Fatalf("approved retry: %s", jsonOf(t, ok))
	}
	if second := call(t, cs, "notes__delete_notes", args); !second.IsError {
		t.Fatalf("second retry ran: %s", text(second))
	}
	if n := up.count("delete_notes"); n != 1 {
		t.Fatalf("delete_notes ran %d times", n)
	}
	if n := up.count("frobnicate"); n != 0 {
		t.Fatal("a denied call reached the upstream")
	}
}

// A held call's review item carries what the reviewer needs: the session's
// budget use with this call counted, and the extraction whose unsettled
// value the arguments carry. Approving it while that extraction is
// unsettled does not spend the approval: the retry stays held and the
// engine's hold stays approved, and once settled the same retry runs once.
func TestHeldCallCarriesBudgetAndLinkedExtraction(t *testing.T) {
	up := newCounterServer("delete_notes")
	eng := newEngine(t)
	var settled atomic.Bool
	guard := NewUnreviewedGuard("reflect", func(_ context.Context, id string) (bool, error) {
		return id == "trace-inv004" && settled.Load(), nil
	}, nil)
	heldc := make(chan HeldCall, 4)
	_, cs := startGateway(t, Options{Builtins: []Builtin{
		{Name: "reflect", System: "reflect", Environment: "dev", Server: fakeReflect()},
		{Name: "notes", System: "notes", Environment: "production", Server: up.srv}},
		Decider: InProcess(eng), Mode: ModeEnforce, Guard: guard, OnHold: func(_ context.Context, h HeldCall) { heldc <- h }})
	if v := call(t, cs, "reflect__validate", map[string]any{}); v.IsError {
		t.Fatalf("validate: %s", text(v))
	}
	args := map[string]any{"names": names(25), "ref": 683.2}
	res := call(t, cs, "notes__delete_notes", args)
	if !strings.Contains(text(res), "held for approval") || !strings.Contains(text(res), "trace-inv004") {
		t.Fatalf("held: %s", text(res))
	}
	h := <-heldc
	if h.Budget != "deletions 25/20 (over), objects_touched 26/200" { // validate touched one
		t.Errorf("budget use %q", h.Budget)
	}
	if h.Link == nil || *h.Link != (Link{TraceID: "trace-inv004", Field: "total", Value: "683.2", Argument: "ref"}) {
		t.Fatalf("linked extraction %+v", h.Link)
	}
	if _, err := eng.Resolve(context.Background(), h.HoldID, policy.Resolution{Decision: "approve",
		Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}}); err != nil {
		t.Fatal(err)
	}
	again := call(t, cs, "notes__delete_notes", args)
	if !again.IsError || !strings.Contains(text(again), "approval, if given, is kept") {
		t.Fatalf("approved but unsettled: %s", text(again))
	}
	if st, _ := eng.Hold(context.Background(), h.HoldID); st.Status != policy.StatusApproved {
		t.Fatalf("the approval was spent: hold is %s", st.Status)
	}
	settled.Store(true)
	if ok := call(t, cs, "notes__delete_notes", args); ok.IsError || ok.Meta["parent_decision_id"] == nil {
		t.Fatalf("settled and approved: %s", jsonOf(t, ok))
	}
	if n := up.count("delete_notes"); n != 1 {
		t.Fatalf("delete_notes ran %d times, want 1", n)
	}
}
