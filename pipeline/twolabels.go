package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// A role the document labels twice with different values: which pairs the
// page explains (a running total, a rounding, a tax-inclusive subtotal,
// arrears, a withholding, per-rate taxes) and which flag the field.

// twoLabelled flags a money value when the document labels another, different
// value for the same role that nothing printed explains: not a running total
// the amounts between them add up to, a rounding, a tax-inclusive subtotal,
// a base and its tax.
func (d *doc) twoLabelled(c *FieldCheck, f Field, x float64) {
	// On the stack: a receipt labels a role once or twice, and every
	// money field of every document gathers them.
	var ownBuf, otherBuf [4]labelledAmount
	own, other := ownBuf[:0], otherBuf[:0]
	q := d.quotedFrom()
	if f.Role == RoleTax {
		if a, o, ok := d.otherRateTax(x, q); ok {
			c.penalize(factorTwoLabels, fmt.Sprintf("%.2f is the tax of one rate (%s, line %d): the document also taxes another rate, %.2f (%s, line %d), and both add up to %.2f",
				x, strings.ToUpper(a.label), a.Line+1, o.Value, strings.ToUpper(o.label), o.Line+1, x+o.Value))
			return
		}
	}
	for _, a := range d.amounts {
		if a.role != f.Role || a.summary || !centsForm(a.Raw) || d.otherDocument(a, q) {
			continue
		}
		if near(math.Abs(a.Value), math.Abs(x), amountEpsilon) {
			own = append(own, a)
		} else {
			other = append(other, a)
		}
	}
	if f.Role == RoleTax && len(other) == 0 {
		if a, b, sum, ok := d.splitTaxHalf(own); ok {
			c.penalize(factorTwoLabels, fmt.Sprintf("%.2f is one part of a split tax: %s (line %d) and %s (line %d) add up to %.2f",
				x, strings.ToUpper(a.label), a.Line+1, strings.ToUpper(b.label), b.Line+1, sum))
		}
		return
	}
	if len(own) == 0 || len(other) == 0 {
		return
	}
	seen := map[float64]bool{}
	for _, o := range other {
		if o.Value == 0 || seen[o.Value] {
			continue
		}
		if seen[o.Value] = true; len(seen) > maxRelated {
			return
		}
		if d.explainedPair(f.Role, own, o, x) {
			continue
		}
		c.penalize(factorTwoLabels, fmt.Sprintf("the document labels two %s amounts: %.2f (%s, line %d) and %.2f (%s, line %d)", f.Role,
			x, strings.ToUpper(own[0].label), own[0].Line+1, o.Value, strings.ToUpper(o.label), o.Line+1))
		return
	}
}

// explainedPair reports whether a second labelled value o of a role is
// accounted for by what the document prints between it and x.
func (d *doc) explainedPair(r Role, own []labelledAmount, o labelledAmount, x float64) bool {
	diff := math.Abs(o.Value - x)
	if d.roundingExplains(diff) {
		return true
	}
	lastOwn := own[len(own)-1]
	if o.Start < lastOwn.Start && diff <= 0.05 {
		return true // a cash rounding: the later figure is the payable
	}
	switch r {
	case RoleSubtotal:
		if withholdingKeys[o.key] {
			return true // "Less Withholding VAT 2%": kept back, no net
		}
		// "SUBTOTAL 148.00" that already holds its tax is the total.
		for _, a := range d.amounts {
			if a.role == RoleTotal && near(a.Value, o.Value, amountEpsilon) ||
				a.role == RoleTax && near(x+a.Value, o.Value, 0.011) {
				return true
			}
		}
	case RoleTotal:
		// The total with its taxes and the amount payable after the buyer
		// withholds part of them ("KDV Tevkifatı", "ISR retenido"): both are
		// printed, and the withholding is the difference.
		for _, a := range d.amounts {
			if withholdingKeys[a.key] && near(math.Abs(a.Value), diff, 0.011) {
				return true
			}
		}
		if d.grossAboveDiscount(o, x) {
			return true // "Goods total 1,250.00 / Less 20% trade discount" above the total
		}
		// A bill's own charges and its payable that adds arrears.
		if _, charges, ok := d.carriedBalance(RoleTotal, o); ok && near(charges.Value, x, amountEpsilon) {
			return true
		}
	case RoleTax:
		if d.summary != nil {
			return true // per-rate tax lines and their sum
		}
		// "CGST 900.00 / SGST 900.00 / Total Tax 1,800.00": x is the sum of
		// the parts. One part alone stays flagged: it is a partial tax.
		parts := 0.0
		for _, a := range d.amounts {
			if a.role == RoleTax && !a.summary && centsForm(a.Raw) && !near(math.Abs(a.Value), math.Abs(x), amountEpsilon) {
				parts += a.Value
			}
		}
		if near(math.Abs(parts), math.Abs(x), 0.011) {
			return true
		}
	}
	// A running total: the amounts printed between the two add up to the
	// difference, or one of them is it (a service charge, a tax).
	lo, hi := min(o.Start, own[0].Start), max(o.Start, own[0].Start)
	between := 0.0
	for _, a := range d.amounts {
		if a.Start <= lo || a.Start >= hi || a.role == r {
			continue
		}
		if near(math.Abs(a.Value), diff, 0.011) {
			return true
		}
		if a.role == RoleTax || a.role == roleOther || a.role == "" {
			between += a.Value
		}
	}
	return near(math.Abs(between), diff, 0.011)
}

// splitTaxHalf reports a tax printed twice at one value under two
// different tax labels (India's CGST and SGST, which
// split one GST between centre and state), when a total is the printed
// base plus both: the document's tax is their sum, so one of them alone
// is a part. A tax reprinted under "Total GST" is the same tax, not a part.
func (d *doc) splitTaxHalf(own []labelledAmount) (a, b labelledAmount, sum float64, ok bool) {
	var partBuf [2]labelledAmount // two parts are all it takes
	parts := partBuf[:0]
	for _, o := range capped(own) {
		if o.key == "" || strings.Contains(o.key, "total") || slices.ContainsFunc(parts, func(p labelledAmount) bool { return p.key == o.key }) {
			continue
		}
		parts = append(parts, o)
	}
	if len(parts) != 2 {
		return a, b, 0, false
	}
	sum = parts[0].Value + parts[1].Value
	var totals []float64
	for _, t := range d.amounts {
		if t.role == RoleTotal && len(totals) < maxRelated {
			totals = append(totals, t.Value)
		}
	}
	for _, n := range d.amounts {
		if n.role == RoleTax || n.role == RoleTotal || n.Value <= 0 {
			continue
		}
		if slices.ContainsFunc(totals, func(t float64) bool { return near(n.Value+sum, t, 0.011) }) {
			return parts[0], parts[1], sum, true
		}
	}
	return a, b, 0, false
}

// otherRateTax finds, for a tax x printed on a rate row, a different
// non-zero tax on another rate row when the document prints no tax that is
// their sum and no tax summary: a Japanese receipt's 8% and 10% taxes
// ("うち消費税 ¥22" / "うち消費税 ¥20", in yen without cents), a Canadian
// TPS and TVQ. The tax is both, so one rate's alone is a part.
func (d *doc) otherRateTax(x float64, q int) (own, o labelledAmount, ok bool) {
	if d.summary != nil {
		return own, o, false
	}
	var taxBuf [4]labelledAmount // on the stack: a document prints a tax or two
	taxes := taxBuf[:0]
	for _, a := range d.amounts {
		if a.role == RoleTax && !a.summary && !d.otherDocument(a, q) && len(taxes) < maxRelated {
			taxes = append(taxes, a)
		}
	}
	i := slices.IndexFunc(taxes, func(a labelledAmount) bool { return near(a.Value, x, amountEpsilon) })
	if i < 0 || strings.Contains(taxes[i].key, "total") || !d.rateOnLine(taxes[i]) {
		return own, o, false
	}
	own = taxes[i]
	for _, t := range taxes {
		if t.Value == 0 || t.Line == own.Line || near(t.Value, x, amountEpsilon) || (t.Value < 0) != (x < 0) ||
			strings.Contains(t.key, "total") || !d.rateOnLine(t) {
			continue
		}
		if slices.ContainsFunc(taxes, func(s labelledAmount) bool { return near(s.Value, x+t.Value, 0.011) }) {
			return own, o, false // the sum is printed: a tax total
		}
		return own, t, true
	}
	return own, o, false
}
