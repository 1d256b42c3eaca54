package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A document points to one printed date as its own: the date under its own
// date label ("Date:", "Fecha:", "Дата:", "日付"), the date beside its title
// or number in the head ("Facture n° F-0412 du 05/11/2026", "RECHNUNG Nr.
// 118 vom 03.11.2026"), a date after its place or alone on its line, or a
// receipt's transaction timestamp. Every other printed date belongs to
// what is printed before it: "Return by", "Vertragsbeginn", "Date de
// retour", "Pick-up", "Warranty valid until", "renews on", "delivered to
// your store on". The rule below is that positive form: a value printed
// only where the document points to no date of its own, while it points to
// another, is flagged with the words that name it, whatever their language
// (no list of the other dates' labels is needed).

// dateHeadLines are the lines of a document's head: its title, its issuer and
// the date it bears, before its items.
const dateHeadLines = 6

// maxPointedDates bounds the dates weighed against the value: a document
// of thousands of dates (a statement's rows) costs no more than a page.
const maxPointedDates = 64

// datePoint is how surely the document points to a printed date as its
// own, weakest first.
type datePoint uint8

const (
	pointNone  datePoint = iota
	pointAlone           // alone on its line, no label
	pointStamp           // opening its line with its time: a receipt's transaction moment
	pointHead            // beside the document's title or number, or after its place
	pointLabel           // under the document's own date label
)

func (p datePoint) String() string {
	switch p {
	case pointAlone:
		return "printed alone on its line"
	case pointStamp:
		return "the transaction's timestamp"
	case pointHead:
		return "in the document's head (beside its title or number, or after its place)"
	case pointLabel:
		return "under the document's own date label"
	}
	return ""
}

// idOwners are the roles of the schema's identifier fields' labels: a
// line that opens with one is the document's title line ("Invoice No.").
func idOwners(out []Role, s *Schema) []Role {
	for _, f := range s.Fields {
		if f.Kind == KindIdentifier && len(f.Labels) > 0 {
			out = append(out, fieldLabelOwner(f.Name))
		}
	}
	return out
}

// pointOf is how the document points to m as its own date, with own the
// date field's label role and ids the identifier fields' label roles.
func (d *doc) pointOf(i int, own Role, ids []Role) datePoint {
	m := d.dates[i]
	// m is the first date after a label h on its line when the date before
	// it starts before h ends: the dates are in text order.
	firstAfter := func(h labelHit) bool { return i == 0 || d.dates[i-1].Start < h.end }
	sp := Span{Start: m.Start, End: m.End}
	li := d.lineOf(m.Start)
	ls, le := d.lineBounds(li)
	h, ok := d.labelBefore(m.Start)
	if ok && h.end <= m.Start {
		switch {
		case h.role == own:
			if d.ownLabelNames(h, m) && d.gluedQualifier(h) == "" && d.datesItself(h, ids) && firstAfter(h) {
				return pointLabel
			}
			return pointNone
		case slices.Contains(ids, h.role) && li < dateHeadLines && d.opensLine(ls, h.start) && d.numberThenDate(h, m):
			return pointHead
		}
	}
	if slices.ContainsFunc(d.rs[ls:m.Start], isLetter) {
		if d.anchoredDate(m) {
			return pointHead
		}
		return pointNone
	}
	if a, above := d.labelAbove(sp); above {
		if a.role == own && d.gluedQualifier(a) == "" && !slices.ContainsFunc(d.rs[min(m.End, le):le], isDigit) {
			return pointLabel // a heading over a date alone, not over an item line's
		}
		return pointNone
	}
	if d.anchoredDate(m) {
		return pointHead
	}
	rest := strings.TrimSpace(d.str(min(m.End, le), le))
	if rest == "" || rest == "." {
		if li < dateHeadLines {
			return pointHead // under the title and the issuer, before any item
		}
		return pointAlone
	}
	if d.timeNear(m) {
		return pointStamp
	}
	return pointNone
}

// titleNumberWords join a document's number to its date in its title line:
// "Facture n° F-0412 du 05/11/2026", "RECHNUNG Nr. 118 vom 03.11.2026",
// "Fattura n. 118 del 04/11/2026", "Invoice 4471 of 12 Nov 2026".
var titleNumberWords = map[string]bool{"du": true, "vom": true, "del": true, "de": true, "of": true, "dated": true,
	"from": true, "от": true, "від": true, "z": true, "dnia": true, "ze": true, "dne": true, "dd": true, "d": true}

// numberThenDate reports the document's title label h followed on its line
// by its number and then m: nothing but one token with digits, joining
// words and punctuation stand between them.
func (d *doc) numberThenDate(h labelHit, m DateMatch) bool {
	if m.Start-h.end > 40 {
		return false
	}
	numbers := 0
	gap := d.str(h.end, m.Start)
	for len(gap) > 0 {
		gap = strings.TrimLeft(gap, " \t")
		k := strings.IndexAny(gap, " \t")
		if k < 0 {
			k = len(gap)
		}
		w := strings.Trim(gap[:k], ":：#.,;()·—–-|/")
		gap = gap[k:]
		switch {
		case w == "" || wordIn(titleNumberWords, w):
		case strings.ContainsFunc(w, unicode.IsDigit):
			numbers++
		default:
			return false
		}
	}
	return numbers == 1
}

// opensLine reports that nothing but punctuation and words that still
// name the document ("TAX INVOICE", "Sales receipt") stands before p on
// its line, which starts at ls.
func (d *doc) opensLine(ls, p int) bool {
	return eachLetterWord(d.str(ls, p), func(w string) bool { return wordIn(issueQualifiers, w) })
}

// weekdayWords may stand between a date label and its date ("Date: Mon
// 12/11/2026", "Datum: Montag, 14.11.2026") besides the words that lead a
// date after a place (placeDatedWords).
var weekdayWords = map[string]bool{"mon": true, "tue": true, "tues": true, "wed": true, "thu": true, "thur": true,
	"thurs": true, "fri": true, "sat": true, "sun": true, "monday": true, "tuesday": true, "wednesday": true,
	"thursday": true, "friday": true, "saturday": true, "sunday": true, "the": true, "montag": true, "dienstag": true,
	"mittwoch": true, "donnerstag": true, "freitag": true, "samstag": true, "sonntag": true, "lundi": true,
	"mardi": true, "mercredi": true, "jeudi": true, "vendredi": true, "samedi": true, "dimanche": true, "lunes": true,
	"martes": true, "miércoles": true, "jueves": true, "viernes": true, "sábado": true, "domingo": true}

// ownLabelNames reports that own label h names m itself: nothing but
// punctuation, a weekday or a leading word stands between them. "Date de
// retour : 19/11/2026", "Дата возврата:", "Data de devolução:" carry the
// bare own word "date" and a word that makes it another date's label.
func (d *doc) ownLabelNames(h labelHit, m DateMatch) bool {
	if m.Start-h.end > 32 {
		return false
	}
	gap := d.str(h.end, m.Start)
	return !strings.ContainsRune(gap, '\n') && eachLetterWord(gap, func(w string) bool {
		return wordIn(weekdayWords, w) || wordIn(placeDatedWords, w)
	})
}

// gluedQualifier is a word glued before own label h on its line that makes
// it another date's: "Inspection date", "E-Way Bill Date", "Original
// invoice date". Words that still name the document's own date ("Tax
// invoice date", "Sales date") are skipped; "" when none.
func (d *doc) gluedQualifier(h labelHit) string {
	if !bareDateLabels[h.key] {
		return ""
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	p := h.start
	for words := 0; words < 3; words++ {
		if p-1 <= ls || d.rs[p-1] != ' ' && d.rs[p-1] != '-' {
			return ""
		}
		e := p - 1
		k := e
		for k > ls && (isLetter(d.rs[k-1]) || d.rs[k-1] == '\'' || d.rs[k-1] == '-' || d.rs[k-1] == '.') {
			k--
		}
		w := strings.Trim(strings.ToLower(string(d.rs[k:e])), "-.")
		if w == "" || k > ls && !unicode.IsSpace(d.rs[k-1]) {
			return ""
		}
		if !issueQualifiers[w] {
			return string(d.rs[k:e])
		}
		p = k
	}
	return ""
}

// datesItself reports an own label that dates the document, not another
// thing the line names before it: a dating word ("dated", "vom", "от")
// after words on its line dates what they name unless the line opens with
// the document's own number ("Invoice 4471 dated", "Счёт № 118 от");
// "quote Q-0877 dated", "Contract 55 dated" date the quote and the contract.
func (d *doc) datesItself(h labelHit, ids []Role) bool {
	if !datedWords[h.key] {
		return true
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	if !slices.ContainsFunc(d.rs[ls:h.start], isLetter) {
		return true
	}
	for _, o := range d.fieldHits {
		if o.start >= ls && o.end <= h.start {
			return slices.Contains(ids, o.role) && !slices.ContainsFunc(d.rs[ls:o.start], isLetter)
		}
	}
	return false
}

// valuePoint is the strongest pointing of a printing that reads as iso.
func (d *doc) valuePoint(iso string, own Role, ids []Role) datePoint {
	mine := pointNone
	for i, m := range d.dates {
		if readsAs(m.ISO, iso) {
			if mine = max(mine, d.pointOf(i, own, ids)); mine == pointLabel {
				break
			}
		}
	}
	return mine
}

// otherPoint is the strongest pointing of a printing that does not read as
// iso, outside a quoted earlier message, and that printing.
func (d *doc) otherPoint(iso string, own Role, ids []Role) (other datePoint, om DateMatch) {
	q := d.quotedFrom()
	for i, m := range d.dates {
		if i >= maxPointedDates {
			break // a table of dates: its first rows hold the head's
		}
		if readsAs(m.ISO, iso) || q >= 0 && m.Start >= q {
			continue // a quoted message's date is its own
		}
		if p := d.pointOf(i, own, ids); p > other {
			if other, om = p, m; p == pointLabel {
				break
			}
		}
	}
	return other, om
}

// checkLabelledOrOwn is checkLabelled, but for the document's own date
// (RoleDocumentDate) the date the document points to decides first: the
// value it points to most surely is not checked against the labels, which
// take a "Date de retour" or a "quote … dated" for the field's own; a
// value printed only where the document points to no date of its own, or
// less surely than to another, is flagged with the words that name it
// when the label checks found nothing to say.
func (d *doc) checkLabelledOrOwn(c *FieldCheck, f Field, s *Schema, val string) {
	d.checkLabelled(c, f, val)
	if f.Role != RoleDocumentDate {
		return
	}
	if !d.anotherDate(val) {
		return // most receipts print one date: nothing to weigh the value against
	}
	own := fieldLabelOwner(f.Name)
	var buf [4]Role
	ids := idOwners(buf[:0], s)
	mine := d.valuePoint(val, own, ids)
	if mine == pointLabel {
		return // most documents: the value under the date label, nothing points more surely
	}
	other, om := d.otherPoint(val, own, ids)
	if other == pointNone && c.Factor == 1 || mine >= other && mine > pointNone {
		return
	}
	if other < pointHead && c.Factor == 1 {
		return // a date alone or a timestamp is no proof against a labelled value
	}
	for _, m := range d.dates {
		if !readsAs(m.ISO, val) {
			continue
		}
		by := d.namedBy(m)
		if c.Factor == 1 {
			shown := om.Raw
			if len(om.ISO) == 1 && !buddhistEra(om.ISO[0]) {
				shown = om.ISO[0]
			}
			c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed %s, not where the document dates itself; the document's %s (%s) is %s",
				val, by, f.Words(), other, shown))
			return
		}
		// Flagged already: the reviewer is told what names the value
		// where the reason does not say it.
		if w := strings.Trim(strings.TrimPrefix(strings.TrimPrefix(by, "after "), "under "), "\""); !strings.HasPrefix(by, "on line") && !strings.Contains(strings.Join(c.Reasons, " "), w) {
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s is printed %s", val, by))
		}
		return
	}
}

// namedBy says what names printing m: the words before it on its line
// ("after \"Return by\"", "in \"… may be returned by\""), the label over
// it, or its line.
func (d *doc) namedBy(m DateMatch) string {
	li := d.lineOf(m.Start)
	ls, _ := d.lineBounds(li)
	end := m.Start
	for {
		seg := d.str(ls, end)
		// Back to the previous date or a wide gap: the words that name m.
		from := 0
		for _, o := range d.dates {
			if o.End <= end && o.Start >= ls {
				from = len(d.str(ls, o.End))
			}
		}
		if k := strings.LastIndex(seg[from:], "   "); k >= 0 {
			from += k
		}
		words := strings.TrimFunc(seg[from:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if words != "" && !rangeWords[strings.ToLower(words)] {
			if f := strings.Fields(words); len(f) > 6 {
				words = "… " + strings.Join(f[len(f)-6:], " ")
			}
			return fmt.Sprintf("after %q", words)
		}
		// "01.10.2026 – 31.10.2026": the words before the period's start.
		prev := -1
		for _, o := range d.dates {
			if o.End <= end && o.Start >= ls {
				prev = o.Start
			}
		}
		if prev < 0 {
			break
		}
		end = prev
	}
	if a, ok := d.labelAbove(Span{Start: m.Start, End: m.End}); ok {
		return fmt.Sprintf("under %q", strings.TrimSpace(a.text))
	}
	return fmt.Sprintf("on line %d with no label", li+1)
}

// eachLetterWord calls fn with each run of letters in s and reports whether
// every call returned true; it stops at the first false.
func eachLetterWord(s string, fn func(string) bool) bool {
	start := -1
	for i, r := range s {
		switch {
		case isLetter(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			if !fn(s[start:i]) {
				return false
			}
			start = -1
		}
	}
	return start < 0 || fn(s[start:])
}

// wordIn reports w, lowered, in set: lowered on the stack when it is short
// ASCII, as most label words are.
func wordIn(set map[string]bool, w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return set[strings.ToLower(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return set[strings.ToLower(w)]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return set[string(buf[:len(w)])]
}

// anotherDate reports a printed date that does not read as iso.
func (d *doc) anotherDate(iso string) bool {
	for _, m := range d.dates {
		if !readsAs(m.ISO, iso) {
			return true
		}
	}
	return false
}
