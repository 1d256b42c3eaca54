package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// dayFirstCurrencies are currencies whose countries all write numeric dates
// day first. "$" and "¥" are shared and say nothing; USD and CAD are left out
// (month first, or both).
var dayFirstCurrencies = map[string]bool{"EUR": true, "GBP": true, "AUD": true, "NZD": true, "MYR": true,
	"SGD": true, "INR": true, "BRL": true, "MXN": true, "CHF": true, "NOK": true, "DKK": true, "PLN": true,
	"CZK": true, "HUF": true, "TRY": true, "IDR": true, "HKD": true, "ZAR": true, "ARS": true, "CLP": true, "COP": true,
	"KES": true, "EGP": true, "NGN": true, "THB": true, "VND": true, "ILS": true, "AED": true, "SAR": true, "PKR": true,
	"GHS": true, "TZS": true, "UGX": true, "MAD": true, "PEN": true, "UYU": true, "RON": true, "BGN": true, "RUB": true}

// australianStates are state abbreviations that, followed by a four-digit
// postcode, place a document in Australia (day first). WA, SA and NT are
// too common as plain words to count.
var australianStates = []string{"nsw", "vic", "qld", "tas", "act"}

// usStates are US state codes that, in capitals before a five-digit ZIP
// code, place a document in the US (month first). DE is left out: it is
// Germany's country code before a postcode too.
var usStates = []string{"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
	"KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH",
	"OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC"}

// localeOrder is the day/month convention the document's locale implies
// when no printed date settles it: the currency of its amounts, else the
// issuer's legal form or country, or an Australian address. OrderUnknown when nothing says.
func (d *doc) localeOrder() (DateOrder, localeWhy) {
	l := d.facts.locale.get(func() (l localeFact) {
		l.order, l.why = d.documentLocale()
		return l
	})
	if l.order != OrderUnknown {
		return l.order, l.why
	}
	if _, _, _, ok := d.amountCurrency(); !ok && dayFirstCurrencies[d.recordCurrency] {
		// The document says nothing; the record's currency is the claim the
		// date has to agree with (a wrong currency is flagged on its own).
		return OrderDMY, localeWhy{form: whyRecordCurrency, a: d.recordCurrency}
	}
	return OrderUnknown, localeWhy{}
}

// localeWhy is the reason localeOrder gives, written out only when a date
// is flagged: most documents whose order the locale settles agree with it,
// and formatting the reason for each was an allocation a receipt.
type localeWhy struct {
	form whyForm
	a, b string
}

type whyForm uint8

const (
	whyNone           whyForm = iota
	whyText                   // a is the reason
	whyAmounts                // amounts in marker a (code b)
	whyIssuerHint             // the issuer's hint a
	whyIssuerPlace            // issuer number hint a
	whyRecordCurrency         // the record's currency a
)

func (w localeWhy) String() string {
	switch w.form {
	case whyText:
		return w.a
	case whyAmounts:
		return fmt.Sprintf("amounts in %s (%s) are written where dates are day-first", w.a, w.b)
	case whyIssuerHint:
		return fmt.Sprintf("the issuer's %q places it where dates are day-first", w.a)
	case whyIssuerPlace:
		return fmt.Sprintf("%s places the issuer where dates are day-first", w.a)
	case whyRecordCurrency:
		return fmt.Sprintf("the record's currency %s is used where dates are day-first", w.a)
	}
	return ""
}

// documentLocale is what the document itself says of its locale's
// day/month convention, the record aside.
func (d *doc) documentLocale() (DateOrder, localeWhy) {
	if code, marker, _, ok := d.amountCurrency(); ok && dayFirstCurrencies[code] {
		return OrderDMY, localeWhy{form: whyAmounts, a: marker, b: code}
	}
	// An ASCII text holds no digit of another script: it is not scanned.
	if !d.ascii && strings.ContainsFunc(d.facts.src, isArabicIndicDigit) {
		// Egypt, the Gulf and the Levant write day first; Iran writes its
		// dates year first, which no order needs to settle.
		return OrderDMY, localeWhy{form: whyText, a: "its numbers are written in Arabic-Indic digits, as where dates are day-first"}
	}
	if !d.ascii && strings.ContainsFunc(d.facts.src, isDayFirstScriptDigit) {
		return OrderDMY, localeWhy{form: whyText, a: "its numbers are written in the digits of a South or Southeast Asian script, as where dates are day-first"}
	}
	if order, why, ok := d.addressOrder(); ok {
		return order, localeWhy{form: whyText, a: why}
	}
	if _, _, _, ok := d.amountCurrency(); !ok {
		// No currency printed: the issuer's legal form or country places the
		// document as surely ("SDN BHD", "Deutschland"), or its printed
		// numbers do (a GST number's format, a telephone country code).
		if implied, hint, _ := d.countryCurrency(); dayFirstCurrencies[implied] {
			return OrderDMY, localeWhy{form: whyIssuerHint, a: hint}
		}
		if _, dayFirst, hint, _, ok := d.issuerPlace(false); ok && dayFirst {
			return OrderDMY, localeWhy{form: whyIssuerPlace, a: hint}
		}
	}
	return OrderUnknown, localeWhy{}
}

// addressOrder is the order an address implies: an Australian state and
// its four-digit postcode anywhere (day first), else a US state code and
// its five-digit ZIP code (month first), each the word (as labelTokens
// cuts words) right before a word of four or five ASCII digits. It looks
// only at the digit words and the word before each.
func (d *doc) addressOrder() (DateOrder, string, bool) {
	rs := d.rs
	aus, us := Span{Start: -1}, Span{Start: -1}
	for i := 0; i < len(rs); {
		if rs[i] < '0' || rs[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
			j++
		}
		start, n := i, j-i
		if i = j; n != 4 && n != 5 || start > 0 && wordRune(rs[start-1]) || j < len(rs) && wordRune(rs[j]) {
			continue // not a word of four or five digits alone
		}
		prev, ok := tokenBefore(rs, start)
		switch {
		case !ok:
		case n == 4 && aus.Start < 0 && d.australianState(prev):
			aus = Span{Start: prev.Start, End: j}
		case n == 5 && us.Start < 0 && prev.End-prev.Start == 2 && slices.Contains(usStates, string(rs[prev.Start:prev.End])):
			us = Span{Start: prev.Start, End: j}
		}
	}
	if aus.Start >= 0 {
		return OrderDMY, fmt.Sprintf("the Australian address %q is day-first", d.str(aus.Start, aus.End)), true
	}
	if us.Start >= 0 {
		return OrderMDY, fmt.Sprintf("the US address %q is month-first", d.str(us.Start, us.End)), true
	}
	return OrderUnknown, "", false
}

// wordRune is a rune labelTokens joins into a word with its neighbours; a
// Chinese or Japanese character is a word of its own.
func wordRune(r rune) bool {
	return !isCJK(r) && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&')
}

// tokenBefore is the word labelTokens cuts right before offset p, which
// starts a word.
func tokenBefore(rs []rune, p int) (Span, bool) {
	k := p
	for k > 0 && !wordRune(rs[k-1]) && !isCJK(rs[k-1]) {
		k--
	}
	switch {
	case k == 0:
		return Span{}, false
	case isCJK(rs[k-1]):
		return Span{Start: k - 1, End: k}, true
	}
	s := k
	for s > 0 && wordRune(rs[s-1]) {
		s--
	}
	return Span{Start: s, End: k}, true
}

// australianState reports a token that is an Australian state's
// abbreviation written in capitals ("NSW", not "nsw" or "Vic").
func (d *doc) australianState(tok Span) bool {
	w := d.rs[tok.Start:tok.End]
	if len(w) != 3 {
		return false
	}
	for _, st := range australianStates {
		if unicode.ToLower(w[0]) == rune(st[0]) && unicode.ToLower(w[1]) == rune(st[1]) && unicode.ToLower(w[2]) == rune(st[2]) {
			return strings.ToUpper(string(w)) == string(w)
		}
	}
	return false
}

// datedWords are date labels that date whatever the line names before them:
// "Original Invoice #: 100873 dated October 30, 2026", "Buyer's Order No:
// BO-99812  Dated: 28/07/2026".
var datedWords = map[string]bool{"dated": true, "date": true, "vom": true, "du": true, "del": true, "z dnia": true,
	"от": true}

// datedForOther reports a dating label h whose line names another document
// before it (the nearest earlier label on the line is a built-in one, an
// order or original invoice), and returns that label.
func (d *doc) datedForOther(h labelHit) (labelHit, bool) {
	if !datedWords[h.key] {
		return labelHit{}, false
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	var prev labelHit
	found := false
	for _, o := range d.fieldHits {
		if o.start >= ls && o.end <= h.start {
			prev, found = o, true
		}
	}
	return prev, found && prev.role == builtinLabelOwner
}

// isArabicIndicDigit reports an Arabic-Indic or Persian digit, which the
// analysis reads as 0-9 (narrowRune).
func isArabicIndicDigit(r rune) bool { return r >= '٠' && r <= '٩' || r >= '۰' && r <= '۹' }

// isDayFirstScriptDigit reports a digit of the Indian scripts (Devanagari to
// Sinhala), Thai, Lao, Tibetan, Burmese or Khmer, which the analysis reads
// as 0-9 (narrowRune): India, Nepal, Bangladesh, Sri Lanka, Thailand, Laos,
// Myanmar and Cambodia write numeric dates day first. Mongolian and the
// full-width digits of East Asia are left out: those write year first.
func isDayFirstScriptDigit(r rune) bool {
	return r >= 0x0966 && r <= 0x17E9 && unicode.Is(unicode.Nd, r)
}
