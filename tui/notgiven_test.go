package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// TestAcceptAllLeavesNotGivenFieldsOpen is new-user report #5: an agent's
// validate call gave only vendor_name and total; the queue item showed the
// five keys it left out as ordinary nulls, and A confirmed them as
// human-settled nulls that review_status and export then passed on. They
// now read "not given", A leaves them undecided and out of the settled
// record, a lone a on one refuses, and a typed value still settles one.
func TestAcceptAllLeavesNotGivenFieldsOpen(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	notGiven := []string{"invoice_number", "invoice_date", "subtotal", "tax", "currency"}
	rec := pipeline.Record{"vendor_name": "Café Müller GmbH", "total": 683.2}
	for _, n := range notGiven {
		rec[n] = nil
	}
	res := buildResult(t, "inv-001", textCafe, rec, map[string]string{"total": "683.20 not found in source"}, 0.41)
	res.NotGiven = notGiven
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "inv-001", "test-1", res); err != nil {
		t.Fatal(err)
	}
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	if v := viewText(m); strings.Count(v, "not given") < len(notGiven) {
		t.Errorf("page does not mark the %d keys left out as not given:\n%s", len(notGiven), v)
	}
	m = selectField(t, m, "invoice_number")
	m = press(t, m, "a")
	if !strings.Contains(m.status, "invoice_number was not given") {
		t.Errorf("a on a key left out: status %q", m.status)
	}
	m = selectField(t, m, "tax")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "43.20")
	m = press(t, m, "enter", "A")
	decs := decisions(t, f, "inv-001")
	for _, n := range notGiven {
		if _, ok := decs[n]; ok && n != "tax" {
			t.Errorf("A settled %s (left out by the caller) as %+v", n, decs[n])
		}
	}
	if d, ok := decs["tax"]; !ok || d.Value != 43.2 {
		t.Errorf("typed tax = %+v %v; want 43.2 settled", d, ok)
	}
	if _, ok := decs["vendor_name"]; !ok {
		t.Errorf("A did not accept the given vendor_name: %v", decs)
	}
	settled, reviewed, err := f.st.Settled(ctx, f.corpus.ID, "inv-001")
	if err != nil || !reviewed {
		t.Fatalf("Settled: reviewed %v, %v", reviewed, err)
	}
	if _, ok := settled["invoice_number"]; ok {
		t.Errorf("settled record holds invoice_number = %v, which nobody gave or settled", settled["invoice_number"])
	}
}

// TestCorrectionLeavesNotGivenFieldsNotGiven is new-user report #8 of
// session 6: after an agent's validate call that gave only vendor_name,
// total and currency, correcting the total re-checked the record and showed
// the keys left out as "flagged 0.00" (the gate read each missing key as a
// required value not found), while the status bar counted nothing to review.
func TestCorrectionLeavesNotGivenFieldsNotGiven(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	notGiven := []string{"invoice_number", "invoice_date", "subtotal", "tax"}
	rec := pipeline.Record{"vendor_name": "Café Müller GmbH", "total": 683.2, "currency": "EUR"}
	for _, n := range notGiven {
		rec[n] = nil
	}
	res := buildResult(t, "inv-001", textCafe, rec, map[string]string{"total": "683.20 not found in source"}, 0.41)
	res.NotGiven = notGiven
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "inv-001", "test-1", res); err != nil {
		t.Fatal(err)
	}
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = selectField(t, m, "total")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter")
	page := m.doc
	if !page.rechecked {
		t.Fatal("the correction did not re-check the record")
	}
	for _, n := range notGiven {
		if page.res.Flagged(n) {
			t.Errorf("%s, left out by the caller, is flagged after the correction: %+v", n, page.res.FlaggedFields)
		}
		if got := page.valueText(n); got != "— (not given)" {
			t.Errorf("%s reads %q after the correction, want \"— (not given)\"", n, got)
		}
	}
}
