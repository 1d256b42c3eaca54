package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

func TestExportReviewedRows(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Populate(ctx, st, "c", 10); err != nil {
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
	err = st.Decide(ctx,
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
	if len(got.Expected) != 7 {
		t.Errorf("expected has %d fields, want all 7 of the result", len(got.Expected))
	}
	want := map[string]any{"vendor_name": pipe.Data["vendor_name"], "total": 123.45, "tax": nil,
		"subtotal": pipe.Data["subtotal"], "invoice_number": pipe.Data["invoice_number"]}
	for f, v := range want {
		if gv, ok := got.Expected[f]; !ok || gv != v {
			t.Errorf("expected[%s] = %v (present %v), want %v", f, gv, ok, v)
		}
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
