package pipeline

import (
	"regexp"
	"unicode/utf8"
)

// handRegexp is a regexp whose first submatch is also read by hand: find
// is its FindStringSubmatchIndex, for a form most texts hold. The regexp
// stays the specification (TestGSTNumberIndexIsTheRegexp).
type handRegexp struct {
	*regexp.Regexp
	find func(text string) []int
}

func (h handRegexp) FindStringSubmatchIndex(text string) []int { return h.find(text) }

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
func gstNumberIndex(text string) []int {
	for p := 0; p+3 <= len(text); p++ {
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
