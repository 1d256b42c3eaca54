package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// An own label names the number right after it, and the document's own
// number is the one its plainest own label names. Own labels are short
// words ("Invoice", "Rechnung", "Receipt", "Ref") that other labels embed:
// "Proforma Invoice No.", "Invoice Upload Index", "Rechnung 2026-118 zu
// Auftrag 77812". Such a label is an own label for the lists, but it names
// another number: the pro-forma's, the e-invoice system's, the order's. So
// a label names the number that follows it on its line and no other; it
// names it plainly when nothing but a number sign stands between and no word
// stands before it in its cell. A value an own label names less surely than
// the document's plainest own label names a different number is flagged.

// ownGrade is how surely an own label names a number: its rank (ownRank),
// then whether it names it plainly.
type ownGrade struct {
	rank  int
	plain bool
}

func (g ownGrade) above(o ownGrade) bool {
	return g.rank > o.rank || g.rank == o.rank && g.plain && !o.plain
}

// checkPlainOwn flags an invoice number that sits after an own label which
// names it less surely than the document's plainest own label names
// another number. It runs on a grounded identifier no other check flagged.
func (d *doc) checkPlainOwn(c *FieldCheck, f Field, val string) {
	if len(c.Reasons) > 0 || len(c.Spans) == 0 || !slices.Contains(f.Labels, "invoice number") {
		return
	}
	own := fieldLabelOwner(f.Name)
	spans := capped(c.Spans)
	// Screen: only a value after an own label on its line is in question
	// (checkLabelled judged the others), and one such label naming it
	// plainly settles it: most documents print "Invoice No: X".
	var hits [4]labelHit
	var at [4]Span
	n := 0
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if !ok || h.role != own {
			continue
		}
		if d.signOnlyGap(h.end, sp.Start) && !d.wordBeforeInCell(h.start) {
			return
		}
		if n < len(hits) {
			hits[n], at[n] = h, sp
			n++
		}
	}
	if n == 0 || !d.anotherOwnHit(own, hits[:n]) && !d.numberBetween(hits[:n], at[:n]) {
		return
	}
	var mine ownGrade
	first := -1 // the occurrence the reason names
	for k, sp := range at[:n] {
		h := hits[k]
		if d.qualifiedLoose(h) {
			continue
		}
		if first < 0 {
			first = k
		}
		named := d.names(h, sp)
		g := d.hitGrade(h)
		// Words between label and value make it another's label
		// ("Invoice Upload Index: 77123", "Factura proforma Nº PF-55"),
		// and a label that names another number first names none of val.
		g.plain = g.plain && named && d.signOnlyGap(h.end, sp.Start)
		if g.above(mine) {
			mine = g
		}
	}
	if first < 0 {
		return
	}
	by, tok, best, ok := d.plainestOwn(own, spans)
	// A surer rank is outranked's to judge; here a plain label beats an
	// embedded one of the same rank.
	if !ok || best.rank != mine.rank || !best.plain || mine.plain || relatedNumber(tok, val) {
		return
	}
	h, sp := hits[first], at[first]
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed after %q, another document's or system's reference; the document's own number label %q prints %s",
		val, d.namingWords(h, sp, d.names(h, sp)), by, tok))
}

// anotherOwnHit reports an own label other than hits: with none, nothing
// names another number.
func (d *doc) anotherOwnHit(own Role, hits []labelHit) bool {
	for _, h := range d.fieldHits {
		if h.role == own && !slices.ContainsFunc(hits, func(o labelHit) bool { return o.start == h.start }) {
			return true
		}
	}
	return false
}

// numberBetween reports a digit between one of hits and its occurrence:
// the label may name another number first ("Rechnung 2026-118 zu Auftrag
// 77812").
func (d *doc) numberBetween(hits []labelHit, at []Span) bool {
	for k, h := range hits {
		if h.end < at[k].Start && slices.ContainsFunc(d.rs[h.end:at[k].Start], isDigit) {
			return true
		}
	}
	return false
}

// names reports whether own label h names the occurrence at sp: sp is the
// first number after h on its line that is not a date.
func (d *doc) names(h labelHit, sp Span) bool {
	first, ok := d.firstNumberAfter(h.end)
	return ok && first.Start <= sp.Start && sp.Start < first.End
}

// hitGrade is how surely own label h names the number after it: its rank,
// and plainly when no word stands before it in its cell.
func (d *doc) hitGrade(h labelHit) ownGrade {
	return ownGrade{d.ownRank(h), !d.wordBeforeInCell(h.start)}
}

// firstNumberAfter is the first token holding a digit after p on p's line
// that is not a date, within a label's reach: a number further on is
// named by something else, and a megabyte line is not scanned per label.
func (d *doc) firstNumberAfter(p int) (Span, bool) {
	_, le := d.lineBounds(d.lineOf(p))
	e := min(le, p+labelReach)
	for p < e {
		for p < e && unicode.IsSpace(d.rs[p]) {
			p++
		}
		q := p
		for q < le && !unicode.IsSpace(d.rs[q]) {
			q++
		}
		if q > p && slices.ContainsFunc(d.rs[p:q], isDigit) {
			// The token without the separators and sign glued to it.
			s, t := p, q
			for s < t && !isAlnum(d.rs[s]) {
				s++
			}
			for t > s && strings.ContainsRune(",;.:)", d.rs[t-1]) {
				t--
			}
			sp := Span{Start: s, End: t}
			if !d.isDateAt(sp) && !signLike(d.rs[s:q]) {
				return sp, true
			}
		}
		p = q
	}
	return Span{}, false
}

// signOnlyGap reports only separators, spaces of any width (a column's), a
// gloss in brackets and number signs or words between a label and its
// value: "Invoice No.: INV-1", "Receipt No.            0118", "Rechnung
// Nummer 118", "Factura (Invoice) N° 118".
func (d *doc) signOnlyGap(a, b int) bool {
	for p := a; p < b; {
		if r := d.rs[p]; r == ' ' || r == ':' {
			p++ // the common gap, screened first
			continue
		}
		switch r := d.rs[p]; {
		case unicode.IsSpace(r) || r < 0x80 && strings.IndexByte(":#.-;|,/\"", byte(r)) >= 0 || strings.ContainsRune("：–º°№", r):
			p++
		case r == '(':
			c := slices.Index(d.rs[p:b], ')')
			if c < 0 || slices.ContainsFunc(d.rs[p:p+c], isDigit) {
				return false
			}
			p += c + 1
		default:
			q := p
			for q < b && !unicode.IsSpace(d.rs[q]) && d.rs[q] != ':' && d.rs[q] != '：' {
				q++
			}
			t := q
			for t > p && d.rs[t-1] == '.' {
				t--
			}
			var buf [24]byte
			w, ok := lowerWord(buf[:0], d.rs[p:t])
			if !ok || !numberSigns[string(w)] && !numberNameWords[string(w)] {
				return false
			}
			p = q
		}
	}
	return true
}

// numberNameWords say "number" between a label and its number ("Rechnung
// Nummer", "Factura Número", "請求書 番号").
var numberNameWords = map[string]bool{"number": true, "nummer": true, "numéro": true, "numero": true, "número": true,
	"numer": true, "nomor": true, "numara": true, "numarası": true, "номер": true, "nro": true, "nummeret": true,
	"numerë": true, "numurs": true, "numeris": true, "αριθμός": true, "番号": true, "编号": true, "號碼": true,
	"号码": true, "번호": true, "số": true, "nombor": true}

// labelReach is how far after a label the number it names may start:
// "Invoice Upload Index: 77123", "FACTURA ELECTRÓNICA DE VENTA No. FE-4471".
const labelReach = 48

// wordBeforeInCell reports a word right before position p in its cell: a
// letter one space before ("Proforma Invoice No.", "Your Invoice"), not a
// title across a gap or a slash ("Rechnung / Invoice No.").
func (d *doc) wordBeforeInCell(p int) bool {
	// A letter before the space is on p's line: a line break is no letter.
	return p >= 2 && d.rs[p-1] == ' ' && unicode.IsLetter(d.rs[p-2]) || p >= 1 && unicode.IsLetter(d.rs[p-1])
}

// namingWords are the words that name the occurrence at sp: the own label
// with the words before it in its cell and between it and sp when it names
// sp ("Proforma Invoice No.", "Invoice Upload Index"), else the words before
// sp ("zu Auftrag").
func (d *doc) namingWords(h labelHit, sp Span, named bool) string {
	ls := d.lineStarts[d.lineOf(sp.Start)]
	if !named {
		p := sp.Start
		for p > ls && d.rs[p-1] == ' ' {
			p--
		}
		return d.cellBefore(ls, p)
	}
	words := d.str(h.start, sp.Start)
	if d.wordBeforeInCell(h.start) {
		words = d.cellBefore(ls, h.start) + " " + words
	}
	return strings.Trim(strings.Join(strings.Fields(words), " "), ":：#")
}

// plainestOwn is the number the document's surest own label names, with the
// label's words and its grade; labels that name one of val's occurrences
// at spans are val's, not another number's. A label names a number only
// directly, as checkLabelled reads it: a sentence ("TAX INVOICE MUST BE
// MADE WITHIN 3 MONTHS") names none. A number two equally sure labels name
// differently is no proof of which is the document's own.
func (d *doc) plainestOwn(own Role, spans []Span) (string, string, ownGrade, bool) {
	var best ownGrade
	var by, tok string
	tied := false
	for _, h := range d.fieldHits {
		if h.role != own || d.qualifiedLoose(h) || slices.ContainsFunc(spans, func(sp Span) bool { return d.names(h, sp) }) {
			continue
		}
		sp, ok := numberAfter(d.rs, h.end)
		if !ok {
			sp, ok = d.tokenBelow(h)
		}
		if !ok || d.isDateAt(sp) || signLike(d.rs[sp.Start:sp.End]) {
			continue
		}
		g, t := d.hitGrade(h), d.str(sp.Start, sp.End)
		switch {
		case g.above(best):
			best, by, tok, tied = g, strings.Join(strings.Fields(h.text), " "), t, false
		case g == best && !relatedNumber(t, tok):
			tied = true
		}
	}
	return by, tok, best, tok != "" && !tied
}

// signLike reports a number sign read with a zero for its letter ("N0.",
// "NO:" as "N0:"): no number, though it holds a digit.
func signLike(tok []rune) bool {
	n := len(tok)
	for n > 0 && strings.ContainsRune(".:#", tok[n-1]) {
		n--
	}
	return n == 2 && unicode.IsLetter(tok[0]) && tok[1] == '0'
}

// relatedNumber reports two forms of one number: the same characters but for
// spaces and hyphens, one a part of the other, or the same digits but for
// leading zeros and the letters and signs around them ("0118" and
// "INV-0000118", "FV/118/11/2026" and "118/11/2026"). A shorter run of
// digits ("42" of "4258244") is another number.
func relatedNumber(a, b string) bool {
	if sameNumber(a, b) || sameNumber(b, a) || hasComponent(a, b) || hasComponent(b, a) {
		return true
	}
	da, db := significantDigits(a), significantDigits(b)
	return da != "" && da == db
}

// significantDigits is s's digits without leading zeros.
func significantDigits(s string) string {
	var buf [32]byte
	out := buf[:0]
	for _, r := range s {
		if r >= '0' && r <= '9' && (len(out) > 0 || r != '0') {
			out = append(out, byte(r))
		}
	}
	return string(out)
}

// unlistedLabel is the label an identifier sits under when no label list
// knows it ("UHID:", "Ordonnance n°", "Tél."), so a reason can say what the
// value is: otherLabelAt's words at its first occurrence that has any.
func (d *doc) unlistedLabel(f Field, spans []Span) string {
	if f.Kind != KindIdentifier {
		return ""
	}
	own := fieldLabelOwner(f.Name)
	for _, sp := range capped(spans) {
		if w := d.otherLabelAt(own, sp); w != "" {
			return w
		}
	}
	return ""
}
