package store_test

import (
	"context"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// TestStoreAnotherRunNeverRewritesDecisions is new-user report #1: a
// reviewer accepts total under one run ("local"); the corpus is then opened
// once under another provider ("replay") that reads total differently. The
// accept stays an accept (no correction nobody made), and opening under the
// first run again shows that run's result.
func TestStoreAnotherRunNeverRewritesDecisions(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004" // total flagged in the synthetic run
	local, _, err := s.Result(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionAccept, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	decs, err := s.Decisions(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	if d := decs["total"]; d.Version != storetest.Version || !d.Flagged || !store.SameValue(d.Original, local.Data["total"]) {
		t.Fatalf("decision = %+v; want it to record run %s, flagged, original %v", d, storetest.Version, local.Data["total"])
	}
	before, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}

	replay := local
	replay.Data = local.Data.Clone()
	replay.Data["total"] = local.Data["total"].(float64) + 100
	replay.Status, replay.FlaggedFields = pipeline.StatusOK, nil
	if _, err := s.PutResult(ctx, "c", doc, "replay", replay); err != nil {
		t.Fatal(err)
	}
	after, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if after.CorrectedFields != 0 || after.SilentWrong != 0 || after.CaughtWrong != 0 || after.Reviewed != before.Reviewed {
		t.Errorf("after another run: %+v; before it: %+v — the accept became a correction", after, before)
	}
	decs, _ = s.Decisions(ctx, "c", doc)
	if d := decs["total"]; !store.SameValue(d.Value, local.Data["total"]) {
		t.Errorf("settled total = %v, want the accepted %v", d.Value, local.Data["total"])
	}

	if runs, err := s.ShownRuns(ctx, "c"); err != nil || runs[storetest.Version] != 4 || runs["replay"] != 1 {
		t.Errorf("shown runs = %v, %v; want 4 documents under %s and 1 under replay", runs, err, storetest.Version)
	}
	n, err := s.ShowVersion(ctx, "c", storetest.Version)
	if err != nil || n != 1 {
		t.Fatalf("ShowVersion = %d, %v; want the one document switched back", n, err)
	}
	shown, _, err := s.Result(ctx, "c", doc)
	if err != nil || !store.SameValue(shown.Data["total"], local.Data["total"]) || shown.Status != pipeline.StatusNeedsReview {
		t.Errorf("shown after reopening under %s: total %v status %s, %v; want that run's result", storetest.Version, shown.Data["total"], shown.Status, err)
	}
	if n, err := s.ShowVersion(ctx, "c", storetest.Version); err != nil || n != 0 {
		t.Errorf("second ShowVersion = %d, %v; want nothing to switch", n, err)
	}
	// A document with no result for the asked run keeps its latest; the
	// run fills it in.
	if n, err := s.ShowVersion(ctx, "c", "never-run"); err != nil || n != 0 {
		t.Errorf("ShowVersion(never-run) = %d, %v", n, err)
	}
}

// TestStoreSkipSurvivesAnotherRun is new-user report #1's lost skip: a
// document set aside with S, with a decision since on a field the first run
// did not flag, stayed skipped until the corpus was opened under a run that
// flags nothing; then it counted as reviewed and was exported. The skip
// stands until a reviewer decides on the run shown.
func TestStoreSkipSurvivesAnotherRun(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 5)
	const doc = "doc-000004" // total flagged
	if _, err := s.Decide(ctx, store.VerdictDecision("c", doc, "ana", store.ActionSkip, "ask finance about the vendor")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "vendor_name", Action: store.ActionAccept, Reviewer: "bob"}); err != nil {
		t.Fatal(err)
	}
	res, _, err := s.Result(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	res.Status, res.FlaggedFields = pipeline.StatusOK, nil
	if _, err := s.PutResult(ctx, "c", doc, "replay", res); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if st.Skipped != 1 || st.Reviewed != 0 {
		t.Errorf("after another run: skipped %d reviewed %d; want the skip to stand", st.Skipped, st.Reviewed)
	}
	if rvs, err := s.Reviewed(ctx, "c"); err != nil || len(rvs) != 0 {
		t.Errorf("reviewed (exported) documents = %d, %v; want none", len(rvs), err)
	}
	// A decision made on the run shown completes it, as before.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionAccept, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(ctx, "c"); st.Skipped != 0 || st.Reviewed != 1 {
		t.Errorf("after a decision on the run shown: skipped %d reviewed %d", st.Skipped, st.Reviewed)
	}
}
