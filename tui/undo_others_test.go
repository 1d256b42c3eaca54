package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// TestUndoRedoNeverCrossAnotherReviewersNewerDecision is new-user report
// #9, two reviewers on one store: bob accepts total, ana corrects it in her
// workstation, bob presses u. It used to say "undone" and audit an undo that
// changed nothing; then U overwrote ana's newer correction. Both are now
// refused with her name, and nothing is written.
func TestUndoRedoNeverCrossAnotherReviewersNewerDecision(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	cfg := f.config()
	cfg.Reviewer = "bob"
	anaDecides := func(v float64) {
		t.Helper()
		if _, err := f.st.Decide(ctx, store.Decision{CorpusID: f.corpus.ID, DocID: "inv-001", Field: "total",
			Action: store.ActionCorrect, Value: v, Reviewer: "ana"}); err != nil {
			t.Fatal(err)
		}
	}
	audited := func() int {
		t.Helper()
		es, err := f.st.Audit(ctx, f.corpus.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	m := selectField(t, openDoc(t, loaded(t, cfg), "inv-001"), "total")
	m = press(t, m, "a")
	anaDecides(583.2)
	n := audited()
	m = press(t, m, "u")
	if !m.statusErr || !strings.Contains(m.status, "not undone: ana decided total on inv-001") {
		t.Errorf("bob's u over ana's newer correction: status %q", m.status)
	}
	if d := decisions(t, f, "inv-001")["total"]; d.Reviewer != "ana" || d.Value != 583.2 {
		t.Errorf("total after bob's u = %+v; want ana's 583.2", d)
	}
	if got := audited(); got != n {
		t.Errorf("the refused undo wrote %d audit entries", got-n)
	}

	// The redo: bob undoes his own accept on another field first, ana
	// decides that field, and bob's U is refused.
	m = selectField(t, m, "invoice_number")
	m = press(t, m, "a", "u")
	if m.statusErr || !strings.Contains(m.status, "undone: accepted invoice_number") {
		t.Fatalf("bob's own undo: %q", m.status)
	}
	if _, err := f.st.Decide(ctx, store.Decision{CorpusID: f.corpus.ID, DocID: "inv-001", Field: "invoice_number",
		Action: store.ActionCorrect, Value: "DM-9999", Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	n = audited()
	m = press(t, m, "U")
	if !m.statusErr || !strings.Contains(m.status, "not redone: ana decided invoice_number on inv-001") {
		t.Errorf("bob's U over ana's newer correction: status %q", m.status)
	}
	if d := decisions(t, f, "inv-001")["invoice_number"]; d.Reviewer != "ana" || d.Value != "DM-9999" {
		t.Errorf("invoice_number after bob's U = %+v; want ana's DM-9999", d)
	}
	if got := audited(); got != n {
		t.Errorf("the refused redo wrote %d audit entries", got-n)
	}
}
