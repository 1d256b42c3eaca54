package golden

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

func TestReadLabelsAndApply(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"a","expected":{"tax":1.5,"currency":"MYR"},"notes":{"tax":"GST line"}}`,
		``,
		`{"id":"b","expected":{"tax":null,"total":9.0}}`,
		`not json`,
		`{"expected":{"tax":1}}`,
		`{"id":"c"}`,
		`{"id":"a","expected":{"tax":2}}`,
		`{"id":"zz","expected":{"tax":3}}`,
	}, "\n")
	labels, lineErrs, err := ReadLabels(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lineErrs) != 4 {
		t.Fatalf("want 4 line errors (bad JSON, no id, no expected, duplicate), got %v", lineErrs)
	}
	for i, want := range []string{"line 4:", "line 5:", "line 6:", `line 7: duplicate id "a"`} {
		if !strings.Contains(lineErrs[i].Error(), want) {
			t.Errorf("line error %d = %v, want %q", i, lineErrs[i], want)
		}
	}
	rows := []Row{
		{ID: "a", Text: "t", Expected: map[string]any{"total": 5.0}},
		{ID: "b", Text: "t", Expected: map[string]any{"total": 8.0}},
		{ID: "d", Text: "t", Expected: map[string]any{"total": 1.0}},
	}
	st := labels.Apply(rows)
	if st.Rows != 2 || st.Fields != 4 {
		t.Fatalf("stats %+v", st)
	}
	if rows[0].Expected["tax"] != 1.5 || rows[0].Expected["currency"] != "MYR" || rows[0].Expected["total"] != 5.0 {
		t.Errorf("row a merged to %v", rows[0].Expected)
	}
	// A labelled null is kept: it is scored as "must come back null".
	if v, ok := rows[1].Expected["tax"]; !ok || v != nil {
		t.Errorf("row b tax = %v, %v; want a labelled null", v, ok)
	}
	if rows[1].Expected["total"] != 9.0 || len(st.Replaced) != 1 || st.Replaced[0] != "b.total" {
		t.Errorf("overlay should win and report the replaced label: %v %v", rows[1].Expected, st.Replaced)
	}
	if len(st.Unmatched) != 1 || st.Unmatched[0] != "zz" || len(st.Unlabelled) != 1 || st.Unlabelled[0] != "d" {
		t.Errorf("unmatched %v unlabelled %v", st.Unmatched, st.Unlabelled)
	}
	w := strings.Join(st.Warnings(), "\n")
	for _, want := range []string{"1 overlay id(s) match no dataset row: [zz]", "replaced 1 label(s)", "1 dataset row(s) have no overlay labels: [d]"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

func TestLabelsMerge(t *testing.T) {
	l := Labels{"a": {"tax": nil, "total": 9.0}}
	data := map[string]any{"total": 8.0, "vendor_name": "X"}
	m, ok := l.Merge("a", data)
	if !ok || m["total"] != 9.0 || m["vendor_name"] != "X" || len(m) != 3 {
		t.Fatalf("merged %v %v", m, ok)
	}
	if v, had := m["tax"]; !had || v != nil {
		t.Errorf("a labelled null must be merged as a null: %v %v", v, had)
	}
	if data["total"] != 8.0 || len(data) != 2 {
		t.Errorf("Merge changed its input: %v", data)
	}
	if m, ok := l.Merge("b", data); ok || m["total"] != 8.0 {
		t.Errorf("no labels for b: %v %v", m, ok)
	}
}

func TestLoadLabelsMissingFile(t *testing.T) {
	_, _, err := LoadLabels(filepath.Join(t.TempDir(), "nope.jsonl"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("want a not-exist error, got %v", err)
	}
}

// The SROIE hand labels overlay every receipt of both sets, and with them eval
// scores all seven invoice fields, labelled nulls included. (Receipts: ICDAR
// 2019 SROIE, CC-BY-4.0, ../shared/data; labels: testdata/sroie, same licence.)
func TestSROIELabelsOverlayScoresSevenFields(t *testing.T) {
	for _, set := range []string{"dev", "check"} {
		rows, lineErrs, err := LoadDataset(filepath.Join("..", "..", "shared", "data", "receipts-"+set+".jsonl"))
		if err != nil {
			t.Skipf("receipts not available: %v", err)
		}
		if len(lineErrs) > 0 {
			t.Fatal(lineErrs)
		}
		labels, lineErrs, err := LoadLabels(filepath.Join("testdata", "sroie", "labels-"+set+".jsonl"))
		if err != nil || len(lineErrs) > 0 {
			t.Fatal(err, lineErrs)
		}
		st := labels.Apply(rows)
		if st.Rows != len(rows) || len(st.Unmatched) > 0 || len(st.Replaced) > 0 {
			t.Fatalf("%s: overlay %+v over %d rows", set, st.Warnings(), len(rows))
		}
		s := pipeline.Invoice()
		if errs := CheckRows(s, rows); len(errs) > 0 {
			t.Fatalf("%s: labels do not fit the schema: %v", set, errs)
		}
		// Score the labels against themselves: every field is scored, right.
		v := &labelEcho{rows: rows}
		rep := Evaluate(context.Background(), v, s, rows, Options{Concurrency: 2})
		if rep.FieldsScored != 7*len(rows) || rep.FieldsCorrect != rep.FieldsScored {
			t.Fatalf("%s: scored %d of %d fields, %d right", set, rep.FieldsScored, 7*len(rows), rep.FieldsCorrect)
		}
		for _, fs := range rep.PerField {
			if fs.Scored != len(rows) {
				t.Errorf("%s: %s scored on %d of %d rows", set, fs.Field, fs.Scored, len(rows))
			}
		}
	}
}

// labelEcho returns each row's labels as its result: what a perfect
// Generator and gate would.
type labelEcho struct{ rows []Row }

func (e *labelEcho) Extract(_ context.Context, doc pipeline.Document) (pipeline.Result, error) {
	for _, r := range e.rows {
		if r.ID == doc.ID {
			return pipeline.Result{Status: pipeline.StatusOK, Data: pipeline.Record(r.Expected)}, nil
		}
	}
	return pipeline.Result{}, errors.New("unknown row")
}
