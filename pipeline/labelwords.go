package pipeline

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// The words of a text beyond ASCII, as LabelTokens cuts and lowers them,
// written into the caller's arrays: the party checks ask a dozen lines and
// values per document whether their words hold a label, and building the
// key, its words and their list cost a line beyond ASCII about ten times
// what reading it costs.

// keyWordList are the words LabelTokens cuts a text into, lowered: key
// holds them one after another, ws their bounds in key, hs their hashes as
// hashesOf takes them (FNV-1a of the lowered runes).
type keyWordList struct {
	key []byte
	ws  []Span
	hs  []uint32
}

// wordBufs are the arrays a keyWordList fills on the stack: enough for any
// line the checks read; a longer text is read by LabelTokens.
type wordBufs struct {
	key [160]byte
	ws  [24]Span
	hs  [24]uint32
}

// twoByteRunes bounds the runes of two bytes in UTF-8.
const twoByteRunes = 0x800

// twoByteKey is wideKeyRune and toLower of each rune of two bytes, read
// once; read-only.
var twoByteKey = func() (t [twoByteRunes - utf8.RuneSelf]struct {
	lower rune
	kind  keyRuneKind
}) {
	for r := rune(utf8.RuneSelf); r < twoByteRunes; r++ {
		t[r-utf8.RuneSelf].lower, t[r-utf8.RuneSelf].kind = toLower(r), wideKeyRune(r)
	}
	return t
}()

// words reads s into b's arrays, as LabelTokens would cut it (keyBuilder's
// rules, rune by rune); ok is false when they are too small for it.
func (b *wordBufs) words(s string) (lw keyWordList, ok bool) {
	key, ws, hs := b.key[:0], b.ws[:0], b.hs[:0]
	inWord := false
	for i := 0; i < len(s); {
		var r rune
		var kind keyRuneKind
		if c := s[i]; c < utf8.RuneSelf {
			i++
			c = asciiLower(c)
			if !isASCIIWordByte(c) {
				inWord = false
				continue
			}
			r, kind = rune(c), keyInWord
		} else {
			if c < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 && c >= 0xC2 {
				// Two bytes, as Latin, Greek and Cyrillic letters are:
				// decoded, kept and lowered from a table.
				r, i = rune(c&0x1F)<<6|rune(s[i+1]&0x3F), i+2
			} else {
				var n int
				r, n = utf8.DecodeRuneInString(s[i:])
				i += n
			}
			if r < twoByteRunes {
				r, kind = twoByteKey[r-utf8.RuneSelf].lower, twoByteKey[r-utf8.RuneSelf].kind
			} else {
				kind = wideKeyRune(r)
				r = toLower(r)
			}
			if kind == keyBreak {
				inWord = false
				continue
			}
		}
		if kind == keyOwnWord || !inWord {
			if len(ws) == cap(ws) {
				return keyWordList{}, false
			}
			ws, hs = append(ws, Span{Start: len(key), End: len(key)}), append(hs, wordHashSeed)
		}
		if cap(key)-len(key) < utf8.UTFMax {
			return keyWordList{}, false
		}
		key = utf8.AppendRune(key, r)
		ws[len(ws)-1].End = len(key)
		hs[len(hs)-1] = wordHashStep(hs[len(hs)-1], r)
		inWord = kind == keyInWord
	}
	return keyWordList{key: key, ws: ws, hs: hs}, true
}

// word is the i-th word. A map indexed by string(lw.word(i)), or a string
// compared with it, does not copy it.
func (lw keyWordList) word(i int) []byte { return lw.key[lw.ws[i].Start:lw.ws[i].End] }

// are reports whether words [from, from+len(l)) are l's.
func (lw keyWordList) are(from int, l []string) bool {
	if from+len(l) > len(lw.ws) {
		return false
	}
	for k, w := range l {
		if string(lw.word(from+k)) != w {
			return false
		}
	}
	return true
}

// anyWordIn reports whether one of the words is in set.
func anyWordIn[V any](lw keyWordList, set map[string]V) bool {
	for i := range lw.ws {
		if _, ok := set[string(lw.word(i))]; ok {
			return true
		}
	}
	return false
}

// customerLabel is customerLabelIn of the words.
func (lw keyWordList) customerLabel() string {
	first := customerLabelsEmpty
	for k := range lw.ws {
		if !customerFirstWords.has(lw.hs[k]) {
			continue // no label starts with the word
		}
		for _, i := range customerLabelsByFirst[string(lw.word(k))] {
			if first >= 0 && i >= first {
				break // indexes are ascending: no earlier label left here
			}
			if lw.are(k, customerLabelToks[i]) {
				first = i
				break
			}
		}
	}
	if first >= 0 {
		return customerLabels[first]
	}
	bare := len(lw.ws)
	for bare > 0 && honorifics[string(lw.word(bare-1))] {
		bare--
	}
	if bare == 0 {
		if addressWordsEmpty >= 0 {
			return addressWords[addressWordsEmpty]
		}
		return ""
	}
	for _, i := range addressWordsByFirst[string(lw.word(0))] {
		if l := addressWordToks[i]; len(l) == bare && lw.are(0, l) {
			return addressWords[i]
		}
	}
	return ""
}

// labelLine is labelLineByTokens of the words.
func (lw keyWordList) labelLine() (string, bool) {
	if len(lw.ws) == 0 {
		return "", true
	}
	first := lw.word(0)
	for _, i := range customerLabelsByFirst[string(first)] {
		if l := customerLabelToks[i]; len(l) == len(lw.ws) && lw.are(0, l) {
			return customerLabels[i], true
		}
	}
	for _, i := range addressWordsByFirst[string(first)] {
		if l := addressWordToks[i]; len(l) == len(lw.ws) && lw.are(0, l) {
			return addressWords[i], true
		}
	}
	return "", false
}

// endInLegalForm is tokensEndInLegalForm of the words.
func (lw keyWordList) endInLegalForm() bool {
	n := len(lw.ws)
	for i := range lw.ws {
		if hasDigit(lw.word(i)) {
			n = i // the name ends where its registration number starts
			break
		}
	}
	if n < 2 {
		return false
	}
	for _, f := range legalForms {
		if len(f) < n && lw.are(n-len(f), f) {
			for i := range n - len(f) {
				if !titleWords[string(lw.word(i))] {
					return true
				}
			}
			return false
		}
	}
	return false
}

// hasDigit is strings.ContainsFunc(string(w), unicode.IsDigit).
func hasDigit(w []byte) bool {
	for i := 0; i < len(w); {
		if c := w[i]; c < utf8.RuneSelf {
			if '0' <= c && c <= '9' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(w[i:])
		if unicode.IsDigit(r) {
			return true
		}
		i += n
	}
	return false
}

// allIn reports words that are all in set, and at least one.
func allIn(lw keyWordList, set map[string]bool) bool {
	return len(lw.ws) > 0 && !slices.ContainsFunc(lw.ws, func(sp Span) bool { return !set[string(lw.key[sp.Start:sp.End])] })
}
