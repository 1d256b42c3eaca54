package gateway

import (
	"context"
	"strings"
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
