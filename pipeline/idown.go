package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// The document's own number is the one it points to as its own: printed
// right after one of the field's own labels ("Invoice No.", "Rechnung Nr.",
// "請求書番号"), beside its title ("INVOICE 2026-114", "Facture n° F-88"),
// under its label on the lines below, or, in a script no label list knows,
// after the first number sign of the document's head ("ანგარიშ-ფაქტურა №
// 00871"). Lists of the other labels (an order, a contract, a tax number)
// never end; this check asks the positive question instead. A value no
// occurrence of which the document points to so, printed under another
// label, is flagged, naming the label it sits under and what the document's
// own number label prints. A value printed bare (a receipt's lone serial)
// is left alone: nothing says it is something else.

// checkOwnNumber flags an invoice number the document prints only under
// another label when it points to another number as its own. It runs on
// a grounded identifier no other check has flagged.
func (d *doc) checkOwnNumber(c *FieldCheck, f Field, val string) {
	if len(c.Reasons) > 0 || len(c.Spans) == 0 || !slices.Contains(f.Labels, "invoice number") {
		return
	}
	own := fieldLabelOwner(f.Name)
	spans := capped(c.Spans)
	under := ""
	for _, sp := range spans {
		if d.pointsToOwn(own, sp) {
			return
		}
		if under == "" {
			under = d.otherLabelAt(own, sp)
		}
	}
	if under == "" || slices.ContainsFunc(spans, func(sp Span) bool { return d.afterOwnWord(f, own, sp) }) {
		return // unlabelled, or after a word an own label starts with ("INV:R000039737")
	}
	by, hs, head := d.headNumber(own)
	if head && slices.ContainsFunc(spans, func(sp Span) bool { return hs.Start <= sp.Start && sp.Start < hs.End }) {
		return // the head's number
	}
	if head && !sameNumber(d.str(hs.Start, hs.End), val) {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed under %q; the document's head numbers it with %q %s: check which number is its own",
			val, under, by, d.str(hs.Start, hs.End)))
		return
	}
	if by, tok, ok := d.ownNumberElsewhere(own, val); ok {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed under %q, not under the document's own number label: %q prints %s",
			val, under, by, tok))
	}
}

// pointsToOwn reports whether the document points to the occurrence at sp
// as its own number: an own label names it directly or is the heading over
// it.
func (d *doc) pointsToOwn(own Role, sp Span) bool {
	h, ok := d.labelBefore(sp.Start)
	if ok && h.role == own {
		named := d.plainGap(h.end, sp.Start) || d.namesDirectly(h, sp)
		if !named {
			t, found := numberAfter(d.rs, h.end)
			named = found && t.Start <= sp.Start && sp.Start < t.End
		}
		if named && !d.qualifiedLoose(h) {
			return true
		}
	}
	if ok && d.namesDirectly(h, sp) {
		return false // another label names it
	}
	if a, above := d.labelAbove(sp); above && a.role == own && !d.qualifiedLoose(a) {
		return true
	}
	return d.ownLabelOver(own, sp)
}

// afterOwnWord reports an occurrence after an own label on its line, or
// after a word an own label starts with ("SFULL OB INV:R000039737", "BILL
// 18550"), unless a word before a loose own label makes it another's
// ("Bank reference: 99812231").
func (d *doc) afterOwnWord(f Field, own Role, sp Span) bool {
	if h, ok := d.labelBefore(sp.Start); ok && h.role == own {
		// "Rechnung zu Ihrem Auftrag 77812" reads as a sentence, but
		// "FACTURA ELECTRÓNICA DE VENTA No. FE-4471" prints the same words
		// between label and number: the label counts.
		return !d.qualifiedLoose(h) || !d.namesDirectly(h, sp)
	}
	ls := d.lineStarts[d.lineOf(sp.Start)]
	before := LabelTokens(d.str(max(ls, sp.Start-40), sp.Start))
	if len(before) == 0 {
		return false
	}
	last := before[len(before)-1]
	for _, l := range f.Labels {
		if first, _, _ := strings.Cut(LabelKey(l), " "); first == last {
			return true
		}
	}
	return false
}

// plainGap reports only separators and a number sign between a label and
// its value ("Invoice: INV-1", "Invoice No. INV-1"): namesDirectly's
// verdict without lowering the gap.
func (d *doc) plainGap(a, b int) bool {
	if b < a || b-a > 12 {
		return false
	}
	p, signed := a, false
	for p < b {
		switch r := d.rs[p]; {
		case r == ' ' || r == '\t' || r < 0x80 && strings.IndexByte(":#.-();|,\"", byte(r)) >= 0 || r == '：' || r == '–' || r == 'º' || r == '°':
			p++
		case !signed && (r == 'N' || r == 'n' || r == '№'):
			signed = true
			if q := skipNumberSign(d.rs, p); q > p {
				p = q
				continue
			}
			if r != '№' {
				return false
			}
			p++
		default:
			return false
		}
	}
	return true
}

// qualifiedLoose reports a loose own label ("Ref", "Reference", "Document")
// that a word before it on its line makes another's: "Bank reference",
// "Payment ref", "Your order reference". "Invoice reference" stays the
// document's (ownRank).
func (d *doc) qualifiedLoose(h labelHit) bool {
	if h.key == "" || h.key[0] != 'r' && h.key[0] != 'd' && h.key[0] != 'f' {
		return false // no loose word starts so
	}
	first, _, _ := strings.Cut(h.key, " ")
	if !looseNumberWords[first] || d.ownRank(h) != rankLoose {
		return false
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	p := h.start
	for p > ls && (d.rs[p-1] == ' ' || d.rs[p-1] == ',') {
		p--
	}
	return p > ls && p > h.start-3 && unicode.IsLetter(d.rs[p-1])
}

// ownLabelOver reports an own label that ends its line one or two lines
// above sp with only blank lines between, sp opening its line: "Invoice
// number\n\nINV-1182".
func (d *doc) ownLabelOver(own Role, sp Span) bool {
	li := d.lineOf(sp.Start)
	ls, _ := d.lineBounds(li)
	if strings.TrimSpace(d.str(ls, sp.Start)) != "" {
		return false
	}
	for l := li - 1; l >= 0 && l >= li-2; l-- {
		s, e := d.lineBounds(l)
		line := strings.TrimSpace(d.str(s, e))
		if line == "" {
			continue
		}
		h, ok := d.labelBefore(e)
		if !ok || h.role != own || d.qualifiedLoose(h) || d.lineOf(h.start) != l {
			return false
		}
		rest := strings.Trim(strings.TrimSpace(d.str(h.end, e)), ":：#.")
		return skipNumberSign([]rune(rest+" "), 0) == len([]rune(rest+" ")) || rest == ""
	}
	return false
}

// ownNumberElsewhere is the number the surest own label of the document
// names, when it is not val: the label's text and the number.
func (d *doc) ownNumberElsewhere(own Role, val string) (string, string, bool) {
	rank := 0
	var by, tok string
	for _, h := range d.fieldHits {
		if h.role != own || d.qualifiedLoose(h) {
			continue
		}
		r := d.ownRank(h)
		if r <= rank {
			continue
		}
		sp, ok := numberAfter(d.rs, h.end)
		if !ok {
			sp, ok = d.tokenBelow(h)
		}
		if !ok {
			sp, ok = d.numberUnder(h)
		}
		if !ok || d.isDateAt(sp) {
			continue
		}
		t := d.str(sp.Start, sp.End)
		if sameNumber(t, val) || hasComponent(t, val) {
			return "", "", false // the surest label names val
		}
		rank, by, tok = r, strings.Join(strings.Fields(h.text), " "), t
	}
	return by, tok, tok != ""
}

// numberUnder is the number that opens the first non-blank line of the two
// below own label h when h ends its line ("BOLETA DE VENTA ELECTRONICA\n
// B001-00004471", "Invoice number\n\nINV-1182").
func (d *doc) numberUnder(h labelHit) (Span, bool) {
	li := d.lineOf(h.start)
	_, e := d.lineBounds(li)
	// Nothing after the label but a sign or a title's last words
	// ("BOLETA DE VENTA ELECTRONICA").
	rest := strings.Trim(strings.TrimSpace(d.str(h.end, e)), ":：#.")
	if strings.ContainsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != ' ' && r != '.' && r != '°' && r != 'º' }) ||
		len(strings.Fields(rest)) > 2 {
		return Span{}, false
	}
	for l := li + 1; l < len(d.lineStarts) && l <= li+2; l++ {
		s, e := d.lineBounds(l)
		p := s
		for p < e && unicode.IsSpace(d.rs[p]) {
			p++
		}
		if p == e {
			continue
		}
		q := p
		for q < e && !unicode.IsSpace(d.rs[q]) {
			q++
		}
		// The number alone in its cell: not an address or an item row.
		if !slices.ContainsFunc(d.rs[p:q], isDigit) || slices.ContainsFunc(d.rs[p:q], func(r rune) bool { return strings.ContainsRune(":：,;", r) }) ||
			amountLike(d.rs[p:q]) || q < e && !strings.HasPrefix(d.str(q, e), "  ") {
			return Span{}, false
		}
		return Span{Start: p, End: q}, true
	}
	return Span{}, false
}

// amountLike reports a token that ends in a decimal mark and two digits: an
// amount, not a number.
func amountLike(tok []rune) bool {
	n := len(tok)
	return n >= 4 && isDigit(tok[n-1]) && isDigit(tok[n-2]) && (tok[n-3] == '.' || tok[n-3] == ',') && isDigit(tok[n-4])
}

// isDateAt reports a date the document prints at sp.
func (d *doc) isDateAt(sp Span) bool { return overlapsDate(d.dates, sp.Start, sp.End) }

// headNumber is the number of the document's head in a script or language
// no own label knows: the first line whose unknown words end in a number
// sign and which is dated ("FATURË Nr. 2026/118   Data: 20.11.2026",
// "Հաշիվ-ապրանքագիր № 2026/118" over its date), when the document holds
// no own label. It returns the label's words and the number.
func (d *doc) headNumber(own Role) (string, Span, bool) {
	for _, h := range d.fieldHits {
		if h.role == own {
			return "", Span{}, false // the document's own labels decide
		}
	}
	for li := range d.lineStarts {
		if label, sp, ok := d.signedNumber(li); ok && d.datedAt(li) {
			return label, sp, true
		}
	}
	return "", Span{}, false
}

// datedAt reports a date printed on line li or the next non-blank line:
// a document prints its number and its date together ("Счёт № 118 от
// 20.11.2026"); a registration or an account number stands alone.
func (d *doc) datedAt(li int) bool {
	next := li + 1
	for next < len(d.lineStarts) {
		s, e := d.lineBounds(next)
		if strings.TrimSpace(d.str(s, e)) != "" {
			break
		}
		next++
	}
	for _, m := range d.dates {
		if l := d.lineOf(m.Start); l == li || l == next {
			return true
		}
	}
	return false
}

// signedNumber finds on line li words, a number sign and a number
// ("Porosia nr. 5521", "វិក្កយបត្រ លេខ: INV-4471") whose words no label list
// knows; a line that opens with the sign takes its words from a title alone
// on the line above ("FATURË\nNr. 2026/118").
func (d *doc) signedNumber(li int) (string, Span, bool) {
	s, e := d.lineBounds(li)
	p := s
	for p < e && unicode.IsSpace(d.rs[p]) {
		p++
	}
	for p < e {
		q := p
		for q < e && !unicode.IsSpace(d.rs[q]) {
			q++
		}
		if n, ok := d.numberSignAt(p, q); ok {
			words := strings.TrimSpace(d.str(s, p))
			if words == "" && li > 0 {
				ps, pe := d.lineBounds(li - 1)
				words = strings.TrimSpace(d.str(ps, pe))
			}
			f := strings.Fields(words)
			if len(f) == 0 || len(f) > 3 || strings.ContainsFunc(words, unicode.IsDigit) || !slices.ContainsFunc(f, titleLike) {
				return "", Span{}, false
			}
			if h, ok := d.labelBefore(n); ok && h.end > s {
				return "", Span{}, false // a known label: not the head's unknown one
			}
			sp, ok := tokenAfter(d.rs, n)
			if !ok || d.lineOf(sp.Start) != li || d.isDateAt(sp) {
				return "", Span{}, false
			}
			return strings.Join(f, " ") + " " + strings.TrimSpace(d.str(p, n)), sp, true
		}
		for q < e && unicode.IsSpace(d.rs[q]) {
			q++
		}
		p = q
	}
	return "", Span{}, false
}

// numberSignAt reports whether token [p, q) is a number sign ("Nr.", "№",
// "#", "No:", "លេខ:", "ቁ.", "br."), and where what it numbers may start:
// after the sign when a number is glued to it ("№00871").
func (d *doc) numberSignAt(p, q int) (int, bool) {
	if r := d.rs[p]; r == '№' || r == '#' {
		return p + 1, true
	}
	t := q
	for t > p && (d.rs[t-1] == ':' || d.rs[t-1] == '：') {
		t--
	}
	var buf [24]byte
	w, ok := lowerWord(buf[:0], d.rs[p:t])
	if !ok || !numberSigns[string(w)] && !headSignWords[string(w)] {
		return 0, false
	}
	return q, true
}

// headSignWords are number signs of languages numberSigns lacks: the
// Slavic abbreviations, Khmer, Amharic, Greek, Swahili, Azerbaijani.
var headSignWords = map[string]bool{"br.": true, "бр.": true, "č.": true, "št.": true, "sz.": true, "nro": true,
	"nro.": true, "លេខ": true, "ቁ.": true, "ቁጥር": true, "αρ.": true, "na.": true, "nömrə": true,
	"номер": true, "нөмір": true, "рақами": true}

// titleLike reports a word of four letters or more: a title's, not a
// code's ("MC #01").
func titleLike(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n >= 4
}

// otherLabelAt is the label the occurrence at sp sits under when it is not
// one of the field's own: a known label naming it directly, or the words
// before it on its line ending in a colon or a number sign ("Timbrado N°:",
// "NIPT:", "Mã tra cứu:"), or alone before it at the start of its line
// ("ს/კ 405123456"), or on the line above ending in a colon. Empty when
// nothing labels it.
func (d *doc) otherLabelAt(own Role, sp Span) string {
	li := d.lineOf(sp.Start)
	ls, le := d.lineBounds(li)
	if h, ok := d.labelBefore(sp.Start); ok && d.namesDirectly(h, sp) {
		if h.role != own {
			return strings.Join(strings.Fields(h.text), " ")
		}
		return d.cellBefore(ls, h.end)
	}
	p := sp.Start
	signal := false
	for p > ls {
		r := d.rs[p-1]
		if r == ' ' || r == '\t' {
			p--
			continue
		}
		if r == ':' || r == '：' || r == '#' || r == '№' {
			signal = true
			p--
			continue
		}
		break
	}
	w := p
	for w > ls && !unicode.IsSpace(d.rs[w-1]) {
		w--
	}
	if w < p && skipNumberSign(d.rs, w) > w {
		signal = true
		p = w
		for p > ls && d.rs[p-1] == ' ' {
			p--
		}
	}
	label := d.cellBefore(ls, p)
	if label == "" {
		if strings.TrimSpace(d.str(ls, sp.Start)) == "" && li > 0 {
			return d.labelLineAbove(li)
		}
		return ""
	}
	if signal {
		return label
	}
	// No colon or sign: the words must open the line or a cell of it
	// ("Cassa 02   Terminale 88123401") and the value close its cell.
	start := ls
	for start < le && d.rs[start] == ' ' {
		start++
	}
	from := p - len([]rune(label))
	opens := d.str(start, p) == label || from-2 >= ls && d.str(from-2, from) == "  " || from-1 >= ls && d.rs[from-1] == '\t'
	after := strings.TrimRight(d.str(sp.End, le), " \t")
	if !opens || after != "" && !strings.HasPrefix(d.str(sp.End, le), "  ") {
		return ""
	}
	return label
}

// cellBefore is the label words that end at p on the line starting at ls:
// at most four words back to the line's start, a gap of two spaces, a
// comma or a word holding a digit. Empty when no word has two letters.
func (d *doc) cellBefore(ls, p int) string {
	end := p
	words := 0
	for words < 4 && p > ls {
		q := p
		for q > ls && d.rs[q-1] == ' ' {
			q--
		}
		if p-q >= 2 || q == ls || d.rs[q-1] == '\t' {
			break
		}
		s := q
		for s > ls && !unicode.IsSpace(d.rs[s-1]) {
			s--
		}
		word := d.rs[s:q]
		if slices.ContainsFunc(word, isDigit) || strings.ContainsRune(",;|)", word[len(word)-1]) {
			break
		}
		p = s
		words++
	}
	if words == 0 && p == end {
		return ""
	}
	label := strings.TrimSpace(d.str(p, end))
	letters := 0
	for _, r := range label {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return ""
	}
	return label
}

// labelLineAbove is the line above line li when it is a label alone ending
// in a colon ("Payment reference:").
func (d *doc) labelLineAbove(li int) string {
	s, e := d.lineBounds(li - 1)
	line := strings.TrimSpace(d.str(s, e))
	if !strings.HasSuffix(line, ":") || strings.ContainsFunc(line, unicode.IsDigit) || len([]rune(line)) > 40 {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(line, ":"))
}
