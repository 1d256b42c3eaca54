package local

import (
	"context"
	"fmt"
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
)

// amount is a number in the source with the role its label gives it.
type amount struct {
	pipeline.AmountMatch
	v        pipeline.LabelVerdict
	label    string // the label text as written, for evidence
	prevLine bool   // the label is on the line above
	tabular  bool   // labelled, but an unlabelled number follows on its line
}

// labelAmounts gives each amount the role its label names: a label earlier on
// the same line since the previous number or clause break; else a label right
// after it that closes the clause ("540.00 before tax,"); else, for a number
// alone on its line, the tail of the previous line.
func (d *doc) labelAmounts(ctx context.Context, found []pipeline.AmountMatch) error {
	var ams []pipeline.AmountMatch
	for _, a := range found {
		if !d.percent(a) {
			ams = append(ams, a)
		}
	}
	d.amounts = make([]amount, len(ams))
	for i, a := range ams {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		d.amounts[i] = amount{AmountMatch: a}
		ln := d.lines[d.lineOf(a.Start)]
		segStart := ln.start
		if i > 0 && ams[i-1].End > ln.start {
			segStart = ams[i-1].End
		}
		for k := a.Start - 1; k >= segStart; k-- {
			if d.isClauseBreak(k) {
				segStart = k + 1
				break
			}
		}
		if v := d.classify(d.slice(segStart, a.Start)); v.OK {
			d.amounts[i].v, d.amounts[i].label = v, strings.TrimSpace(d.slice(segStart, a.Start))
			continue
		}
		segEnd, nextOnLine := ln.end, false
		if i+1 < len(ams) && ams[i+1].Start < ln.end {
			segEnd, nextOnLine = ams[i+1].Start, true
		}
		closes := false
		for k := a.End; k < segEnd; k++ {
			if d.isClauseBreak(k) {
				segEnd, closes = k, true
				break
			}
		}
		if closes || !nextOnLine {
			if v := d.classify(d.slice(a.End, segEnd)); v.OK {
				d.amounts[i].v, d.amounts[i].label = v, strings.TrimSpace(d.slice(a.End, segEnd))
				continue
			}
		}
		if li := d.lineOf(a.Start); li > 0 && d.standsAlone(ln, a) {
			prev := d.lines[li-1]
			ps := prev.start
			for j := i - 1; j >= 0 && ams[j].End > prev.start; j-- {
				if ams[j].End <= prev.end {
					ps = ams[j].End
					break
				}
			}
			if v := d.classify(d.slice(ps, prev.end)); v.OK {
				d.amounts[i].v, d.amounts[i].label, d.amounts[i].prevLine = v, strings.TrimSpace(d.slice(ps, prev.end)), true
			}
		}
	}
	// "TOTAL : 30.68 1.22" is a row of a table (a tax summary), not a total:
	// a labelled number followed on its line by an unlabelled one. Walking
	// from the end, nextFree is the line of the nearest unlabelled number.
	nextFree := -1
	for i := len(d.amounts) - 1; i >= 0; i-- {
		li := d.lineOf(d.amounts[i].Start)
		if !d.amounts[i].v.OK {
			nextFree = li
			continue
		}
		d.amounts[i].tabular = nextFree == li
	}
	return nil
}

// percent reports a rate such as "19 %" (FindAmounts already skips "19%").
func (d *doc) percent(a pipeline.AmountMatch) bool {
	k := a.End
	for k < len(d.rs) && d.rs[k] == ' ' {
		k++
	}
	return k < len(d.rs) && d.rs[k] == '%'
}

// standsAlone reports whether a line holds nothing but the amount and
// currency or sign characters.
func (d *doc) standsAlone(ln line, a pipeline.AmountMatch) bool {
	rest := d.slice(ln.start, a.Start) + " " + d.slice(a.End, ln.end)
	rest = strings.TrimSpace(strings.Trim(rest, " :-()$€£¥\t*"))
	if rest == "" {
		return true
	}
	_, ok := isoCodes[strings.ToUpper(rest)]
	return ok || strings.EqualFold(rest, "rm")
}

// promoteNetTotal reads "NET TOTAL" after a subtotal or a rounding line as
// the amount payable, whatever the schema's labels say about "net": receipts
// print it last, below "SUB TOTAL" and "ROUND AMT".
func (d *doc) promoteNetTotal() {
	roundLine := d.roundAt
	seenSub := false
	for i := range d.amounts {
		a := &d.amounts[i]
		if !a.v.OK || a.v.Role != pipeline.RoleSubtotal || a.tabular {
			continue
		}
		if (a.v.Label == "net total" || a.v.Label == "nett total") && (seenSub || roundLine >= 0 && d.lineOf(a.Start) > roundLine) {
			a.v.Role, a.v.Final = pipeline.RoleTotal, true
			continue
		}
		seenSub = true
	}
}

// roundLine is the last line holding a rounding adjustment, or -1
// (analyze keeps it in d.roundAt).
func (d *doc) roundLine() int {
	n := -1
	for _, a := range d.amounts {
		if a.v.OK && a.v.Role == roleOther && strings.Contains(a.v.Label, "round") {
			n = max(n, d.lineOf(a.Start))
		}
	}
	return n
}

// cands lists the usable amounts labelled with role r. A whole number that
// reads as a year ("GST ACT 2014") is never a role amount when the document
// writes its money with decimals.
func (d *doc) cands(r pipeline.Role) []amount {
	var out []amount
	for _, a := range d.amounts {
		if a.v.OK && a.v.Role == r && !a.tabular && !(d.decimalMoney && yearLike(a)) {
			out = append(out, a)
		}
	}
	return out
}

func yearLike(a amount) bool {
	return !strings.ContainsAny(a.Raw, ".,") && a.Value >= 1900 && a.Value <= 2099
}

// reconciles reports whether subtotal + tax gives the total, allowing for
// the rounding to 5 cents that a rounding line declares.
func (d *doc) reconciles(s, t, total float64) bool {
	if near(s+t, total) {
		return true
	}
	diff := s + t - total
	return d.roundAt >= 0 && diff < 0.05 && diff > -0.05
}

// taxIndex finds, for a subtotal and a total, the last printed tax that
// reconciles them, in constant time per query: taxes keyed by cents, the
// latest printed one kept per key.
type taxIndex struct {
	d      *doc
	taxes  []amount
	byCent map[int64]int
}

func (d *doc) newTaxIndex(taxes []amount) taxIndex {
	ix := taxIndex{d: d, taxes: taxes, byCent: make(map[int64]int, len(taxes))}
	for j, t := range taxes {
		ix.byCent[cents(t.Value)] = j
	}
	return ix
}

// find returns the index of the last tax t with s + t reconciling total, or -1.
func (ix taxIndex) find(s, total float64) int {
	want := cents(total - s)
	slack := int64(1)
	if ix.d.roundAt >= 0 {
		slack = 5 // rounding to 5 cents
	}
	best := -1
	for c := want - slack; c <= want+slack; c++ {
		if j, ok := ix.byCent[c]; ok && j > best && ix.d.reconciles(s, ix.taxes[j].Value, total) {
			best = j
		}
	}
	return best
}

func cents(x float64) int64 {
	if x < 0 {
		return -int64(-x*100 + 0.5)
	}
	return int64(x*100 + 0.5)
}

func (d *doc) labelled(words ...string) []amount {
	var out []amount
	for _, a := range d.amounts {
		if !a.v.OK || a.v.Role != roleOther || a.tabular {
			continue
		}
		for _, w := range words {
			if strings.Contains(a.v.Label, w) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// money finds the subtotal, tax and total by role.
func (d *doc) money() map[pipeline.Role]found {
	out := map[pipeline.Role]found{}
	total, tok := d.total()
	if tok {
		out[pipeline.RoleTotal] = total
	}
	subs, taxes := d.cands(pipeline.RoleSubtotal), d.cands(pipeline.RoleTax)
	if tok {
		t := total.value.(float64)
		// A subtotal and tax that add up to the total confirm all three.
		ix := d.newTaxIndex(taxes)
		for i := len(subs) - 1; i >= 0; i-- {
			if j := ix.find(subs[i].Value, t); j >= 0 {
				out[pipeline.RoleSubtotal] = tiered("subtotal:labelled+arithmetic", subs[i].Value, fmt.Sprintf("labelled %q; subtotal + tax = total", subs[i].label))
				out[pipeline.RoleTax] = tiered("tax:labelled+arithmetic", taxes[j].Value, fmt.Sprintf("labelled %q; subtotal + tax = total", taxes[j].label))
				return out
			}
		}
	}
	sum := d.taxSummary()
	for _, s := range []taxSummary{sum, d.checkSum} {
		if tok && s.ok && d.reconciles(s.base, s.tax, total.value.(float64)) {
			out[pipeline.RoleSubtotal] = tiered("subtotal:summary+arithmetic", s.base, "the tax summary's base; base + tax = total")
			out[pipeline.RoleTax] = tiered("tax:summary+arithmetic", s.tax, "the tax summary's tax; base + tax = total")
			return out
		}
	}
	pick := func(cs []amount, r pipeline.Role) {
		if len(cs) == 0 {
			return
		}
		c := cs[len(cs)-1]
		tier := ":labelled"
		method := fmt.Sprintf("labelled %q", c.label)
		distinct := map[float64]bool{}
		for _, x := range cs {
			distinct[round2(x.Value)] = true
		}
		switch {
		case len(distinct) > 1:
			tier, method = ":labelled-conflict", method+"; other amounts carry the same label"
		case tok && c.Value > total.value.(float64)+0.005:
			tier, method = ":labelled-conflict", method+"; larger than the total"
		case tok && len(subs) > 0 && len(taxes) > 0:
			tier, method = ":labelled-conflict", method+"; subtotal + tax does not give the total"
		case tok && r == pipeline.RoleTax && rateAgrees(c.label, c.Value, total.value.(float64)):
			tier, method = ":labelled+rate", method+"; the printed rate gives this tax on the total"
		}
		out[r] = tiered(string(r)+tier, c.Value, method)
	}
	pick(subs, pipeline.RoleSubtotal)
	pick(taxes, pipeline.RoleTax)
	if sum.ok {
		// A summary that does not add up to the total is still what the
		// document prints for a field nothing else labels.
		if _, ok := out[pipeline.RoleSubtotal]; !ok {
			out[pipeline.RoleSubtotal] = tiered("subtotal:summary", sum.base, "the tax summary's base")
		}
		if _, ok := out[pipeline.RoleTax]; !ok {
			out[pipeline.RoleTax] = tiered("tax:summary", sum.tax, "the tax summary's tax")
		}
	}
	return out
}

// total finds the final payable total: a final-total label ("ROUNDED TOTAL",
// "GRAND TOTAL", "AMOUNT DUE") wins, then a total printed after a rounding
// line, then a tax-inclusive total, then a plain "total"; within a class the
// last one printed. Its confidence depends on whether the document's other
// figures (payment and change, subtotal and tax, a repeated total) confirm it.
func (d *doc) total() (found, bool) {
	roundLine := d.roundAt
	cs := d.cands(pipeline.RoleTotal)
	var nz []amount
	for _, c := range cs {
		if c.Value > 0 {
			nz = append(nz, c)
		}
	}
	if len(nz) == 0 {
		return d.derivedTotal()
	}
	var chosen *amount
	var why string
	pickLast := func(keep func(amount) bool, reason string) {
		if chosen != nil {
			return
		}
		for i := len(nz) - 1; i >= 0; i-- {
			if keep(nz[i]) {
				chosen, why = &nz[i], reason
				return
			}
		}
	}
	pickLast(func(a amount) bool { return a.v.Final }, "final-total label")
	pickLast(func(a amount) bool { return roundLine >= 0 && d.lineOf(a.Start) > roundLine }, "total after the rounding line")
	pickLast(func(a amount) bool { return a.v.Inclusive }, "tax-inclusive total")
	pickLast(func(amount) bool { return true }, "last total")
	c := *chosen
	if p, ok := d.payableAfterRounding(c); ok {
		return tiered("total:labelled+rounding", p.Value, fmt.Sprintf("labelled %q %s, rounded to the payable %s printed after the rounding line", c.label, c.Raw, p.Raw)), true
	}
	method := fmt.Sprintf("labelled %q on the same line (%s)", c.label, why)
	tier := "total:labelled"
	if c.prevLine {
		method = fmt.Sprintf("labelled %q on the line above (%s)", c.label, why)
		tier = "total:labelled-above"
	}
	if by, how, ok := d.confirmTotal(c, nz); ok {
		return tiered("total:labelled+"+by, c.Value, method+"; "+how), true
	}
	for _, o := range nz {
		if !near(o.Value, c.Value) && !d.roundingStep(o, c) {
			return tiered("total:labelled-conflict", c.Value, method+fmt.Sprintf("; another total-like amount %.2f disagrees", o.Value)), true
		}
	}
	return tiered(tier, c.Value, method), true
}

// sumTotal reads the total when no label names it but a labelled subtotal
// and tax add up to an amount printed below them: two figures and their sum
// agree.
func (d *doc) sumTotal() (found, bool) {
	subs, taxes := d.cands(pipeline.RoleSubtotal), d.cands(pipeline.RoleTax)
	if len(subs) == 0 || len(taxes) == 0 {
		return found{}, false
	}
	sub, tax := subs[len(subs)-1], taxes[len(taxes)-1]
	from := max(sub.End, tax.End)
	for _, a := range d.amounts {
		if a.Start >= from && a.Value > 0 && d.reconciles(sub.Value, tax.Value, a.Value) {
			return tiered("total:subtotal+tax", a.Value, fmt.Sprintf("no total label; %s + %s = %s, printed below them", sub.Raw, tax.Raw, a.Raw)), true
		}
	}
	return found{}, false
}

// payableAfterRounding is the amount printed after the rounding line that the
// rounding adjustment makes of total c ("TOTAL 60.31 / ROUNDING ADJ -0.01 /
// RM 60.30"): the payable, not the total before rounding.
func (d *doc) payableAfterRounding(c amount) (amount, bool) {
	if d.roundAt < 0 || d.lineOf(c.Start) >= d.roundAt {
		return amount{}, false
	}
	var adj *amount
	for i := range d.amounts {
		a := &d.amounts[i]
		if a.v.OK && a.v.Role == roleOther && strings.Contains(a.v.Label, "round") && d.lineOf(a.Start) == d.roundAt {
			adj = a
		}
	}
	if adj == nil || adj.Value == 0 || absf(adj.Value) > 0.5 {
		return amount{}, false // no adjustment, or not a rounding of cents
	}
	for _, a := range d.amounts {
		if d.lineOf(a.Start) <= d.roundAt || a.v.OK && a.v.Role != pipeline.RoleTotal {
			continue
		}
		if a.Value > 0 && (near(a.Value, c.Value+absf(adj.Value)) || near(a.Value, c.Value-absf(adj.Value))) {
			return a, true
		}
		break // the first amount after the rounding line is the payable or nothing
	}
	return amount{}, false
}

// roundingStep reports a pre-rounding total o that the final total c rounds.
func (d *doc) roundingStep(o, c amount) bool {
	diff := c.Value - o.Value
	return o.Start < c.Start && diff < 0.055 && diff > -0.055
}

// confirmTotal looks for independent figures that agree with the total: the
// tier suffix that names the kind of agreement, and how, for the evidence.
func (d *doc) confirmTotal(c amount, cs []amount) (by, how string, ok bool) {
	ix := d.newTaxIndex(d.cands(pipeline.RoleTax))
	for _, s := range d.cands(pipeline.RoleSubtotal) {
		if ix.find(s.Value, c.Value) >= 0 {
			return "arithmetic", "subtotal + tax agree", true
		}
	}
	for _, sum := range []taxSummary{d.taxSummary(), d.checkSum} {
		if sum.ok && d.reconciles(sum.base, sum.tax, c.Value) {
			return "arithmetic", "the tax summary's base + tax agree", true
		}
	}
	if x, ok := d.cashLessChange(); ok && near(x, c.Value) {
		return "tendered", "payment minus change agrees", true
	}
	for _, o := range cs {
		if o.Start != c.Start && near(o.Value, c.Value) {
			return "repeated", "repeated as " + strings.ToUpper(o.label), true
		}
	}
	if n, ok := d.itemsAddUp(c); ok {
		return "items", fmt.Sprintf("the %d item amounts above add up to it", n), true
	}
	if t, ok := d.rateGivesTax(c, cs); ok {
		return "rate", fmt.Sprintf("the printed rate gives the tax %s (%q) on it", t.Raw, t.label), true
	}
	if d.largestAmount(c) {
		return "largest", "no other amount printed (payment aside) is larger", true
	}
	return "", "", false
}

// rateGivesTax finds a labelled tax whose printed rate gives it on total c
// ("GST @6% INCLUDED IN TOTAL 0.22" under "TOTAL AMOUNT 4.00"): the till
// computed one from the other. A rate only fixes the total to within a few
// cents, so it confirms nothing when a rounding line or another total-like
// figure offers a near alternative.
func (d *doc) rateGivesTax(c amount, cs []amount) (amount, bool) {
	if d.roundAt >= 0 {
		return amount{}, false
	}
	for _, o := range cs {
		if !near(o.Value, c.Value) {
			return amount{}, false
		}
	}
	for _, t := range d.cands(pipeline.RoleTax) {
		if rateAgrees(t.label, t.Value, c.Value) {
			return t, true
		}
	}
	return amount{}, false
}

// rateTotal reads the total when no label names it but a tax printed with
// its rate says it is included in the total ("(TOTAL INCLUDED GST @ 6% :
// 1.42)", "enthaltene MwSt 19%: 19,00"): the one printed amount the rate
// gives that tax on. A rate fixes a total only to a few cents, so two
// different amounts that fit, or a rounding adjustment, leave it unread.
func (d *doc) rateTotal() (found, bool) {
	if d.roundAt >= 0 && d.roundingAdjusts() {
		return found{}, false
	}
	taxes := d.cands(pipeline.RoleTax)
	for _, t := range taxes {
		if !near(t.Value, taxes[0].Value) {
			return found{}, false // taxes per item line, not the document's
		}
	}
	for _, t := range taxes {
		if !includedWord(t.label) {
			continue
		}
		var fit *amount
		for i := range d.amounts {
			a := &d.amounts[i]
			if a.Start == t.Start || !rateAgrees(t.label, t.Value, a.Value) {
				continue
			}
			if fit != nil && !near(fit.Value, a.Value) {
				return found{}, false
			}
			fit = a
		}
		if fit != nil {
			return tiered("total:tax-included+rate", fit.Value, fmt.Sprintf("no total label; the tax %s (%q) is what its rate gives on %s", t.Raw, t.label, fit.Raw)), true
		}
	}
	return found{}, false
}

// includedWord reports a tax label that says the tax is inside a total:
// "TOTAL INCLUDED GST", "GST 6% INCL.", "enthaltene MwSt", "TVA incluse".
func includedWord(label string) bool {
	for _, t := range tokens(label) {
		switch t {
		case "incl", "included", "includes", "including", "inclusive", "inc", "inkl", "enthalten", "enthaltene",
			"enthaltener", "inclus", "incluse", "incluido", "incluida", "incluso", "inclusa", "inbegrepen", "内税", "税込":
			return true
		}
	}
	return false
}

// roundingAdjusts reports a rounding line whose adjustment is not zero.
func (d *doc) roundingAdjusts() bool {
	for _, a := range d.amounts {
		if a.v.OK && a.v.Role == roleOther && strings.Contains(a.v.Label, "round") && a.Value != 0 {
			return true
		}
	}
	return false
}

// largestAmount reports whether the total is at least every amount the
// document prints, leaving out what was paid and given back (cash
// tendered exceeds the total by design): a total is never below one of its
// own lines, so a label on a smaller figure ("TOTAL GST 1.27") or on a
// part is caught, and a label on the largest figure has a second witness.
func (d *doc) largestAmount(c amount) bool {
	n := 0
	for _, a := range d.amounts {
		if a.v.OK && a.v.Role == roleOther {
			continue // cash, change, quantities, rounding
		}
		if a.Value > c.Value+0.005 {
			return false
		}
		n++
	}
	return n >= 3 // a document of one or two amounts has nothing to compare
}

// maxItemLines bounds how far above a total its item lines are read.
const maxItemLines = 200

// itemsAddUp reports whether the item lines right above the total (each
// line's last amount, up to the nearest labelled line) add up to it: the
// total is then two printed figures that agree, not one label.
func (d *doc) itemsAddUp(c amount) (int, bool) {
	li := d.lineOf(c.Start)
	sum, n := 0.0, 0
	for k := li - 1; k >= 0 && k >= li-maxItemLines; k-- {
		ams := d.amountsOn(k)
		if len(ams) == 0 {
			continue // a description line
		}
		last := ams[len(ams)-1]
		if last.v.OK {
			break // SUB TOTAL, a tax line: the items end here
		}
		sum += last.Value
		n++
		if near(sum, c.Value) {
			return n, true
		}
	}
	return n, false
}

// cashLessChange is the amount paid minus the change given.
func (d *doc) cashLessChange() (float64, bool) {
	paid := d.labelled("cash", "tender", "paid", "received")
	change := d.labelled("change")
	var p []amount
	for _, a := range paid {
		if !strings.Contains(a.v.Label, "change") && a.Value > 0 {
			p = append(p, a)
		}
	}
	if len(p) == 0 || len(change) == 0 {
		return 0, false
	}
	x := round2(p[len(p)-1].Value - absf(change[len(change)-1].Value))
	return x, x > 0
}

// derivedTotal is used when no amount is labelled as the total: payment
// minus change, when that is a printed amount. It is a guess the gate flags
// unless a subtotal label confirms it.
func (d *doc) derivedTotal() (found, bool) {
	if f, ok := d.sumTotal(); ok {
		return f, true
	}
	if f, ok := d.rateTotal(); ok {
		return f, true
	}
	x, ok := d.cashLessChange()
	if !ok {
		return d.guessTotal()
	}
	noTax := len(d.cands(pipeline.RoleTax)) == 0
	for _, s := range d.cands(pipeline.RoleSubtotal) {
		if near(s.Value, x) && noTax {
			return tiered("total:tendered-change=subtotal", x, "no total label; payment minus change equals the amount labelled "+strings.ToUpper(s.label)), true
		}
	}
	for _, a := range d.amounts {
		if near(a.Value, x) {
			return tiered("total:tendered-change", x, "no total label; payment minus change, a printed amount"), true
		}
	}
	return d.guessTotal()
}

// guessTotal is the last resort when nothing is labelled as the total: the
// amount paid when no change was given, else a lone subtotal with no tax.
// Both are guesses, below the gate's threshold.
func (d *doc) guessTotal() (found, bool) {
	if len(d.labelled("change")) == 0 {
		if paid := d.labelled("cash", "tender", "paid", "received"); len(paid) > 0 && paid[len(paid)-1].Value > 0 {
			return tiered("total:guess-paid", paid[len(paid)-1].Value, "no total label; guessed from the amount paid "+strings.ToUpper(paid[len(paid)-1].label)), true
		}
	}
	subs := d.cands(pipeline.RoleSubtotal)
	if len(subs) > 0 && len(d.cands(pipeline.RoleTax)) == 0 && subs[len(subs)-1].Value > 0 {
		return tiered("total:guess-subtotal", subs[len(subs)-1].Value, "no total label; guessed from the subtotal (no tax stated)"), true
	}
	return found{}, false
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
