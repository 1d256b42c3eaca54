package store_test

import (
	"context"
	"errors"
	"github.com/reflect-mcp/reflect/store"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// TestStoreUndoNeverRestoresAnUndoneDecision: ann decides, bob overrides.
// ann's undo is refused, naming bob, and writes nothing (new-user report #9:
// it used to report "undone" and audit an undo that changed nothing). bob
// undoes (ann's value is back), then ann undoes: the field ends undecided.
func TestStoreUndoNeverRestoresAnUndoneDecision(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004"
	pipe, _, err := s.Result(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	decide := func(who string, v float64) {
		t.Helper()
		if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionCorrect, Value: v, Reviewer: who}); err != nil {
			t.Fatal(err)
		}
	}
	total := func() (any, bool) {
		t.Helper()
		decs, err := s.Decisions(ctx, "c", doc)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := decs["total"]
		return d.Value, ok
	}
	decide("ann", 1)
	decide("bob", 5)
	u, err := s.Undo(ctx, "c", "ann")
	var since *store.DecidedSinceError
	if !errors.As(err, &since) || since.By.Reviewer != "bob" || u.Found {
		t.Fatalf("ann's undo over bob's newer decision = %+v, %v; want refused naming bob", u, err)
	}
	if v, ok := total(); !ok || v != 5.0 {
		t.Fatalf("after ann's refused undo total = %v (decided %v), want bob's 5", v, ok)
	}
	if u, err := s.Undo(ctx, "c", "bob"); err != nil || !u.Found || u.Decision.Value != 5.0 {
		t.Fatalf("bob's undo = %+v %v", u, err)
	}
	if v, ok := total(); !ok || v != 1.0 {
		t.Fatalf("after bob's undo total = %v (decided %v), want ann's 1 back", v, ok)
	}
	if u, err := s.Undo(ctx, "c", "ann"); err != nil || !u.Found || u.Decision.Value != 1.0 {
		t.Fatalf("ann's undo = %+v %v", u, err)
	}
	if v, ok := total(); ok {
		t.Fatalf("after both undos total is decided as %v", v)
	}
	audit, err := s.Audit(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != 4 {
		t.Fatalf("audit has %d entries, want 4 (the refused undo writes none)", len(audit))
	}
	if e := audit[2]; e.Who != "bob" || e.Action != store.ActionUndo || e.Before != 5.0 || e.After != 1.0 {
		t.Errorf("bob's undo audited as %+v, want 5 -> ann's 1", e)
	}
	if e := audit[3]; e.Who != "ann" || e.Action != store.ActionUndo || e.Before != 1.0 || e.After != pipe.Data["total"] {
		t.Errorf("ann's undo audited as %+v, want 1 -> the pipeline's %v", e, pipe.Data["total"])
	}
	sums, _ := s.Summaries(ctx, "c")
	if sums[4].Decisions != 0 || sums[4].Reviewed {
		t.Errorf("summary after the undos = %+v", sums[4])
	}
	for _, who := range []string{"ann", "bob"} {
		if u, err := s.Undo(ctx, "c", who); u.Found || err != nil {
			t.Errorf("%s: another undo = %+v %v", who, u, err)
		}
	}
}

// TestStoreRedoRefusesOverANewerDecision is new-user report #9's redo: bob
// accepts, undoes, ana corrects; bob's redo is refused naming ana and
// writes nothing. Without ana's decision the redo goes through.
func TestStoreRedoRefusesOverANewerDecision(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004"
	accept := store.Decision{CorpusID: "c", DocID: doc, Field: "invoice_number", Action: store.ActionAccept, Reviewer: "bob"}
	if _, err := s.Decide(ctx, accept); err != nil {
		t.Fatal(err)
	}
	if u, err := s.UndoAction(ctx, "c", doc, "bob"); err != nil || !u.Found {
		t.Fatalf("bob's undo = %+v %v", u, err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "invoice_number", Action: store.ActionCorrect, Value: "DM-9999", Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	before, _ := s.Audit(ctx, "c")
	_, err := s.Redo(ctx, accept)
	var since *store.DecidedSinceError
	if !errors.As(err, &since) || since.By.Reviewer != "ana" || !strings.Contains(err.Error(), "ana decided invoice_number") {
		t.Fatalf("bob's redo over ana's newer correction = %v; want refused naming ana", err)
	}
	decs, _ := s.Decisions(ctx, "c", doc)
	if d := decs["invoice_number"]; d.Reviewer != "ana" || d.Value != "DM-9999" {
		t.Errorf("after the refused redo invoice_number = %+v; want ana's DM-9999", d)
	}
	if after, _ := s.Audit(ctx, "c"); len(after) != len(before) {
		t.Errorf("the refused redo wrote %d audit entries", len(after)-len(before))
	}
	// ana undoes hers: nothing newer stands, so bob's redo goes through.
	if _, err := s.UndoAction(ctx, "c", doc, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Redo(ctx, accept); err != nil {
		t.Fatalf("redo with nothing newer standing: %v", err)
	}
}

// TestStoreRequiredNullCorrected follows a required field the pipeline left
// null (so the gate flagged it) through a correction: the settled record,
// the queue row and the statistics must all see the reviewer's value.
func TestStoreRequiredNullCorrected(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "file"}, []store.Document{{ID: "d", Text: "Globex Ltd, amount due 583.20"}}); err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{Status: pipeline.StatusNeedsReview, OverallConfidence: 0.6,
		Data:          pipeline.Record{"vendor_name": "Globex Ltd", "total": nil},
		FlaggedFields: []pipeline.FlaggedField{{Field: "total", Reason: "required field is null"}},
		FieldOrder:    []string{"vendor_name", "total"}}
	if _, err := s.PutResult(ctx, "c", "d", "v1", res); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "d", Field: "total", Action: store.ActionCorrect, Value: 583.2, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	rec, reviewed, err := s.Settled(ctx, "c", "d")
	if err != nil || !reviewed || rec["total"] != 583.2 || rec["vendor_name"] != "Globex Ltd" {
		t.Fatalf("Settled = %v reviewed=%v err=%v", rec, reviewed, err)
	}
	decs, _ := s.Decisions(ctx, "c", "d")
	if d := decs["total"]; d.Original != nil {
		t.Errorf("Original = %v, want the pipeline's null", d.Original)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{Documents: 1, WithResult: 1, Reviewed: 1, DecidedFields: 1, CorrectedFields: 1,
		FlaggedFields: 1, CaughtWrong: 1, CatchRate: 1}
	if st != want {
		t.Errorf("stats = %+v\nwant    %+v", st, want)
	}
	// Undoing the correction puts the null back and the document back in the queue.
	if u, err := s.Undo(ctx, "c", "ann"); err != nil || !u.Found {
		t.Fatal(u, err)
	}
	rec, reviewed, _ = s.Settled(ctx, "c", "d")
	if v, present := rec["total"]; reviewed || !present || v != nil {
		t.Errorf("after undo Settled = %v reviewed=%v, want total null and not reviewed", rec, reviewed)
	}
}

// Values a reviewer types into a document whose run failed are neither caught
// nor silent-wrong: the gate returned no value as if it were fine.
func TestStatsIgnoreCorrectionsOfFailedRuns(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "file"}, []store.Document{{ID: "d", Text: "Total 5.00"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutResult(ctx, "c", "d", "v1", pipeline.ErrorResult("d", "t", errors.New("HTTP 503"))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "d", Field: "total", Action: store.ActionCorrect, Value: 5.0, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if st.SilentWrong != 0 || st.CaughtWrong != 0 || st.Errors != 1 {
		t.Fatalf("stats = %+v", st)
	}
}

// The same decision twice is one decision: one undo takes it back.
func TestRepeatedDecisionIsRecordedOnce(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "file"}, []store.Document{{ID: "d", Text: "Total 5.00"}}); err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{Status: pipeline.StatusNeedsReview, Data: pipeline.Record{"total": 5.0},
		FlaggedFields: []pipeline.FlaggedField{{Field: "total"}}, FieldOrder: []string{"total"}}
	if _, err := s.PutResult(ctx, "c", "d", "v1", res); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: "d", Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
			t.Fatal(err)
		}
	}
	if audit, _ := s.Audit(ctx, "c"); len(audit) != 1 {
		t.Fatalf("audit has %d entries, want 1", len(audit))
	}
	if u, err := s.Undo(ctx, "c", "ann"); err != nil || !u.Found {
		t.Fatal(u, err)
	}
	if decs, _ := s.Decisions(ctx, "c", "d"); len(decs) != 0 {
		t.Fatalf("one undo should clear the accept: %v", decs)
	}
}
