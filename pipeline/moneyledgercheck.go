package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// taxesOnNet reports that every tax of a ledger is computed on its net:
// its printed rate times the net is its amount. A tax whose base holds
// another tax (IVA on a price with IEPS, VAT on a price with an
// environmental tax) makes the other a part of the price, not of the tax,
// and the ledger does not judge the tax. A tax printed without a rate is
// taken on its label alone.
func (d *doc) taxesOnNet(f ledgerFacts) bool {
	for _, ti := range f.taxes {
		a := &d.amounts[ti]
		ls, _ := d.lineBounds(a.Line)
		rate, ok := rateBefore(d.rs, ls, a.Start)
		if !ok {
			if a.role != RoleTax {
				return false
			}
			continue
		}
		v := d.ledgerVal(a)
		tol := math.Max(0.011, v*0.002)
		if !centsForm(a.Raw) {
			tol += 0.5 // whole units: the tax is rounded to one
		}
		if !near(rate/100*f.net, v, tol) {
			return false
		}
	}
	return true
}

// ledgerSum adds up the magnitudes of amounts is.
func (d *doc) ledgerSum(is []int) float64 {
	s := 0.0
	for _, i := range is {
		s += d.ledgerVal(&d.amounts[i])
	}
	return s
}

// checkInLedger judges a printed subtotal or tax by the ledgers of the
// document's totals. The subtotal is the net the taxes are computed on:
// the net after a discount is accepted under whatever label the page gives
// it ("DPP", "課税対象額", "Total HT net"), and the goods' sum above the
// discount is flagged. The tax is every tax on the net: their sum is
// accepted, one of two or more is flagged, naming the others. done reports
// that the ledger decided; anchored whether x is where the ledger puts it.
func (d *doc) checkInLedger(c *FieldCheck, r Role, x float64, matches []labelledAmount) (done, anchored bool) {
	if len(matches) == 0 || r != RoleSubtotal && r != RoleTax {
		return false, false
	}
	// Screens: a subtotal is judged only where a discount is printed, a
	// tax only beside a tax line the lexicon does not know.
	if r == RoleSubtotal && !d.discountNear(matches) || r == RoleTax && !d.otherTaxBeside(matches) {
		return false, false
	}
	d.eachLedger(func(l []ledgerItem, f ledgerFacts) bool {
		if r == RoleSubtotal {
			done, anchored = d.subtotalInLedger(c, x, matches, f)
		} else {
			done, anchored = d.taxInLedger(c, x, f)
		}
		return done
	})
	return done, anchored
}

func (d *doc) subtotalInLedger(c *FieldCheck, x float64, matches []labelledAmount, f ledgerFacts) (done, anchored bool) {
	if f.discount < 0 || len(f.taxes) == 0 {
		// No tax: no net it is computed on, and "Subtotal 800.00 /
		// Desconto 80.00 / Total 720.00" keeps its printed subtotal.
		return false, false
	}
	if near(x, f.net, 0.011) {
		if f.netAt >= 0 {
			c.setPrimary(d.amounts[f.netAt].Start)
		}
		return true, true
	}
	disc := &d.amounts[f.discount]
	for _, gi := range f.gross {
		if !near(x, d.ledgerVal(&d.amounts[gi]), 0.011) || printedBelow(matches, disc.Start) {
			continue
		}
		net := fmt.Sprintf("%.2f, worked out (not printed)", f.net)
		if f.netAt >= 0 {
			n := &d.amounts[f.netAt]
			net = fmt.Sprintf("%.2f (%q, line %d)", f.net, d.lead(n), n.Line+1)
		}
		c.setPrimary(d.amounts[gi].Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the sum before the discount (%q %.2f, line %d); the subtotal is the net the tax is computed on, %s",
			x, d.lead(disc), d.ledgerVal(disc), disc.Line+1, net))
		return true, false
	}
	return false, false
}

func (d *doc) taxInLedger(c *FieldCheck, x float64, f ledgerFacts) (done, anchored bool) {
	if len(f.taxes) < 2 || !d.taxesOnNet(f) {
		return false, false
	}
	sum := d.ledgerSum(f.taxes)
	if near(x, sum, 0.011) {
		return true, true
	}
	unlabelled := false
	for _, ti := range f.taxes {
		unlabelled = unlabelled || d.amounts[ti].role != RoleTax
	}
	if !unlabelled {
		return false, false // two tax labels: twoLabelled and the relations name the parts
	}
	for _, ti := range f.taxes {
		t := &d.amounts[ti]
		if !near(x, d.ledgerVal(t), 0.011) {
			continue
		}
		var others []string
		for _, oi := range f.taxes {
			if oi != ti {
				o := &d.amounts[oi]
				others = append(others, fmt.Sprintf("%q %.2f (line %d)", d.lead(o), d.ledgerVal(o), o.Line+1))
			}
		}
		c.setPrimary(t.Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f is one of the taxes on the total (%q, line %d): the document also adds %s, and the tax is all of them, %.2f",
			x, d.lead(t), t.Line+1, strings.Join(others, ", "), sum))
		return true, false
	}
	return false, false
}

// Bounds of what is taken off a total before what is left to pay.
const (
	maxTakenOff    = 4
	maxTakenOffGap = 8
)

// leftToPay finds, above printing m of x, a labelled total and, between
// them, lines taken off it that make x: a withholding (PPh 23, TDS, WHT,
// retención en la fuente), a retention, an advance, a deposit or a payment
// ("Total 2,400.00 / Less deposit paid 600.00 / Amount Due 1,800.00").
// Whatever those lines are called, x is what is left to pay, not the total.
// A discount, a rounding or a tax between them means something else.
func (d *doc) leftToPay(m labelledAmount, ls *ledgers) (g int, taken []int, ok bool) {
	x := d.ledgerVal(&m)
	mi := d.amountAt(m.Start)
	if mi == len(d.amounts) || x <= 0 {
		return 0, nil, false
	}
	sum := 0.0
	var buf [maxTakenOff]int
	taken = buf[:0]
	for e := d.prevLineEnd(mi); e >= 0 && m.Line-d.amounts[e].Line <= maxTakenOffGap; e = d.prevLineEnd(e) {
		a := &d.amounts[e]
		v := d.ledgerVal(a)
		if a.role == RoleTotal && !a.summary {
			if len(taken) > 0 && v > x && near(v-x, sum, 0.011*float64(len(taken))) && (d.knownDeductions(taken) || d.taxedTotal(e)) {
				return e, append([]int(nil), taken...), true
			}
			return 0, nil, false
		}
		k := d.quickKindOf(ls, e)
		if k == partTax || k == partDiscount || k == partRounding || v == 0 || len(taken) == maxTakenOff || a.key != "" && insurerShareKeys[a.key] {
			// An insurer's share lowers what the patient owes, like a
			// discount: the patient's share is the total.
			return 0, nil, false
		}
		taken = append(taken, e)
		sum += v
	}
	return 0, nil, false
}

// penalizeLeftToPay flags a total that is what is left to pay after lines
// taken off the document's total.
func (d *doc) penalizeLeftToPay(c *FieldCheck, x float64, matches []labelledAmount) bool {
	ls := &d.facts.ledgers
	if len(matches) == 0 || len(matches) > maxRelated || x <= 0 {
		return false
	}
	for _, m := range matches {
		g, taken, ok := d.leftToPay(m, ls)
		if !ok {
			continue
		}
		var lines []string
		for k := len(taken) - 1; k >= 0; k-- {
			t := &d.amounts[taken[k]]
			lines = append(lines, fmt.Sprintf("%q %.2f (line %d)", d.lead(t), d.ledgerVal(t), t.Line+1))
		}
		ga := &d.amounts[g]
		c.setPrimary(m.Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f is what is left to pay after %s is taken off; the document's total is %.2f (%q, line %d)",
			x, strings.Join(lines, " and "), d.ledgerVal(ga), d.lead(ga), ga.Line+1))
		return true
	}
	return false
}

// takenOffTotal reports that b, a later labelled total, is total a less
// the lines between them (a withholding, a retention, a deposit): a stays
// the document's total.
func (d *doc) takenOffTotal(a, b labelledAmount) bool {
	if b.Value >= a.Value {
		return false
	}
	g, _, ok := d.leftToPay(b, &d.facts.ledgers)
	return ok && d.amounts[g].Start == a.Start
}

// dottedDecided reads "200.000" by the document's other amounts: where
// they group thousands with dots beyond doubt ("Rp 2.000.000",
// "1.234,56"), it is two hundred thousand, and x read as 200 is flagged.
// It reports whether the document decided; otherwise the reading stays
// open.
func (d *doc) dottedDecided(c *FieldCheck, dotted string, x float64) bool {
	if !d.isDotted() {
		return false
	}
	thousands := mustAmount(dotted) * 1000
	if !near(math.Abs(x), thousands, amountEpsilon) {
		c.penalize(factorWrongRole, fmt.Sprintf("%q is %s: the document groups thousands with dots", dotted,
			strconv.FormatFloat(thousands, 'f', -1, 64)))
	}
	return true
}

// knownDeductions reports lines the lexicon names as kept back or paid
// already (a withholding, a deposit, a payment).
func (d *doc) knownDeductions(is []int) bool {
	for _, i := range is {
		a := &d.amounts[i]
		if !withholdingKeys[a.key] && !(a.role == roleOther && d.isPayment(*a)) && !depositWords[a.key] {
			return false
		}
	}
	return true
}

// taxedTotal reports total g as the net plus its taxes: its ledger adds a
// tax. What is taken off such a total is taken off the invoice's amount.
func (d *doc) taxedTotal(g int) bool {
	r, ok := d.ledgerOf(g)
	if !ok {
		return false
	}
	for _, it := range r.items {
		if !it.sum && it.kind == partTax {
			return true
		}
	}
	return false
}

// penalizeNetAsTotal flags a total printed as a net with its taxes
// added below it: the lines right under a printing of x are taxes, and the
// labelled total after them is x plus those taxes ("Subtotal 100.00 / GST
// 10.00 / Total 110.00"). The amount before tax is no total.
func (d *doc) penalizeNetAsTotal(c *FieldCheck, x float64, matches []labelledAmount) bool {
	ls := &d.facts.ledgers
	for _, m := range matches {
		i := d.amountAt(m.Start + 1)
		taxes, first := 0.0, -1
		for k := i; k < len(d.amounts) && d.amounts[k].Line-m.Line <= 4; k++ {
			if !d.lineEnd(k) || d.amounts[k].Line == m.Line {
				continue
			}
			a := &d.amounts[k]
			if a.role == RoleTotal && !a.summary {
				g := d.ledgerVal(a)
				if first >= 0 && !near(g, x, 0.011) && near(g, x+taxes, 0.011+0.005*taxes/math.Max(taxes, 1)) {
					t := &d.amounts[first]
					c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the net before the tax (%q %.2f, line %d); the total with it is %.2f (%q, line %d)",
						x, d.lead(t), d.ledgerVal(t), t.Line+1, g, d.lead(a), a.Line+1))
					return true
				}
				break
			}
			if d.quickKindOf(ls, k) != partTax {
				break
			}
			if first < 0 {
				first = k
			}
			taxes += d.ledgerVal(a)
		}
	}
	return false
}

// Screens of the ledger checks, read before any ledger is.

// otherTaxBeside reports a printing of a tax with, within two lines, a tax
// line the lexicon does not label as one ("IEPS 8%", "Catering Levy 2%").
func (d *doc) otherTaxBeside(matches []labelledAmount) bool {
	ls := &d.facts.ledgers
	for _, m := range matches {
		if m.role != RoleTax {
			continue
		}
		i := d.amountAt(m.Start)
		// The lines right above and below: the taxes of one total are
		// printed together.
		above := d.prevLineEnd(i)
		below := i
		for below < len(d.amounts) && d.amounts[below].Line == m.Line {
			below++
		}
		for below < len(d.amounts) && !d.lineEnd(below) {
			below++
		}
		for _, k := range [2]int{above, below} {
			if k >= 0 && k < len(d.amounts) && d.amounts[k].role != RoleTax && d.partKindOf(ls, k) == partTax {
				return true
			}
		}
	}
	return false
}

// discountNear reports a discount within four lines below a printing, or
// above one no subtotal label names: a subtotal is judged by a ledger only
// there (a labelled subtotal after the discount passes its role check).
func (d *doc) discountNear(matches []labelledAmount) bool {
	labelled := slices.ContainsFunc(matches, func(a labelledAmount) bool { return a.role == RoleSubtotal })
	for _, m := range matches {
		i := d.amountAt(m.Start)
		for k := i - 1; !labelled && k >= 0 && m.Line-d.amounts[k].Line <= 4; k-- {
			if d.discountAt(k) {
				return true
			}
		}
		for k := i + 1; k < len(d.amounts) && d.amounts[k].Line-m.Line <= 4; k++ {
			if d.discountAt(k) {
				return true
			}
		}
	}
	return false
}

// discountAt reports amount k printed negative or under a discount label.
func (d *doc) discountAt(k int) bool {
	a := &d.amounts[k]
	return a.Value < 0 || a.role == roleOther && d.labelKind(k) == partDiscount
}

// amountAt is the index of the first amount starting at or after p (the
// amounts are in text order).
func (d *doc) amountAt(p int) int {
	lo, hi := 0, len(d.amounts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.amounts[m].Start < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
