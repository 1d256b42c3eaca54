package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/store"
)

// A document another reviewer has open is marked "open by NAME" on its queue
// row and on its page; this workstation's own presence is written from the
// poll (never from Update) when a document opens, and cleared when it is
// left.
func TestOpenByAnotherReviewer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := loaded(t, f.config())
	if err := f.st.SetPresence(ctx, f.corpus.ID, "bob", "inv-002", time.Now()); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	row := rowLine(t, m, "inv-002")
	if !strings.Contains(row, "open by bob") {
		t.Fatalf("inv-002's row does not say bob has it open: %q", row)
	}
	if strings.Contains(rowLine(t, m, "inv-001"), "open by") {
		t.Fatal("inv-001's row is marked too")
	}

	m = openDoc(t, m, "inv-002")
	if v := viewText(m); !strings.Contains(v, "inv-002 · open by bob") {
		t.Fatalf("the page does not say bob has it open:\n%s", v)
	}
	// Opening wrote nothing: Update does no IO; the next poll does.
	if who := presence(t, f)["tester"]; who != "" {
		t.Fatalf("presence written outside the poll: tester on %q", who)
	}
	m = apply(t, m, pollMsg{})
	if who := presence(t, f)["tester"]; who != "inv-002" {
		t.Fatalf("after a poll on inv-002, the store has tester on %q", who)
	}
	// A poll within the heartbeat writes nothing new (the entry's time
	// stays); leaving the document clears it at the next poll.
	before := presenceAt(t, f, "tester")
	m = apply(t, m, pollMsg{})
	if presenceAt(t, f, "tester") != before {
		t.Error("a poll inside the heartbeat rewrote the presence")
	}
	m = press(t, m, "q")
	m = apply(t, m, pollMsg{})
	if who, ok := presence(t, f)["tester"]; ok {
		t.Fatalf("after leaving, the store still has tester on %q", who)
	}
	// bob leaves too: his mark goes at the next poll.
	if err := f.st.SetPresence(ctx, f.corpus.ID, "bob", "", time.Now()); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	if strings.Contains(rowLine(t, m, "inv-002"), "open by") {
		t.Fatal("bob's mark stayed after he left")
	}
}

func rowLine(t *testing.T, m Model, id string) string {
	t.Helper()
	m = press(t, m, "5")
	for _, l := range strings.Split(viewText(m), "\n") {
		if strings.Contains(l, " "+id+" ") {
			return l
		}
	}
	t.Fatalf("no row for %s:\n%s", id, viewText(m))
	return ""
}

func presence(t *testing.T, f fixture) map[string]string {
	t.Helper()
	ps, err := f.st.PresenceIn(context.Background(), f.corpus.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ps {
		out[p.Reviewer] = p.DocID
	}
	return out
}

func presenceAt(t *testing.T, f fixture, who string) time.Time {
	t.Helper()
	ps, err := f.st.PresenceIn(context.Background(), f.corpus.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Reviewer == who {
			return p.At
		}
	}
	t.Fatalf("no presence for %s", who)
	return time.Time{}
}

// marksScreen is the queue with bob on inv-002 and inv-001's text changed
// in the file.
func marksScreen(t *testing.T, wide bool) Model {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	docs := append([]store.Document(nil), f.docs...)
	docs[0].Text += "\nedited"
	if err := f.st.PutCorpus(ctx, f.corpus, docs); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetPresence(ctx, f.corpus.ID, "bob", "inv-002", time.Now()); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, f.config())
	if wide {
		m = apply(t, m, tea.WindowSizeMsg{Width: 120, Height: 35})
	}
	return apply(t, m, pollMsg{})
}

func TestGoldenQueueMarks(t *testing.T) {
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(marksScreen(t, false).View().Content)))
}

func TestGoldenQueueMarks120(t *testing.T) {
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(marksScreen(t, true).View().Content)))
}

// A held call another reviewer has open says so on its page too: two
// approvers must not answer one call at once.
func TestOpenByOnAHeldCall(t *testing.T) {
	f := newHoldFixture(t, heldCall("hold-1", "reeflex.policy/write_outside_sandbox"))
	if err := f.st.SetPresence(context.Background(), f.corpus.ID, "bob", "hold-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	m := apply(t, holdModel(t, f, 80, 24), pollMsg{})
	m = apply(t, m, OpenDocMsg{DocID: "hold-1"})
	if v := viewText(m); !strings.Contains(v, "open by bob") {
		t.Fatalf("the held call's page:\n%s", v)
	}
	apply(t, m, pollMsg{})
	if who := presence(t, fixture{st: f.st, corpus: f.corpus})["ana"]; who != "hold-1" {
		t.Fatalf("after a poll on hold-1 the store has ana on %q", who)
	}
}

// Entries of the last reading that go stale while the store file stays as
// it was (a workstation killed without clearing its presence) are dropped
// without reading the store again; this reviewer's own entry never shows.
func TestPresenceExpiresWithoutARead(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var p presenceState
	p.set([]store.Presence{{Reviewer: "bob", DocID: "inv-002", At: at}, {Reviewer: "me", DocID: "inv-001", At: at}}, "me", at)
	if p.openBy("inv-002") != "bob" || p.openBy("inv-001") != "" {
		t.Fatalf("read: inv-002 %q, inv-001 %q", p.openBy("inv-002"), p.openBy("inv-001"))
	}
	p.expire("me", at.Add(store.PresenceStale))
	if p.openBy("inv-002") != "bob" {
		t.Fatal("bob's entry went before it was stale")
	}
	p.expire("me", at.Add(store.PresenceStale+time.Second))
	if who := p.openBy("inv-002"); who != "" {
		t.Fatalf("a stale entry still shows %q", who)
	}
}
