package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// TestExportJudgesTheRunTheDecisionWasMadeOn is new-user report #1: an
// accept made on one run's total is exported as confirmed with that run's
// value as the original, after the corpus was opened under another run that
// reads total differently.
func TestExportJudgesTheRunTheDecisionWasMadeOn(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 5); err != nil {
		t.Fatal(err)
	}
	const doc = "doc-000004"
	local, _, err := st.Result(ctx, "c", doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "total", Action: store.ActionAccept, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	replay := local
	replay.Data = local.Data.Clone()
	replay.Data["total"] = local.Data["total"].(float64) + 100
	replay.Status, replay.FlaggedFields = pipeline.StatusOK, nil
	if _, err := st.PutResult(ctx, "c", doc, "replay", replay); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if n, err := golden.Export(ctx, st, &buf, golden.ExportOptions{CorpusID: "c"}); err != nil || n != 1 {
		t.Fatalf("Export = %d, %v", n, err)
	}
	var row golden.ExportRow
	if err := json.Unmarshal(buf.Bytes(), &row); err != nil {
		t.Fatal(err)
	}
	if len(row.Review.Corrected) != 0 || len(row.Review.Confirmed) != 1 || row.Review.Confirmed[0] != "total" {
		t.Errorf("confirmed %v corrected %v; want total confirmed", row.Review.Confirmed, row.Review.Corrected)
	}
	if !store.SameValue(row.Review.Original["total"], local.Data["total"]) || !store.SameValue(row.Expected["total"], local.Data["total"]) {
		t.Errorf("original %v expected %v; want the accepted run's %v", row.Review.Original["total"], row.Expected["total"], local.Data["total"])
	}
	if _, ok := row.Review.Spans["total"]; ok {
		t.Errorf("spans of total point at the other run's value %v", replay.Data["total"])
	}
}
