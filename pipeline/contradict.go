package pipeline

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Contradictions: the checks below do not confirm a figure, they catch one
// that the document's own arithmetic refutes (tendered − change, a rounding
// adjustment, a tax summary row, tax < total), and they run when a field is
// null too. Every reason names the numbers.

const (
	factorContradiction = 0.2  // the document's own figures refute the value
	factorTwoLabels     = 0.3  // the document labels two different values for the field
	factorOmission      = 0.0  // a null the document states a value for
	factorCountryOnly   = 0.8  // no currency printed; only the issuer's country implies it
	factorUnplaced      = 0.6  // a sign several countries' currencies share, and no place to choose by
	factorNotIssuer     = 0.2  // a name that is the customer's or a title
	factorCutName       = 0.25 // a name cut at a line of a name printed over several
	factorBadIdentifier = 0.2  // an identifier that is a date, a composite or a fragment
)

// lineBounds is line li's [start, end).
func (d *doc) lineBounds(li int) (int, int) {
	ls := d.lineStarts[li]
	le := len(d.rs)
	if li+1 < len(d.lineStarts) {
		le = d.lineStarts[li+1] - 1
	}
	return ls, le
}

// labelOpensLine reports whether a's line holds nothing before the amount
// but its label: "PAY 50.00", not "PAY PARKING TICKET 1.50".
func (d *doc) labelOpensLine(a labelledAmount) bool {
	ls := d.lineStarts[d.lineOf(a.Start)]
	if ls > a.Start {
		return false
	}
	before := strings.Trim(strings.TrimSpace(d.str(ls, a.Start)), ":：")
	return LabelKey(before) == a.key
}

// lineOf is the index of the line holding offset p.
func (d *doc) lineOf(p int) int {
	lo, hi := 0, len(d.lineStarts)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if d.lineStarts[m] <= p {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// labelKeyOf is an amount's label in lexicon form.
func labelKeyOf(a labelledAmount) string { return a.key }

var tenderedLabels = map[string]bool{"cash": true, "tendered": true, "tender": true, "cash received": true,
	"paid": true, "paid amount": true, "payment": true, "received": true, "cash paid": true, "bar": true, "pay": true}
var changeLabels = map[string]bool{"change": true, "change due": true, "changes": true, "rückgeld": true}

// payment is an amount tendered and the change given back on it.
type payment struct{ tendered, change labelledAmount }

// rounding is a printed rounding adjustment: a small amount after a rounding
// label ("ROUNDING ADJ -0.02").
func (d *doc) roundings() []labelledAmount {
	if !d.roundsDone {
		d.roundsDone = true
		d.rounds, d.pays = d.findRoundings(), d.findPayments()
	}
	return d.rounds
}

func (d *doc) payments() []payment {
	d.roundings()
	return d.pays
}

func (d *doc) findRoundings() []labelledAmount {
	var out []labelledAmount
	for i := range d.amounts {
		// The label is searched only for a small amount of no role.
		if a := &d.amounts[i]; a.role == roleOther && a.Value != 0 && math.Abs(a.Value) < 0.5 &&
			(strings.Contains(a.key, "round") || strings.Contains(a.key, "adjust")) {
			out = append(out, *a)
		}
	}
	return out
}

func (d *doc) findPayments() []payment {
	var out []payment
	var last *labelledAmount
	for i := range d.amounts {
		a := &d.amounts[i]
		if a.role != roleOther {
			continue
		}
		k := labelKeyOf(*a)
		switch {
		case k == "pay" && !d.labelOpensLine(*a):
			// "PAY PARKING TICKET 1.50": a verb in an item's name.
		case tenderedLabels[k] || strings.HasPrefix(k, "cash"):
			last = a
		case changeLabels[k] && last != nil && a.Value >= 0 && last.Value >= a.Value:
			out = append(out, payment{tendered: *last, change: *a})
			last = nil
		}
	}
	return out
}

// printedBounds is where x is printed as an amount: the start of its first
// printing and the end of the one that ends last, ok false when it is not.
func (d *doc) printedBounds(x float64) (first, lastEnd int, ok bool) {
	for _, a := range d.amounts {
		if near(math.Abs(a.Value), math.Abs(x), amountEpsilon) {
			if !ok {
				first, ok = a.Start, true
			}
			lastEnd = max(lastEnd, a.End)
		}
	}
	return first, lastEnd, ok
}

// has reports whether needle occurs in f: find's first match, without
// collecting the rest.
func (f folded) has(needle []rune) bool {
	m := len(needle)
	if m == 0 || m > len(f.r) {
		return false
	}
	for k := 0; k+m <= len(f.r); k++ {
		if f.r[k] == needle[0] && runesEqual(f.r[k:k+m], needle) {
			return true
		}
	}
	return false
}

// hasDiscount reports a discount printed anywhere: a discount word in the
// text, a discount label or a negative amount.
func (d *doc) hasDiscount() bool {
	for _, w := range discountWords {
		if d.fold.has(w) {
			return true
		}
	}
	for _, a := range d.amounts {
		if isDiscountKey(a.key) || strings.Contains(a.key, "saving") || a.Value < 0 || insurerShareKeys[a.key] {
			return true // an insurer's share lowers the patient's total below the charges
		}
	}
	return false
}

// fieldOfRole is the schema's first money field of role r.
func fieldOfRole(s *Schema, r Role) (Field, bool) {
	for _, f := range s.Fields {
		if f.Kind == KindMoney && f.Role == r {
			return f, true
		}
	}
	return Field{}, false
}

// contradictions runs the relations a document's own figures impose on the
// money roles. A null field takes part where its absence is the claim
// (subtotal = total with a null tax).
func (d *doc) contradictions(rep HeuristicReport, s *Schema, rec Record) {
	val := func(r Role) (Field, float64, bool) {
		f, ok := fieldOfRole(s, r)
		if !ok {
			return f, 0, false
		}
		x, ok := moneyValue(rec[f.Name])
		return f, x, ok && rec[f.Name] != nil
	}
	blame := func(f Field, factor float64, reason string) {
		c, ok := rep[f.Name]
		if !ok {
			c = FieldCheck{Factor: 1, Spans: []Span{}}
		}
		c.penalize(factor, reason)
		rep[f.Name] = c
	}
	tf, total, hasTotal := val(RoleTotal)
	xf, tax, hasTax := val(RoleTax)
	sf, sub, hasSub := val(RoleSubtotal)
	if hasTotal {
		d.checkPayable(tf, total, blame)
	}
	if hasTax && hasTotal && total != 0 {
		switch {
		case tax*total < 0 || math.Abs(tax) >= math.Abs(total):
			blame(xf, factorContradiction, fmt.Sprintf("tax %.2f is not below the total %.2f", tax, total))
		case hasSub && sub != 0 && near(tax, sub, amountEpsilon):
			blame(xf, factorContradiction, fmt.Sprintf("tax %.2f equals the subtotal %.2f: one printed number cannot fill two money roles", tax, sub))
		}
	}
	if hasTax && tax < 0 && (!hasTotal || total >= 0) {
		blame(xf, factorContradiction, fmt.Sprintf("tax %.2f is negative", tax))
	}
	if sum := d.summary; sum != nil && hasTax && !near(tax, sum.tax, 0.011) {
		// A row's tax is the document's unless another row taxes a
		// different non-zero amount: then it is one rate's part of it.
		rowTax, otherRate := false, false
		for _, r := range sum.rows {
			rowTax = rowTax || near(tax, r.tax, amountEpsilon)
			otherRate = otherRate || r.tax != 0 && !near(tax, r.tax, amountEpsilon) && !d.serviceCharge(r)
		}
		rowTax = rowTax && !otherRate
		if !rowTax {
			blame(xf, factorContradiction, fmt.Sprintf("tax %.2f disagrees with the tax summary (%s)", tax, sum.describe()))
		}
	}
	if hasSub && hasTotal && math.Abs(sub) > math.Abs(total)+s.Tolerance && !d.hasDiscount() && !d.netOfLedger(sub, total) {
		blame(sf, factorContradiction, fmt.Sprintf("subtotal %.2f exceeds the total %.2f and no discount is printed", sub, total))
	}
	if hasSub && hasTotal && sub != 0 && near(sub, total, amountEpsilon) && (!hasTax || tax == 0) {
		// subtotal = total holds only when nothing is taxed.
		if t, where := d.printedTax(total); t != 0 {
			blame(sf, factorContradiction, fmt.Sprintf("subtotal %.2f equals the total %.2f with no tax, but the document prints tax %.2f (%s)", sub, total, t, where))
		}
	}
	if hasTotal && total > 0 {
		// A discount is looked for only where a line amount needs it: the
		// search reads the whole text.
		if a, ok := d.largestLineAmount(total); ok && a.Value > total+s.Tolerance && !d.hasDiscount() {
			blame(tf, factorContradiction, fmt.Sprintf("total %.2f is less than the line amount %s on line %d", total, a.Raw, a.Line+1))
		}
	}
}

// printedTax is a non-zero tax the document prints: the tax summary's, or an
// amount labelled as tax.
func (d *doc) printedTax(total float64) (float64, string) {
	if d.summary != nil && d.summary.tax != 0 {
		return d.summary.tax, "tax summary: " + d.summary.describe()
	}
	for _, a := range d.amounts {
		if a.role == RoleTax && a.Value > 0 && a.Value < math.Abs(total) {
			return a.Value, fmt.Sprintf("labelled %q", strings.ToUpper(a.label))
		}
	}
	return 0, ""
}

// largestLineAmount is the largest unlabelled amount with cents on an item
// line: a total cannot be less than one of its lines.
func (d *doc) largestLineAmount(total float64) (labelledAmount, bool) {
	var best labelledAmount
	ok := false
	first, _, printed := d.printedBounds(total)
	if !printed {
		return best, false
	}
	for i := range d.amounts {
		a := &d.amounts[i]
		if a.Start >= first {
			break // item lines come before the total
		}
		if a.role != "" || a.summary || !centsForm(a.Raw) {
			continue
		}
		// A column of a table row (several amounts on the line with a label)
		// is not a line amount on its own.
		if i+1 < len(d.amounts) && d.amounts[i+1].Line == a.Line && d.amounts[i+1].role != "" {
			continue
		}
		if d.runningBalance(i) {
			// A ledger: debits paid or credited later can exceed what is
			// due now, so no line amount bounds the total.
			return best, false
		}
		if !ok || a.Value > best.Value {
			best, ok = *a, true
		}
	}
	return best, ok
}

// centsForm reports an amount written with two decimals ("12.50", "1.234,56").
func centsForm(raw string) bool {
	n := len(raw)
	return n >= 3 && (raw[n-3] == '.' || raw[n-3] == ',') && isDigit(rune(raw[n-1])) && isDigit(rune(raw[n-2]))
}

// checkPayable checks the total against what was paid and against a printed
// rounding adjustment: the payable is the rounded figure, and cash tendered
// minus change is what was paid.
func (d *doc) checkPayable(tf Field, total float64, blame func(Field, float64, string)) {
	_, lastEnd, totalPrinted := d.printedBounds(total)
	for _, r := range capped(d.roundings()) {
		adj := math.Abs(r.Value)
		for _, y := range []float64{total + adj, total - adj} {
			after := false
			for _, a := range d.amounts {
				if a.Start > r.End && near(a.Value, y, amountEpsilon) && d.confirmedPayable(a) {
					after = true
				}
			}
			if before := totalPrinted && lastEnd < r.Start; after && before {
				blame(tf, factorContradiction, fmt.Sprintf("%.2f is the total before rounding: %.2f %s %.2f (%s) = %.2f, the amount payable",
					total, total, sign(y-total), adj, strings.ToUpper(r.label), y))
				return
			}
		}
	}
	for _, p := range capped(d.payments()) {
		paid := p.tendered.Value - p.change.Value
		if near(paid, total, amountEpsilon) || paid <= 0 {
			continue
		}
		// The tendered amount pays a printed figure: the payable.
		printed := false
		for _, a := range d.amounts {
			printed = printed || a.Start != p.tendered.Start && a.Start != p.change.Start && near(a.Value, paid, amountEpsilon)
		}
		if printed {
			blame(tf, factorContradiction, fmt.Sprintf("%s %.2f − %s %.2f = %.2f, not the total %.2f",
				strings.ToLower(p.tendered.label), p.tendered.Value, strings.ToLower(p.change.label), p.change.Value, paid, total))
			return
		}
	}
}

// confirmedPayable reports an amount the document labels a total, or that
// cash tendered minus change confirms.
func (d *doc) confirmedPayable(a labelledAmount) bool {
	if a.role == RoleTotal {
		return true
	}
	for _, p := range capped(d.payments()) {
		if p.change.Value > 0 && near(p.tendered.Value-p.change.Value, a.Value, amountEpsilon) {
			return true
		}
	}
	return false
}

// maxRelated bounds how many roundings, payments or rival values a check
// weighs: a document prints a handful, and a hostile one must not make the
// checks quadratic.
const maxRelated = 16

func capped[T any](xs []T) []T { return xs[:min(len(xs), maxRelated)] }

func sign(x float64) string {
	if x < 0 {
		return "−"
	}
	return "+"
}

// roundingExplains reports whether diff is a printed rounding adjustment:
// "subtotal + tax = total" holds before rounding.
func (d *doc) roundingExplains(diff float64) bool {
	for _, r := range capped(d.roundings()) {
		if near(math.Abs(diff), math.Abs(r.Value), 0.011) {
			return true
		}
	}
	return false
}

// omission reports a null field the document states: a money role with a
// labelled amount, a date or identifier after the field's own label, a
// currency printed next to the amounts.
func (d *doc) omission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	switch f.Kind {
	case KindMoney:
		if f.Role == RoleNone {
			return c, false
		}
		// A labelled figure outside a tax summary first; one row of a
		// summary with several rates holds a part of the subtotal, not a
		// figure the field leaves out.
		rowsOnly := f.Role == RoleSubtotal && d.summary != nil && len(d.summary.rows) > 1
		if rowsOnly {
			for _, a := range d.amounts {
				// The rows' sum printed (a "Gesamtbetrag 21,73 1,75" row):
				// the subtotal is on the page after all.
				if !a.summary && near(a.Value, d.summary.net, amountEpsilon) {
					c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
					c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %s, the sum of its tax summary's nets (line %d)",
						f.Words(), a.Raw, a.Line+1))
					return c, true
				}
			}
		}
		for _, a := range d.amounts {
			if a.role == f.Role && a.summary && rowsOnly {
				continue
			}
			if a.role == f.Role {
				c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
				c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document labels %s as %s (%s, line %d)",
					f.Words(), a.Raw, f.Role, strings.ToUpper(a.label), a.Line+1))
				return c, true
			}
		}
	case KindDate:
		own := fieldLabelOwner(f.Name)
		for _, m := range d.dates {
			if h, ok := d.labelBefore(m.Start); ok && h.role == own && !m.ident {
				c.Spans = append(c.Spans, Span{Start: m.Start, End: m.End})
				c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %s after %q",
					f.Words(), m.Raw, strings.TrimSpace(h.text)))
				return c, true
			}
		}
	case KindIdentifier:
		// The number the surest own label names: an invoice number before a
		// receipt's, a receipt's before a folio or a bare "Ref".
		own := fieldLabelOwner(f.Name)
		var at labelHit
		var tok Span
		rank := 0
		for _, h := range d.fieldHits {
			if h.role != own {
				continue
			}
			if r := d.ownRank(h); r > rank {
				if sp, ok := tokenAfter(d.rs, h.end); ok && d.lineOf(sp.Start) == d.lineOf(h.start) {
					at, tok, rank = h, sp, r
				}
			}
		}
		if rank > 0 {
			c.Spans = append(c.Spans, tok)
			c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %s after %q",
				f.Words(), d.str(tok.Start, tok.End), strings.TrimSpace(at.text)))
			return c, true
		}
	case KindText:
		if f.Party != PartyIssuer {
			return d.labelledTextOmission(f)
		}
		return d.issuerOmission(f)
	case KindCurrency:
		if c, ok := d.billedOmission(f); ok {
			return c, true
		}
		if code, marker, sp, ok := d.amountCurrency(); ok {
			c.Spans = append(c.Spans, sp)
			c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %q (%s) next to its amounts",
				f.Words(), marker, code))
			return c, true
		}
		if code, header, sp, ok := d.headerCurrency(); ok {
			c.Spans = append(c.Spans, sp)
			c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document heads its amounts %q (%s)",
				f.Words(), header, code))
			return c, true
		}
		if code, phrase, sp, ok := d.proseCurrency(); ok {
			c.Spans = append(c.Spans, sp)
			c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document says %q (%s)",
				f.Words(), phrase, code))
			return c, true
		}
		return d.currencyOmission(f)
	}
	return c, false
}

// isWordRune is a letter or digit.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// serviceWords name a service charge, which a summary may print as a rate
// row beside the tax but which is not a tax.
var serviceWords = []string{"service", "svc", "servis", "bedienung", "servizio", "サービス料", "服务费", "봉사료"}

// serviceCharge reports a summary row whose line names a service charge.
func (d *doc) serviceCharge(r taxRow) bool {
	a := d.amounts[r.taxA]
	line := strings.ToLower(d.lineText(a.Start))
	for _, w := range serviceWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// runningBalance reports that amount i ends its line and is the previous
// line's last amount plus or minus another amount on its own line: the
// balance column of a statement or ledger ("Invoice 2,340.00 3,590.00"
// after "Balance b/f 1,250.00"), not an amount charged on that line.
func (d *doc) runningBalance(i int) bool {
	a := d.amounts[i]
	if i+1 < len(d.amounts) && d.amounts[i+1].Line == a.Line {
		return false
	}
	j := i - 1
	for j >= 0 && d.amounts[j].Line == a.Line {
		j--
	}
	if j < 0 || j == i-1 || d.amounts[j].Line < a.Line-2 {
		return false
	}
	prev := d.amounts[j].Value
	for k := j + 1; k < i; k++ {
		b := d.amounts[k].Value
		if near(prev+b, a.Value, amountEpsilon) || near(prev-b, a.Value, amountEpsilon) {
			return true
		}
	}
	return false
}
