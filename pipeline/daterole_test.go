package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A schema names its document's own date with role document_date; the
// checks that judge a date as an issue date (a year ahead of the verifying
// moment, before 1970, a Buddhist-era or Hijri year, a due date printed
// after the issue moment) apply to that field alone. A passport's holder
// born in 1958 and its expiry in 2034 are true values of their own fields;
// the same years as the document's issue date are flagged.
func TestOnlyTheDocumentDateIsJudgedAsAnIssueDate(t *testing.T) {
	const passportSchema = `name: passport_check
fields:
  - {name: holder, kind: text, labels: [surname, name]}
  - {name: issued_on, kind: date, role: document_date, labels: [date of issue, issued]}
  - {name: birth_date, kind: date, labels: [date of birth, born]}
  - {name: expiry_date, kind: date, labels: [date of expiry, expiry, valid until]}
`
	s, err := ParseSchema([]byte(passportSchema), "passport.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The same schema declared as JSON (read as YAML) holds the same role.
	js, err := ParseSchema([]byte(`{"name": "passport_check", "fields": [
		{"name": "holder", "kind": "text", "labels": ["surname", "name"]},
		{"name": "issued_on", "kind": "date", "role": "document_date", "labels": ["date of issue", "issued"]},
		{"name": "birth_date", "kind": "date", "labels": ["date of birth", "born"]},
		{"name": "expiry_date", "kind": "date", "labels": ["date of expiry", "expiry", "valid until"]}]}`), "passport.json")
	if err != nil {
		t.Fatal(err)
	}
	text := "REPUBLIC OF KENYA\nPASSPORT\nSurname: OTIENO\nDate of birth: 14/07/1958\nDate of issue: 03/02/2024\n" +
		"Date of expiry: 02/02/2034\nIssuing authority: Nairobi"
	now := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		rec    Record
		field  string // the field that must be lowered, "" for none
		reason string
	}{
		{"birth 1958 and expiry 2034 are true", Record{"holder": "OTIENO", "issued_on": "2024-02-03",
			"birth_date": "1958-07-14", "expiry_date": "2034-02-02"}, "", ""},
		{"the expiry taken as the issue date", Record{"issued_on": "2034-02-02"}, "issued_on", "years after today"},
		{"the birth date taken as the issue date", Record{"issued_on": "1958-07-14"}, "issued_on", "before 1970"},
	}
	for _, schema := range []*Schema{s, js} {
		for _, c := range cases {
			rep, err := RunHeuristicsAt(context.Background(), now, text, schema, c.rec)
			if err != nil {
				t.Fatal(err)
			}
			for name, fc := range rep {
				if _, stated := c.rec[name]; !stated {
					continue // a null's omission check is not this test's
				}
				switch {
				case name == c.field && !strings.Contains(strings.Join(fc.Reasons, "; "), c.reason):
					t.Errorf("%s (%s): %s reasons %q, want %q", c.name, schema.Name, name, fc.Reasons, c.reason)
				case name != c.field && fc.Factor < 1:
					t.Errorf("%s (%s): %s lowered: %q", c.name, schema.Name, name, fc.Reasons)
				}
			}
		}
	}
}

// The built-in invoice's invoice_date is its document date; the role asks
// for a date field and is one field's only.
func TestDocumentDateRole(t *testing.T) {
	f, ok := Invoice().Field("invoice_date")
	if !ok || f.Role != RoleDocumentDate {
		t.Fatalf("invoice_date role %q, want %q", f.Role, RoleDocumentDate)
	}
	for _, c := range []struct{ name, src, msg string }{
		{"on a text field", "name: x\nfields:\n  - {name: a, kind: text, role: document_date}\n", "needs kind date"},
		{"on two dates", "name: x\nfields:\n  - {name: a, kind: date, role: document_date}\n  - {name: b, kind: date, role: document_date}\n",
			`already field "a"'s`},
		{"a misspelt role", "name: x\nfields:\n  - {name: a, kind: date, role: issue_date}\n", "document_date for a date"},
	} {
		_, err := ParseSchema([]byte(c.src), "s.yaml")
		var se *SchemaError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: error %v, want a SchemaError saying %q", c.name, err, c.msg)
		}
	}
}

// RunHeuristicsAt judges by the clock it is given: a pre-dated invoice is
// plausible a month before its year, implausible two years earlier.
func TestRunHeuristicsAtFollowsItsClock(t *testing.T) {
	text := "Northwind Traders Ltd\nInvoice No. INV-4472\nInvoice Date: 2027-02-01\nTotal due USD 1,200.00"
	for _, c := range []struct {
		year    int
		flagged bool
	}{{2026, false}, {2025, true}} {
		rep, err := RunHeuristicsAt(context.Background(), time.Date(c.year, 6, 1, 0, 0, 0, 0, time.UTC), text, Invoice(),
			Record{"invoice_date": "2027-02-01"})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep["invoice_date"].Factor < 1; got != c.flagged {
			t.Errorf("verified in %d: lowered %v (%q), want %v", c.year, got, rep["invoice_date"].Reasons, c.flagged)
		}
	}
}
