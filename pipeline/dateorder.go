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
func (d *doc) localeOrder() (DateOrder, string) {
	if !d.facts.localeDone {
		d.facts.locale, d.facts.localeWhy = d.documentLocale()
		d.facts.localeDone = true
	}
	if d.facts.locale != OrderUnknown {
		return d.facts.locale, d.facts.localeWhy
	}
	if _, _, _, ok := d.amountCurrency(); !ok && dayFirstCurrencies[d.recordCurrency] {
		// The document says nothing; the record's currency is the claim the
		// date has to agree with (a wrong currency is flagged on its own).
		return OrderDMY, fmt.Sprintf("the record's currency %s is used where dates are day-first", d.recordCurrency)
	}
	return OrderUnknown, ""
}

// documentLocale is what the document itself says of its locale's
// day/month convention, the record aside.
func (d *doc) documentLocale() (DateOrder, string) {
	if code, marker, _, ok := d.amountCurrency(); ok && dayFirstCurrencies[code] {
		return OrderDMY, fmt.Sprintf("amounts in %s (%s) are written where dates are day-first", marker, code)
	}
	if order, why, ok := d.addressOrder(); ok {
		return order, why
	}
	if _, _, _, ok := d.amountCurrency(); !ok {
		// No currency printed: the issuer's legal form or country places the
		// document as surely ("SDN BHD", "Deutschland"), or its printed
		// numbers do (a GST number's format, a telephone country code).
		if implied, hint, _ := d.countryCurrency(); dayFirstCurrencies[implied] {
			return OrderDMY, fmt.Sprintf("the issuer's %q places it where dates are day-first", hint)
		}
		if _, dayFirst, hint, _, ok := d.issuerPlace(false); ok && dayFirst {
			return OrderDMY, fmt.Sprintf("%s places the issuer where dates are day-first", hint)
		}
	}
	return OrderUnknown, ""
}

// addressOrder is the order an address implies: an Australian state and
// its four-digit postcode anywhere (day first), else a US state code and
// its five-digit ZIP code (month first). It walks the text's words as
// labelTokens cuts them without building them.
func (d *doc) addressOrder() (DateOrder, string, bool) {
	aus, us := Span{Start: -1}, Span{Start: -1}
	prev := Span{Start: -1}
	eachTokenSpan(d.rs, func(tok Span) {
		if prev.Start >= 0 {
			if aus.Start < 0 && d.australianState(prev) && asciiDigits(d.rs[tok.Start:tok.End]) == 4 {
				aus = Span{Start: prev.Start, End: tok.End}
			}
			if us.Start < 0 && prev.End-prev.Start == 2 && slices.Contains(usStates, string(d.rs[prev.Start:prev.End])) &&
				asciiDigits(d.rs[tok.Start:tok.End]) == 5 {
				us = Span{Start: prev.Start, End: tok.End}
			}
		}
		prev = tok
	})
	if aus.Start >= 0 {
		return OrderDMY, fmt.Sprintf("the Australian address %q is day-first", string(d.rs[aus.Start:aus.End])), true
	}
	if us.Start >= 0 {
		return OrderMDY, fmt.Sprintf("the US address %q is month-first", string(d.rs[us.Start:us.End])), true
	}
	return OrderUnknown, "", false
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

// asciiDigits is len(w) when w is all ASCII digits, else -1.
func asciiDigits(w []rune) int {
	for _, r := range w {
		if r < '0' || r > '9' {
			return -1
		}
	}
	return len(w)
}

// eachTokenSpan calls f with the span of each token labelTokens cuts from
// rs, in order.
func eachTokenSpan(rs []rune, f func(Span)) {
	start := -1
	for i, r := range rs {
		switch {
		case isCJK(r):
			if start >= 0 {
				f(Span{Start: start, End: i})
				start = -1
			}
			f(Span{Start: i, End: i + 1})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&':
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				f(Span{Start: start, End: i})
				start = -1
			}
		}
	}
	if start >= 0 {
		f(Span{Start: start, End: len(rs)})
	}
}

// datedWords are date labels that date whatever the line names before them:
// "Original Invoice #: 100873 dated October 30, 2026", "Buyer's Order No:
// BO-99812  Dated: 28/07/2026".
var datedWords = map[string]bool{"dated": true, "date": true, "vom": true, "du": true, "del": true, "z dnia": true}

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
