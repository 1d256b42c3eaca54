package pipeline

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type roleLabel struct {
	folded []rune
	key    string // LabelKey form
	role   Role
}

// foldLabel lowers a label and collapses its whitespace, as text is folded.
func foldLabel(l string) []rune {
	return foldNeedle(l, foldSpaces)
}

// unitWords count things other than money. A total label followed by one
// ("total hours", "gesamt stunden") totals that unit, not an amount, and an
// amount followed by one ("40 hours") is a quantity.
var unitWords = []string{
	"hours", "hour", "hrs", "hr", "h", "minutes", "mins", "min", "days", "day", "weeks", "months",
	"qty", "qnty", "quantity", "quantities", "items", "item", "item(s)", "pcs", "pc", "pieces", "piece",
	"units", "unit", "kg", "kgs", "g", "gm", "lb", "lbs", "oz", "l", "ltr", "litres", "liters", "ml",
	"km", "miles", "mi", "m", "pages", "page", "weight", "net weight", "gross weight", "volume",
	"boxes", "box", "cartons", "ctns", "pallets", "packages", "pkgs", "parcels", "sheets", "lines",
	"count", "no. of items", "points", "pax", "persons", "people", "guests", "nights", "words",
	"stunden", "std", "stück", "stk", "menge", "gewicht", "heures", "quantité", "poids", "pièces",
	"horas", "cantidad", "peso", "ore", "quantità", "pezzi",
}

// unitTotalWords are labels that, followed by a unit word, total the unit.
var unitTotalWords = []string{"total", "totals", "sum", "grand total", "subtotal", "sub total", "sub-total",
	"gesamt", "summe", "montant", "importe", "totale"}

// otherLabelSet is otherLabels, and every total label followed by a unit
// word, folded once; it never changes. Longest match wins, so "total hours"
// beats "total".
var otherLabelSet = func() []roleLabel {
	var out []roleLabel
	for _, l := range append(append([]string(nil), otherLabels...), unitTotalLabels()...) {
		out = append(out, roleLabel{folded: foldLabel(l), key: LabelKey(l), role: roleOther})
	}
	return out
}()

// unitSet is unitWords for lookup of a single word after an amount.
var unitSet = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range unitWords {
		if !strings.ContainsAny(u, " .()") {
			m[u] = true
		}
	}
	return m
}()

// followedByUnit reports whether the amount ending at end is followed, after
// spaces only, by a unit word ("40 hours", "12 pcs"): a quantity, not money.
// Single letters are left out: receipts print tax codes ("12.50 S") there.
func followedByUnit(rs []rune, end int) bool {
	k := end
	for k < len(rs) && (rs[k] == ' ' || rs[k] == '\t') {
		k++
	}
	j := k
	for j < len(rs) && unicode.IsLetter(rs[j]) {
		j++
	}
	if j == k || (j < len(rs) && isAlnum(rs[j])) {
		return false
	}
	w := strings.ToLower(string(rs[k:j]))
	return unitSet[w] && len([]rune(w)) > 1
}

// labelSet is every label that can claim a number, with its role, the
// schema's own first: findLabels keeps the first of identical hits, so a
// schema that lists "paid" as a total label wins over the built-in "paid".
func labelSet(s *Schema) []roleLabel {
	// Sized for the built-in labels appended last: growing to hold them
	// copied the list several times, once per run.
	out := make([]roleLabel, 0, len(otherLabelSet)+256)
	declared := map[Role]bool{}
	for _, f := range s.Fields {
		if f.Kind == KindMoney && f.Role != RoleNone {
			declared[f.Role] = true
			for _, l := range roleLabelsFor(f) {
				out = append(out, roleLabel{folded: foldLabel(l), key: LabelKey(l), role: f.Role})
			}
		}
	}
	// Roles the schema lacks still compete: "total excl. GST" is not a total
	// even when no field takes the subtotal.
	for _, r := range []Role{RoleSubtotal, RoleTax, RoleTotal} {
		if !declared[r] {
			for _, l := range append(DefaultRoleLabels(r), extraRoleLabels[r]...) {
				out = append(out, roleLabel{folded: foldLabel(l), key: LabelKey(l), role: r})
			}
		}
	}
	return append(out, otherLabelSet...)
}

// labelHit is one label occurrence in the text.
type labelHit struct {
	start, end int
	role       Role
	text       string
	key        string // the label in LabelKey form
}

// labelledAmount is an amount with the role its source label gives it.
type labelledAmount struct {
	AmountMatch
	role    Role   // "" when unlabelled
	label   string // the label as written
	summary bool   // the role comes from a tax summary row
	key     string // label in LabelKey form
}

func anyIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// wordSpan is a word of the text by its offsets: the label checks look words
// up in small sets, which needs no string per word.
type wordSpan struct{ a, b int }

// wordSpans appends to out up to n words immediately before (dir -1) or
// after (dir +1) position p, staying within [lo, hi).
func wordSpans(rs []rune, p, dir, n, lo, hi int, out []wordSpan) []wordSpan {
	if dir < 0 {
		return wordSpansBefore(rs, p, n, lo, hi, out)
	}
	return wordSpansAfter(rs, p, n, lo, hi, out)
}

// wordSpansAfter is wordSpans forward: i only grows, so only hi bounds it
// once p is at or past lo. The two directions are apart because the word
// scans run for lines of every document, and one loop stepping by dir
// tested both bounds and added dir on every rune.
func wordSpansAfter(rs []rune, p, n, lo, hi int, out []wordSpan) []wordSpan {
	if p < lo {
		return out
	}
	for i := p; n > 0 && i < hi; {
		if !isLetter(rs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < hi && isLetter(rs[j]) {
			j++
		}
		out = append(out, wordSpan{i, j})
		n--
		i = j
	}
	return out
}

// wordSpansBefore is wordSpans backward from p-1: i only falls, so only lo
// bounds it once it starts below hi.
func wordSpansBefore(rs []rune, p, n, lo, hi int, out []wordSpan) []wordSpan {
	if p-1 >= hi {
		return out
	}
	for i := p - 1; n > 0 && i >= lo; {
		if !isLetter(rs[i]) {
			i--
			continue
		}
		j := i - 1
		for j >= lo && isLetter(rs[j]) {
			j--
		}
		out = append(out, wordSpan{j + 1, i + 1})
		n--
		i = j
	}
	return out
}

// inSet reports whether word w, lowered, is in set, without allocating.
func inSet(rs []rune, w wordSpan, set map[string]bool) bool {
	var buf [48]byte
	b, ok := lowerWord(buf[:0], rs[w.a:w.b])
	return ok && set[string(b)]
}

// lowerWord appends word, lowered, to buf; ok is false when it does not fit
// buf's capacity (no set holds so long a word).
func lowerWord(buf []byte, word []rune) (b []byte, ok bool) {
	for _, r := range word {
		r = toLower(r)
		if len(buf)+utf8.RuneLen(r) > cap(buf) {
			return buf, false
		}
		buf = utf8.AppendRune(buf, r)
	}
	return buf, true
}

func anyInSpans(rs []rune, ws []wordSpan, set map[string]bool) bool {
	for _, w := range ws {
		if inSet(rs, w, set) {
			return true
		}
	}
	return false
}

// chooseLabel picks the label that names a number from the hits in the
// segment [lo, hi) next to it: the nearest one that is not a qualifier of
// another, with the qualifiers around it deciding what the figure is.
func chooseLabel(rs []rune, hits []labelHit, lo, hi int) (labelHit, bool) {
	if len(hits) == 0 {
		return labelHit{}, false // most segments, asked of every amount
	}
	var kb [4]labelHit
	keep := kb[:0]
	excluded, included := false, false
	var qualifier labelHit // the last tax label read as a qualifier
	contained := false     // a label after "included in": the figure is a part of it
	gross := false         // "amount incl. GST": the amount that holds the tax
	var bb, ab [2]wordSpan
	for _, h := range hits {
		before := wordSpans(rs, h.start, -1, 2, lo, hi, bb[:0])
		// The words after a label are read only by the tests below that
		// need them: after a kept label, or of a tax label.
		var after []wordSpan
		if len(keep) > 0 || h.role == RoleTax {
			after = wordSpans(rs, h.end, +1, 2, lo, hi, ab[:0])
		}
		after1 := after[:min(1, len(after))]
		if len(before) > 0 && inWordSet.has(rs, before[0]) {
			// "G 6% INCLUDED IN TOTAL 0.45": the container, not the figure.
			contained = contained || len(before) > 1 && inclusionSet.has(rs, before[1])
			if len(keep) == 0 && contained {
				qualifier, included = h, true
				qualifier.role = RoleTax
			}
			continue
		}
		if len(keep) > 0 && (inWordSet.any(rs, after1) || len(after) == 2 && inWordSet.has(rs, after[1]) && modifierSet.has(rs, after[0])) {
			// "GST included in total", "tax in total": the head of the phrase
			// names the figure, what follows says where it is contained.
			keep = append(keep, h)
			break
		}
		if h.role == RoleTax && (modifierSet.any(rs, before) || len(keep) > 0 && modifierSet.any(rs, after1) ||
			len(keep) > 0 && atBefore(rs, h.start, lo)) {
			// "NET AMT @ GST 6%": the rate a base is taxed at, not the tax.
			if exclusionSet.any(rs, before) || exclusionSet.any(rs, after1) {
				excluded = true
			} else {
				included = true
			}
			qualifier = h
			gross = len(before) == 2 && inclusionSet.has(rs, before[0]) && grossSet.has(rs, before[1])
			continue
		}
		if h.role == roleOther && len(keep) > 0 && modifierSet.any(rs, before) {
			continue // "total after rounding"
		}
		if len(keep) > 0 && h.start < keep[len(keep)-1].end {
			continue // "SUB TOTAL RM": "total rm" starts inside "sub total"
		}
		keep = append(keep, h)
	}
	if len(keep) == 0 {
		// Only a qualified tax label: "AMT. EXCL. GST 50.00" is the pre-tax
		// amount; "INC. GST 6% : 0.23" is the tax the total includes.
		if qualifier.end == 0 {
			return labelHit{}, false
		}
		switch {
		case excluded && !contained:
			qualifier.role = RoleSubtotal
		case gross && !excluded:
			qualifier.role = RoleTotal
		}
		return qualifier, true
	}
	best := keep[len(keep)-1]
	// A tax qualifier says what the figure is: "total (excluding GST)" is a
	// subtotal, "amt paid incl GST" is the total, not cash tendered, and a
	// "sub-total (incl. GST)" already holds its tax.
	switch {
	case excluded && (best.role == RoleTotal || best.role == roleOther):
		best.role = RoleSubtotal
	case included && (best.role == roleOther || best.role == RoleSubtotal):
		best.role = RoleTotal
	}
	return best, true
}

// grossNouns name an amount; before "incl." and a tax word they name the
// amount that holds the tax ("AMOUNT INCL. GST 5.00", "Betrag inkl. MwSt.
// 119,00"), where "INCLUDING GST 0.00" alone is the tax.
var grossNouns = map[string]bool{"amount": true, "amt": true, "price": true, "betrag": true, "summe": true,
	"preis": true, "montant": true, "prix": true, "importe": true, "importo": true, "prezzo": true, "bedrag": true,
	"prijs": true, "belopp": true, "beløb": true, "金額": true}

// inWords introduce the container of a quantity: "GST included in total".
var inWords = map[string]bool{"in": true}

// atBefore reports an '@' right before p (past spaces) within [lo, p).
func atBefore(rs []rune, p, lo int) bool {
	for k := p - 1; k >= lo && p-k <= 3; k-- {
		switch rs[k] {
		case ' ', '\t':
			continue
		case '@':
			return true
		}
		return false
	}
	return false
}

// clausePunctAt reports a rune isClauseBreak may break at, one test of a
// bit: labelInPlace asks it of every rune between a label and its amount,
// and only those runes go on to isClauseBreak.
func clausePunctAt(r rune) bool { return uint32(r) < 64 && clausePunct>>uint32(r)&1 != 0 }

const clausePunct uint64 = 1<<',' | 1<<';' | 1<<'.' | 1<<'!' | 1<<'?'

// isClauseBreak reports punctuation that ends a clause in running text: a
// comma, semicolon or sentence stop followed by a space. The dot of an
// abbreviation ("INCL. GST", "ADJ. :") and a comma after a qualifier (OCR's
// "INCL, GST") do not break a label from its number.
func isClauseBreak(rs []rune, i int) bool {
	switch rs[i] {
	case ',', ';', '.', '!', '?':
	default:
		return false
	}
	if i+1 < len(rs) && !isSpace(rs[i+1]) {
		return false
	}
	if rs[i] != '.' && rs[i] != ',' {
		return true
	}
	if rs[i] == '.' && i > 0 && (rs[i-1] == '.' || rs[i-1] == ' ' || rs[i-1] == '\t') {
		// Dot leaders ("Total ........ 80.00", "Total . . . 80.00") join a
		// label to its amount; a sentence stop follows a word, not a dot
		// or a space.
		return false
	}
	// Only the word right before the stop matters: looking further back than
	// a few runes would make a text of numbers quadratic.
	var pb [1]wordSpan
	prev := wordSpans(rs, i, -1, 1, max(0, i-16), i, pb[:0])
	if len(prev) == 1 && modifierSet.has(rs, prev[0]) {
		return false
	}
	if rs[i] == '.' && i > 0 && unicode.IsLetter(rs[i-1]) {
		return len(prev) == 1 && prev[0].b-prev[0].a >= 5
	}
	return true
}

// labelAmounts gives each amount the role its label names: a label earlier on
// the same line since the previous number or clause break; else a label
// right after it that closes the clause ("540.00 before tax,"); else, for a
// number alone on its line, the tail of the previous line.
// starts are the offsets the lines of rs start at (lineStartsOf).
func labelAmounts(rs []rune, starts []int, amounts []AmountMatch, hits []labelHit, st *stopper) []labelledAmount {
	out := make([]labelledAmount, len(amounts))
	for i, a := range amounts {
		out[i].AmountMatch = a
	}
	return labelInPlace(rs, starts, out, hits, st)
}

// labelInPlace is labelAmounts over amounts not yet labelled, giving them
// their roles where they are.
func labelInPlace(rs []rune, starts []int, amounts []labelledAmount, hits []labelHit, st *stopper) []labelledAmount {
	out := amounts
	// hits are sorted by start: each segment's window is found by a
	// search, so long single-line texts stay linear-ish.
	seg := segmentHits{rs: rs, hits: hits}
	lineStart := func(line int) int { return starts[line] }
	lineEnd := func(line int) int {
		if line+1 < len(starts) {
			return starts[line+1] - 1
		}
		return len(rs)
	}
	for i := range amounts {
		if st.stop() {
			return out[:i]
		}
		a := amounts[i].AmountMatch
		ls := lineStart(a.Line)
		segStart := ls
		if i > 0 && amounts[i-1].End > ls {
			segStart = amounts[i-1].End
		}
		for k := a.Start - 1; k >= segStart; k-- {
			if clausePunctAt(rs[k]) && isClauseBreak(rs, k) {
				segStart = k + 1
				break
			}
		}
		h, ok := seg.choose(segStart, a.Start)
		if !ok {
			h, ok = asideLabel(rs, amounts, i, ls, &seg)
		}
		if ok {
			if !tableRow(rs, amounts, i, hits) {
				out[i].role, out[i].label, out[i].key = h.role, h.text, h.key
				if h.role != roleOther && followedByUnit(rs, a.End) {
					// "Total: 40 hours" totals hours, not money.
					out[i].role = roleOther
				}
			}
			continue
		}
		le := lineEnd(a.Line)
		segEnd := le
		if i+1 < len(amounts) && amounts[i+1].Start < le {
			segEnd = amounts[i+1].Start
		}
		closes := false
		for k := a.End; k < segEnd; k++ {
			if clausePunctAt(rs[k]) && isClauseBreak(rs, k) {
				segEnd, closes = k, true
				break
			}
		}
		if closes || segEnd == le {
			if h, ok := seg.choose(a.End, segEnd); ok {
				out[i].role, out[i].label, out[i].key = h.role, h.text, h.key
				continue
			}
		}
		if ls > 0 && standsAlone(rs, ls, le, a) {
			pe := ls - 1
			ps := lineStart(a.Line - 1)
			for j := i - 1; j >= 0 && amounts[j].End > ps; j-- {
				if amounts[j].End <= pe {
					ps = amounts[j].End
					break
				}
			}
			if h, ok := seg.choose(ps, pe); ok {
				out[i].role, out[i].label, out[i].key = h.role, h.text, h.key
			}
		} else if h, ok := headingCell(rs, starts, amounts, i, hits, seg.at); ok {
			out[i].role, out[i].label, out[i].key = h.role, h.text, h.key
		}
	}
	return out
}

// asideLabel reads the label before a bracketed aside that stands between
// it and amount i: "Less deposit paid (inv WEH-3288, 20 Jan) -1,000.00",
// "Anzahlung (Rg. 4711 vom 01.02.) -500,00". The aside's own numbers and
// commas do not end the label's clause.
func asideLabel(rs []rune, amounts []labelledAmount, i, ls int, seg *segmentHits) (labelHit, bool) {
	k := amounts[i].Start - 1
	for k >= ls && (rs[k] == ' ' || rs[k] == ':' || rs[k] == '\t' || rs[k] == '-' || rs[k] == '−') {
		k--
	}
	if k < ls || rs[k] != ')' && rs[k] != '）' {
		return labelHit{}, false
	}
	open := -1
	for j := k - 1; j >= max(ls, k-80); j-- {
		if rs[j] == '(' || rs[j] == '（' {
			open = j
			break
		}
	}
	if open < 0 {
		return labelHit{}, false
	}
	segStart := ls
	for j := i - 1; j >= 0 && amounts[j].End > ls; j-- {
		if amounts[j].End <= open {
			segStart = amounts[j].End
			break
		}
	}
	return seg.choose(segStart, open)
}

// standsAlone reports whether a line holds nothing but the amount and
// currency or sign characters. It stops at the first other character, so a
// long line of numbers costs little.
func standsAlone(rs []rune, ls, le int, a AmountMatch) bool {
	// At most four letters in all, gathered without a closure so the
	// buffers stay on the stack: this runs for most amounts of a document.
	var letters [4]rune
	n, left := 0, 0
	for k := a.Start - 1; k >= ls; k-- {
		if !aloneASCIIRune(rs[k], &letters, &n) && !aloneRune(rs[k], letters[:], &n) {
			return false
		}
	}
	left = n
	for k := a.End; k < le; k++ {
		if !aloneASCIIRune(rs[k], &letters, &n) && !aloneRune(rs[k], letters[:], &n) {
			return false
		}
	}
	if left > 0 && n > left {
		return false
	}
	// The left letters were read backwards.
	slices.Reverse(letters[:left])
	var buf [4 * utf8.UTFMax]byte
	w := buf[:0]
	for _, r := range letters[:n] {
		w = utf8.AppendRune(w, r)
	}
	return len(w) == 0 || isAmountMarker(string(w))
}

// aloneASCII marks the ASCII runes of aloneRune's separators, " \t\r:-()$":
// it asks of most runes beside most amounts.
var aloneASCII = func() (t [utf8.RuneSelf]bool) {
	for _, c := range " \t\r:-()$" {
		t[c] = true
	}
	return t
}()

// aloneASCIIRune is aloneRune for an ASCII separator or letter, inline:
// false sends every other rune to aloneRune, which answers the same for
// them (an ASCII rune that is neither, or a letter past the fourth, is
// refused again there).
func aloneASCIIRune(r rune, letters *[4]rune, n *int) bool {
	if uint32(r) >= utf8.RuneSelf {
		return false
	}
	if aloneASCII[r] {
		return true
	}
	if asciiClass[r]&classLetter != 0 && *n < len(letters) {
		letters[*n] = r
		*n++
		return true
	}
	return false
}

// aloneRune reports whether r may stand beside an amount alone on its line,
// adding a letter to letters[:*n] while there is room.
func aloneRune(r rune, letters []rune, n *int) bool {
	switch {
	case uint32(r) < utf8.RuneSelf && aloneASCII[r]:
		return true
	case r == '€' || r == '£' || r == '¥':
		return true
	case isLetter(r) && *n < len(letters):
		letters[*n] = r
		*n++
		return true
	}
	return false
}

// tableRow reports whether amount i is the first of several decimal amounts
// after one label on a line ("TOTAL : 14.53 0.87" in a GST summary): the
// label heads a table's columns, so no single amount is the labelled one.
func tableRow(rs []rune, amounts []labelledAmount, i int, hits []labelHit) bool {
	if i+1 >= len(amounts) {
		return false
	}
	a, b := amounts[i], amounts[i+1]
	if a.Line != b.Line || !hasDecimalMark(a.Raw) || !hasDecimalMark(b.Raw) {
		return false
	}
	k := sort.Search(len(hits), func(i int) bool { return hits[i].start >= a.End })
	if k < len(hits) && hits[k].start < b.Start {
		return false
	}
	// "Declared value: 1,250.00 EUR. Freight: 45.50": a colon between the
	// numbers means the second has a label of its own (one the schema does
	// not know), so this is prose, not a row of a table. "Total EUR 120.00
	// (USD 129.84)", "£98.00 ≈ $123.40": the second is the first converted
	// into another currency, an aside, and the label names the first.
	open := false
	for _, r := range rs[a.End:b.Start] {
		switch {
		case r == ':' || r == '≈':
			return false
		case r == '(' || r == '[':
			open = true
		case open && (unicode.IsLetter(r) || unicode.Is(unicode.Sc, r)):
			return false
		}
	}
	return true
}

// labelCache holds a schema's label indexes, built on first use: building
// them per document was most of the heuristics' allocations.
type labelCache struct {
	once    sync.Once
	both    *labelIndex // money and field labels, the sets in that order
	lexOnce sync.Once
	lex     *Lexicon
}

// Lexicon is the schema's lexicon (NewLexicon), built once per schema:
// building one costs far more than reading a document, and every
// Generator call with the schema reads the same one. Like the label
// indexes, it assumes the schema does not change once used.
func (s *Schema) Lexicon() *Lexicon {
	s.labels.lexOnce.Do(func() { s.labels.lex = NewLexicon(s) })
	return s.labels.lex
}

// labelSets is the index of the schema's labels: the money-role labels the
// first set, the labels of its labelled non-money fields the second, so
// analyze finds both in one pass.
func (s *Schema) labelSets() *labelIndex {
	s.labels.once.Do(func() { s.labels.both = newLabelSets(labelSet(s), fieldLabelSet(s)) })
	return s.labels.both
}

// maxHeadingRow bounds the lines headingCell reads, so a long line of
// numbers costs nothing more.
const maxHeadingRow = 240

// headingCell is the label of amount i printed in a row of cells under a
// row of headings with as many cells ("Fare   Taxes/Fees/Carrier charges
// Total" over "NOK 1,890.00   NOK 612.40   NOK 2,502.40"): the heading of
// its cell, when the headings name two or more money roles and the row
// holds nothing but amounts. A heading row of one role ("Qty Price Total"
// over an item) names no amount of the row under it. at is a hit near the
// heading row's, to look for its hits from.
func headingCell(rs []rune, starts []int, amounts []labelledAmount, i int, hits []labelHit, at int) (labelHit, bool) {
	a := &amounts[i] // read in place: most amounts are no cell's, and return at once
	if a.Line == 0 || a.Line+1 > len(starts) {
		return labelHit{}, false
	}
	ls, ps := starts[a.Line], starts[a.Line-1]
	le := len(rs)
	if a.Line+1 < len(starts) {
		le = starts[a.Line+1] - 1
	}
	pe := ls - 1
	if le-ls > maxHeadingRow || pe-ps > maxHeadingRow || i > 0 && amounts[i-1].Line == a.Line-1 {
		return labelHit{}, false
	}
	k := hitFrom(hits, ps, at)
	var roles [3]bool
	n := 0
	for j := k; j < len(hits) && hits[j].start < pe; j++ {
		switch hits[j].role {
		case RoleSubtotal:
			roles[0] = true
		case RoleTax:
			roles[1] = true
		case RoleTotal:
			roles[2] = true
		}
	}
	for _, r := range roles {
		if r {
			n++
		}
	}
	if n < 2 {
		return labelHit{}, false
	}
	// The row's cells: each holds one amount and at most a currency marker.
	var rowCells, headCells [8]Span
	row, col := cells(rs, ls, le, rowCells[:0]), -1
	for c, sp := range row {
		if sp.Start <= a.Start && a.End <= sp.End {
			col = c
		}
	}
	head := cells(rs, ps, pe, headCells[:0])
	if col < 0 || len(row) != len(head) || len(row) < 2 {
		return labelHit{}, false
	}
	// Every cell holds one amount and at most a currency beside it, and no
	// row of amounts follows: a box of one row, not the first item of a
	// table ("Description  Net  VAT  Total" over its items).
	var held [8]bool
	next := 0
	for _, b := range amounts[max(0, i-len(row)):min(len(amounts), i+2*len(row)+1)] {
		if b.Line == a.Line+1 {
			next++
		}
		if b.Line != a.Line {
			continue
		}
		for c, sp := range row {
			if sp.Start <= b.Start && b.End <= sp.End {
				if held[c] || b.Start-sp.Start > 4 || sp.End-b.End > 4 {
					return labelHit{}, false // more than a currency beside the amount
				}
				held[c] = true
			}
		}
	}
	if next > 1 || slices.Contains(held[:len(row)], false) {
		return labelHit{}, false
	}
	for j := k; j < len(hits) && hits[j].start < pe; j++ {
		if h := hits[j]; h.start >= head[col].Start && h.end <= head[col].End {
			return h, h.role != roleOther
		}
	}
	return labelHit{}, false
}

// cells appends to out the spans of [a, b) separated by two or more
// spaces or a tab, at most cap(out) of them (none when there are more).
func cells(rs []rune, a, b int, out []Span) []Span {
	start := -1
	for p := a; p <= b; p++ {
		gap := p == b || rs[p] == '\t' || rs[p] == ' ' && p+1 < b && rs[p+1] == ' '
		if !gap && start < 0 && rs[p] != ' ' {
			start = p
		}
		if gap && start >= 0 {
			end := p
			for end > start && rs[end-1] == ' ' {
				end--
			}
			if len(out) == cap(out) {
				return out[:0]
			}
			out = append(out, Span{Start: start, End: end})
			start = -1
		}
	}
	return out
}
