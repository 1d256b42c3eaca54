package pipeline

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Tax summaries: the table of bases and taxes receipts and invoices print
// ("GST SUMMARY AMOUNT TAX / S = 6% 9.65 .58", "MwSt. 19 %"). Their rows
// give the subtotal and tax roles, and their sums are what a record's
// subtotal and tax must agree with.

// taxRow is one row of a tax summary: a base, the tax on it, and the rate
// when printed ("S = 6% 9.65 .58", "GST SR 6% 53.00 3.00").
type taxRow struct {
	net, tax   float64
	gross      bool // the base column is tax-inclusive: net = base − tax
	rate       float64
	hasRate    bool
	base, taxA int // indexes into doc.amounts
	total      bool
}

// taxSummary is what the document's tax rows add up to.
type taxSummary struct {
	rows     []taxRow
	net, tax float64
	// own holds the rows of most summaries (one or two rates), so that a
	// summary is one allocation.
	own [2]taxRow
}

func (t *taxSummary) describe() string {
	var b strings.Builder
	for i, r := range t.rows {
		if i > 0 {
			b.WriteString(", ")
		}
		if r.hasRate {
			fmt.Fprintf(&b, "%s%% of %.2f is %.2f", strconv.FormatFloat(r.rate, 'f', -1, 64), r.net, r.tax)
		} else {
			fmt.Fprintf(&b, "%.2f taxed %.2f", r.net, r.tax)
		}
	}
	return b.String()
}

// rateBefore finds a percent rate on [ls, p): "6%", "6.00 %", "@6%".
func rateBefore(rs []rune, ls, p int) (float64, bool) {
	// A rate stands near its amounts; looking further would make one long
	// line quadratic.
	ls = max(ls, p-48)
	for k := p - 1; k >= ls; k-- {
		if rs[k] != '%' {
			continue
		}
		j := k - 1
		for j >= ls && rs[j] == ' ' {
			j--
		}
		e := j + 1
		for j >= ls && (isDigit(rs[j]) || rs[j] == '.' || rs[j] == ',') {
			j--
		}
		if e > j+1 {
			if v, ok := parseNumberCore(string(rs[j+1 : e])); ok && v >= 0 && v <= 40 {
				return v, true
			}
		}
		return 0, false
	}
	return 0, false
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol+1e-9 }

// taxTol is how far a printed tax may sit from rate × base: rounding to the
// cent, on each row.
func taxTol(base float64) float64 { return math.Max(0.011, math.Abs(base)*0.0006) }

var (
	taxHeaderItem = map[string]bool{"item": true, "items": true, "qty": true, "description": true, "price": true,
		"unit": true, "menge": true, "beschreibung": true, "artikel": true}
	taxHeaderTax = map[string]bool{"gst": true, "tax": true, "vat": true, "sst": true, "mwst": true, "ust": true,
		"tva": true, "iva": true}
	taxHeaderCol = map[string]bool{"amount": true, "amt": true, "net": true, "netto": true, "nett": true, "excl": true,
		"base": true, "summary": true, "analysis": true, "sales": true, "ht": true, "消費税": true, "税抜": true}
)

// isTaxHeaderLine reports a tax summary's header line rs[lo:hi]: a tax
// word and a column of amounts among its first n words ("GST SUMMARY
// AMOUNT(RM) TAX(RM)", "MwSt-Satz Netto MwSt"), and not the header of the
// item lines. It runs on the lines above every line of amounts, so the
// words are read in one pass: each is hashed as it is passed over, and only
// a word the screens let through is lowered and looked up.
func isTaxHeaderLine(rs []rune, lo, hi, n int) bool {
	tax, col := false, false
	line := rs[lo:hi]
	for i, found := 0, 0; found < n && i < len(line); {
		if !isLetter(line[i]) {
			i++
			continue
		}
		j, h := i, uint32(wordHashSeed)
		for ; j < len(line); j++ {
			// isLetter and toLower, with an ASCII letter's class read
			// once and its case folded by its bit.
			r := line[j]
			if uint32(r) < utf8.RuneSelf {
				if asciiClass[r]&classLetter == 0 {
					break
				}
				r |= 0x20
			} else if !wideLetter(r) {
				break
			} else {
				r = wideLower(r)
			}
			h = wordHashStep(h, r)
		}
		found++
		w := line[i:j]
		i = j
		if !taxHeaderShapes.mayHold(toLower(w[0]), len(w)) || !taxHeaderHashes.has(h) {
			continue
		}
		c := taxHeaderClassOf(w, h)
		if c&headerItem != 0 {
			return false
		}
		tax = tax || c&headerTax != 0
		col = col || c&headerCol != 0
	}
	return tax && col
}

// taxHeaderClassOf is the classes of w, lowered, in taxHeaderClass; h is
// the hash of its lowered runes, which isTaxHeaderLine took as it read
// them. Comparing the runes in place costs less than lowering them into a
// map key.
func taxHeaderClassOf(w []rune, h uint32) uint8 {
	mask := len(taxHeaderSlots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := &taxHeaderSlots[i]
		if s.word == nil {
			return 0
		}
		if s.h == h && loweredEqual(w, s.word) {
			return s.class
		}
	}
}

// loweredEqual reports whether w, lowered, is word.
func loweredEqual(w, word []rune) bool {
	if len(w) != len(word) {
		return false
	}
	for i, r := range w {
		if toLower(r) != word[i] {
			return false
		}
	}
	return true
}

// classSlot is a word of taxHeaderClass in taxHeaderSlots: nil word marks
// an empty slot.
type classSlot struct {
	word  []rune
	h     uint32
	class uint8
}

// taxHeaderSlots is taxHeaderClass by its words' hashes, open addressing
// in a table at most half full.
var taxHeaderSlots = func() []classSlot {
	size := 16
	for size < 2*len(taxHeaderClass) {
		size <<= 1
	}
	slots := make([]classSlot, size)
	for w, c := range taxHeaderClass {
		h := uint32(wordHashSeed)
		for _, r := range w {
			h = wordHashStep(h, r)
		}
		i := int(h) & (size - 1)
		for slots[i].word != nil {
			i = (i + 1) & (size - 1)
		}
		slots[i] = classSlot{[]rune(w), h, c}
	}
	return slots
}()

// taxHeaderClass is each word of taxHeaderItem, taxHeaderTax and
// taxHeaderCol with the sets it is in.
var taxHeaderClass = func() map[string]uint8 {
	m := map[string]uint8{}
	for _, s := range []struct {
		words map[string]bool
		class uint8
	}{{taxHeaderItem, headerItem}, {taxHeaderTax, headerTax}, {taxHeaderCol, headerCol}} {
		for w := range s.words {
			m[w] |= s.class
		}
	}
	return m
}()

// taxHeaderShapes are taxHeaderClass' shapes, and taxHeaderHashes its
// words' hashes: most words of a line above amounts are no header's, and
// are passed over before they are lowered into a key.
var taxHeaderShapes, taxHeaderHashes = shapesOf(taxHeaderClass), hashesOf(taxHeaderClass)

const (
	headerItem = 1 << iota
	headerTax
	headerCol
)

// headerReach is how many lines below a tax summary's header its rows may
// start.
const headerReach = 6

// findTaxSummary reads the rows of tax tables: a line whose last two amounts
// are a base and the tax on it, proved either by a printed rate (tax = rate ×
// base, or rate × base / (1 + rate) when the base includes the tax) or by a
// header above that names the columns. Their amounts take the subtotal and
// tax roles, whatever label the row carries.
func (d *doc) findTaxSummary() {
	var sum taxSummary // kept (on the heap) only when it has rows
	// The rows are gathered on the stack and copied into the summary kept:
	// appending to a list the summary kept cost an allocation a receipt.
	var rowsBuf [4]taxRow
	sum.rows = rowsBuf[:0]
	// A header reaches the six lines below it, so only a line of amounts
	// asks whether one stands above it: the lines with none among its six
	// predecessors are read then (noAmounts remembers which), not every
	// line of the document as it passes.
	var noAmounts [headerReach + 1]bool // this line and the six above
	read := 0                           // lines before read have been asked already
	headerUntil := -1
	next := 0 // the first amount not on an earlier line
	var idxBuf [16]int
	idx := idxBuf[:0]
	for li := 0; li < len(d.lineStarts); li++ {
		ls, _ := d.lineBounds(li)
		idx = idx[:0]
		for ; next < len(d.amounts) && d.amounts[next].Line == li; next++ {
			idx = append(idx, next)
		}
		noAmounts[li%len(noAmounts)] = len(idx) == 0
		if len(idx) < 2 {
			continue
		}
		for h := max(read, li-headerReach); h < li; h++ {
			hs, he := d.lineBounds(h)
			if noAmounts[h%len(noAmounts)] && isTaxHeaderLine(d.rs, hs, he, 8) {
				headerUntil = max(headerUntil, h+headerReach)
			}
		}
		read = li
		row, ok := d.rowOf(idx, ls, li <= headerUntil)
		if !ok {
			continue
		}
		if h, ok := chooseLabelIn(d, ls, d.amounts[row.base].Start); ok && h.role == RoleTotal {
			row.total = true
		}
		if li <= headerUntil {
			headerUntil = max(headerUntil, li+2)
		}
		sum.rows = append(sum.rows, row)
	}
	d.rateBases()
	if len(sum.rows) == 0 {
		return
	}
	// The lines of a summary block total its columns, not the document.
	var rowBuf [128]bool
	var onRow []bool
	if len(d.lineStarts) <= len(rowBuf) {
		onRow = rowBuf[:len(d.lineStarts)]
	} else {
		onRow = make([]bool, len(d.lineStarts))
	}
	for _, r := range sum.rows {
		onRow[d.amounts[r.base].Line] = true
	}
	rowLine := func(l int) bool { return l >= 0 && onRow[l] }
	for i := range d.amounts {
		if l := d.amounts[i].Line; rowLine(l) || rowLine(l-1) && d.amounts[i].role != "" {
			d.amounts[i].summary = true
		}
	}
	// A row labelled total sums the others; otherwise the rows add up.
	var total *taxRow
	for i := range sum.rows {
		if sum.rows[i].total {
			total = &sum.rows[i]
		}
	}
	if total != nil {
		sum.net, sum.tax = total.net, total.tax
	} else {
		for _, r := range sum.rows {
			sum.net += r.net
			sum.tax += r.tax
		}
	}
	for _, r := range sum.rows {
		d.amounts[r.taxA].role, d.amounts[r.taxA].label, d.amounts[r.taxA].key, d.amounts[r.taxA].summary = RoleTax, "tax summary", "tax summary", true
		if !r.gross {
			d.amounts[r.base].role, d.amounts[r.base].label, d.amounts[r.base].key, d.amounts[r.base].summary = RoleSubtotal, "tax summary", "tax summary", true
		}
	}
	kept := &taxSummary{net: sum.net, tax: sum.tax}
	kept.rows = append(kept.own[:0:len(kept.own)], sum.rows...)
	d.summary = kept
}

// rowOf reads a tax row from the amounts idx of one line: the first pair of
// neighbouring amounts where the second is the tax on the first, proved by
// the line's rate or, under a header, by a plausible ratio.
func (d *doc) rowOf(idx []int, ls int, underHeader bool) (taxRow, bool) {
	for k := 0; k+1 < len(idx); k++ {
		bi, ti := idx[k], idx[k+1]
		b, t := &d.amounts[bi], &d.amounts[ti]
		if !hasDecimalMark(t.Raw) || !hasDecimalMark(b.Raw) {
			continue
		}
		row := taxRow{base: bi, taxA: ti, tax: t.Value, net: b.Value}
		row.rate, row.hasRate = rateBefore(d.rs, ls, b.Start)
		switch {
		case row.hasRate && near(t.Value, b.Value*row.rate/100, taxTol(b.Value)) && (b.Value != 0 || underHeader):
			return row, true
		case row.hasRate && row.rate > 0 && near(t.Value, b.Value*row.rate/(100+row.rate), taxTol(b.Value)):
			row.gross, row.net = true, b.Value-t.Value
			return row, true
		case underHeader && t.Value >= 0 && t.Value <= 0.3*b.Value && b.Value > 0:
			return row, true
		}
	}
	return taxRow{}, false
}

// rateBases gives the subtotal role to a tax-labelled amount that is the base
// another tax line's rate applies to ("GST TA AMT RM7.00" above "GST 6%
// RM0.42"), and takes the tax role from a "tax" as large as a total.
func (d *doc) rateBases() {
	minTotal := math.Inf(1)
	for i := range d.amounts {
		if a := &d.amounts[i]; a.role == RoleTotal && a.Value > 0 && centsForm(a.Raw) {
			minTotal = math.Min(minTotal, a.Value)
		}
	}
	// The rates before the amounts are read when a check asks for one, and
	// the sorted cents once a total has a rate: most receipts need neither.
	var rateBuf [64]lazyRate
	rates := newLazyRates(d, rateBuf[:0])
	var cents []int64
	for i := range d.amounts {
		t := &d.amounts[i]
		switch {
		case t.role == RoleTax && !t.summary && t.Value >= minTotal:
			t.role = "" // "GST 6% 15.00" in a column of a 15.00 receipt is no tax
		case t.role == RoleTotal && rates.of(i) > 0:
			// "(TOTAL INCLUDED GST @ 6% : 0.41)" on a 7.20 receipt: the tax a
			// larger printed total holds.
			if cents == nil {
				cents = d.sortedCents()
			}
			r := rates.of(i)
			target, slack := t.Value*(100+r)/r, 0.011*(100+r)/r
			for c := int64(math.Floor((target - slack) * 100)); c <= int64(math.Ceil((target+slack)*100)); c++ {
				if _, printed := slices.BinarySearch(cents, c); printed && float64(c)/100 > t.Value && near(t.Value, float64(c)/100*r/(100+r), 0.011) {
					t.role = RoleTax
					break
				}
			}
		case t.role == roleOther && math.Abs(t.Value) >= 0.5 && centsForm(t.Raw):
			// "ROUNDING 20.00" under "ROUNDING ADJ 0.01": the rounded total.
			if k := labelKeyOf(*t); k == "rounding" || k == "round" || k == "rounded" {
				t.role = RoleTotal
			}
		}
	}
	for i := range d.amounts {
		t := &d.amounts[i]
		if t.role != RoleTax {
			continue
		}
		// The base of a rate is printed a few amounts away, not anywhere.
		for j := max(0, i-8); j < min(len(d.amounts), i+9); j++ {
			b := &d.amounts[j]
			if j == i || b.role != RoleTax || abs(b.Line-t.Line) > 8 || b.Value <= t.Value {
				continue
			}
			if r := math.Max(rates.of(i), rates.of(j)); r > 0 && near(t.Value, b.Value*r/100, taxTol(b.Value)) {
				b.role, b.label, b.key = RoleSubtotal, "taxable amount", "taxable amount"
			}
		}
	}
}

// sortedCents is every amount in cents, sorted for binary search.
func (d *doc) sortedCents() []int64 {
	cents := make([]int64, len(d.amounts))
	for i, a := range d.amounts {
		cents[i] = int64(math.Round(a.Value * 100))
	}
	slices.Sort(cents)
	return cents
}

// lazyRates is the percent rate printed before each amount on its line (0
// for none), read on first use.
type lazyRates struct {
	d    *doc
	rate []lazyRate
}

type lazyRate struct {
	v    float64
	read bool
}

// newLazyRates reads into buf when it holds every amount.
func newLazyRates(d *doc, buf []lazyRate) lazyRates {
	if len(d.amounts) <= cap(buf) {
		return lazyRates{d: d, rate: buf[:len(d.amounts)]}
	}
	return lazyRates{d: d}
}

func (l *lazyRates) of(i int) float64 {
	if l.rate == nil {
		l.rate = make([]lazyRate, len(l.d.amounts))
	}
	if r := &l.rate[i]; !r.read {
		a := l.d.amounts[i]
		ls, _ := l.d.lineBounds(a.Line)
		r.v, _ = rateBefore(l.d.rs, ls, a.Start)
		r.read = true
	}
	return l.rate[i].v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// chooseLabelIn is the label before p on [ls, p).
func chooseLabelIn(d *doc, ls, p int) (labelHit, bool) {
	var buf [8]labelHit // a line holds a few labels
	hs := buf[:0]
	hits := d.moneyHits
	for k := sort.Search(len(hits), func(i int) bool { return hits[i].start >= ls }); k < len(hits) && hits[k].start < p; k++ {
		if hits[k].end <= p {
			hs = append(hs, hits[k])
		}
	}
	return chooseLabel(d.rs, hs, ls, p)
}

// TaxRow is one row of a document's tax summary, as the checks read it.
type TaxRow struct {
	Net, Tax float64
	Rate     float64 // percent; meaningful when HasRate
	HasRate  bool
	// Gross is true when the printed base includes the tax (Net = base − Tax).
	Gross bool
	// BaseSpan and TaxSpan are where the base and the tax are printed.
	BaseSpan, TaxSpan Span
}

// TaxSummary is what a document's tax table adds up to: the pre-tax amount
// and the tax the checks expect a record's subtotal and tax to agree with.
type TaxSummary struct {
	Net, Tax float64
	Rows     []TaxRow
}

// FindTaxSummary reads the tax summary of text the way the heuristics do
// ("GST SUMMARY AMOUNT TAX / SR 6% 30.00 1.80", "MwSt. 19 %: …" rows with a
// rate that proves them), so a Generator (providers/local) can take its
// subtotal and tax from the figures the checks will confirm. ok is false
// when the document prints no such table.
func FindTaxSummary(ctx context.Context, text string, s *Schema) (TaxSummary, bool, error) {
	d, err := analyze(ctx, text, s)
	if err != nil || d.summary == nil {
		return TaxSummary{}, false, err
	}
	out := TaxSummary{Net: d.summary.net, Tax: d.summary.tax}
	for _, r := range d.summary.rows {
		b, t := d.amounts[r.base], d.amounts[r.taxA]
		out.Rows = append(out.Rows, TaxRow{Net: r.net, Tax: r.tax, Rate: r.rate, HasRate: r.hasRate, Gross: r.gross,
			BaseSpan: Span{Start: b.Start, End: b.End}, TaxSpan: Span{Start: t.Start, End: t.End}})
	}
	return out, true, nil
}
