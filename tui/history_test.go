package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/store"
)

// h on a document shows its trail: who decided what, when, the value before
// and after, newest first; the pane follows this reviewer's own decisions and
// undos and, through the poll, another reviewer's.
func TestHistoryPaneKey(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "h")
	if !m.doc.showHistory || !strings.Contains(viewText(m), "no decisions on this document yet") {
		t.Fatalf("h on an undecided document:\n%s", viewText(m))
	}

	// Correct total (683.2 -> 583.2) with the pane open: it shows at once.
	m = selectField(t, m, "total")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter")
	lines := historyLines(m)
	if len(lines) != 1 || !strings.Contains(lines[0], "tester  corrected total  683.20 → 583.20") {
		t.Fatalf("after a correction the pane shows %q", lines)
	}

	// Another reviewer accepts a field; the poll brings it in, on top.
	if _, err := f.st.Decide(ctx, store.Decision{CorpusID: f.corpus.ID, DocID: "inv-001", Field: "tax",
		Action: store.ActionAccept, Reviewer: "bob"}); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	lines = historyLines(m)
	if len(lines) != 2 || !strings.Contains(lines[0], "bob  accepted tax  43.20 → 43.20") ||
		!strings.Contains(lines[1], "tester  corrected total") {
		t.Fatalf("after bob's accept the pane shows %q", lines)
	}

	// An undo is in the trail too, newest first.
	m = press(t, m, "u")
	lines = historyLines(m)
	if len(lines) != 3 || !strings.Contains(lines[0], "tester  undid total  583.20 → 683.20") {
		t.Fatalf("after u the pane shows %q", lines)
	}

	// h again gives the source text back.
	m = press(t, m, "h")
	if m.doc.showHistory || !strings.Contains(viewText(m), "Invoice No: A-1001") {
		t.Fatalf("h did not close the pane:\n%s", viewText(m))
	}
}

// historyLines is the pane's entries as shown, newest first.
func historyLines(m Model) []string {
	var out []string
	for _, l := range strings.Split(viewText(m), "\n") {
		if strings.Contains(l, "Z  ") {
			out = append(out, l)
		}
	}
	return out
}

// historyScreen is inv-001 with two decisions made at fixed times by two
// reviewers, its history pane open.
func historyScreen(t *testing.T, m Model, f fixture) Model {
	t.Helper()
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for i, d := range []store.Decision{
		{Field: "total", Action: store.ActionCorrect, Value: 583.2, Reviewer: "alice"},
		{Field: "vendor_name", Action: store.ActionAccept, Reviewer: "bob"},
	} {
		d.CorpusID, d.DocID, d.At = f.corpus.ID, "inv-001", at.Add(time.Duration(i)*time.Minute)
		if _, err := f.st.Decide(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	return press(t, openDoc(t, m, "inv-001"), "h")
}

func TestGoldenHistoryView(t *testing.T) {
	f := newFixture(t)
	m := historyScreen(t, loaded(t, f.config()), f)
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenHistoryView120(t *testing.T) {
	f := newFixture(t)
	m := historyScreen(t, wide(t, loaded(t, f.config())), f)
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}
