package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// nonInvoiceTitles are titles of documents that are not invoices: a quote,
// a pro-forma, a purchase order, a delivery note, a statement of account.
// Their own number is not an invoice number; the value is kept but flagged
// so a reviewer confirms the record was meant to hold that document's number.
var nonInvoiceTitles = []string{"quotation", "quote", "presupuesto", "cotización", "cotizacion", "orçamento",
	"angebot", "devis", "preventivo", "offerte", "proforma", "pro forma", "purchase order", "orden de compra",
	"bon de commande", "ordine di acquisto", "delivery note", "lieferschein", "bon de livraison", "albarán",
	"albaran", "packing list", "statement of account", "account statement", "kontoauszug", "relevé de compte",
	"estado de cuenta"}

// invoiceTitles are titles that make a document an invoice or receipt even
// when another kind is named beside it ("TAX INVOICE / DELIVERY ORDER").
var invoiceTitles = []string{"invoice", "receipt", "rechnung", "factura", "facture", "fattura", "faktura", "quittung",
	"recibo", "fatura", "bill"}

// titleLines is how many non-empty lines at the top, besides a Subject
// line, carry the document's title.
const titleLines = 3

// maxTitleWords is the most words a title line has.
const maxTitleWords = 6

// nonInvoiceKind is the non-invoice kind the document's title declares, or "".
func (d *doc) nonInvoiceKind() string {
	if !d.mayHoldNonInvoiceTitle() {
		return ""
	}
	return d.nonInvoiceKindKeyed()
}

// nonInvoiceKindKeyed is nonInvoiceKind without the screen: the key of
// every line it reads is built and compared with the titles. The screen is
// tested against it.
func (d *doc) nonInvoiceKindKeyed() string {
	kind, invoice, seen := "", false, 0
	for l := range d.lineStarts {
		if seen >= titleLines && !d.mayHoldSubject(l) {
			continue // below the top, and no "subject" line: skip its key
		}
		key := d.paddedLineKey(l)
		if key == "  " {
			continue
		}
		seen++
		subject := strings.HasPrefix(key, " subject ")
		// A padded key's words are between single spaces.
		if !subject && (seen > titleLines || strings.Count(key, " ")-1 > maxTitleWords) {
			continue // below the top, or a sentence rather than a title
		}
		k, inv := titlesIn(key)
		if kind == "" && k >= 0 {
			kind = nonInvoiceTitles[k]
		}
		invoice = invoice || inv
	}
	if kind == "" || invoice && kind != "proforma" && kind != "pro forma" {
		return ""
	}
	return kind
}

// mayHoldNonInvoiceTitle reports whether a line nonInvoiceKind reads
// for a title holds the first word of a non-invoice title: without one the
// kind is "" whatever invoice titles say. The lines are chosen as
// nonInvoiceKind chooses them, from their word counts, and a line that may
// be a subject line is read whatever its length; no key is built.
func (d *doc) mayHoldNonInvoiceTitle() bool {
	// A subject line holds a j, which most texts hold nowhere: below the
	// top their lines are then not read at all.
	t := d.text()
	j := strings.IndexByte(t, 'j') >= 0 || strings.IndexByte(t, 'J') >= 0
	subject := func(l int) bool { return j && d.mayHoldSubject(l) }
	seen := 0
	for l := range d.lineStarts {
		top := seen < titleLines
		if !top && !j {
			break
		}
		if !top && !subject(l) {
			continue
		}
		ls, le := d.lineBounds(l)
		if !hasKeyWord(d.rs[ls:le]) {
			continue
		}
		seen++
		// The words are counted only for a line that holds a first word.
		if nonInvoiceStems.in(d.str(ls, le)) && (!top || keyWords(d.rs[ls:le]) <= maxTitleWords || subject(l)) {
			return true
		}
	}
	return false
}

// hasKeyWord reports whether keyWords(rs) > 0: whether a rune of rs starts
// a word of its key.
func hasKeyWord(rs []rune) bool {
	for _, r := range rs {
		if r < utf8.RuneSelf {
			if isASCIIWordByte(asciiLower(byte(r))) {
				return true
			}
		} else if wideKeyRune(r) != keyBreak {
			return true
		}
	}
	return false
}

// nonInvoiceStems are the first words of nonInvoiceTitles: a title among
// a line's key words has its first word in the line lowered.
var nonInvoiceStems = func() *stemSet {
	var firsts []string
	for _, t := range nonInvoiceTitles {
		if w, _, _ := strings.Cut(t, " "); !slices.Contains(firsts, w) {
			firsts = append(firsts, w)
		}
	}
	return newStemSet(firsts...)
}()

// keyWords is how many words the LabelKey of runes rs has, counted as
// keyBuilder splits them.
func keyWords(rs []rune) int {
	n, inWord := 0, false
	for _, r := range rs {
		kind := keyBreak
		if r < utf8.RuneSelf {
			if isASCIIWordByte(asciiLower(byte(r))) {
				kind = keyInWord
			}
		} else {
			kind = wideKeyRune(r)
		}
		switch kind {
		case keyInWord:
			if !inWord {
				n++
			}
			inWord = true
		case keyOwnWord:
			n++
			inWord = false
		default:
			inWord = false
		}
	}
	return n
}

// titlesIn reads a padded key's words once: the first of nonInvoiceTitles
// in list order that it holds as whole words (-1 for none), and whether it
// holds one of invoiceTitles. A title starts at a word that is its first
// word, so only the titles that word starts are compared, where comparing
// each title with the whole key was most of the title check.
func titlesIn(key string) (kind int, invoice bool) {
	kind = -1
	for i := 1; i < len(key); {
		j := i + strings.IndexByte(key[i:], ' ')
		w := key[i:j]
		invoice = invoice || invoiceTitleSet[w]
		for _, t := range titlesByFirstWord[w] {
			if p := nonInvoiceTitles[t]; (kind < 0 || t < kind) && strings.HasPrefix(key[i:], p) && key[i+len(p)] == ' ' {
				kind = t
			}
		}
		i = j + 1
	}
	return kind, invoice
}

// titlesByFirstWord lists the indexes in nonInvoiceTitles of the titles
// each word starts, and invoiceTitleSet holds invoiceTitles (one word each).
var titlesByFirstWord, invoiceTitleSet = func() (map[string][]int, map[string]bool) {
	first := map[string][]int{}
	for i, t := range nonInvoiceTitles {
		w, _, _ := strings.Cut(t, " ")
		first[w] = append(first[w], i)
	}
	set := map[string]bool{}
	for _, t := range invoiceTitles {
		set[t] = true
	}
	return first, set
}()

// hasKeyPhrase reports whether key, a LabelKey padded with a space at each
// end, holds phrase as whole words: strings.Contains(key, " "+phrase+" ")
// without building that string for every line and phrase.
func hasKeyPhrase(key, phrase string) bool {
	for from := 0; ; {
		i := strings.Index(key[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		if end := i + len(phrase); i > 0 && key[i-1] == ' ' && end < len(key) && key[end] == ' ' {
			return true
		}
		from = i + 1
	}
}

// mayHoldSubject reports whether line l's key can start with "subject":
// a key's word is a run of letters lower-cased, so the line must hold the
// word in some case. Of the runes beyond ASCII only U+0130 and the Kelvin
// sign lower to ASCII letters (i and k), none of the word's: such a rune
// breaks the word like punctuation does, and a line in another script is
// not keyed only to learn that.
func (d *doc) mayHoldSubject(l int) bool {
	ls, le := d.lineBounds(l)
	// Most lines hold no j in either case, which the word needs: one
	// test a rune passes them.
	j := false
	for _, r := range d.rs[ls:le] {
		j = j || r|0x20 == 'j'
	}
	if !j {
		return false
	}
	const word = "subject"
	matched := 0
	for _, r := range d.rs[ls:le] {
		if r >= 0x80 {
			matched = 0
			continue
		}
		if c := byte(r) | 0x20; c == word[matched] {
			if matched++; matched == len(word) {
				return true
			}
		} else if c == word[0] {
			matched = 1
		} else {
			matched = 0
		}
	}
	return false
}

// paddedLineKey is line l in LabelKey form with a space at each end, the
// form hasKeyPhrase reads, written from the line's runes into one string.
func (d *doc) paddedLineKey(l int) string {
	ls, le := d.lineBounds(l)
	var k keyBuilder
	k.b.Grow(le - ls + 2)
	k.b.WriteByte(' ')
	for _, r := range d.rs[ls:le] {
		k.add(r)
	}
	k.b.WriteByte(' ')
	return k.b.String()
}

// checkNonInvoiceNumber flags an invoice number taken from a document whose
// title says it is not an invoice.
func (d *doc) checkNonInvoiceNumber(c *FieldCheck, f Field, val string) {
	if f.Kind != KindIdentifier || !slices.Contains(f.Labels, "invoice number") {
		return
	}
	if kind := d.nonInvoiceKind(); kind != "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("the document is a %s, not an invoice: %s is no invoice number (keep it only if the record is meant to hold the %s's own number)", kind, val, kind))
	}
}
