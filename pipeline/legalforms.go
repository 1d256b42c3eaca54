package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Legal forms: the words that end a company's name ("SDN BHD", "GmbH",
// "株式会社"), read on a line's own words without allocating for ASCII lines.

// legalForms end a company's name: a line at a document's head that ends in
// one names a company, and on most documents the company at the head that
// no customer label introduces is the issuer.
var legalForms = [][]string{{"sdn", "bhd"}, {"bhd"}, {"berhad"}, {"s", "b"}, {"ltd"}, {"limited"}, {"inc"},
	{"llc"}, {"llp"}, {"plc"}, {"gmbh"}, {"ag"}, {"kg"}, {"mbh"}, {"pty", "ltd"}, {"pte", "ltd"}, {"corp"},
	{"corporation"}, {"sarl"}, {"sas"}, {"srl"}, {"spa"}, {"s", "p", "a"}, {"bv"}, {"b", "v"}, {"nv"}, {"oy"},
	{"ab"}, {"ltda"}, {"s", "a"}, {"sa"}, {"s", "l"}, {"sl"}, {"sp", "z", "o", "o"}, {"s", "r", "o"},
	{"kk"}, {"enterprise"}, {"enterprises"}, {"sb"}, {"s", "c"}, {"sp", "j"}, {"sp", "k"}, {"s", "n", "c"},
	{"snc"}, {"s", "a", "s"}, {"me"}, {"eireli"}, {"s", "a", "de", "c", "v"}, {"e", "k"},
	// Danish and Norwegian companies (A/S, ApS), a Finnish public one
	// (Oyj), a Portuguese one (Lda).
	{"a", "s"}, {"aps"}, {"oyj"}, {"lda"}}

// hasLegalForm reports a name that carries a legal form anywhere
// ("CHECKERS HYPERMARKET SDN BHD (JALAN KLANG LAMA)", "AMPANG 210 FIRST
// CITY PARKING SDN BHD").
func hasLegalForm(name string) bool {
	if endsInLegalForm(name) || strings.Contains(name, "株式会社") || strings.Contains(name, "有限会社") {
		return true
	}
	toks := LabelTokens(name)
	for _, f := range legalForms {
		if len(f) >= 2 || f[0] == "bhd" || f[0] == "gmbh" || f[0] == "ltd" || f[0] == "inc" || f[0] == "llc" || f[0] == "plc" || f[0] == "sb" {
			if i := tokenRun(toks, f); i > 0 {
				return true
			}
		}
	}
	return false
}

// endsInLegalForm reports a line whose last words (a registration number
// aside) are a legal form: "VIVOPAC MARKETING SDN BHD (1070687-M)",
// "Müller Druck GmbH", "株式会社さくら商事".
func endsInLegalForm(line string) bool {
	may, wide := legalWordIn(line)
	if !may && !wide {
		return false // no word of the line ends a legal form
	}
	if !wide && isASCII(line) {
		if ends, ok := asciiEndsInLegalForm(line); ok {
			return ends
		}
	} else if strings.Contains(line, "株式会社") || strings.Contains(line, "有限会社") || strings.Contains(line, "(주)") || strings.Contains(line, "주식회사") {
		return true
	} else if !may {
		return false
	}
	var b wordBufs
	if lw, ok := b.words(line); ok {
		return lw.endInLegalForm()
	}
	return tokensEndInLegalForm(LabelTokens(line))
}

// legalWordIn screens a line for endsInLegalForm: may is false when no
// run of ASCII letters in it, bounded by anything else, is the last word
// of a legal form, and no rune in it lowers to an ASCII letter (İ, the
// Kelvin sign). Every word of a line's LabelTokens that is a legal form's
// (ASCII) word is such a run, so a line that fails the screen ends in no
// legal form. wide reports a byte beyond ASCII, when may is false (the
// scan stops at the first run that passes).
func legalWordIn(line string) (may, wide bool) {
	var or byte
	for i := 0; i < len(line); {
		c := line[i]
		if !asciiWordBytes[c] {
			or |= c
			if c >= 0xC4 && (c == 0xC4 && strings.HasPrefix(line[i:], "İ") || c == 0xE2 && strings.HasPrefix(line[i:], "\u212a")) {
				return true, false
			}
			i++
			continue
		}
		// A run: its bytes lowered, the last eight packed in v. The loop
		// holds no call, so its registers stay put.
		j, v := i, uint64(0)
		for j < len(line) && asciiWordBytes[line[j]] {
			v = v<<8 | uint64(line[j]) | 0x20 // a letter lowered; a digit or & as it is
			j++
		}
		if j-i <= maxLegalLast && isLegalLast(v, line[i:j]) {
			return true, false
		}
		i = j
	}
	return false, or >= utf8.RuneSelf
}

// isLegalLast reports whether run, whose last eight bytes lowered v packs,
// is the last word of a legal form in any case.
func isLegalLast(v uint64, run string) bool {
	if len(run) <= 8 {
		h := v * 0x9E3779B97F4A7C15 >> (64 - legalLastBits)
		for ; legalLastTable[h] != 0; h = (h + 1) & (1<<legalLastBits - 1) {
			if legalLastTable[h] == v {
				return true
			}
		}
		return false
	}
	return slices.ContainsFunc(legalLastLong, func(w string) bool { return strings.EqualFold(run, w) })
}

// maxLegalLast is the length of the longest last word of legalForms.
var maxLegalLast = func() (n int) {
	for _, f := range legalForms {
		n = max(n, len(f[len(f)-1]))
	}
	return n
}()

// legalLastBits sizes legalLastTable: a quarter full at most.
const legalLastBits = 8

// legalLastTable holds the last words of legalForms of eight bytes or
// fewer, packed a byte each, in an open-addressed table; legalLastLong the
// longer ones. Read-only after init.
var legalLastTable, legalLastLong = func() (t [1 << legalLastBits]uint64, long []string) {
	for _, f := range legalForms {
		w := f[len(f)-1]
		if len(w) > 8 {
			if !slices.Contains(long, w) {
				long = append(long, w)
			}
			continue
		}
		var v uint64
		for k := 0; k < len(w); k++ {
			v = v<<8 | uint64(w[k])
		}
		h := v * 0x9E3779B97F4A7C15 >> (64 - legalLastBits)
		for t[h] != 0 && t[h] != v {
			h = (h + 1) & (1<<legalLastBits - 1)
		}
		t[h] = v
	}
	return t, long
}()

// asciiWordBytes is asciiWordByte as a table.
var asciiWordBytes = func() (m [256]bool) {
	for c := range 256 {
		m[c] = asciiWordByte(byte(c))
	}
	return m
}()

// legalFormsByLast lists, for the last word of each legal form, the indexes
// of the forms that end in it in ascending order. Read-only after init.
var legalFormsByLast = func() map[string][]int {
	m := map[string][]int{}
	for i, f := range legalForms {
		m[f[len(f)-1]] = append(m[f[len(f)-1]], i)
	}
	return m
}()

// tokensEndInLegalForm is endsInLegalForm of a line's words.
func tokensEndInLegalForm(toks []string) bool {
	// The name ends where its registration number starts: "KING'S
	// CONFECTIONERY S/B 273500-U (KSB)".
	if i := slices.IndexFunc(toks, func(t string) bool { return strings.ContainsFunc(t, unicode.IsDigit) }); i >= 0 {
		toks = toks[:i]
	}
	if len(toks) < 2 {
		return false // a legal form alone names no one
	}
	for _, f := range legalForms {
		if len(f) < len(toks) && slices.Equal(toks[len(toks)-len(f):], f) {
			// The words before the form name someone: "Invoice AB/77/2026"
			// is a title and a number.
			return slices.ContainsFunc(toks[:len(toks)-len(f)], func(w string) bool { return !titleWords[w] })
		}
	}
	return false
}

// asciiEndsInLegalForm is endsInLegalForm of an ASCII line, read from the
// line's own words compared without case, so a head line costs no
// allocation. ok is false for a line of more words than it holds.
func asciiEndsInLegalForm(line string) (ends, ok bool) {
	var buf [24]Span // word bounds
	toks := buf[:0]
	start, digit := -1, false
	for i := 0; i <= len(line); i++ {
		if i < len(line) && asciiWordByte(line[i]) {
			if start < 0 {
				start, digit = i, false
			}
			digit = digit || line[i] <= '9' // a word byte at or below '9' is a digit ('&' aside)
			continue
		}
		if start < 0 {
			continue
		}
		if digit && strings.ContainsFunc(line[start:i], unicode.IsDigit) {
			break // the name ends where its registration number starts
		}
		if len(toks) == len(buf) {
			return false, false
		}
		toks = append(toks, Span{Start: start, End: i})
		start = -1
	}
	if len(toks) < 2 {
		return false, true // a legal form alone names no one
	}
	word := func(sp Span) string { return line[sp.Start:sp.End] }
	// Only the forms that end in the line's last word can match.
	forms, _ := lookupLower(legalFormsByLast, nil, word(toks[len(toks)-1]))
	for _, i := range forms {
		f := legalForms[i]
		if len(f) >= len(toks) || !slices.EqualFunc(toks[len(toks)-len(f):], f, func(sp Span, w string) bool { return strings.EqualFold(word(sp), w) }) {
			continue
		}
		for _, sp := range toks[:len(toks)-len(f)] {
			if !isTitleWord(word(sp)) {
				return true, true
			}
		}
		return false, true
	}
	return false, true
}

// isTitleWord reports an ASCII word that is in titleWords, in any case.
func isTitleWord(w string) bool {
	title, _ := lookupLower(titleWords, asciiTitleWords, w)
	return title
}

// asciiTitleWords screens words for titleWords.
var asciiTitleWords = hashesOf(titleWords)

// asciiLower is an ASCII byte lowercased.
func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c
}

// maxLookupWord is the longest ASCII word lookupLower lowers: no word of
// the sets it reads (customer labels, address words, honorifics, name
// continuations, title words, legal forms, registration labels) is longer,
// as their tests keep them.
const maxLookupWord = 32

// lookupLower is set[strings.ToLower(w)] for an ASCII word w, lowered on the
// stack so that a lookup costs no allocation; a word longer than
// maxLookupWord is in no set. screen, when not nil, holds the hashes of
// set's words (hashesOf): a word it rules out is not hashed again by the
// map, and most words a line is read for are in no set.
func lookupLower[V any](set map[string]V, screen *wordHashes, w string) (V, bool) {
	var low [maxLookupWord]byte
	var none V
	if len(w) > len(low) {
		return none, false
	}
	h := uint32(wordHashSeed)
	for k := 0; k < len(w); k++ {
		c := asciiLower(w[k])
		low[k] = c
		h = wordHashStep(h, rune(c))
	}
	if screen != nil && !screen.has(h) {
		return none, false
	}
	v, ok := set[string(low[:len(w)])]
	return v, ok
}

// asciiWordByte is an ASCII byte labelTokens keeps in a word, in any case.
func asciiWordByte(b byte) bool {
	return isASCIIWordByte(b) || 'A' <= b && b <= 'Z'
}
