package gateway

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/policy/coreapi"
)

// The gateway against a remote engine speaking reeflex-core's REST API (the
// handler `reflect core serve` runs), over real HTTP: decisions, a hold
// approved while the call waits (GET /v1/holds/{id}), and a wrong bearer
// failing closed.
func TestRemoteEngine(t *testing.T) {
	eng := newEngine(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: coreapi.Handler(eng, coreapi.Config{AuthToken: "core-tok"}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	remote, err := NewRemote(base, "core-tok", 5*time.Second, true)
	if err != nil {
		t.Fatal(err)
	}
	up := newCounterServer("read_notes", "delete_notes")
	_, cs := startGateway(t, Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "production", Server: up.srv}},
		Decider: remote, Mode: ModeEnforce, HoldWait: 10 * time.Second})
	if res := call(t, cs, "notes__read_notes", map[string]any{}); res.IsError || res.Meta["decision_id"] == nil {
		t.Fatalf("read via the remote engine: %s", jsonOf(t, res))
	}
	go func() {
		for range 100 {
			time.Sleep(100 * time.Millisecond)
			items, _, err := eng.Holds(context.Background(), "pending", 10, "")
			if err == nil && len(items) == 1 {
				_, _ = eng.Resolve(context.Background(), items[0].ID, policy.Resolution{Decision: "approve",
					Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}})
				return
			}
		}
	}()
	res := call(t, cs, "notes__delete_notes", map[string]any{"names": names(25)})
	if res.IsError || res.Meta["parent_decision_id"] == nil || up.count("delete_notes") != 1 {
		t.Fatalf("approved within the wait via the remote engine: %s", jsonOf(t, res))
	}
	bad, err := NewRemote(base, "wrong", 5*time.Second, true)
	if err != nil {
		t.Fatal(err)
	}
	_, cs2 := startGateway(t, Options{Builtins: []Builtin{{Name: "notes", System: "notes", Environment: "production", Server: newCounterServer("read_notes").srv}},
		Decider: bad, Mode: ModeEnforce})
	if res := call(t, cs2, "notes__read_notes", map[string]any{}); !res.IsError || !strings.Contains(text(res), "failing closed") ||
		!strings.Contains(text(res), "401") {
		t.Fatalf("a 401 without a decision must fail closed: %s", text(res))
	}
	if _, err := NewRemote("ftp://x", "", time.Second, true); err == nil {
		t.Fatal("a non-http REEFLEX_CORE_URL was accepted")
	}
}
