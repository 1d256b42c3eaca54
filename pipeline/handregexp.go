package pipeline

import (
	"regexp"
	"slices"
	"unicode/utf8"
)

// handRegexp is a regexp whose submatches are also read by hand: find is
// the first match at or after from (its context before from counts, as
// for \b), as FindStringSubmatchIndex gives it, for a form most texts hold
// or that the regexp engine reads slowly. The regexp stays the
// specification (TestHandRegexpsAreTheirRegexps). None of them matches an
// empty string.
type handRegexp struct {
	*regexp.Regexp
	find func(text string, from int) []int
}

func (h handRegexp) FindStringSubmatchIndex(text string) []int { return h.find(text, 0) }

func (h handRegexp) FindAllStringSubmatchIndex(text string, n int) [][]int {
	var out [][]int
	for at := 0; n < 0 || len(out) < n; {
		m := h.find(text, at)
		if m == nil {
			break
		}
		out = append(out, m)
		at = m[1]
	}
	return out
}

// issuerRegexp is what issuerPlace asks of an issuer number's form.
type issuerRegexp interface {
	FindStringSubmatchIndex(text string) []int
	FindAllStringSubmatchIndex(text string, n int) [][]int
	FindStringIndex(text string) []int
	MatchString(text string) bool
}

// gstNumberIndex is FindStringSubmatchIndex of the Malaysian GST
// registration number's regexp (issuerNumbers[0],
// `(?i)\bGST\b[^\n\d]{0,24}?(\d{4} ?\d{4} ?\d{4})(?:[^\d]|$)`) read by hand.
// Nearly every SROIE receipt prints "GST" and a long digit run, so the
// regexp ran on most of them, and having no literal to start from, the
// backtracker tried every position of the text: it was the costliest part
// of settling a receipt's locale. Only a "gst" can start a match, and from
// there each part has one way to match, so one pass finds the same first
// match.
func gstNumberIndex(text string, from int) []int {
	for p := from; p+3 <= len(text); p++ {
		if text[p]|0x20 != 'g' || p > 0 && isRE2Word(text[p-1]) {
			continue
		}
		// (?i) folds the long s (ſ) to s as well.
		q := p + 1
		switch {
		case text[q]|0x20 == 's':
			q++
		case len(text[q:]) >= 2 && text[q] == 0xC5 && text[q+1] == 0xBF:
			q += 2
		default:
			continue
		}
		if q >= len(text) || text[q]|0x20 != 't' {
			continue
		}
		q++
		if q < len(text) && isRE2Word(text[q]) {
			continue
		}
		if m := gstNumberAfter(text, p, q); m != nil {
			return m
		}
	}
	return nil
}

// gstNumberAfter is the match of the regexp's tail at q, after the "GST"
// at p: the lazy gap can only end at the first digit (it takes no digit),
// and the optional spaces are taken exactly when they are there.
func gstNumberAfter(text string, p, q int) []int {
	for n := 0; ; n++ {
		if q >= len(text) || text[q] == '\n' {
			return nil
		}
		if isDigitByte(text[q]) {
			break
		}
		if n == 24 {
			return nil
		}
		_, w := utf8.DecodeRuneInString(text[q:])
		q += w
	}
	start := q
	for group := range 3 {
		if group > 0 && q < len(text) && text[q] == ' ' && q+1 < len(text) && isDigitByte(text[q+1]) {
			q++
		}
		for range 4 {
			if q >= len(text) || !isDigitByte(text[q]) {
				return nil
			}
			q++
		}
	}
	end := q
	if q < len(text) {
		if isDigitByte(text[q]) {
			return nil
		}
		_, w := utf8.DecodeRuneInString(text[q:])
		end += w
	}
	return []int{p, end, start, q}
}

// usAddressIndex is the US address regexp's
// (`\b((?:AL|AK|…|DC) \d{5})(?:-\d{4})?\b`, usStates in its order) match
// read by hand: two capitals that are a state code after a word boundary,
// a space, five digits, and a ZIP+4 taken when a word boundary follows it.
// With no literal to start from and 50 alternatives, the regexp engine
// spent about 100 µs on a receipt that has the shape somewhere.
func usAddressIndex(text string, from int) []int {
	for p := from; p+8 <= len(text); p++ {
		if !isCap(text[p]) || !isCap(text[p+1]) || text[p+2] != ' ' || p > 0 && isRE2Word(text[p-1]) {
			continue
		}
		if !allDigits(text[p+3:p+8]) || !slices.Contains(usStates, text[p:p+2]) {
			continue
		}
		e := p + 8
		if e+5 <= len(text) && text[e] == '-' && allDigits(text[e+1:e+5]) && (e+5 == len(text) || !isRE2Word(text[e+5])) {
			return []int{p, e + 5, p, e}
		}
		if e == len(text) || !isRE2Word(text[e]) {
			return []int{p, e, p, e}
		}
	}
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}
