package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// rowOf is the field's line of the document table in a stripped view.
func rowOf(t *testing.T, view, field string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if len(l) > 2 && strings.HasPrefix(strings.TrimLeft(l[len(string([]rune(l)[0])):], " !"), field+" ") {
			return l
		}
	}
	t.Fatalf("no row for %s in:\n%s", field, view)
	return ""
}

// detailOf is the text under the table (one or two lines, joined): the
// reason and what the pipeline said.
func detailOf(t *testing.T, view string) string {
	t.Helper()
	last := rowOf(t, view, "currency")
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if l != last {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], "critic:") {
				return strings.Join(lines[i+1:j], " · ")
			}
		}
	}
	t.Fatalf("no detail lines in:\n%s", view)
	return ""
}

func TestSettledFieldShowsReviewedAndWhatThePipelineSaid(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	if row := rowOf(t, viewText(m), "total"); !strings.Contains(row, "██░░░░░░ 0.30") {
		t.Fatalf("before review the total row shows the pipeline's confidence: %q", row)
	}
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter")
	v := viewText(m)
	row := rowOf(t, v, "total")
	for _, want := range []string{"583.20 (was 683.20)", "✓ reviewed", "corrected"} {
		if !strings.Contains(row, want) {
			t.Errorf("corrected total row lacks %q: %q", want, row)
		}
	}
	if strings.Contains(row, "0.30") || strings.Contains(row, "█") {
		t.Errorf("corrected total row still shows the pipeline's confidence bar: %q", row)
	}
	detail := detailOf(t, v)
	for _, want := range []string{"corrected value found in source", "pipeline: 683.20 @ 0.30", "reason: 683.20"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail line lacks %q: %q", want, detail)
		}
	}

	// An accepted field: reviewed, no "was" (the value did not change).
	m = selectField(t, m, "tax")
	m = press(t, m, "a")
	v = viewText(m)
	row = rowOf(t, v, "tax")
	if !strings.Contains(row, "43.20 ") || strings.Contains(row, "(was") || !strings.Contains(row, "✓ reviewed") || !strings.Contains(row, "accepted") {
		t.Errorf("accepted tax row: %q", row)
	}
	if d := detailOf(t, v); !strings.Contains(d, "pipeline: 43.20 @ 0.95") {
		t.Errorf("accepted tax detail: %q", d)
	}

	// Set null keeps the pipeline's value visible.
	m = selectField(t, m, "currency")
	m = press(t, m, "x")
	if row := rowOf(t, viewText(m), "currency"); !strings.Contains(row, "null (was EUR)") || !strings.Contains(row, "✓ reviewed") {
		t.Errorf("nulled currency row: %q", row)
	}
	// Untouched fields keep their bars; undo brings the bar back.
	if row := rowOf(t, viewText(m), "subtotal"); !strings.Contains(row, "████████ 0.95") {
		t.Errorf("untouched subtotal row: %q", row)
	}
	m = press(t, m, "u")
	if row := rowOf(t, viewText(m), "currency"); !strings.Contains(row, "████████ 0.95") || strings.Contains(row, "reviewed") {
		t.Errorf("currency row after undo: %q", row)
	}
}

// missingTotalResult is the real gate's result for a receipt whose total the
// extractor did not find: total null, flagged as a missing required field.
func missingTotalResult(t *testing.T, id, text string) pipeline.Result {
	t.Helper()
	s := pipeline.Invoice()
	rec := pipeline.Record{"vendor_name": "Corner Deli", "invoice_number": "42", "invoice_date": "2024-05-01", "total": nil}
	res := pipeline.Gate(s, rec, nil, pipeline.RunHeuristics(text, s, rec), nil, pipeline.DefaultGate())
	res.ID = id
	if !res.Flagged("total") || res.Data["total"] != nil {
		t.Fatalf("the gate did not flag the missing total: %+v", res.FlaggedFields)
	}
	return res
}

const textDeli = "Corner Deli\nReceipt 42\n2024-05-01\n2 x bagel      18.75\nThank you!"

// deliFixture adds the missing-total receipt to the standard fixture.
func deliFixture(t *testing.T) fixture {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	doc := store.Document{CorpusID: f.corpus.ID, ID: "deli-1", Seq: len(f.docs), Text: textDeli}
	if err := f.st.PutCorpus(ctx, f.corpus, append(f.docs, doc)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "deli-1", "test-1", missingTotalResult(t, "deli-1", textDeli)); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestMissingRequiredFieldIsShownAndCanBeCorrected(t *testing.T) {
	f := deliFixture(t)
	m := openDoc(t, loaded(t, f.config()), "deli-1")
	if got := m.doc.selected().Name; got != "total" {
		t.Fatalf("opened on %s, want the flagged missing total", got)
	}
	v := viewText(m)
	row := rowOf(t, v, "total")
	for _, want := range []string{"▶!total", "— (missing)", "░░░░░░░░ 0.00", "flagged"} {
		if !strings.Contains(row, want) {
			t.Errorf("missing total row lacks %q: %q", want, row)
		}
	}
	if d := detailOf(t, v); !strings.Contains(d, "reason: required field is missing: no value was found in the source") {
		t.Errorf("detail line: %q", d)
	}
	for i, c := range m.doc.text.class {
		if c == classSelected {
			t.Fatalf("rune %d is highlighted as the missing total's span", i)
		}
	}

	// e opens an empty editor; the typed value is saved, found and highlighted.
	m = press(t, m, "e")
	if !m.doc.Capturing() || m.doc.edit.input.Value() != "" {
		t.Fatalf("editor on a missing value: open=%v value=%q", m.doc.Capturing(), m.doc.edit.input.Value())
	}
	m = typeText(t, m, "18.75")
	m = press(t, m, "enter")
	d := decisions(t, f, "deli-1")["total"]
	if d.Action != store.ActionCorrect || d.Value != 18.75 || d.Original != nil {
		t.Fatalf("stored %+v", d)
	}
	want := runeSpan(t, textDeli, "18.75")
	if sp := m.doc.regrounds["total"]; len(sp) == 0 || sp[0] != want {
		t.Fatalf("re-grounded %v, want %v", sp, want)
	}
	for i := want.Start; i < want.End; i++ {
		if m.doc.text.class[i] != classSelected {
			t.Fatalf("rune %d of the corrected total is not highlighted", i)
		}
	}
	v = viewText(m)
	if row := rowOf(t, v, "total"); !strings.Contains(row, "18.75 (was missing)") || !strings.Contains(row, "✓ reviewed") {
		t.Errorf("corrected missing total row: %q", row)
	}
	if d := detailOf(t, v); !strings.Contains(d, "corrected value found in source") || !strings.Contains(d, "pipeline: missing @ 0.00") {
		t.Errorf("detail after correcting: %q", d)
	}
	if row, _ := m.queue.Row("deli-1"); !row.Reviewed || row.Corrected != 1 {
		t.Errorf("queue row %+v", row)
	}
}

func TestMissingRequiredFieldAcceptedAsNull(t *testing.T) {
	f := deliFixture(t)
	m := openDoc(t, loaded(t, f.config()), "deli-1")
	m = press(t, m, "a")
	d, ok := decisions(t, f, "deli-1")["total"]
	if !ok || d.Action != store.ActionAccept || d.Value != nil {
		t.Fatalf("stored %+v (ok=%v), want total accepted as null", d, ok)
	}
	row := rowOf(t, viewText(m), "total")
	if !strings.Contains(row, "null") || !strings.Contains(row, "✓ reviewed") || !strings.Contains(row, "accepted") || strings.Contains(row, "(was") {
		t.Errorf("accepted missing total row: %q", row)
	}
	if r, _ := m.queue.Row("deli-1"); !r.Reviewed || r.Corrected != 0 {
		t.Errorf("queue row %+v", r)
	}
}
