package pipeline

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// invoiceWords name an invoice (or a credit note's or correction's invoice)
// in the cases a line naming another one prints them: "previous invoice",
// "Rechnung Nr. … noch offen", "korekta do faktury", "к счёт-фактуре".
var invoiceWords = map[string]bool{
	"invoice": true, "inv": true, "rechnung": true, "factura": true, "facture": true, "fattura": true,
	"faktura": true, "faktury": true, "fakturze": true, "fatura": true, "factuur": true, "счёт": true, "счет": true,
	"счёту": true, "счету": true, "фактуре": true, "фактуры": true, "рахунок": true, "рахунку": true, "τιμολόγιο": true,
	"τιμολογίου": true, "račun": true, "računa": true, "lasku": true, "laskun": true,
}

// otherInvoiceQualifiers, printed near an invoice word before a number on
// its line, make it another invoice than the one in hand: an earlier or
// unpaid one, an advance (deposit, prepayment) one a final invoice deducts,
// the one a credit note or correction credits or corrects.
var otherInvoiceQualifiers = map[string]bool{
	"previous": true, "prior": true, "last": true, "earlier": true, "preceding": true, "arrears": true,
	"advance": true, "deposit": true, "prepayment": true, "down-payment": true, "interim": true, "progress": true,
	"original": true, "credited": true, "corrected": true, "cancelled": true, "canceled": true, "ref": true,
	"vorherige": true, "vorige": true, "letzte": true, "frühere": true, "anzahlung": true, "vorauszahlung": true,
	"abschlag": true, "ursprüngliche": true, "gutschrift": true, "storno": true, "korrektur": true,
	"anterior": true, "anticipo": true, "rectificada": true, "abono": true, "crédito": true, "credito": true,
	"précédente": true, "precedente": true, "acompte": true, "avoir": true, "initiale": true, "d'acompte": true,
	"acconto": true, "zaliczkowa": true, "zaliczkowej": true, "poprzednia": true, "poprzedniej": true,
	"korekta": true, "korygowanej": true, "pierwotnej": true, "voorschot": true, "aanbetaling": true,
	"adiantamento": true, "предыдущий": true, "предыдущему": true, "авансовый": true, "авансовому": true,
	"корректировка": true, "коригування": true, "попередній": true, "avans": true, "predujam": true,
	"ennakkolasku": true, "hyvitys": true,
}

// otherInvoiceWords name such another invoice in one word.
var otherInvoiceWords = map[string]bool{
	"anzahlungsrechnung": true, "abschlagsrechnung": true, "vorauszahlungsrechnung": true, "teilrechnung": true,
	"voorschotfactuur": true, "ennakkolasku": true,
}

// invoiceWordClass says of each of invoiceWords and otherInvoiceWords
// which it is: a line's words are looked up once for both.
var invoiceWordClass = func() map[string]uint8 {
	m := map[string]uint8{}
	for w := range invoiceWords {
		m[w] |= invoiceWord
	}
	for w := range otherInvoiceWords {
		m[w] |= otherInvoiceWord
	}
	return m
}()

const (
	invoiceWord = 1 << iota
	otherInvoiceWord
)

// unpaidWords after a number on an invoice line say that invoice is still
// open: an earlier one a reminder or the next invoice carries forward.
var unpaidWords = map[string]bool{
	"unpaid": true, "outstanding": true, "overdue": true, "offen": true, "unbezahlt": true, "pendiente": true,
	"impagada": true, "impayée": true, "impayee": true, "insoluta": true, "nieopłacona": true, "niezapłacona": true,
}

// isLineWordRune reports a rune the line's words keep: letters, digits,
// apostrophes and hyphens.
func isLineWordRune(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r]&classAlnum != 0 || r == '\'' || r == '-'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '’'
}

// lowerLineWords appends rs to buf lowered as strings.ToLower(string(rs))
// lowers it, and to ws the spans in buf of its words: the runs of
// isLineWordRune runes. The phrase check reads a line's words from it
// without a string per line or per word.
func lowerLineWords(rs []rune, buf []byte, ws []wordSpan) ([]byte, []wordSpan) {
	start := -1
	for _, r := range rs {
		if uint32(r) < utf8.RuneSelf {
			if uint32(r)-'A' < 26 {
				r += 'a' - 'A'
			}
		} else {
			if !utf8.ValidRune(r) {
				r = utf8.RuneError // as string(rs) writes it
			}
			r = unicode.ToLower(r)
		}
		if isLineWordRune(r) {
			if start < 0 {
				start = len(buf)
			}
		} else if start >= 0 {
			ws = append(ws, wordSpan{start, len(buf)})
			start = -1
		}
		buf = utf8.AppendRune(buf, r)
	}
	if start >= 0 {
		ws = append(ws, wordSpan{start, len(buf)})
	}
	return buf, ws
}

// otherInvoicePhrase is the words before sp on its line when they name
// another invoice by a qualifier ("Previous invoice", "less advance
// invoice", "facture d'acompte n°", "Korekta do faktury"), or when an
// invoice number is said after it to be unpaid ("Rechnung Nr. … noch
// offen"); empty otherwise.
func (d *doc) otherInvoicePhrase(sp Span) string {
	ln := d.lineOf(sp.Start)
	le := len(d.rs)
	if ln+1 < len(d.lineStarts) {
		le = d.lineStarts[ln+1]
	}
	return otherInvoicePhraseIn(d.rs, d.lineStarts[ln], sp, le)
}

// otherInvoicePhraseIn is otherInvoicePhrase for sp on the line [ls, le)
// of rs. The words are lowered into buffers on the stack, and the phrase
// is built only when it is returned: most lines before a number name no
// other invoice.
func otherInvoicePhraseIn(rs []rune, ls int, sp Span, le int) string {
	var bb [256]byte
	var wb [32]wordSpan
	buf, ws := lowerLineWords(rs[ls:sp.Start], bb[:0], wb[:0])
	phrase := func() string { return strings.TrimSpace(string(rs[ls:sp.Start])) }
	for i, w := range ws {
		inv := false
		for p := w.a; ; {
			q := w.b
			if k := bytes.IndexByte(buf[p:w.b], '-'); k >= 0 {
				q = p + k
			}
			c := invoiceWordClass[string(buf[p:q])]
			if c&otherInvoiceWord != 0 {
				return phrase()
			}
			inv = inv || c&invoiceWord != 0
			if q == w.b {
				break
			}
			p = q + 1
		}
		if !inv {
			continue
		}
		for j := max(0, i-3); j < len(ws) && j <= i+3; j++ {
			if j != i && otherInvoiceQualifiers[string(buf[ws[j].a:ws[j].b])] {
				return phrase()
			}
		}
		if sp.End >= le {
			continue // a value read across lines
		}
		var ab [128]byte
		var aw [16]wordSpan
		after, aws := lowerLineWords(rs[sp.End:le], ab[:0], aw[:0])
		for _, a := range aws {
			if unpaidWords[string(after[a.a:a.b])] {
				return phrase()
			}
		}
	}
	return ""
}

// otherNumberAfter is the number label h introduces on its own line, and
// its span, when it is neither val nor holds val as a component: another
// number the document gives the label's field.
func (d *doc) otherNumberAfter(h labelHit, val string) (Span, string, bool) {
	sp, ok := numberAfter(d.rs, h.end)
	if !ok || d.lineOf(sp.Start) != d.lineOf(h.start) {
		return Span{}, "", false
	}
	t := string(d.rs[sp.Start:sp.End])
	if sameNumber(t, val) || hasComponent(t, val) {
		return Span{}, "", false
	}
	return sp, t, true
}

// otherInvoiceOnly is the phrase that names every occurrence of an
// identifier as another invoice's, when the document labels a different
// number with the field's own labels on a line that names no other
// invoice: without that, "Original invoice No. 1187" may be the copy's mark
// over the document's own number.
func (d *doc) otherInvoiceOnly(f Field, spans []Span, val string) string {
	var phrase string
	for _, sp := range spans {
		if h, ok := d.labelBefore(sp.Start); ok && h.role == builtinLabelOwner && referenceSet[h.key] {
			return "" // a reference label names it: checkLabelled says so, with the document's number
		}
		p := d.otherInvoicePhrase(sp)
		if p == "" {
			return ""
		}
		if phrase == "" {
			phrase = p
		}
	}
	own := fieldLabelOwner(f.Name)
	for _, h := range d.fieldHits {
		if h.role != own {
			continue
		}
		if sp, _, ok := d.otherNumberAfter(h, val); ok && d.otherInvoicePhrase(sp) == "" {
			return phrase
		}
	}
	return ""
}

// penalizeOtherInvoice flags an identifier printed only as another
// invoice's number. The reason quotes the phrase, not the document's own
// number: the phrase is the proof.
func (c *FieldCheck) penalizeOtherInvoice(f Field, val, phrase string) {
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed after %q, another invoice's number, not this document's %s",
		val, phrase, f.Words()))
}
