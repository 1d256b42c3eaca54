package pipeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// familySignCodeScanned is familySignCode before the trigram set screened
// the family's codes; kept to compare.
func (d *doc) familySignCodeScanned(c *FieldCheck, code string, spans []Span) bool {
	sign := d.str(spans[0].Start, spans[0].End)
	family := signFamilies[sign]
	if family == nil || !family[code] {
		return false
	}
	for _, sp := range spans[1:] {
		if d.str(sp.Start, sp.End) != sign {
			return false
		}
	}
	rs := d.rs
	for p := 0; p+3 <= len(rs); p++ {
		if !isCapRune(rs[p]) || p > 0 && isWordRune(rs[p-1]) || !isCapRune(rs[p+1]) || !isCapRune(rs[p+2]) ||
			p+3 < len(rs) && isWordRune(rs[p+3]) {
			continue
		}
		other := isoCodeAt(rs, p)
		if other == "" || other == code || !family[other] {
			continue
		}
		sp := Span{Start: p, End: p + 3}
		if !d.inCurrencyContext(sp) || d.asideCue(p) != "" {
			continue
		}
		c.Spans = append(c.Spans, sp)
		c.penalize(factorContradiction, fmt.Sprintf("%q is the sign of several currencies, and the document prints %q (line %d), not %s",
			sign, other, d.lineOf(p)+1, code))
		return true
	}
	return false
}

// familySignCode flags what it flagged before its trigram screen, on texts
// of shared signs beside amounts and family codes in and out of currency
// contexts, asides and words, and on the receipts.
func TestFamilySignCodeIsTheScan(t *testing.T) {
	texts := []string{"Total $ 5.00\nAll amounts in JMD", "£ 10.00\nEGP 10.00", "Total $5.00 USD", "kr 100\nSEK"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	pieces := []string{"$", "£", "kr", " 5.00", "Total ", "USD", "JMD", "AUD", "EGP", "GBP", "SEK", "NOK", "XYZ", " ", "\n",
		"(", ")", "all amounts in ", "equivalent ", "x", "usd", "é", "TOTAL: "}
	rng := rand.New(rand.NewPCG(8, 4))
	for range 3000 {
		var b strings.Builder
		for range 2 + rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	flagged, schema := 0, Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		for sign, family := range signFamilies {
			var spans []Span
			for _, sp := range d.fold.find([]rune(sign)) {
				if d.str(sp.Start, sp.End) == sign {
					spans = append(spans, sp)
				}
			}
			if len(spans) == 0 {
				continue
			}
			for code := range family {
				got, was := FieldCheck{Factor: 1}, FieldCheck{Factor: 1}
				if g, w := d.familySignCode(&got, code, spans), d.familySignCodeScanned(&was, code, spans); g != w || !reflect.DeepEqual(got, was) {
					t.Fatalf("%q, %s by %q: %v %+v, the scan %v %+v", text, code, sign, g, got, w, was)
				} else if g {
					flagged++
				}
			}
		}
	}
	if flagged < len(texts)/10 {
		t.Errorf("only %d flagged in %d texts: the comparison says little", flagged, len(texts))
	}
}
