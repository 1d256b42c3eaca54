package pipeline

import (
	"context"
	"strings"
	"testing"
)

// A null field of any kind the checks find under its own label is flagged
// when the document prints a value there: a text field ("Project:"), an
// identifier ("PO No"), a date ("Delivery date"). Where the label is
// absent, or printed with nothing after it, the null is honest.
func TestNullFieldUnderItsOwnLabel(t *testing.T) {
	s, err := ParseSchema([]byte(`name: work_order
fields:
  - name: project
    kind: text
    labels: [project, projekt, proyecto]
  - name: po_number
    kind: identifier
    labels: [po no, purchase order]
  - name: delivery_date
    kind: date
    labels: [delivery date, lieferdatum]
  - name: total
    kind: money
    role: total
`), "work_order.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{Schema: s, Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	const full = "Bauservice Keller GmbH\nProjekt: Sanierung Schulhaus Nord\nPO No: 4500123987\nLieferdatum: 14.11.2026\nTotal 1.250,00 EUR"
	const bare = "Bauservice Keller GmbH\nProjekt:\nTotal 1.250,00 EUR"
	cases := []struct {
		name, text, field, reason string
	}{
		{"text under its label", full, "project", "Sanierung Schulhaus Nord"},
		{"identifier under its label", full, "po_number", "4500123987"},
		{"date under its label", full, "delivery_date", "14.11.2026"},
		{"a label with nothing after it", bare, "project", ""},
		{"no label", bare, "po_number", ""},
	}
	for _, c := range cases {
		data := map[string]any{"total": 1250.0, c.field: nil}
		res, err := p.Validate(context.Background(), Document{Text: c.text}, data)
		if err != nil {
			t.Fatal(err)
		}
		reason, flagged := flagReason(res, c.field)
		switch {
		case c.reason == "" && flagged:
			t.Errorf("%s: an honest null flagged: %s", c.name, reason)
		case c.reason != "" && !flagged:
			t.Errorf("%s: null %s not flagged", c.name, c.field)
		case c.reason != "" && !strings.Contains(reason, c.reason):
			t.Errorf("%s: reason %q, want it to name %q", c.name, reason, c.reason)
		}
	}
}
