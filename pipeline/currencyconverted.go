package pipeline

import (
	"fmt"
	"strings"
)

// A document may print its billed amounts in two currencies: a till that
// shows the total in the legal currency and in the one tourists carry, a
// folio in the hotel's currency and the guest's, an invoice with a "Total
// USD" under its "Total RWF". Both codes stand beside a total, so neither
// the billed lines nor the first code printed beside an amount say which
// is billed. The document's own arithmetic does: the tax is computed in
// the billed currency, and the lines sum to the billed total; a total
// printed at an exchange rate ("tasa 18.45", "курс", "@ 89,500") is the
// converted one.

// convertedCurrency judges code on a document whose billed lines print
// two or more currencies, when one of them is decided as billed: the
// billed one is grounded where its total is printed, and a code printed
// only beside a converted total is flagged. It reports whether it judged.
func (d *doc) convertedCurrency(c *FieldCheck, code string) bool {
	b, billed, why, ok := d.billedOfTwo()
	if !ok {
		return false
	}
	if code == billed {
		sp, _ := b.has(billed)
		c.Spans, c.Grounded = []Span{sp}, true
		return true
	}
	sp, printed := b.has(code)
	if !printed {
		return false
	}
	ls, le := d.lineBounds(d.lineOf(sp.Start))
	c.Spans, c.Grounded = []Span{sp}, true
	c.penalize(factorContradiction, fmt.Sprintf("the document bills in %s (%s); %s stands beside a total converted from it (line %d: %q)",
		billed, why, code, d.lineOf(sp.Start)+1, strings.TrimSpace(d.str(ls, le))))
	return true
}

// billedOfTwo is, for a document whose billed lines print two or more
// currencies, the one decideBilled makes the billed one and its evidence,
// with the billed lines; ok is false for any other document, or where
// nothing decides.
func (d *doc) billedOfTwo() (b *billedCurrency, code, why string, ok bool) {
	if !d.twoTotalLines() {
		return nil, "", "", false // the screen: one total line prints one currency
	}
	if b = d.billed(); b.n < 2 {
		return nil, "", "", false
	}
	code, why, ok = d.decideBilled(b)
	return b, code, why, ok
}

// twoTotalLines reports two total lines that print two different ISO
// codes beside their amounts: a cheap screen (three capitals, no sign
// lookup, no aside clause), since most documents print one total line or
// one currency.
func (d *doc) twoTotalLines() bool {
	first, line := "", -1
	for _, a := range d.amounts {
		if a.role != RoleTotal || a.Line == line {
			continue
		}
		ls, le := d.lineBounds(a.Line)
		w := d.codeBefore(ls, a.Start)
		if w.End <= w.Start {
			if w = d.codeAfter(a.End, le); w.End <= w.Start {
				continue
			}
		}
		c := isoCodeAt(d.rs, w.Start)
		switch {
		case c == "":
		case first == "":
			first, line = c, a.Line
		case c != first:
			return true
		}
	}
	return false
}

// decideBilled is the one of the billed lines' codes the document's
// arithmetic or wording makes the billed one, and the evidence: the only
// currency its tax is printed in; else the only one its lines sum to a
// total in; else the only one with a total printed at no exchange rate.
func (d *doc) decideBilled(b *billedCurrency) (code, why string, ok bool) {
	var taxCodes codeSet
	taxLine := -1
	for _, a := range d.amounts {
		if a.role != RoleTax {
			continue
		}
		if c, _ := d.codeBesideAmount(a); c != "" && b.hasCode(c) {
			taxCodes.add(c)
			if taxLine < 0 {
				taxLine = a.Line
			}
		}
	}
	if taxCodes.n == 1 {
		return taxCodes.codes[0], fmt.Sprintf("its tax is printed in %s on line %d", taxCodes.codes[0], taxLine+1), true
	}
	if c, total, ok := d.linesSumTo(b); ok {
		return c, fmt.Sprintf("its lines sum to its total of %s %s", c, total), true
	}
	if c, ok := d.unconvertedTotal(b); ok {
		return c, fmt.Sprintf("its other totals are printed at an exchange rate; the %s one is not", c), true
	}
	return "", "", false
}

// codeBesideAmount is the billed-line code printed right before or after
// amount a outside an aside clause, and where.
func (d *doc) codeBesideAmount(a labelledAmount) (string, Span) {
	ls, le := d.lineBounds(a.Line)
	for _, w := range d.besideAmount(a, ls, le) {
		if w.End <= w.Start {
			continue
		}
		if c, _ := d.billedCodeAt(w); c != "" && d.asideCue(w.Start) == "" {
			return c, w
		}
	}
	return "", Span{}
}

// linesSumTo is the only billed code whose other lines (each line's last
// amount, outside the total, subtotal and tax) sum to a total printed in
// it, with that total as printed.
func (d *doc) linesSumTo(b *billedCurrency) (string, string, bool) {
	var sums [4]float64
	var lines [4]int
	last := -1
	for i, a := range d.amounts {
		if isBillingRole(a.role) || i+1 < len(d.amounts) && d.amounts[i+1].Line == a.Line || a.Line == last {
			continue
		}
		last = a.Line
		c, _ := d.codeBesideAmount(a)
		for k := range b.n {
			if b.codes[k] == c {
				sums[k] += a.Value
				lines[k]++
			}
		}
	}
	found, raw := -1, ""
	for _, a := range d.amounts {
		if a.role != RoleTotal {
			continue
		}
		c, _ := d.codeBesideAmount(a)
		for k := range b.n {
			if b.codes[k] == c && lines[k] >= 2 && near(sums[k], a.Value, amountEpsilon) {
				if found >= 0 && found != k {
					return "", "", false
				}
				found, raw = k, a.Raw
			}
		}
	}
	if found < 0 {
		return "", "", false
	}
	return b.codes[found], raw, true
}

// rateCues mark a total printed at an exchange rate: the converted one.
var rateCues = []string{"@", "rate", "tasa", "taux", "cours", "cambio", "câmbio", "kurs", "курс", "tečaj", "kur ",
	"exchange", "wechselkurs", "cotización", "cotação"}

// unconvertedTotal is the only billed code with a total line that names no
// exchange rate, when every other code's total lines name one.
func (d *doc) unconvertedTotal(b *billedCurrency) (string, bool) {
	var plain, rated codeSet
	for _, a := range d.amounts {
		if a.role != RoleTotal {
			continue
		}
		c, _ := d.codeBesideAmount(a)
		if c == "" || !b.hasCode(c) {
			continue
		}
		ls, le := d.lineBounds(a.Line)
		line := strings.ToLower(d.str(ls, le))
		if containsAny(line, rateCues) {
			rated.add(c)
		} else {
			plain.add(c)
		}
	}
	if plain.n != 1 || rated.n == 0 {
		return "", false
	}
	for _, c := range rated.codes[:rated.n] {
		if c == plain.codes[0] {
			return "", false
		}
	}
	return plain.codes[0], true
}
