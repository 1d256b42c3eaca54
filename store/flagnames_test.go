package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A queue row names its flagged fields; a row without the trailing names
// (written before they existed) still decodes, with none.
func TestSummaryFlagNames(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "r.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := Corpus{ID: "file:f", Name: "f", Kind: "file", Schema: "invoice"}
	if err := s.PutCorpus(ctx, c, []Document{{CorpusID: c.ID, ID: "a", Text: "x"}}); err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{Status: pipeline.StatusNeedsReview, Data: pipeline.Record{"total": 1.0, "tax": 2.0},
		FlaggedFields: []pipeline.FlaggedField{{Field: "total"}, {Field: "tax"}, {Field: "total"}}}
	row, err := s.PutResult(ctx, c.ID, "a", "v", res)
	if err != nil || row.FlagNames != "total,tax" {
		t.Fatalf("row %+v, %v", row, err)
	}
	rows, err := s.Summaries(ctx, c.ID)
	if err != nil || len(rows) != 1 || rows[0].FlagNames != "total,tax" {
		t.Fatalf("stored rows %+v, %v", rows, err)
	}
	old := encodeSummary(sumRec{Summary: Summary{DocID: "b", Snippet: "s", Flagged: 2}})
	got, err := decodeSummary(old)
	if err != nil || got.FlagNames != "" || got.Snippet != "s" || got.Flagged != 2 {
		t.Fatalf("row without names: %+v, %v", got, err)
	}
	withNames, err := decodeSummary(encodeSummary(sumRec{Summary: Summary{DocID: "b", Snippet: "s", FlagNames: "tax"}}))
	if err != nil || withNames.FlagNames != "tax" {
		t.Fatalf("round trip: %+v, %v", withNames, err)
	}
}
