package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/tui"
)

// One queue for answers and actions, end to end: the real gateway in
// enforce mode holds an agent's call, the hold is an item of the client's
// review queue, the reviewer approves it on the workstation's page (the
// engine resolves it as `reflect holds approve` does), and the agent's
// identical retry runs, once.
func TestHeldCallApprovedOnTheWorkstationRuns(t *testing.T) {
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	cmd := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--no-reflect-tools", "--hold-wait", "0s")
	cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, nil).
		Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close(); _ = cmd.Wait() }()
	names := make([]string, 25)
	for i := range names {
		names[i] = fmt.Sprintf("entity-%02d", i)
	}
	callDelete := func() *mcpsdk.CallToolResult {
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "memory__delete_entities", Arguments: map[string]any{"entityNames": names}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	held := callDelete()
	txt := resultText(held)
	if !held.IsError || !strings.Contains(txt, "hold_id=") {
		t.Fatalf("25 deletions in production: %s", txt)
	}
	id := strings.Fields(strings.SplitN(txt, "hold_id=", 2)[1])[0]

	st, err := store.Open(storePath, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := st.Corpus(ctx, store.QueueCorpusID("claude-code"))
	if err != nil {
		t.Fatalf("no claude-code queue after the hold: %v", err)
	}
	d, err := st.Document(ctx, corpus.ID, id)
	if err != nil {
		t.Fatalf("hold %s is not in the queue: %v", id, err)
	}
	call, err := store.ParseToolCall(d)
	if err != nil || call.Upstream != "memory" || call.Tool != "delete_entities" || !strings.Contains(string(call.Arguments), "entity-24") ||
		!strings.HasPrefix(call.Budget, "deletions 25/20 (over)") {
		t.Fatalf("queued call %+v (%v)", call, err)
	}

	ef := engineFlags{store: storeFlags{path: storePath}}
	e, _, err := ef.engine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tcfg := tui.Config{Store: st, Corpus: corpus, Reviewer: "ana", NoColor: true,
		Holds: holdResolver{d: holdDecider{b: &localHolds{e: e}, st: st}, reviewer: "ana"}}
	tm := teatest.NewTestModel(t, tui.New(tcfg), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("need review")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		d, err := st.Document(ctx, corpus.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := store.ParseToolCall(d); c.Resolution != nil {
			if !c.Resolution.Approved || c.Resolution.Reviewer != "ana" {
				t.Fatalf("resolution %+v", c.Resolution)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page did not resolve the hold")
		}
	}
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	h, err := e.Hold(ctx, id)
	if err != nil || h.Status != "approved" || h.DecidedBy == "" || h.PrincipalSource != "local" {
		t.Fatalf("engine's hold %+v (%v)", h, err)
	}

	if ok := callDelete(); ok.IsError || ok.Meta["parent_decision_id"] == nil {
		t.Fatalf("identical retry after approval: %s", jsonString(ok))
	}
	if again := callDelete(); !again.IsError {
		t.Fatalf("a second retry ran: %s", jsonString(again))
	}
}

// `reflect holds approve` and the workstation's y are one path: the CLI
// resolves in the engine and marks the queue item; a page left open on the
// call, pressed afterwards, says who decided it and sends nothing.
func TestHoldDecidedElsewhereSendsNothing(t *testing.T) {
	ctx := context.Background()
	storePath := filepath.Join(t.TempDir(), "reflect.db")
	ef := engineFlags{store: storeFlags{path: storePath}}
	e, st, err := ef.engine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	d, err := e.Decide(ctx, policy.Envelope{"agent": map[string]any{"session_id": "mcp-gateway:s1"},
		"action": map[string]any{"verb": "delete"}, "target": map[string]any{"system": "memory", "environment": "production"},
		"magnitude": map[string]any{"count": json.Number("25")}})
	if err != nil || d.HoldID == "" {
		t.Fatalf("no hold: %+v %v", d, err)
	}
	if _, _, err := st.EnqueueToolCall(ctx, "claude-code", store.ToolCall{HoldID: d.HoldID, Client: "claude-code",
		Upstream: "memory", Tool: "delete_entities", Arguments: json.RawMessage(`{}`), Rule: d.Rule, Reason: d.Reason,
		Expires: d.ExpiresTS}); err != nil {
		t.Fatal(err)
	}
	corpus, err := st.Corpus(ctx, store.QueueCorpusID("claude-code"))
	if err != nil {
		t.Fatal(err)
	}
	tcfg := tui.Config{Store: st, Corpus: corpus, Reviewer: "ana", NoColor: true,
		Holds: holdResolver{d: holdDecider{b: &localHolds{e: e}, st: st}, reviewer: "ana"}}
	tm := teatest.NewTestModel(t, tui.New(tcfg), teatest.WithInitialTermSize(100, 30))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("need review")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("y approves")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))

	if r := run(t, "", "holds", "approve", d.HoldID, "--store", storePath, "--reviewer", "bob"); r.code != 0 {
		t.Fatalf("holds approve: exit %d\n%s%s", r.code, r.out, r.err)
	}
	doc, err := st.Document(ctx, corpus.ID, d.HoldID)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := store.ParseToolCall(doc); c.Resolution == nil || !c.Resolution.Approved || c.Resolution.Reviewer != "bob" {
		t.Fatalf("holds approve did not mark the queue item: %+v", c.Resolution)
	}

	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("already approved by bob: nothing sent"))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	h, err := e.Hold(ctx, d.HoldID)
	if err != nil || h.Status != policy.StatusApproved || !strings.Contains(h.DecidedBy, "bob") {
		t.Fatalf("engine's hold %+v (%v): the page sent its own answer", h, err)
	}
	if r := run(t, "", "holds", "reject", d.HoldID, "--store", storePath, "--reviewer", "carol"); r.code != ExitUsage ||
		!strings.Contains(r.err, "already approved by bob") {
		t.Fatalf("a second answer from the CLI: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
