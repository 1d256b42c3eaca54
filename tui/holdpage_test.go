package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/store"
)

// recordingResolver is the page's resolver seen from the page: what it was
// asked, and an answer; on success it marks the queue item as cmd's does
// (cmd's holds_e2e test resolves through the engine).
type recordingResolver struct {
	mu    sync.Mutex
	st    *store.Store
	calls []string
	err   error
}

func (r *recordingResolver) Resolve(ctx context.Context, id string, approve bool, note string) (store.Summary, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf("%s %v %q", id, approve, note))
	if r.err != nil {
		return store.Summary{}, r.err
	}
	return r.st.ResolveToolCall(ctx, "claude-ai", id, store.Resolution{Approved: approve, Reviewer: "ana", Note: note, At: time.Now().UTC()})
}

func (r *recordingResolver) asked() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, "; ")
}

var holdNow = time.Date(2026, 12, 1, 9, 56, 0, 0, time.UTC)

func heldCall(id, rule string) store.ToolCall {
	return store.ToolCall{HoldID: id, Client: "claude-ai", Upstream: "fs", Tool: "write_file",
		Arguments: json.RawMessage(`{"path":"/srv/app/config.yaml","content":"` + strings.Repeat("x", 400) + `","mode":420}`),
		Class:     "write", Source: "mapping", Rule: rule, Reason: "writes outside the sandbox need a human",
		Expires: "2026-12-01T10:00:00Z", Budget: "deletions 25/20 (over), objects_touched 25/200",
		Linked: &store.LinkedValue{TraceID: "tr-42", Field: "total", Value: "683.2", Argument: "amount"}}
}

type holdFixture struct {
	st     *store.Store
	corpus store.Corpus
	r      *recordingResolver
}

func newHoldFixture(t testing.TB, calls ...store.ToolCall) holdFixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if _, _, err := st.EnqueueToolCall(ctx, "claude-ai", c); err != nil {
			t.Fatal(err)
		}
	}
	corpus, err := st.Corpus(ctx, store.QueueCorpusID("claude-ai"))
	if err != nil {
		t.Fatal(err)
	}
	return holdFixture{st: st, corpus: corpus, r: &recordingResolver{st: st}}
}

func (f holdFixture) config() Config {
	return Config{Store: f.st, Corpus: f.corpus, Reviewer: "ana", NoColor: true, Holds: f.r}
}

// holdModel is the workstation on the fixture's queue, its clock at holdNow.
func holdModel(t testing.TB, f holdFixture, w, h int) Model {
	t.Helper()
	m := New(f.config())
	m.details[store.KindToolCall].(*holdPage).now = func() time.Time { return holdNow }
	m = apply(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return runCmd(t, m, m.Init(), 0)
}

func storedCall(t testing.TB, f holdFixture, id string) store.ToolCall {
	t.Helper()
	d, err := f.st.Document(context.Background(), f.corpus.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := store.ParseToolCall(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHoldPageShowsTheCallAndApproves(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	m := openDoc(t, holdModel(t, f, 80, 24), "hold-1")
	v := viewText(m)
	for _, want := range []string{"held call hold-1", "fs · write_file · held", "write (from mapping)",
		"write_outside_sandbox", "writes outside the sandbox need a human", "(4m0s left)", "tr-42",
		`"path": "/srv/app/config.yaml"`, "240 more characters folded", "y/a approve", "n/r reject"} {
		if !strings.Contains(v, want) {
			t.Fatalf("view lacks %q:\n%s", want, v)
		}
	}
	m = press(t, m, "y")
	if got := f.r.asked(); got != `hold-1 true ""` {
		t.Fatalf("resolver asked %s", got)
	}
	c := storedCall(t, f, "hold-1")
	if c.Resolution == nil || !c.Resolution.Approved || c.Resolution.Reviewer != "ana" {
		t.Fatalf("stored resolution %+v", c.Resolution)
	}
	if row, _ := m.queue.Row("hold-1"); !row.Reviewed {
		t.Fatalf("queue row after approval: %+v", row)
	}
	v = viewText(m)
	if !strings.Contains(v, "saved: hold-1 approved by ana") || !strings.Contains(v, "identical retry runs once") {
		t.Fatalf("view after approval:\n%s", v)
	}
	// Decided: the keys do not ask the engine again.
	m = press(t, m, "n")
	if got := f.r.asked(); got != `hold-1 true ""` || !strings.Contains(viewText(m), "already approved") {
		t.Fatalf("second key asked %s; view:\n%s", got, viewText(m))
	}
}

func TestHoldPageRejectsWithANote(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	m := openDoc(t, holdModel(t, f, 80, 24), "hold-1")
	m = press(t, m, "r")
	if !m.detail.Capturing() || !strings.Contains(viewText(m), "note (optional)") {
		t.Fatalf("r opened no note:\n%s", viewText(m))
	}
	m = press(t, m, "esc")
	if f.r.asked() != "" || m.detail.Capturing() || m.page != pageDoc {
		t.Fatalf("esc in the note: asked %q, capturing %v, page %v", f.r.asked(), m.detail.Capturing(), m.page)
	}
	m = press(t, typeText(t, press(t, m, "n"), "not the prod config"), "enter")
	if got := f.r.asked(); got != `hold-1 false "not the prod config"` {
		t.Fatalf("resolver asked %s", got)
	}
	c := storedCall(t, f, "hold-1")
	if c.Resolution == nil || c.Resolution.Approved || c.Resolution.Note != "not the prod config" {
		t.Fatalf("stored resolution %+v", c.Resolution)
	}
	if v := viewText(m); !strings.Contains(v, "saved: hold-1 rejected by ana (not the prod config)") {
		t.Fatalf("view after rejection:\n%s", v)
	}
}

// An engine that refuses (actor = approver, already decided elsewhere)
// leaves the item as it was, and the screen says nothing was saved.
func TestHoldPageRefusedResolutionSavesNothing(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	f.r.err = errors.New("self_approval: the actor cannot approve its own action")
	m := press(t, openDoc(t, holdModel(t, f, 80, 24), "hold-1"), "a")
	v := viewText(m)
	if !strings.Contains(v, "! not resolved: self_approval") || strings.Contains(v, "saved") {
		t.Fatalf("view:\n%s", v)
	}
	if c := storedCall(t, f, "hold-1"); c.Resolution != nil {
		t.Fatalf("stored %+v after a refusal", c.Resolution)
	}
	if row, _ := m.queue.Row("hold-1"); row.Reviewed {
		t.Fatal("the queue row says reviewed after a refusal")
	}
	if !strings.Contains(v, "y/a approve") {
		t.Fatalf("the keys went away after a refusal:\n%s", v)
	}
}

// R3 is denied even with approval, an expired hold is gone, and without a
// resolver the workstation cannot act: none offers approve or reject, and
// the keys never reach the resolver.
func TestHoldPageOffersNothingItCannotResolve(t *testing.T) {
	r3 := heldCall("hold-r3", "reeflex.policy/irreversible_systemic_prod")
	old := heldCall("hold-old", "reeflex.policy/write_outside_sandbox")
	old.Expires = "2026-12-01T09:00:00Z"
	f := newHoldFixture(t, r3, old)
	for id, why := range map[string]string{"hold-r3": "denied even with approval", "hold-old": "has expired"} {
		m := openDoc(t, holdModel(t, f, 80, 24), id)
		m = press(t, m, "y", "n")
		v := viewText(m)
		if f.r.asked() != "" || strings.Contains(v, "approve") || !strings.Contains(v, why) {
			t.Fatalf("%s: asked %q; view:\n%s", id, f.r.asked(), v)
		}
	}
	cfg := f.config()
	cfg.Holds = nil
	m := New(cfg)
	m = apply(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = openDoc(t, runCmd(t, m, m.Init(), 0), "hold-old")
	if v := viewText(press(t, m, "y")); strings.Contains(v, "y/a approve") {
		t.Fatalf("no resolver, yet:\n%s", v)
	}
}

// A hold queued while the workstation is open shows at the next poll.
func TestNewHoldAppearsInAnOpenQueue(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	m := holdModel(t, f, 80, 24)
	if _, _, err := f.st.EnqueueToolCall(context.Background(), "claude-ai", heldCall("hold-2", "reeflex.policy/write_outside_sandbox")); err != nil {
		t.Fatal(err)
	}
	m = runCmd(t, m, m.svc.pollCmd(m.changeSeq, "", nil), 0)
	if row, ok := m.queue.Row("hold-2"); !ok || row.Kind != store.KindToolCall {
		t.Fatalf("row of the new hold: %+v %v", row, ok)
	}
}

func TestPrettyArgsFolds(t *testing.T) {
	items := make([]int, 100)
	raw, _ := json.Marshal(map[string]any{"text": strings.Repeat("é", 5000), "ids": items,
		"deep": map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": map[string]any{"e": map[string]any{"f": map[string]any{"g": 1}}}}}}}})
	folded := prettyArgs(raw, true)
	for _, want := range []string{"4840 more characters folded", "88 more items folded", "{… 1 keys folded: f}"} {
		if !strings.Contains(folded, want) {
			t.Fatalf("folded lacks %q:\n%s", want, folded)
		}
	}
	if whole := prettyArgs(raw, false); !strings.Contains(whole, strings.Repeat("é", 5000)) || strings.Contains(whole, "folded") {
		t.Fatal("unfolded arguments are not whole")
	}
	if got := prettyArgs(json.RawMessage(`{"n":12345678901234567890}`), true); !strings.Contains(got, "12345678901234567890") {
		t.Fatalf("a big number changed: %s", got)
	}
}

// The page offers the decision without claiming the agent still waits: past
// the gateway's --hold-wait the agent has its held result, and what an
// approval does is run the call once, at once or on the identical retry.
func TestHoldPageSaysWhenTheApprovedCallRuns(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	v := stripView(openDoc(t, holdModel(t, f, 80, 24), "hold-1").View().Content)
	if strings.Contains(v, "is waiting") || !strings.Contains(v, "it runs once, now or on the agent's retry") {
		t.Errorf("hold page's action line:\n%s", v)
	}
}

func TestGoldenHoldView(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	m := openDoc(t, holdModel(t, f, 80, 24), "hold-1")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenHoldView120(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	m := openDoc(t, holdModel(t, f, 120, 35), "hold-1")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// The real program: open the queue's hold, reject it with a note, approve
// another, and both answers are in the store when the screen says saved.
func TestProgramApprovesAndRejectsHolds(t *testing.T) {
	later := func(id string) store.ToolCall {
		c := heldCall(id, "reeflex.policy/write_outside_sandbox")
		c.Expires = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		return c
	}
	f := newHoldFixture(t, later("hold-1"), later("hold-2"))
	tm := teatest.NewTestModel(t, New(f.config()), teatest.WithInitialTermSize(80, 24))
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	// The renderer sends only what changed, so a status line may arrive
	// in pieces; the store says when an answer landed.
	resolved := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			done := 0
			for _, id := range []string{"hold-1", "hold-2"} {
				if storedCall(t, f, id).Resolution != nil {
					done++
				}
			}
			if done >= n {
				return
			}
		}
		t.Fatalf("fewer than %d holds resolved; resolver asked %s", n, f.r.asked())
	}
	wait("hold-2")
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("n"))
	tm.Type("too broad")
	tm.Send(keyMsg("enter"))
	resolved(1)
	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("j"))
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("y"))
	resolved(2)
	tm.Send(keyMsg("ctrl+c"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	got := map[bool]int{}
	for _, id := range []string{"hold-1", "hold-2"} {
		c := storedCall(t, f, id)
		if c.Resolution == nil {
			t.Fatalf("%s not resolved in the store; resolver asked %s", id, f.r.asked())
		}
		got[c.Resolution.Approved]++
	}
	if got[true] != 1 || got[false] != 1 {
		t.Fatalf("resolutions %v; resolver asked %s", got, f.r.asked())
	}
}

// TestExportKeyLeavesHeldCallsOut: E on a client's queue writes no held
// tool call as a golden document and says how many it left out (new-user
// report #3).
func TestExportKeyLeavesHeldCallsOut(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	if _, err := f.st.ResolveToolCall(context.Background(), "claude-ai", "hold-1", store.Resolution{Approved: false, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	cfg := f.config()
	cfg.ExportPath = filepath.Join(t.TempDir(), "queue-claude-ai.golden.jsonl")
	m := New(cfg)
	m = apply(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = runCmd(t, m, m.Init(), 0)
	m = press(t, m, "E")
	if m.statusErr || !strings.Contains(m.status, "exported 0 reviewed documents") || !strings.Contains(m.status, "left out 1 held tool call(s)") {
		t.Errorf("status after E on the queue: %q", m.status)
	}
	if b, err := os.ReadFile(cfg.ExportPath); err != nil || len(b) != 0 {
		t.Errorf("export: %v\n%s", err, b)
	}
}
