package pipeline

import (
	"math"
	"strings"
	"unicode"
)

// An invoice's money lines add up: the goods' sum, less the discounts,
// plus the charges, is the net the tax is computed on; the net plus every
// tax is the total; the total less what the buyer keeps back or has paid
// already is what is left to pay. A ledger is that chain of lines, read
// back from a labelled total through the lines whose amounts it adds up:
// the positive form of the three money fields. The subtotal is the net
// the taxes are computed on, the tax is all of the taxes on the total, and
// the total is the amount the document labels as its total, not what is
// left after a withholding, a retention or an advance.

// partKind says how a line between two sums changes the running amount.
type partKind uint8

const (
	kindUnread    partKind = iota // not classified yet
	partCharge                    // adds to the sum: goods, a fee, a service charge
	partTax                       // a tax added to the net
	partDiscount                  // a reduction of the price
	partDeduction                 // kept back or paid already: a withholding, a deposit, a credit
	partRounding                  // a rounding or a tip: no part of what is invoiced or taken off
)

// ledgerItem is one line of a ledger: a printed sum, or a part between sums.
type ledgerItem struct {
	i    int32 // index in d.amounts
	sum  bool
	kind partKind // a part's kind
}

// Bounds of a ledger: the lines a step reads back, the lines between two
// of its sums, and its steps.
const (
	maxLedgerParts = 8
	maxLedgerGap   = 12
	maxLedgerSteps = 4
)

// ledgers are a document's ledgers, worked out once for all its money
// fields (docFacts.ledgers), each part on first use: most fields are
// screened out by a look at the lines around their printings and never
// read a ledger.
type ledgers struct {
	dottedRead, discountRead, read bool
	// dotted: an amount groups thousands with dots beyond doubt.
	dotted bool
	// discounted: an amount is labelled as a discount or printed negative;
	// only then are the sums above a total's net read.
	discounted bool
	// kinds is each amount's part kind once asked, kindUnread before.
	kinds   []partKind
	kindBuf [64]partKind
	all     []ledgerRec
}

// ledgerRec is one total's ledger and what it says.
type ledgerRec struct {
	items []ledgerItem
	f     ledgerFacts
}

// isDotted reports an amount that groups thousands with dots beyond
// doubt, read on first use.
func (d *doc) isDotted() bool {
	ls := &d.facts.ledgers
	if !ls.dottedRead {
		ls.dottedRead = true
		for i := range d.amounts {
			if r := d.amounts[i].Raw; len(r) > 6 && dotGroupedRaw(r) {
				ls.dotted = true
				break
			}
		}
	}
	return ls.dotted
}

// isDiscounted reports an amount labelled as a discount or printed
// negative, read on first use.
func (d *doc) isDiscounted() bool {
	ls := &d.facts.ledgers
	if !ls.discountRead {
		ls.discountRead = true
		for i := range d.amounts {
			if d.discountAt(i) {
				ls.discounted = true
				break
			}
		}
	}
	return ls.discounted
}

// ledgerSet is the document's ledgers, read on first use.
func (d *doc) ledgerSet() *ledgers {
	ls := &d.facts.ledgers
	if ls.read {
		return ls
	}
	ls.read = true
	d.isDotted()
	var items []ledgerItem
	var ints []int
	var buf [1 + maxLedgerSteps*(maxLedgerParts+1)]ledgerItem
	read := func(g int) {
		l := d.ledger(ls, g, buf[:0])
		if len(l) > 1 {
			at := len(items)
			items = append(items, l...)
			var f ledgerFacts
			f, ints = d.readLedger(items[at:], ints)
			ls.all = append(ls.all, ledgerRec{items: items[at:len(items):len(items)], f: f})
		}
	}
	seen := 0
	for g := range d.amounts {
		if d.amounts[g].role != RoleTotal || d.amounts[g].summary {
			continue
		}
		if seen++; seen > maxRelated {
			break
		}
		if _, done := ls.ledgerFor(d, d.amounts[g].Value); !done {
			read(g) // a total printed again adds up the same way
		}
	}
	if seen > 0 {
		return ls
	}
	// No total label the lexicon knows ("จำนวนเงินรวมทั้งสิ้น"): the
	// line after a tax line is read as the total it makes.
	for t := range d.amounts {
		if d.amounts[t].role != RoleTax || d.amounts[t].summary || !d.lineEnd(t) || t+1 == len(d.amounts) {
			continue
		}
		if g := t + 1; d.lineEnd(g) && d.amounts[g].Line-d.amounts[t].Line <= 2 && d.amounts[g].role == "" {
			if seen++; seen > maxRelated {
				break
			}
			read(g)
		}
	}
	return ls
}

// ledgerFor is the ledger read already for a total of value v, if one was.
func (ls *ledgers) ledgerFor(d *doc, v float64) (ledgerRec, bool) {
	for _, r := range ls.all {
		if d.amounts[r.items[len(r.items)-1].i].Value == v {
			return r, true
		}
	}
	return ledgerRec{}, false
}

// eachLedger calls fn with each total's ledger until fn returns true.
func (d *doc) eachLedger(fn func(l []ledgerItem, f ledgerFacts) bool) {
	ls := d.ledgerSet()
	for k := range ls.all {
		if fn(ls.all[k].items, ls.all[k].f) {
			return
		}
	}
}

// ledgerOf is the ledger that ends at a total of g's value, if one does.
func (d *doc) ledgerOf(g int) (ledgerRec, bool) {
	return d.ledgerSet().ledgerFor(d, d.amounts[g].Value)
}

// ledgerVal is a's magnitude, reading "200.000" as two hundred thousand
// where the document groups thousands with dots elsewhere ("Rp 2.000.000",
// "1.234,56").
func (d *doc) ledgerVal(a *labelledAmount) float64 {
	v := math.Abs(a.Value)
	if r := a.Raw; len(r) >= 5 && r[len(r)-4] == '.' && dotThousands(r) && d.isDotted() {
		v *= 1000
	}
	return v
}

// dotGroupedRaw reports an amount written with dots between thousands
// beyond doubt: two dots ("2.000.000"), or a dot before a decimal comma
// ("1.234,56").
func dotGroupedRaw(r string) bool {
	k := strings.IndexByte(r, '.')
	return k >= 0 && k+4 < len(r) && (r[k+4] == '.' || r[k+4] == ',')
}

// lineEnd reports whether amount i is the last amount on its line: the
// line's own figure, after any rate, count or unit price.
func (d *doc) lineEnd(i int) bool {
	return i+1 == len(d.amounts) || d.amounts[i+1].Line != d.amounts[i].Line
}

// prevLineEnd is the last amount of the nearest line above amount i's
// that prints one, or -1.
func (d *doc) prevLineEnd(i int) int {
	k := i
	for k > 0 && d.amounts[k-1].Line == d.amounts[i].Line {
		k--
	}
	return k - 1
}

// lead is the text of a's line before it, trimmed of spaces, colons and
// currency signs: what the line says the amount is ("Less retention 5%").
// A currency written in letters before the amount ("Rp", "KES") stays.
func (d *doc) lead(a *labelledAmount) string {
	ls, _ := d.lineBounds(a.Line)
	e := a.Start
	for e > ls {
		r := d.rs[e-1]
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '%' || r == ')' {
			break
		}
		e--
	}
	return strings.TrimSpace(string(d.rs[ls:e]))
}

// taxWords name a tax, levy or duty in a line's words where no tax label
// of the lexicon does ("IEPS 8%", "Catering Levy 2%", "Compensation Cess",
// "County Tax", "Federal Excise Tax").
var taxWords = []string{"tax", "levy", "cess", "excise", "ieps", "duty", "impuesto", "impôt", "impot", "steuer",
	"imposto", "налог", "податок", "税", "ภาษี", "pajak", "thuế", "vergi", "ضريبة", "מס"}

// partKindOf classifies amount i as a part of a ledger, once per amount.
func (d *doc) partKindOf(ls *ledgers, i int) partKind {
	if ls.kinds == nil {
		ls.kinds = ls.kindBuf[:0]
		if len(d.amounts) > len(ls.kindBuf) {
			ls.kinds = make([]partKind, 0, len(d.amounts))
		}
		ls.kinds = ls.kinds[:len(d.amounts)] // kindUnread: zero
	}
	if k := ls.kinds[i]; k != kindUnread {
		return k
	}
	k := d.labelKind(i)
	if k == kindUnread {
		k = d.rateKind(i)
	}
	ls.kinds[i] = k
	return k
}

// quickKindOf is partKindOf without reading a line's words: a line no
// label classifies is a charge, or a deduction when printed negative. The
// screens read it; the ledgers read partKindOf.
func (d *doc) quickKindOf(ls *ledgers, i int) partKind {
	if ls.kinds != nil && ls.kinds[i] != kindUnread {
		return ls.kinds[i]
	}
	k := d.labelKind(i)
	if k == kindUnread {
		k = partCharge
		if d.amounts[i].Value < 0 {
			k = partDeduction
		}
	}
	return k
}

// labelKind classifies amount i by its label and sign, or returns
// kindUnread for a line only its words can classify.
func (d *doc) labelKind(i int) partKind {
	a := &d.amounts[i]
	switch {
	case a.role == RoleTax:
		return partTax
	case a.key == "":
	case a.role == RoleTotal:
		return partCharge
	case a.role == RoleSubtotal:
		if withholdingKeys[a.key] {
			return partDeduction // "Less Withholding VAT 2%" read as an amount excluding VAT
		}
		return partCharge
	default:
		k, known := otherKinds[a.key]
		if !known {
			k = keyKind(a.key, a.role == roleOther)
		}
		if k == partDiscount && d.earlyPayment(a.Line) {
			k = kindUnread
		}
		if k != kindUnread {
			return k
		}
	}
	if a.Value < 0 {
		return partDeduction
	}
	return kindUnread
}

// keyKind classifies a label key: a discount, or money kept back or paid
// already (other is set for a label of RoleOther), or kindUnread.
func keyKind(k string, other bool) partKind {
	switch {
	case isRoundingKey(k) || strings.HasPrefix(k, "tip"):
		return partRounding
	case isDiscountKey(k):
		return partDiscount
	case withholdingKeys[k] || insurerShareKeys[k] || other && isPaymentKey(k):
		return partDeduction
	}
	return kindUnread
}

// otherKinds is keyKind of every label of RoleOther the lexicon knows, in
// LabelKey form: one lookup for the labels a receipt prints most (cash,
// change, rounding, discount).
var otherKinds = func() map[string]partKind {
	m := make(map[string]partKind, len(otherLabels))
	for _, l := range otherLabels {
		k := LabelKey(l)
		m[k] = keyKind(k, true)
	}
	return m
}()

// rateKind classifies an amount no label classifies by its line's words.
// A tax the lexicon does not know is computed on the net at a printed
// rate; a levy or airport tax without one is a charge passed on (an
// airline's "Embarkation levy USD 60.00").
func (d *doc) rateKind(i int) partKind {
	a := &d.amounts[i]
	ls, _ := d.lineBounds(a.Line)
	pct := false
	for p := ls; p < a.Start && !pct; p++ {
		pct = d.rs[p] == '%'
	}
	if !pct {
		return partCharge
	}
	// The line's words, lowered into a stack array.
	var buf [96]rune
	n := 0
	for p := ls; p < a.Start && n < len(buf); p++ {
		buf[n] = unicode.ToLower(d.rs[p])
		n++
	}
	l := buf[:n]
	for _, w := range taxWordRunes {
		if runesIndex(l, w) >= 0 {
			return partTax
		}
	}
	for _, w := range discountWords {
		if runesIndex(l, w) >= 0 {
			return partDiscount
		}
	}
	return partCharge
}

// taxWordRunes is taxWords as runes.
var taxWordRunes = func() [][]rune {
	out := make([][]rune, len(taxWords))
	for i, w := range taxWords {
		out[i] = []rune(w)
	}
	return out
}()

// runesIndex is the first index of w in s, or -1.
func runesIndex(s, w []rune) int {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i] == w[0] && runesEqual(s[i:i+len(w)], w) {
			return i
		}
	}
	return -1
}

// sign is +1 for a part that adds to the running amount, -1 for one that
// takes from it.
func (k partKind) sign() float64 {
	if k == partDiscount || k == partDeduction {
		return -1
	}
	return 1
}

// adds is what part a of kind k adds to the running amount, v its
// magnitude: a rounding adds as printed, with its sign.
func (k partKind) adds(a *labelledAmount, v float64) float64 {
	if k == partRounding && a.Value < 0 {
		return -v
	}
	return k.sign() * v
}

// ledgerStep reads back from sum g to the nearest line above whose amount,
// with the lines between added or taken off, makes g: that line's amount
// is the sum g was worked out from. It appends the parts between to out,
// bottom first, and returns the line.
func (d *doc) ledgerStep(ls *ledgers, g int, out []ledgerItem) (int, []ledgerItem, bool) {
	want := d.ledgerVal(&d.amounts[g])
	acc := 0.0
	n := len(out)
	for e := d.prevLineEnd(g); e >= 0 && len(out)-n < maxLedgerParts && d.amounts[g].Line-d.amounts[e].Line <= maxLedgerGap; e = d.prevLineEnd(e) {
		v := d.ledgerVal(&d.amounts[e])
		if v == 0 {
			continue
		}
		parts := len(out) - n
		if parts > 0 && near(v+acc, want, 0.011+0.005*float64(parts)) || parts == 0 && near(v, want, amountEpsilon) {
			return e, out, true // parts == 0: the same sum printed twice
		}
		k := d.partKindOf(ls, e)
		out = append(out, ledgerItem{i: int32(e), kind: k})
		acc += k.adds(&d.amounts[e], v)
		if acc > want+1 && !d.isDiscounted() {
			return 0, out[:n], false // only additions, already past the sum
		}
	}
	return 0, out[:n], false
}

// ledger is the chain of sums and parts that ends at total g, top first.
// Past the total's net and taxes it is read on only where a discount is
// printed.
func (d *doc) ledger(ls *ledgers, g int, out []ledgerItem) []ledgerItem {
	out = append(out[:0], ledgerItem{i: int32(g), sum: true})
	for step := 0; step < maxLedgerSteps && (step == 0 || d.isDiscounted()); step++ {
		s, more, ok := d.ledgerStep(ls, int(out[len(out)-1].i), out)
		if !ok {
			break
		}
		out = append(more, ledgerItem{i: int32(s), sum: true})
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// ledgerFacts is what a ledger says of the three money fields.
type ledgerFacts struct {
	net      float64 // the amount the taxes are computed on
	netAt    int     // the printed sum that is the net, or -1 where the page never prints it
	netFrom  int     // the ledger items the net is worked out from: l[netFrom:cut]
	cut      int     // the first tax or deduction in the ledger
	discount int     // the first discount taken off before the net, or -1
	gross    []int   // the sums printed above that discount
	taxes    []int   // the taxes on the net
}

// readLedger works out the net, the discount before it and the taxes on
// it: the net is the running amount where the first tax or deduction
// comes in (the end of a ledger with neither). The lists are appended to
// ints; the rest of it is returned for the next ledger.
func (d *doc) readLedger(l []ledgerItem, ints []int) (f ledgerFacts, rest []int) {
	f.netAt, f.discount = -1, -1
	f.cut = len(l)
	for k, it := range l {
		if !it.sum && (it.kind == partTax || it.kind == partDeduction) {
			f.cut = k
			break
		}
	}
	// Both lists go into ints, the sums above the net first.
	buf := ints[:0]
	run := 0.0
	for k := 0; k < f.cut; k++ {
		it := l[k]
		v := d.ledgerVal(&d.amounts[it.i])
		if it.sum {
			run, f.netFrom = v, k
			if f.discount < 0 {
				buf = append(buf, int(it.i))
			}
			continue
		}
		if it.kind == partDiscount && f.discount < 0 {
			f.discount = int(it.i)
		}
		run += it.kind.adds(&d.amounts[it.i], v)
	}
	f.net = run
	if f.netFrom == f.cut-1 {
		f.netAt = int(l[f.netFrom].i)
	}
	ng := len(buf)
	for _, it := range l[f.cut:] {
		if !it.sum && it.kind == partTax {
			buf = append(buf, int(it.i))
		}
	}
	f.gross, f.taxes = buf[:ng:ng], buf[ng:len(buf):len(buf)]
	return f, buf[len(buf):]
}

// grossAboveDiscount reports o, a second labelled total, as the goods'
// sum printed above a discount in the ledger of total x.
func (d *doc) grossAboveDiscount(o labelledAmount, x float64) bool {
	found := false
	d.eachLedger(func(l []ledgerItem, f ledgerFacts) bool {
		if f.discount < 0 || !near(d.ledgerVal(&d.amounts[l[len(l)-1].i]), x, amountEpsilon) {
			return false
		}
		for _, gi := range f.gross {
			found = found || d.amounts[gi].Start == o.Start
		}
		return found
	})
	return found
}

// netOfLedger reports sub as the net of the ledger of total: a total
// below its net after retentions (a CFDI's "Total" after "ISR retenido").
func (d *doc) netOfLedger(sub, total float64) bool {
	found := false
	d.eachLedger(func(l []ledgerItem, f ledgerFacts) bool {
		found = near(d.ledgerVal(&d.amounts[l[len(l)-1].i]), total, amountEpsilon) && near(f.net, sub, 0.011)
		return found
	})
	return found
}
