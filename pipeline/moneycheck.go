package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// dotThousands reports a number whose one dot has exactly three digits after
// it and a non-zero integer part of at most three digits: "1.500" is 1.5 in
// English and 1500 in German, and nothing in the token says which.
func dotThousands(raw string) bool {
	i := strings.IndexByte(raw, '.')
	if i < 1 || i > 3 || len(raw)-i-1 != 3 || raw[0] == '0' {
		return false
	}
	for k := 0; k < len(raw); k++ {
		if k != i && !isDigit(rune(raw[k])) {
			return false
		}
	}
	return true
}

// mustAmount parses a token findAmounts already accepted.
func mustAmount(raw string) float64 {
	v, _ := parseNumberCore(raw)
	return v
}

// checkMoney grounds an amount and, for a field with a role, checks it is the
// amount the source labels for that role. It reports whether the value is
// anchored in the source.
func (d *doc) checkMoney(c *FieldCheck, f Field, v any) bool {
	x, ok := moneyValue(v)
	if !ok {
		c.penalize(factorNotFound, fmt.Sprintf("%v is not an amount", v))
		return false
	}
	// Counted first so both lists are allocated once at their size; the
	// first matches found are remembered, so most fields read the amounts
	// once.
	n := 0
	var found [32]struct {
		i   int32
		amb bool
	}
	for i := range d.amounts {
		if m, amb := d.printsAmountIn(&d.amounts[i], x); m {
			if n < len(found) {
				found[n].i, found[n].amb = int32(i), amb
			}
			n++
		}
	}
	// A field's printings are few: they are gathered on the stack.
	var onStack [4]labelledAmount
	matches := onStack[:0]
	if n > 0 {
		if n > len(onStack) {
			matches = make([]labelledAmount, 0, n)
		}
		c.Spans = slices.Grow(c.Spans, n)
	}
	var dotted string // the ambiguous token, while every match is one
	add := func(a *labelledAmount, amb bool) {
		if len(matches) == 0 && amb {
			dotted = a.Raw
		} else if !amb {
			dotted = ""
		}
		matches = append(matches, *a)
		c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
	}
	if n <= len(found) {
		for _, m := range found[:n] {
			add(&d.amounts[m.i], m.amb)
		}
	} else {
		for i := range d.amounts {
			if m, amb := d.printsAmountIn(&d.amounts[i], x); m {
				add(&d.amounts[i], amb)
			}
		}
	}
	if x != 0 && len(matches) > 0 && !slices.ContainsFunc(matches, func(a labelledAmount) bool {
		return (a.Value < 0) == (x < 0) || a.role == f.Role || trailingDash(d.rs, a.End)
	}) {
		// Every printing carries the other sign ("refund -120.00" on a
		// credit note read as 120): the sign was dropped or invented. A
		// printing under the field's own label says so below, by its label.
		c.setPrimary(matches[0].Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%s is printed only as %.2f: the sign differs", FormatFloat(x), matches[0].Value))
		return false
	}
	if len(matches) == 0 && f.Role != RoleNone && d.groundAsParts(c, f.Role, x) {
		return true
	}
	if len(matches) == 0 && x == 0 && f.Role == RoleTax {
		if sp, ok := d.zeroTaxRate(); ok {
			// "KDV: ihracat istisnası (%0)", "VAT 0%": the rate says the
			// tax is nil where no 0.00 is printed.
			c.Spans, c.Grounded = append(c.Spans, sp), true
			return true
		}
	}
	if q, ok := d.onlyQuantity(matches); ok && f.Role != RoleNone {
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f is printed as a quantity or rate (%q), not an amount", x, q))
	}
	c.Grounded = len(matches) > 0
	if !c.Grounded {
		if t := d.termPrinted(x); t != "" {
			c.penalize(factorNotFound, fmt.Sprintf("%s is the days of a payment term (%q), not an amount", FormatFloat(x), t))
		} else if why := d.threeDecimalMisread(x); why != "" {
			c.penalize(factorNotFound, why)
		} else {
			c.penalize(factorNotFound, "amount "+FormatFloat(x)+" not found in source text")
		}
	}
	if dotted != "" && !d.dottedDecided(c, dotted, x) {
		c.penalize(factorDotThousands, fmt.Sprintf("%q may be %s or %s", dotted,
			strconv.FormatFloat(mustAmount(dotted), 'f', -1, 64), strings.Replace(dotted, ".", ",", 1)))
	}
	if f.Role == RoleNone {
		return c.Grounded
	}
	if f.Role == RoleTotal && d.penalizeBeforeDiscount(c, x, matches) {
		return false
	}
	if f.Role == RoleTax && x != 0 {
		if i := slices.IndexFunc(matches, func(a labelledAmount) bool { return exemptionKeys[a.key] }); i >= 0 {
			// "VAT Exemption 120.00" on a senior citizen's receipt, "VAT
			// Exempt Sales 200.00": no tax is charged on that amount.
			e := matches[i]
			c.setPrimary(e.Start)
			c.penalize(factorWrongRole, fmt.Sprintf("%.2f is labelled %q (line %d): a tax exemption or exempt sales, not a tax charged", x,
				shownLabel(e.label), e.Line+1))
			return false
		}
	}
	if done, anchored := d.checkInLedger(c, f.Role, x, matches); done {
		return anchored
	}
	said := len(c.Reasons)
	anchored := d.checkMoneyRole(c, f, x, matches)
	if f.Role == RoleTotal && (len(c.Reasons) == said || !slices.ContainsFunc(matches, func(a labelledAmount) bool { return a.role == RoleTotal })) &&
		d.penalizeLeftToPay(c, x, matches) {
		return false // the lines taken off are named, not only the label
	}
	if f.Role == RoleTotal && len(c.Reasons) == said && d.penalizeNetAsTotal(c, x, matches) {
		return false
	}
	// Where the role check names the labelled amount, that says it.
	if len(c.Reasons) == said && (f.Role == RoleTotal || f.Role == RoleSubtotal) && d.penalizeOneItem(c, f, x, matches) {
		return false
	}
	return anchored
}

// printsAmount reports whether a prints x (its magnitude), and, when it
// does, whether a is written with a dot that may group thousands ("1.500"),
// as which it prints x too. The raw text is read only for an amount whose
// value is x or a thousandth of it: most amounts of a document are neither.
func printsAmount(a *labelledAmount, x float64) (match, amb bool) {
	if math.Abs(math.Abs(a.Value)-math.Abs(x)) < amountEpsilon {
		return true, dotThousands(a.Raw)
	}
	if math.Abs(math.Abs(a.Value)*1000-math.Abs(x)) < amountEpsilon {
		amb = dotThousands(a.Raw)
		return amb, amb
	}
	return false, false
}

// checkMoneyRole checks that x, grounded at matches, is the amount the
// source labels for f's role. It reports whether x is anchored there.
func (d *doc) checkMoneyRole(c *FieldCheck, f Field, x float64, matches []labelledAmount) bool {
	var labelled []string
	seen := map[string]bool{}
	var flipped *labelledAmount // the labelled printing of |x| with the other sign
	for i := range d.amounts {
		if d.amounts[i].role != f.Role {
			continue // copied only when it is the role's
		}
		a := d.amounts[i]
		if m, _ := d.printsAmountIn(&a, x); m {
			if x != 0 && a.Value != 0 && (x < 0) != (a.Value < 0) {
				if flipped == nil {
					flipped = &d.amounts[i]
				}
				continue
			}
			if inv, paid, ok := d.balanceAfterPayment(f.Role, a); ok {
				c.setPrimary(a.Start)
				c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the balance left after a payment (%q %.2f, line %d); the document's total is %.2f (%q, line %d)", x,
					shownLabel(paid.label), paid.Value, paid.Line+1, inv.Value,
					shownLabel(inv.label), inv.Line+1))
				return false
			}
			if prev, own, ok := d.carriedBalance(f.Role, a); ok {
				c.setPrimary(a.Start)
				c.penalize(factorWrongRole, fmt.Sprintf("%.2f includes the previous balance %.2f (%q, line %d): this invoice's own charges are %.2f (line %d)", x,
					prev.Value, shownLabel(prev.label), prev.Line+1, own.Value, own.Line+1))
				return false
			}
			if later, ok := d.laterFinalTotal(f.Role, a, matches); ok {
				c.setPrimary(a.Start)
				c.penalize(factorWrongRole, fmt.Sprintf("%.2f is labelled %q, but the document's final total is %.2f (%q, line %d)", x,
					shownLabel(a.label), later.Value,
					shownLabel(later.label), later.Line+1))
				return false
			}
			if gross, w, ok := d.netAfterWithholding(f.Role, a); ok {
				c.setPrimary(a.Start)
				c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the net left after a withholding (%q %.2f, line %d); the document's total is %.2f (%q, line %d)", x,
					shownLabel(w.label), w.Value, w.Line+1, gross.Value,
					shownLabel(gross.label), gross.Line+1))
				return false
			}
			c.setPrimary(a.Start)
			return true
		}
		if k := fmt.Sprintf("%.2f", a.Value); !seen[k] {
			seen[k] = true
			labelled = append(labelled, k)
		}
	}
	if flipped != nil {
		// "Total: -$1,130.00" on a credit note: 1130 has the wrong sign.
		c.setPrimary(flipped.Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f has the opposite sign of the amount labelled %s (%.2f, %q, line %d)", x, f.Role,
			flipped.Value, shownLabel(flipped.label), flipped.Line+1))
		return false
	}
	if len(labelled) == 0 {
		if f.Role == RoleTax && len(matches) > 0 && d.summary == nil && !d.printsRole(RoleTax) {
			// A receipt with no tax word anywhere: a non-zero tax can only
			// be some other printed figure (an item line, the cash).
			c.penalize(factorWrongRole, fmt.Sprintf("the document labels no tax anywhere; %.2f is printed as another figure", x))
		}
		// The source labels nothing for this role: nothing to contradict.
		return false
	}
	if m, ok := d.roundedAfter(f.Role, matches, x); ok {
		c.setPrimary(m.Start)
		return true
	}
	if f.Role == RoleTotal && slices.ContainsFunc(d.amounts, func(a labelledAmount) bool { return previousBalanceKeys[a.key] }) {
		// An invoice's own charges, below a payable that adds a carried balance.
		totals := 0
		for _, a := range d.amounts {
			if a.role != RoleTotal {
				continue
			}
			if totals++; totals > maxRelated {
				break
			}
			if _, own, ok := d.carriedBalance(f.Role, a); ok && near(own.Value, x, amountEpsilon) {
				c.setPrimary(own.Start)
				return true
			}
		}
	}
	reason := fmt.Sprintf("%.2f is not the amount labelled %s (%s)", x, f.Role, strings.Join(labelled, ", "))
	switch {
	case len(matches) == 0:
		reason += "; it does not appear in the source"
	case matches[0].role == "":
		reason += "; it appears as an item-line amount"
	default:
		reason += fmt.Sprintf("; it appears labelled %q", shownLabel(matches[0].label))
	}
	c.penalize(factorWrongRole, reason)
	return false
}

// groundAsParts grounds an amount the page never prints whole but prints as
// parts that add up to it. It reports whether it did; otherwise c is untouched.
func (d *doc) groundAsParts(c *FieldCheck, role Role, x float64) bool {
	// A figure the tax summary adds up to ("TOTAL" row missing): the
	// rows' base column or tax column summed.
	if sm := d.summary; sm != nil && len(sm.rows) > 1 && (role == RoleSubtotal && near(x, sm.net, amountEpsilon) || role == RoleTax && near(x, sm.tax, amountEpsilon)) {
		for _, r := range sm.rows {
			a := d.amounts[r.base]
			if role == RoleTax {
				a = d.amounts[r.taxA]
			}
			c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
		}
		c.Grounded = true
		return true
	}
	// The tax of two rates printed on their own rate rows and never
	// added up on the page ("Btw 21% 134,40 / Btw 9% 28,35", TPS + TVQ).
	if role == RoleTax {
		if a, b, ok := d.twoRateRows(role, x); ok {
			c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End}, Span{Start: b.Start, End: b.End})
			c.Grounded = true
			return true
		}
	}
	return false
}

// roundedAfter finds a printing of x after a labelled total that a printed
// rounding adjustment turns into x ("TOTAL 60.31 / ROUNDING -0.01 / 60.30"):
// the rounded figure is the payable one.
func (d *doc) roundedAfter(r Role, matches []labelledAmount, x float64) (labelledAmount, bool) {
	if r != RoleTotal {
		return labelledAmount{}, false
	}
	for _, a := range d.amounts {
		if a.role != RoleTotal || !d.roundingExplains(math.Abs(x)-math.Abs(a.Value)) {
			continue
		}
		for _, m := range matches {
			if m.Start > a.Start {
				return m, true
			}
		}
	}
	return labelledAmount{}, false
}

// laterFinalTotal finds, for a total a under a plain label ("TOTAL 135.01"),
// a different amount after it under a final-total label ("Grand Total
// 159.81", "Jumlah Besar", "Balance due"): a tip, a rounding or a previous
// balance came in between, and the final figure is the total. A payment in
// between ("Amount paid -1,800.00 / Balance due 0.00") leaves the invoice
// total standing, and so does x printed under a final label itself.
func (d *doc) laterFinalTotal(r Role, a labelledAmount, matches []labelledAmount) (labelledAmount, bool) {
	if r != RoleTotal || finalTotalLabels[a.key] {
		return labelledAmount{}, false
	}
	for _, m := range matches {
		if m.role == RoleTotal && finalTotalLabels[m.key] {
			return labelledAmount{}, false
		}
	}
	for _, b := range d.amounts {
		if b.Start <= a.Start || b.role == RoleTotal && !finalTotalLabels[b.key] || insurerShareKeys[b.key] {
			continue // the insurer's share lowers what the patient owes, like a discount
		}
		if b.role == roleOther && (tenderedLabels[b.key] || strings.HasPrefix(b.key, "cash") || d.isPayment(b)) ||
			b.Value < 0 && b.role != RoleTotal && !isRoundingKey(b.key) && !isDiscountKey(b.key) {
			// Paid, deposited or credited ("Less: Deposit received 1,000.00",
			// "Applied from trust retainer -5,000.00"): the balance after it
			// is not the total.
			return labelledAmount{}, false
		}
		if b.role == RoleTotal && b.Value > 0 && !near(b.Value, a.Value, amountEpsilon) && centsForm(b.Raw) == centsForm(a.Raw) {
			if d.takenOffTotal(a, b) {
				// A withholding, retention or deposit taken off a: the
				// payable after it is no final total.
				return labelledAmount{}, false
			}
			if _, charges, ok := d.carriedBalance(r, b); ok && near(charges.Value, a.Value, amountEpsilon) {
				// The payable adds arrears to a: a is the bill's own total.
				return labelledAmount{}, false
			}
			return b, true
		}
	}
	return labelledAmount{}, false
}

// onlyQuantity reports that every printing of a value counts something:
// followed by a unit word ("40 hours", "10 digitale foto's") or a per-unit
// slash ("$85/hr"), while the document prints amounts with cents elsewhere.
// A money field's value is an amount, not a count or a rate.
func (d *doc) onlyQuantity(matches []labelledAmount) (string, bool) {
	if len(matches) == 0 {
		return "", false
	}
	cents := false
	for _, a := range d.amounts {
		cents = cents || centsForm(a.Raw)
	}
	if !cents {
		return "", false
	}
	rs := d.rs
	for _, m := range matches {
		if centsForm(m.Raw) {
			return "", false
		}
		rate := m.End+1 < len(rs) && rs[m.End] == '/' && unicode.IsLetter(rs[m.End+1]) // "85/hr"
		if !rate && !followedByUnit(rs, m.End) && !followedByCountedNoun(rs, m.End) {
			return "", false
		}
	}
	// Quote the number and the word after it: "40 hours", "85/hr".
	m := matches[0]
	e := m.End
	for e < len(rs) && (rs[e] == ' ' || rs[e] == '/') {
		e++
	}
	for e < len(rs) && (unicode.IsLetter(rs[e]) || rs[e] == '\'') {
		e++
	}
	return strings.TrimSpace(string(rs[m.Start:e])), true
}

// followedByCountedNoun reports a whole number followed by a plural noun
// and more words ("10 digitale foto's"): a count of things. Only used once
// the value is known to be printed without cents.
func followedByCountedNoun(rs []rune, end int) bool {
	if end >= len(rs) || rs[end] != ' ' {
		return false
	}
	k := end + 1
	j := k
	for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '\'') {
		j++
	}
	w := strings.ToLower(string(rs[k:j]))
	return len([]rune(w)) >= 3 && unicode.IsLower(rs[k]) && j < len(rs) && rs[j] == ' ' && !isAmountMarker(strings.ToUpper(w))
}

// balanceAfterPayment finds, for a total a, an earlier labelled total and a
// payment between them that a is the remainder of ("Invoice total 1,800.00 /
// Amount paid -1,800.00 / Balance due 0.00"): a is what is still owed, and
// the earlier figure is the document's total.
func (d *doc) balanceAfterPayment(r Role, a labelledAmount) (inv, paid labelledAmount, ok bool) {
	if r != RoleTotal {
		return inv, paid, false
	}
	var total *labelledAmount
	for i := range d.amounts {
		b := &d.amounts[i]
		if b.Start >= a.Start {
			break
		}
		switch {
		case b.role == RoleTotal && !near(b.Value, a.Value, amountEpsilon):
			total = b
		case total != nil && b.role == roleOther && b.Value != 0 && d.isPayment(*b) && !insurerShareKeys[b.key] &&
			near(math.Abs(total.Value)-math.Abs(b.Value), a.Value, 0.011):
			return *total, *b, true
		}
	}
	return inv, paid, false
}

// isPayment reports an amount labelled as money already paid.
func (d *doc) isPayment(b labelledAmount) bool { return isPaymentKey(b.key) }

// isPaymentKey reports a label key naming money already paid: the money
// ledger reads a deduction by the same words.
func isPaymentKey(k string) bool {
	return tenderedLabels[k] || strings.Contains(k, "paid") || strings.Contains(k, "payment") || strings.Contains(k, "deposit") ||
		depositWords[k]
}

// depositWords is depositLabels in LabelKey form, the form b.key has (so
// "前受金" is "前 受 金").
var depositWords = func() map[string]bool {
	m := make(map[string]bool, len(depositLabels))
	for _, l := range depositLabels {
		m[LabelKey(l)] = true
	}
	return m
}()

// printsRole reports whether any money label of role is printed.
func (d *doc) printsRole(r Role) bool {
	for _, h := range d.moneyHits {
		if h.role == r {
			return true
		}
	}
	return false
}

// isRoundingKey reports a rounding label in the languages the lexicon knows.
func isRoundingKey(k string) bool {
	for _, w := range []string{"round", "adjust", "rund", "arrondi", "redondeo", "arrotond", "afronding", "pembundaran", "端数", "avrundning", "öresavrundning"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// trailingDash reports "￥3,960-": a Japanese receipt closes an amount with
// a dash, which is no minus.
func trailingDash(rs []rune, end int) bool {
	return end < len(rs) && (rs[end] == '-' || rs[end] == '－')
}

// zeroTaxRate is a zero rate ("%0", "0%", "0 %", "0,00 %") printed on the
// line of a tax label, if the document prints one.
func (d *doc) zeroTaxRate() (Span, bool) {
	for _, h := range d.moneyHits {
		if h.role != RoleTax {
			continue
		}
		_, le := d.lineBounds(d.lineOf(h.start))
		for p := h.end; p < le; p++ {
			if d.rs[p] != '%' {
				continue
			}
			if sp, ok := zeroAround(d.rs, p, le); ok {
				return sp, true
			}
		}
	}
	return Span{}, false
}

// zeroAround is the zero number glued to the percent sign at p, after it
// (Turkish "%0") or before it past one space ("0%", "0,00 %").
func zeroAround(rs []rune, p, le int) (Span, bool) {
	zero := func(s, e int) bool {
		if e <= s || !isDigit(rs[s]) {
			return false
		}
		for _, r := range rs[s:e] {
			if r != '0' && r != '.' && r != ',' {
				return false
			}
		}
		return true
	}
	e := p + 1
	for e < le && (isDigit(rs[e]) || (rs[e] == '.' || rs[e] == ',') && e+1 < le && isDigit(rs[e+1])) {
		e++
	}
	if zero(p+1, e) {
		return Span{Start: p + 1, End: e}, true
	}
	q := p
	if q > 0 && rs[q-1] == ' ' {
		q--
	}
	s := q
	for s > 0 && (isDigit(rs[s-1]) || (rs[s-1] == '.' || rs[s-1] == ',') && s > 1 && isDigit(rs[s-2])) {
		s--
	}
	if zero(s, q) && (s == 0 || !isAlnum(rs[s-1])) {
		return Span{Start: s, End: q}, true
	}
	return Span{}, false
}

// carriedBalance reports, for a labelled total a, a previous balance
// printed before it and the bill's own charges printed before it that the
// two add up to: a telecom or utility bill's payable carries arrears, and
// the bill's total is its own charges. On a document titled a statement of
// account the balance due stays the total.
func (d *doc) carriedBalance(r Role, a labelledAmount) (prev, own labelledAmount, ok bool) {
	if r != RoleTotal || a.role != RoleTotal {
		return prev, own, false
	}
	// The amounts are read in place: most are unlabelled, and copying
	// each to test its key was most of the cost.
	found := false
	for i := range d.amounts {
		p := &d.amounts[i]
		if p.Start >= a.Start {
			break
		}
		if p.key != "" && previousBalanceKeys[p.key] && p.Value > 0 {
			prev, found = *p, true
		}
	}
	if !found || d.statementTitled() {
		return prev, own, false
	}
	for i := range d.amounts {
		y := &d.amounts[i]
		if y.Start >= a.Start {
			break
		}
		if y.Start != prev.Start && y.Value > 0 && y.role != roleOther && near(y.Value+prev.Value, a.Value, 0.011) {
			return prev, *y, true
		}
	}
	return prev, own, false
}

// statementTitles name a statement of account, whose balance due is its
// total.
var statementTitles = []string{"statement", "kontoauszug", "relevé", "estado de cuenta", "ekstre", "hesap ekstresi",
	"estratto conto", "rekeningoverzicht"}

// statementTitled reports a statement title among the document's first
// lines.
func (d *doc) statementTitled() bool {
	seen := 0
	for l := range d.lineStarts {
		if seen >= titleLines {
			break
		}
		key := d.paddedLineKey(l)
		if key == "  " {
			continue
		}
		seen++
		if slices.ContainsFunc(statementTitles, func(t string) bool { return hasKeyPhrase(key, t) }) {
			return true
		}
	}
	return false
}

// shownLabel is a label as a reason quotes it: its words, single-spaced, in
// capitals, so "Sub  total" and "SUB TOTAL" read as one label.
func shownLabel(label string) string {
	return strings.ToUpper(strings.Join(strings.Fields(label), " "))
}
