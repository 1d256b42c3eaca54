package pipeline

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// checkIdentifierAlways is checkIdentifier as it read the value for an
// embedded date and time and split it into words whatever the value and
// its label.
func (d *doc) checkIdentifierAlways(c *FieldCheck, f Field, val string, ownLabelled bool) {
	digits := strings.Map(func(r rune) rune {
		if isDigit(r) {
			return r
		}
		return '|'
	}, val)
	date := d.embeddedDate(digits)
	tm := d.embeddedTime(digits, date != "")
	switch {
	case date != "" && tm != "":
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s embeds the document's date (%s) and time (%s)", val, date, tm))
		return
	case date != "" && !ownLabelled:
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s embeds the document's date (%s) and no number label names it", val, date))
		return
	}
	// A label word glued after the last digit: "51234DATE".
	rs := []rune(val)
	k := len(rs)
	for k > 0 && unicode.IsLetter(rs[k-1]) {
		k--
	}
	if k > 0 && k < len(rs) && isDigit(rs[k-1]) && labelWords[strings.ToLower(string(rs[k:]))] {
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s ends in the label word %q", val, string(rs[k:])))
		return
	}
	parts := strings.FieldsFunc(strings.ToUpper(val), func(r rune) bool { return !isWordRune(r) })
	for _, cand := range d.identifierCandidates(f) {
		cu := strings.ToUpper(strings.Trim(cand, ".,:;()"))
		if len(cu) < 3 || strings.EqualFold(cu, val) || !strings.ContainsFunc(cu, unicode.IsDigit) {
			continue
		}
		if !ownLabelled && len(parts) > 1 && slices.Contains(parts, cu) {
			c.penalize(factorBadIdentifier, fmt.Sprintf("%s contains %s, the number the document labels", val, cand))
			return
		}
	}
}

// checkIdentifier screens by the value's longest digit run and its own
// label before reading the document, and flags what reading it always
// flagged: on the golden documents, with their right and wrong records'
// values, the numbers they label, and values that embed their dates and
// times in compact forms or hold labelled numbers among other words.
func TestCheckIdentifierScreensAsReadingAlwaysFlags(t *testing.T) {
	s := Invoice()
	var fields []Field
	for _, f := range s.Fields {
		if f.Kind == KindIdentifier {
			fields = append(fields, f)
		}
	}
	n := 0
	for _, g := range goldenDocuments(t) {
		if g.schema != "invoice" {
			continue
		}
		d, err := analyze(context.Background(), g.text, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fields {
			vals := []string{"", "12", "1234", "INV 12345", "A1B2C3"}
			for _, data := range g.datas {
				if v, ok := data[f.Name].(string); ok {
					vals = append(vals, v)
				}
			}
			for _, cand := range d.identifierCandidates(f) {
				vals = append(vals, cand, "X-"+cand, cand+"-7", "NO "+cand+" 2")
			}
			for _, m := range d.dates {
				for _, iso := range m.ISO {
					y, mo, dd := iso[0:4], iso[5:7], iso[8:10]
					vals = append(vals, "INV"+y+mo+dd, dd+mo+y[2:]+"1345", y[2:]+mo+dd+"-0930", "R-"+dd+mo+y+"/101500")
				}
			}
			for _, v := range vals {
				for _, own := range []bool{false, true} {
					got, want := FieldCheck{Factor: 1}, FieldCheck{Factor: 1}
					d.checkIdentifier(&got, f, v, own)
					d.checkIdentifierAlways(&want, f, v, own)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: checkIdentifier(%s %q, own %v) = %+v, reading always gave %+v", g.id, f.Name, v, own, got, want)
					}
					n += len(want.Reasons)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no value was flagged: the comparison compared nothing")
	}
	t.Logf("%d reasons compared", n)
}
