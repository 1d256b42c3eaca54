package pipeline

import (
	"slices"
	"strings"
	"unicode"
)

// Third parties a document names with no customer label: the bank that
// issued the card a slip was paid with ("Issuer: …" beside VISA and the
// approval code), and a payer whose share is an amount line of its own
// (the public insurer's line on a pharmacy receipt).

// cardWords mark the lines of a card payment: the schemes, the word card
// in several languages, the terminal's own fields.
var cardWords = map[string]bool{"visa": true, "mastercard": true, "maestro": true, "amex": true, "card": true,
	"carte": true, "karte": true, "tarjeta": true, "cartão": true, "cartao": true, "carta": true, "kort": true,
	"kortti": true, "contactless": true, "aid": true, "auth": true, "approval": true, "pan": true, "girocard": true,
	"cb": true, "emv": true, "debit": true}

// cardIssuerLabels are the issuer labels that, on a card slip, name the
// bank that issued the card: the merchant is not its "issuer".
var cardIssuerLabels = tokenizeLabels([]string{"issuer", "emisor", "émetteur", "emetteur", "emittente", "emissor",
	"herausgeber", "issued by", "card issued by", "emitido por", "emitida por", "émis par", "émise par",
	"ausgegeben von", "emessa da"})

// nearCardLine reports whether line li or one of the three lines around it
// holds a card word: the line belongs to a card slip.
func (d *doc) nearCardLine(li int) bool {
	for k := max(li-3, 0); k < len(d.lineStarts) && k <= li+3; k++ {
		ls, le := d.lineBounds(k)
		if line := d.str(ls, le); isASCII(line) {
			// An ASCII line's words are read in place, as LabelTokens
			// cuts them (asciiWords), without building them.
			var buf [24]Span
			for _, w := range asciiWords(line, buf[:0]) {
				if card, _ := lookupLower(cardWords, nil, line[w.Start:w.End]); card {
					return true
				}
			}
		} else if cardWordIn(line) {
			return true
		}
	}
	return false
}

// cardWordIn reports a card word among the words of a line beyond ASCII.
func cardWordIn(line string) bool {
	var b wordBufs
	if lw, ok := b.words(line); ok {
		return anyWordIn(lw, cardWords)
	}
	return slices.ContainsFunc(LabelTokens(line), func(w string) bool { return cardWords[w] })
}

// cardIssuerLabel is "card issuer" when the words before a name on line li
// end in an issuer label ("Issuer:", "EMISOR") on a card slip, else "".
func (d *doc) cardIssuerLabel(li int, before string) string {
	if strings.TrimSpace(before) == "" {
		return "" // no words (a name that opens its line): no label to end them
	}
	if isASCII(before) {
		// Every card issuer label's last word is a word of its own: a
		// text whose last word ends none is not read further.
		var buf [24]Span
		ws := asciiWords(before, buf[:0])
		if len(ws) == 0 {
			return ""
		}
		if _, ok := lookupLower(cardIssuerLast, nil, before[ws[len(ws)-1].Start:ws[len(ws)-1].End]); !ok {
			return ""
		}
	}
	toks := LabelTokens(before)
	for _, l := range cardIssuerLabels {
		if len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) && d.nearCardLine(li) {
			return "card issuer"
		}
	}
	return ""
}

// cardIssuerLast holds the last word of each card issuer label.
var cardIssuerLast = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range cardIssuerLabels {
		m[l[len(l)-1]] = true
	}
	return m
}()

// cardIssuerLine reports an issuer label on a card slip's line: label is
// the issuer label afterIssuerLabel read at the start of line li.
func (d *doc) cardIssuerLine(li int, label string) bool {
	return slices.Contains(cardIssuerKeys, label) && d.nearCardLine(li)
}

// cardIssuerKeys are cardIssuerLabels' words joined by a space, as
// afterIssuerLabel gives a label: joined once, not on every issuer line.
var cardIssuerKeys = func() []string {
	keys := make([]string, len(cardIssuerLabels))
	for i, l := range cardIssuerLabels {
		keys[i] = strings.Join(l, " ")
	}
	return keys
}()

// amountLineParty is what otherPartyAt returns for a name that opens a line
// holding nothing else but an amount.
const amountLineParty = "\x00amount line"

// amountLineName reports a name at the start of line li (from ls) that the
// line gives nothing after but one amount with cents ("ΕΟΠΥΥ   30,00",
// "Visa 48.50"): a payer's share or a payment, not a letterhead.
func (d *doc) amountLineName(li, ls int, sp Span) bool {
	if strings.TrimSpace(d.str(ls, sp.Start)) != "" {
		return false
	}
	_, le := d.lineBounds(li)
	for _, a := range d.amounts {
		if a.Line != li || a.Start < sp.End {
			continue
		}
		gap := strings.TrimFunc(d.str(sp.End, a.Start), func(r rune) bool { return unicode.IsSpace(r) || r == ':' })
		rest := strings.TrimSpace(d.str(a.End, le))
		return centsForm(a.Raw) && (gap == "" || isAmountMarker(gap)) && (rest == "" || isAmountMarker(rest))
	}
	return false
}
