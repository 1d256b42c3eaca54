package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

func TestExportReviewedRows(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 10); err != nil {
		t.Fatal(err)
	}
	flaggedDoc, okDoc, halfDoc := "doc-000004", "doc-000001", "doc-000009"
	pipe, _, err := st.Result(ctx, "c", flaggedDoc)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	d := func(doc, field string, a store.Action, v any, who string, at time.Time) store.Decision {
		return store.Decision{CorpusID: "c", DocID: doc, Field: field, Action: a, Value: v, Reviewer: who, At: at}
	}
	_, err = st.Decide(ctx,
		d(flaggedDoc, "vendor_name", store.ActionAccept, nil, "ann", at),
		d(flaggedDoc, "total", store.ActionCorrect, 123.45, "ann", at.Add(time.Minute)),
		d(flaggedDoc, "tax", store.ActionSetNull, nil, "bob", at.Add(2*time.Minute)),
		d(okDoc, "invoice_number", store.ActionAccept, nil, "ann", at),
		// Not reviewed: its flagged total is still undecided.
		d(halfDoc, "vendor_name", store.ActionAccept, nil, "ann", at),
	)
	if err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	n, err := Export(ctx, st, &buf, ExportOptions{CorpusID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("exported %d rows, want 2 (the half-reviewed document must be left out)", n)
	}
	rows, lineErrs, err := ReadDataset(bytes.NewReader(buf.Bytes()))
	if err != nil || len(lineErrs) > 0 {
		t.Fatalf("ReadDataset: %v %v", err, lineErrs)
	}
	if len(rows) != 2 || rows[0].ID != okDoc || rows[1].ID != flaggedDoc {
		t.Fatalf("rows = %+v, want %s then %s", rows, okDoc, flaggedDoc)
	}
	got := rows[1]
	// Only the three fields a human decided are labels; eval must not score
	// the pipeline's subtotal as if someone had checked it.
	want := map[string]any{"vendor_name": pipe.Data["vendor_name"], "total": 123.45, "tax": nil}
	if len(got.Expected) != len(want) {
		t.Errorf("expected = %v, want only the 3 decided fields", got.Expected)
	}
	for f, v := range want {
		if gv, ok := got.Expected[f]; !ok || gv != v {
			t.Errorf("expected[%s] = %v (present %v), want %v", f, gv, ok, v)
		}
	}
	var full []ExportRow
	_ = ReadLines(bytes.NewReader(buf.Bytes()), func(l Line) error {
		var r ExportRow
		if err := json.Unmarshal(l.Raw, &r); err != nil {
			return err
		}
		full = append(full, r)
		return nil
	})
	if u := full[1].Unreviewed; len(u) != 4 || u["subtotal"] != pipe.Data["subtotal"] || u["invoice_number"] != pipe.Data["invoice_number"] {
		t.Errorf("unreviewed = %v, want the pipeline's 4 undecided fields", u)
	}
	if _, ok := full[1].Unreviewed["total"]; ok {
		t.Error("a decided field is also listed as unreviewed")
	}
	if !slices.Equal(full[1].Review.Confirmed, []string{"vendor_name"}) {
		t.Errorf("confirmed = %v, want [vendor_name]", full[1].Review.Confirmed)
	}
	if doc, _ := st.Document(ctx, "c", flaggedDoc); got.Text != doc.Text {
		t.Errorf("text = %q, want the document's", got.Text)
	}

	var reviews []ExportReview
	err = ReadLines(bytes.NewReader(buf.Bytes()), func(l Line) error {
		var r struct {
			Review ExportReview `json:"review"`
		}
		if err := json.Unmarshal(l.Raw, &r); err != nil {
			return err
		}
		reviews = append(reviews, r.Review)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rv := reviews[1]
	if rv.Reviewer != "bob" || !rv.ReviewedAt.Equal(at.Add(2*time.Minute)) || rv.Corpus != "c" {
		t.Errorf("review who/when/corpus = %q %v %q", rv.Reviewer, rv.ReviewedAt, rv.Corpus)
	}
	if !slices.Equal(rv.Corrected, []string{"tax", "total"}) {
		t.Errorf("corrected = %v, want [tax total] in schema order", rv.Corrected)
	}
	if rv.Original["total"] != pipe.Data["total"] || rv.Original["tax"] != pipe.Data["tax"] ||
		rv.Original["vendor_name"] != pipe.Data["vendor_name"] || len(rv.Original) != 3 {
		t.Errorf("original = %v, want the pipeline's values of the 3 decided fields", rv.Original)
	}
	if _, ok := rv.Spans["total"]; ok {
		t.Error("spans kept for the corrected total")
	}
	if s := rv.Spans["vendor_name"]; len(s) != 1 || s[0] != pipe.FieldProvenance["vendor_name"][0] {
		t.Errorf("vendor_name spans = %v, want %v", s, pipe.FieldProvenance["vendor_name"])
	}
	if rv.TraceID != pipe.TraceID || rv.TraceID == "" {
		t.Errorf("trace id = %q, want %q", rv.TraceID, pipe.TraceID)
	}
	if r0 := reviews[0]; len(r0.Corrected) != 0 || r0.Reviewer != "ann" {
		t.Errorf("accepted-only row review = %+v", r0)
	}

	buf.Reset()
	n, err = Export(ctx, st, &buf, ExportOptions{CorpusID: "c", OnlyCorrected: true})
	if err != nil {
		t.Fatal(err)
	}
	rows, _, _ = ReadDataset(bytes.NewReader(buf.Bytes()))
	if n != 1 || len(rows) != 1 || rows[0].ID != flaggedDoc {
		t.Errorf("OnlyCorrected wrote %d rows %+v, want only %s", n, rows, flaggedDoc)
	}

	if _, err := Export(ctx, st, &buf, ExportOptions{CorpusID: "missing"}); err == nil {
		t.Error("Export of an unknown corpus succeeded")
	}
}

// TestExportRequiredNullCorrected: the pipeline left a required total null
// (flagged), the reviewer typed it in. The golden row must carry the typed
// value, list total as corrected with its original null, and keep no spans
// for it.
func TestExportRequiredNullCorrected(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := "Globex Ltd\nAmount due 583.20"
	if err := st.PutCorpus(ctx, store.Corpus{ID: "c", Kind: "file"}, []store.Document{{ID: "d", Text: text}}); err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{Status: pipeline.StatusNeedsReview, TraceID: "t-1",
		Data:            pipeline.Record{"vendor_name": "Globex Ltd", "total": nil},
		FlaggedFields:   []pipeline.FlaggedField{{Field: "total", Reason: "required field is null"}},
		FieldProvenance: map[string][]pipeline.Span{"vendor_name": {{Start: 0, End: 10}}, "total": {}},
		FieldOrder:      []string{"vendor_name", "total"}}
	if _, err := st.PutResult(ctx, "c", "d", "v1", res); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: "c", DocID: "d", Field: "total", Action: store.ActionCorrect, Value: 583.2, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if n, err := Export(ctx, st, &buf, ExportOptions{CorpusID: "c", OnlyCorrected: true}); err != nil || n != 1 {
		t.Fatalf("Export = %d, %v", n, err)
	}
	rows, lineErrs, err := ReadDataset(bytes.NewReader(buf.Bytes()))
	if err != nil || len(lineErrs) > 0 || len(rows) != 1 {
		t.Fatalf("ReadDataset: %v %v %d rows", err, lineErrs, len(rows))
	}
	if got := rows[0].Expected; got["total"] != 583.2 || len(got) != 1 || rows[0].Text != text {
		t.Errorf("row = %+v", rows[0])
	}
	var line struct {
		Unreviewed map[string]any `json:"unreviewed"`
		Review     struct {
			Corrected []string                   `json:"corrected"`
			Original  map[string]json.RawMessage `json:"original"`
			Spans     map[string][]pipeline.Span `json:"spans"`
		} `json:"review"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	rv := line.Review
	if line.Unreviewed["vendor_name"] != "Globex Ltd" {
		t.Errorf("unreviewed = %v, want the pipeline's vendor_name", line.Unreviewed)
	}
	if !slices.Equal(rv.Corrected, []string{"total"}) || string(rv.Original["total"]) != "null" {
		t.Errorf("review corrected %v original %s, want [total] and null", rv.Corrected, rv.Original["total"])
	}
	if _, ok := rv.Spans["total"]; ok || len(rv.Spans["vendor_name"]) != 1 {
		t.Errorf("spans = %v, want vendor_name's only", rv.Spans)
	}
}

// TestAddUnreviewed: eval --score-unreviewed adds the pipeline's undecided
// values to an export's labels, never over a human's.
func TestAddUnreviewed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	line := `{"id":"d1","text":"t","expected":{"total":9.5},"unreviewed":{"total":1,"tax":0.5},"review":{}}` + "\n" +
		`{"id":"d2","text":"t","expected":{"total":1}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, _, err := LoadDataset(path)
	if err != nil || len(rows) != 2 {
		t.Fatal(rows, err)
	}
	if len(rows[0].Expected) != 1 {
		t.Fatalf("before: %v, want only the decided total", rows[0].Expected)
	}
	n, err := AddUnreviewed(path, rows)
	if err != nil || n != 1 {
		t.Fatalf("AddUnreviewed = %d, %v; want 1 field added", n, err)
	}
	if rows[0].Expected["total"] != 9.5 || rows[0].Expected["tax"] != 0.5 || len(rows[1].Expected) != 1 {
		t.Errorf("after: %v %v", rows[0].Expected, rows[1].Expected)
	}
}
