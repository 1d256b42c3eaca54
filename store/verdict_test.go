package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// TestVerdictRejectUndoRedo: rejecting a document is one decision on the
// whole document. It makes the row reviewed and rejected, leaves the field
// decisions and the settled record alone, is in the audit trail, is taken
// back by one UndoAction, and deciding the undone action again redoes it.
func TestVerdictRejectUndoRedo(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004" // needs_review, total flagged
	rows, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionReject, "  blank page "))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Verdict != store.ActionReject || !rows[0].Reviewed || rows[0].Decisions != 0 {
		t.Fatalf("row after reject = %+v, want reviewed, verdict reject, no field decisions", rows)
	}
	v, ok, err := s.Verdict(ctx, "c", doc)
	if err != nil || !ok || v.Action != store.ActionReject || v.Note != "blank page" || v.Reviewer != "ann" {
		t.Fatalf("Verdict = %+v %v %v, want ann's reject with the trimmed note", v, ok, err)
	}
	decs, err := s.Decisions(ctx, "c", doc)
	if err != nil || len(decs) != 0 {
		t.Fatalf("Decisions = %v %v: a verdict is not a field decision", decs, err)
	}
	// Decided, but no value of it is settled: an agent or the gateway
	// must not take its values as confirmed.
	rec, reviewed, err := s.Settled(ctx, "c", doc)
	if err != nil || reviewed {
		t.Fatalf("Settled: reviewed %v err %v, want a rejected document's values unsettled", reviewed, err)
	}
	open, _, _, err := s.UnsettledSince(ctx, "c", 0)
	if err != nil || len(open) != 1 || open[0].DocID != doc {
		t.Fatalf("UnsettledSince = open %+v %v, want the rejected document's flagged values still open", open, err)
	}
	if _, leaked := rec[store.VerdictField]; leaked {
		t.Errorf("settled record carries the verdict as a field: %v", rec)
	}
	sums, err := s.Summaries(ctx, "c")
	if err != nil || sums[4].Verdict != store.ActionReject {
		t.Fatalf("stored row = %+v %v, want the verdict kept in the row", sums[4], err)
	}

	audit, err := s.Audit(ctx, "c")
	if err != nil || len(audit) != 1 {
		t.Fatalf("audit = %+v %v, want one entry", audit, err)
	}
	if e := audit[0]; e.Field != store.VerdictField || e.Action != store.ActionReject || e.After != "blank page" || e.Who != "ann" {
		t.Errorf("audit entry = %+v", e)
	}

	u, err := s.UndoAction(ctx, "c", doc, "ann")
	if err != nil || !u.Found || len(u.Decisions) != 1 || u.Decisions[0].Action != store.ActionReject {
		t.Fatalf("UndoAction = %+v %v, want the reject back", u, err)
	}
	if u.Row.Verdict != "" || u.Row.Reviewed {
		t.Errorf("row after undo = %+v, want no verdict, not reviewed", u.Row)
	}
	if _, ok, _ := s.Verdict(ctx, "c", doc); ok {
		t.Error("verdict still stands after undo")
	}
	// Redo is the undone action decided again, as the workstation's U does.
	if rows, err = s.Decide(ctx, u.Decisions...); err != nil || rows[0].Verdict != store.ActionReject {
		t.Fatalf("redo = %+v %v", rows, err)
	}
	audit, _ = s.Audit(ctx, "c")
	var actions []string
	for _, e := range audit {
		actions = append(actions, string(e.Action))
	}
	if got := strings.Join(actions, ","); got != "reject,undo,reject" {
		t.Errorf("audit actions = %s, want reject,undo,reject", got)
	}
}

// TestVerdictSkipWithNote: a skip must say why; it keeps the document
// unreviewed (still to do) with the note, and is refused on a field or
// without a reviewer.
func TestVerdictSkipWithNote(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004"
	if _, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionSkip, "   ")); err == nil ||
		!strings.Contains(err.Error(), "needs a note") {
		t.Fatalf("skip without a note: err = %v, want it refused", err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionReject, Reviewer: "ann"}); err == nil {
		t.Error("a reject on a field was accepted")
	}
	if _, err := s.Decide(ctx, store.VerdictDecision("c", doc, "", store.ActionReject, "")); err == nil {
		t.Error("a verdict without a reviewer was accepted")
	}
	if a, _ := s.Audit(ctx, "c"); len(a) != 0 {
		t.Fatalf("refused verdicts left %d audit entries", len(a))
	}

	rows, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionSkip, "ask finance: two totals"))
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Verdict != store.ActionSkip || r.Reviewed {
		t.Errorf("row after skip = %+v, want skipped and still unreviewed", r)
	}
	v, ok, err := s.Verdict(ctx, "c", doc)
	if err != nil || !ok || v.Note != "ask finance: two totals" {
		t.Errorf("Verdict = %+v %v %v", v, ok, err)
	}
	// A later reject replaces the skip; undoing it brings the skip back.
	if _, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionReject, "")); err != nil {
		t.Fatal(err)
	}
	if u, err := s.UndoAction(ctx, "c", doc, "ann"); err != nil || u.Row.Verdict != store.ActionSkip {
		t.Fatalf("undo of the reject: row %+v err %v, want the skip back", u.Row, err)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil || st.Skipped != 1 || st.Rejected != 0 || st.NeedsReview != 1 {
		t.Errorf("stats = %+v %v, want 1 skipped still awaiting review", st, err)
	}
}

// TestVerdictRejectOnAnErrorResult: a document whose run failed has no
// fields to decide, but can still be rejected, and then counts as rejected,
// not as reviewed.
func TestVerdictRejectOnAnErrorResult(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 50)
	const doc = "doc-000049" // storetest makes every 50th an error
	rows, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionReject, "photo of a cat"))
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Status != "error" || rows[0].Verdict != store.ActionReject {
		t.Fatalf("row = %+v", rows[0])
	}
	st, err := s.Stats(ctx, "c")
	if err != nil || st.Rejected != 1 || st.Reviewed != 0 || st.Errors != 1 {
		t.Errorf("stats = %+v %v, want 1 rejected (an error), 0 reviewed", st, err)
	}
}

// TestVerdictSkippedThenReviewed: a document set aside and reviewed later is
// reviewed: exported like any other and no longer counted as skipped.
func TestVerdictSkippedThenReviewed(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004"
	if _, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ann", store.ActionSkip, "ask finance")); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionAccept, Reviewer: "bob"})
	if err != nil || !rows[0].Reviewed || rows[0].Verdict != store.ActionSkip {
		t.Fatalf("row = %+v %v, want reviewed, the skip kept as history", rows, err)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil || st.Skipped != 0 || st.Reviewed != 1 {
		t.Errorf("stats = %+v %v, want 0 skipped, 1 reviewed", st, err)
	}
	rvs, err := s.Reviewed(ctx, "c")
	if err != nil || len(rvs) != 1 || rvs[0].Verdict.Action != store.ActionSkip {
		t.Errorf("Reviewed = %+v %v", rvs, err)
	}
}
