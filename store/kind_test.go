package store_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// testdata/v1.db was written by the last reflect whose store had no kinds
// (schema version 1, summary rows in format 1): three documents of a corpus
// (a corrected needs_review one, an ok one, one without a result) and one
// item an MCP client queued.
func TestStoreUpgradesAVersion1File(t *testing.T) {
	ctx := context.Background()
	raw, err := os.ReadFile(filepath.Join("testdata", "v1.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v1.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("Open of a version 1 file: %v", err)
	}
	if store.SchemaVersion() < 2 {
		t.Fatalf("SchemaVersion = %d; this test is about the upgrade to 2 (and any after it)", store.SchemaVersion())
	}
	checkFile(t, path)

	rows, err := s.Summaries(ctx, "file:v1")
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Summary{
		{DocID: "a", Kind: store.KindExtraction, Seq: 0, Status: pipeline.StatusNeedsReview, Confidence: 0.6, Flagged: 1,
			Reviewed: true, Decisions: 1, Corrected: 1, Snippet: "ACME Ltd"},
		{DocID: "b", Kind: store.KindExtraction, Seq: 1, Status: pipeline.StatusOK, Confidence: 0.95, Snippet: "Globex"},
		{DocID: "c", Kind: store.KindExtraction, Seq: 2, Snippet: "Initech"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %+v", rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v\nwant     %+v", i, rows[i], want[i])
		}
	}
	d, err := s.Document(ctx, "file:v1", "a")
	if err != nil || d.Kind != store.KindExtraction || d.Text != "ACME Ltd\nTotal 10.00 GBP" || d.Expected["total"] != 10.0 {
		t.Errorf("document a = %+v, %v", d, err)
	}
	rec, reviewed, err := s.Settled(ctx, "file:v1", "a")
	if err != nil || !reviewed || rec["total"] != 11.0 || rec["vendor_name"] != "ACME Ltd" {
		t.Errorf("Settled(a) = %v %v %v", rec, reviewed, err)
	}
	if st, err := s.Stats(ctx, "file:v1"); err != nil || st.CaughtWrong != 1 || st.Reviewed != 1 || st.AutoAccepted != 1 {
		t.Errorf("Stats = %+v, %v", st, err)
	}
	if audit, err := s.Audit(ctx, "file:v1"); err != nil || len(audit) != 1 || audit[0].After != 11.0 {
		t.Errorf("Audit = %+v, %v", audit, err)
	}
	queued, err := s.Summaries(ctx, store.QueueCorpusID("claude-desktop"))
	if err != nil || len(queued) != 1 || queued[0].Kind != store.KindExtraction || queued[0].DocID != "q1" {
		t.Errorf("queue rows = %+v, %v", queued, err)
	}
	if c, d, ok, err := s.FindTrace(ctx, "trace-q"); err != nil || !ok || c != store.QueueCorpusID("claude-desktop") || d != "q1" {
		t.Errorf("FindTrace(trace-q) = %q %q %v %v", c, d, ok, err)
	}

	// The upgraded file takes new work, and a second Open finds nothing to do.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "file:v1", DocID: "b", Field: "total", Action: store.ActionAccept, Reviewer: "bob"}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.Summaries(ctx, "file:v1"); !rows[1].Reviewed || rows[1].Kind != store.KindExtraction {
		t.Errorf("row b after a decision = %+v", rows[1])
	}
}

func TestStoreKeepsEachItemsKind(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	docs := []store.Document{
		{ID: "doc", Text: "an invoice"},
		{ID: "call", Kind: store.KindToolCall, Text: "delete_file(path=/etc/passwd)"},
	}
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "mcp"}, docs); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Summaries(ctx, "c")
	if err != nil || len(rows) != 2 || rows[0].Kind != store.KindExtraction || rows[1].Kind != store.KindToolCall {
		t.Fatalf("rows = %+v, %v", rows, err)
	}
	if d, err := s.Document(ctx, "c", "call"); err != nil || d.Kind != store.KindToolCall {
		t.Errorf("Document(call) = %+v, %v", d, err)
	}
	row, err := s.PutResult(ctx, "c", "call", "v1", pipeline.Result{Status: pipeline.StatusNeedsReview})
	if err != nil || row.Kind != store.KindToolCall {
		t.Errorf("PutResult row = %+v, %v", row, err)
	}
}

// The rows the write methods return are the rows the store keeps: a UI that
// shows them never needs to compute one.
func TestStoreWritesReturnTheStoredRows(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := storetest.Populate(ctx, s, "c", 10); err != nil {
		t.Fatal(err)
	}
	stored := func(seq int) store.Summary {
		t.Helper()
		rows, err := s.Summaries(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		return rows[seq]
	}
	rows, err := s.Decide(ctx,
		store.Decision{CorpusID: "c", DocID: "doc-000004", Field: "total", Action: store.ActionCorrect, Value: 1.0, Reviewer: "ann"},
		store.Decision{CorpusID: "c", DocID: "doc-000002", Field: "tax", Action: store.ActionAccept, Reviewer: "ann"},
		store.Decision{CorpusID: "c", DocID: "doc-000004", Field: "tax", Action: store.ActionAccept, Reviewer: "ann"})
	if err != nil || len(rows) != 2 {
		t.Fatalf("Decide rows = %+v, %v", rows, err)
	}
	if rows[0] != stored(4) || rows[1] != stored(2) || !rows[0].Reviewed || rows[0].Corrected != 1 {
		t.Errorf("Decide rows = %+v\nstored %+v %+v", rows, stored(4), stored(2))
	}
	u, err := s.Undo(ctx, "c", "ann")
	if err != nil || !u.Found || u.Row != stored(4) || u.Row.Decisions != 1 || !u.Row.Reviewed {
		t.Errorf("Undo = %+v, %v; stored %+v", u, err, stored(4))
	}
	_, res := storetest.Synthetic(3, pipeline.Invoice().FieldNames())
	res.Status, res.OverallConfidence = pipeline.StatusNeedsReview, 0.3
	row, err := s.PutResult(ctx, "c", "doc-000003", "v2", res)
	if err != nil || row != stored(3) || row.Status != pipeline.StatusNeedsReview || row.Confidence != 0.3 {
		t.Errorf("PutResult row = %+v, %v; stored %+v", row, err, stored(3))
	}
	many, err := s.PutResults(ctx, "c", "v2", []store.DocResult{{DocID: "doc-000001", Result: res}, {DocID: "doc-000000", Result: res}})
	if err != nil || len(many) != 2 || many[0] != stored(1) || many[1] != stored(0) {
		t.Errorf("PutResults rows = %+v, %v", many, err)
	}
	cid, qrow, err := s.Enqueue(ctx, "cursor", store.Document{ID: "q", Text: "queued"}, "v1", res)
	if err != nil {
		t.Fatal(err)
	}
	if qrows, _ := s.Summaries(ctx, cid); len(qrows) != 1 || qrows[0] != qrow || qrow.DocID != "q" || qrow.Kind != store.KindExtraction {
		t.Errorf("Enqueue row = %+v; stored %+v", qrow, qrows)
	}
}

// A kind is its name in JSON (what export and the MCP server show), and a
// name this build does not know is an error, not an extraction.
func TestKindIsItsNameInJSON(t *testing.T) {
	b, err := json.Marshal(store.Summary{DocID: "x", Kind: store.KindToolCall})
	if err != nil || !strings.Contains(string(b), `"kind":"tool_call"`) {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var d store.Document
	if err := json.Unmarshal([]byte(`{"id":"a"}`), &d); err != nil || d.Kind != store.KindExtraction {
		t.Errorf("a document without a kind: %+v, %v", d, err)
	}
	if err := json.Unmarshal([]byte(`{"id":"a","kind":"tool_call"}`), &d); err != nil || d.Kind != store.KindToolCall {
		t.Errorf("tool_call: %+v, %v", d, err)
	}
	if err := json.Unmarshal([]byte(`{"id":"a","kind":"hologram"}`), &d); err == nil {
		t.Error("an unknown kind decoded without error")
	}
}
