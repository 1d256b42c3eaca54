package pipeline

import (
	"strings"
	"unicode/utf8"
)

// docFacts are the facts about a whole document that the per-field checks
// ask for, each computed on first use and kept for the rest of the record:
// several fields ask the same question of one text (where a quoted reply
// starts, which day/month convention its locale implies), and a record that
// never asks pays nothing.
type docFacts struct {
	// src is the text the document was read from, when known: an ASCII
	// source that narrowing left as it was is the text itself.
	src   string
	text  memo[string]
	lower memo[string]

	quoted memo[int]
	// locale is the record-independent part of localeOrder.
	locale memo[localeFact]
	// yearless is yearlessOrder's answer: a scan of the whole text that
	// each ambiguous date field would otherwise repeat.
	yearless memo[localeFact]
	country  memo[countryFact]
	// threeDec is the three-decimal currency of the amounts (threeDecimals).
	threeDec memo[string]
	postcode memo[postcodeFact]
	// digits is the longest run of ASCII digits in the text.
	digits memo[int]
	// headings are lineHeading of each line.
	headings []memo[string]

	// placeMatch holds issuerNumbers[i]'s first match (nil for none) once
	// placeDone[i] is set.
	placeMatch [][]int
	placeDone  []bool

	// offsets are the byte offset of each rune of the text, and its length
	// last; built by str for a text that is not ASCII.
	offsets []int32

	// party are the party checks' screens (partyscreen.go).
	party partyFacts

	// ledgers are the money lines each total adds up (moneyledger.go).
	ledgers ledgers
}

// memo is a value computed on first use.
type memo[T any] struct {
	v    T
	done bool
}

// get is the value, computing it with f the first time.
func (m *memo[T]) get(f func() T) T {
	if !m.done {
		m.v, m.done = f(), true
	}
	return m.v
}

type localeFact struct {
	order DateOrder
	why   localeWhy
}

type countryFact struct {
	code, hint string
	sp         Span
}

type postcodeFact struct {
	line string
	at   int
	ok   bool
}

// text is the document as a string.
func (d *doc) text() string {
	return d.facts.text.get(func() string {
		if src := d.facts.src; sameASCII(src, d.rs) || spells(src, d.rs) {
			return src
		}
		return string(d.rs)
	})
}

// sameASCII reports an ASCII s whose bytes are the runes rs.
func sameASCII(s string, rs []rune) bool {
	if len(s) != len(rs) {
		return false
	}
	for i, r := range rs {
		if r >= utf8.RuneSelf || rune(s[i]) != r {
			return false
		}
	}
	return true
}

// spells reports a valid UTF-8 s whose runes are rs, so that s is
// string(rs): a text beyond ASCII that narrowing left as it was is not
// written out again. A U+FFFD may stand for an invalid byte, so a text
// holding one is written out.
func spells(s string, rs []rune) bool {
	if len(s) < len(rs) {
		return false
	}
	i := 0
	for _, r := range s {
		if i == len(rs) || rs[i] != r || r == utf8.RuneError {
			return false
		}
		i++
	}
	return i == len(rs)
}

// lowerText is the document lowercased.
func (d *doc) lowerText() string {
	return d.facts.lower.get(func() string { return strings.ToLower(d.text()) })
}

// quotedFrom is the offset where the earlier message a reply quotes begins,
// or -1 when the text quotes none (findQuoted).
func (d *doc) quotedFrom() int {
	return d.facts.quoted.get(d.findQuoted)
}

// countryCurrency is the currency the issuer's legal form or country
// implies, else the place its printed numbers give (issuerplace.go).
func (d *doc) countryCurrency() (code, hint string, sp Span) {
	c := d.facts.country.get(func() (c countryFact) {
		c.code, c.hint, c.sp = d.findCountryCurrency()
		return c
	})
	return c.code, c.hint, c.sp
}

// issuerNumberMatch is the first match of issuerNumbers[i] in the text, as
// FindStringSubmatchIndex gives it.
func (d *doc) issuerNumberMatch(i int) []int {
	if d.facts.placeDone == nil {
		d.facts.placeMatch = make([][]int, len(issuerNumbers))
		d.facts.placeDone = make([]bool, len(issuerNumbers))
	}
	if !d.facts.placeDone[i] {
		if n := issuerNumbers[i]; n.need.met(d) && n.valid == nil {
			d.facts.placeMatch[i] = n.re.FindStringSubmatchIndex(d.text())
		} else if n.need.met(d) {
			for _, m := range n.re.FindAllStringSubmatchIndex(d.text(), 8) {
				if n.valid(d.text(), m) {
					d.facts.placeMatch[i] = m
					break
				}
			}
		}
		d.facts.placeDone[i] = true
	}
	return d.facts.placeMatch[i]
}

// postcodeFirstLine is findPostcodeFirstLine, once per document.
func (d *doc) postcodeFirstLine() (string, int, bool) {
	p := d.facts.postcode.get(func() (p postcodeFact) {
		p.line, p.at, p.ok = d.findPostcodeFirstLine()
		return p
	})
	return p.line, p.at, p.ok
}

// digitRun is the length of the longest run of ASCII digits in the text.
func (d *doc) digitRun() int {
	return d.facts.digits.get(func() int {
		run, longest := 0, 0
		for _, r := range d.rs {
			if r >= '0' && r <= '9' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		return longest
	})
}

// str is the text of runes [a, b) as a slice of the cached text, which
// costs no copy: string(d.rs[a:b]) without the allocation.
func (d *doc) str(a, b int) string {
	t := d.text()
	if len(t) == len(d.rs) {
		return t[a:b] // every rune is one byte
	}
	if d.facts.offsets == nil {
		offs := d.lent.offsetBuf(len(d.rs) + 1)[:0]
		for i := range t {
			offs = append(offs, int32(i))
		}
		d.facts.offsets = append(offs, int32(len(t)))
	}
	return t[d.facts.offsets[a]:d.facts.offsets[b]]
}
