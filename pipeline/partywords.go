package pipeline

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// The customer labels read from an ASCII text's own words, compared without
// case: LabelTokens lowercases a copy of each line it cuts, and the party
// checks ask of a dozen lines per document whether their words hold a
// customer label. Every function here answers as its LabelTokens form does.

// customerLabelOf is customerLabelIn(LabelTokens(s)).
func customerLabelOf(s string) string {
	var buf [24]Span
	var hbuf [24]uint32
	toks, hashes, ascii := asciiWordsHashed(s, buf[:0], hbuf[:0])
	if !ascii {
		var b wordBufs
		if lw, ok := b.words(s); ok {
			return lw.customerLabel()
		}
		return customerLabelIn(LabelTokens(s))
	}
	first := customerLabelsEmpty
	for k, w := range toks {
		if !customerFirstWords.has(hashes[k]) {
			continue // the screen lookupLower would ask first
		}
		labels, _ := lookupLower(customerLabelsByFirst, nil, s[w.Start:w.End])
		for _, i := range labels {
			if first >= 0 && i >= first {
				break // indexes are ascending: no earlier label left here
			}
			if l := customerLabelToks[i]; k+len(l) <= len(toks) && wordsAre(s, toks[k:k+len(l)], l) {
				first = i
				break
			}
		}
	}
	if first >= 0 {
		return customerLabels[first]
	}
	bare := toks
	for len(bare) > 0 && isHonorific(s[bare[len(bare)-1].Start:bare[len(bare)-1].End]) {
		bare = bare[:len(bare)-1]
	}
	if len(bare) == 0 {
		return ""
	}
	// Only the address words that start with the first bare word can be
	// its words: the index lists them in ascending order, so the first
	// that matches is the first of the whole list that would.
	words, _ := lookupLower(addressWordsByFirst, nil, s[bare[0].Start:bare[0].End])
	for _, i := range words {
		if wordsAre(s, bare, addressWordToks[i]) {
			return addressWords[i]
		}
	}
	return ""
}

// labelLine reads a line that may be a customer label alone ("Bill to",
// "Dear"): its label and true when its words are one, "" and true when it
// has no words, else false.
func labelLine(line string) (string, bool) {
	if !isASCII(line) {
		var b wordBufs
		if lw, ok := b.words(line); ok {
			return lw.labelLine()
		}
		return labelLineByTokens(line)
	}
	var buf [24]Span
	toks := asciiWords(line, buf[:0])
	if len(toks) == 0 {
		return "", true
	}
	// Only the labels that start with the line's first word can be it.
	first := line[toks[0].Start:toks[0].End]
	labels, _ := lookupLower(customerLabelsByFirst, customerFirstWords, first)
	for _, i := range labels {
		if wordsAre(line, toks, customerLabelToks[i]) {
			return customerLabels[i], true
		}
	}
	words, _ := lookupLower(addressWordsByFirst, nil, first)
	for _, i := range words {
		if wordsAre(line, toks, addressWordToks[i]) {
			return addressWords[i], true
		}
	}
	return "", false
}

// labelLineByTokens is labelLine through LabelTokens, for any text: the
// ASCII path above reads the same words without building them
// (TestCustomerLabelOfReadsAsLabelTokens holds the two together).
func labelLineByTokens(line string) (string, bool) {
	toks := LabelTokens(line)
	if len(toks) == 0 {
		return "", true
	}
	// Only the labels that start with the line's first word can be its
	// words; the indexes list them in ascending order.
	for _, i := range customerLabelsByFirst[toks[0]] {
		if slices.Equal(toks, customerLabelToks[i]) {
			return customerLabels[i], true
		}
	}
	for _, i := range addressWordsByFirst[toks[0]] {
		if slices.Equal(toks, addressWordToks[i]) {
			return addressWords[i], true
		}
	}
	return "", false
}

// addressWordsByFirst lists, for each first word of an address word, the
// indexes of those that start with it in ascending order. Read-only after
// init.
var addressWordsByFirst = func() map[string][]int {
	m := map[string][]int{}
	for i, l := range addressWordToks {
		if len(l) > 0 {
			m[l[0]] = append(m[l[0]], i)
		}
	}
	return m
}()

// asciiWords appends to buf the bounds of the words LabelTokens cuts the
// ASCII s into.
func asciiWords(s string, buf []Span) []Span {
	start := -1
	for i := 0; i < len(s); i++ {
		if asciiWordByte(s[i]) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			buf = append(buf, Span{Start: start, End: i})
			start = -1
		}
	}
	if start >= 0 {
		buf = append(buf, Span{Start: start, End: len(s)})
	}
	return buf
}

// asciiWordsHashed is asciiWords with each word's hash as lookupLower
// takes it (its bytes lowered), read in the same pass; ascii is false, and
// the words unread, when s holds a byte beyond ASCII.
func asciiWordsHashed(s string, buf []Span, hashes []uint32) ([]Span, []uint32, bool) {
	start, h := -1, uint32(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiWordBytes[c] {
			if start < 0 {
				start, h = i, wordHashSeed
			}
			h = wordHashStep(h, rune(c|0x20)) // a letter lowered; a digit or & as it is
			continue
		}
		if c >= utf8.RuneSelf {
			return buf, hashes, false
		}
		if start >= 0 {
			buf, hashes = append(buf, Span{Start: start, End: i}), append(hashes, h)
			start = -1
		}
	}
	if start >= 0 {
		buf, hashes = append(buf, Span{Start: start, End: len(s)}), append(hashes, h)
	}
	return buf, hashes, true
}

// wordsAre reports whether the words of s at spans, lowercased, are words.
func wordsAre(s string, spans []Span, words []string) bool {
	if len(spans) != len(words) {
		return false
	}
	for k, sp := range spans {
		if !lowerIs(s[sp.Start:sp.End], words[k]) {
			return false
		}
	}
	return true
}

// lowerIs reports whether the ASCII w lowercased is t.
func lowerIs(w, t string) bool {
	if len(w) != len(t) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if asciiLower(w[i]) != t[i] {
			return false
		}
	}
	return true
}

// isHonorific reports an ASCII word that is an honorific in any case.
func isHonorific(w string) bool {
	h, _ := lookupLower(honorifics, nil, w)
	return h
}

// indexColon is strings.IndexAny(s, ":：") without decoding s rune by rune
// (IndexAny's way with a set that is not ASCII).
func indexColon(s string) int {
	i := strings.IndexByte(s, ':')
	if j := strings.Index(s, "："); j >= 0 && (i < 0 || j < i) {
		return j
	}
	return i
}

// stemSet is a list of lowercase stems a line is searched for, indexed by
// first and second byte so that a line is read once for all of them.
type stemSet struct {
	stems []string
	// byFirst and bySecond hold, for each byte, the bit set of the stems
	// whose first (second) byte it is lowered (asciiLower): a capital
	// holds its letter's set, so a line's bytes index them as read.
	byFirst, bySecond [256]uint64
}

func newStemSet(stems ...string) *stemSet {
	if len(stems) > 64 {
		panic("a stemSet holds at most 64 stems")
	}
	st := &stemSet{stems: stems}
	for i, s := range stems {
		if len(s) < 2 {
			panic("a stem has two bytes at least")
		}
		st.byFirst[s[0]] |= 1 << i
		st.bySecond[s[1]] |= 1 << i
	}
	for c := 'A'; c <= 'Z'; c++ {
		st.byFirst[c], st.bySecond[c] = st.byFirst[c+'a'-'A'], st.bySecond[c+'a'-'A']
	}
	return st
}

// in reports whether line holds one of the stems: an ASCII line's letters
// compared in any case, another line lowercased first.
//
// The lowered line is written into a buffer on the stack, byte for byte
// what strings.ToLower gives (each rune lowered, an invalid byte written as
// U+FFFD), so a line with a capital beyond ASCII costs no allocation.
func (st *stemSet) in(line string) bool {
	if isASCII(line) || lowersOnlyASCII(line) {
		return stemsIn(st, line)
	}
	var buf [256]byte
	return stemsIn(st, appendLower(buf[:0], line))
}

// lowersOnlyASCII reports whether strings.ToLower(s) is s with its ASCII
// letters lowered: every rune beyond ASCII is valid UTF-8 and its own
// lowercase, as CJK and most lowercase text are. stemsIn compares ASCII
// bytes in any case, so such a line needs no lowered copy.
func lowersOnlyASCII(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || toLower(r) != r {
			return false
		}
		i += n
	}
	return true
}

// appendLower appends strings.ToLower(s) to b.
func appendLower(b []byte, s string) []byte {
	for _, r := range s {
		b = utf8.AppendRune(b, toLower(r))
	}
	return b
}

// stemsIn is stemSet.in on a line as read or as lowered.
func stemsIn[S string | []byte](st *stemSet, line S) bool {
	for i := 0; i+1 < len(line); i++ {
		set := st.byFirst[line[i]]
		if set == 0 {
			continue
		}
		for set &= st.bySecond[line[i+1]]; set != 0; set &= set - 1 {
			if n := st.stems[bits.TrailingZeros64(set)]; len(line)-i >= len(n) && foldPrefix(line[i:], n) {
				return true
			}
		}
	}
	return false
}

// foldPrefix reports whether s starts with n, the ASCII letters of s
// compared in any case.
func foldPrefix[S string | []byte](s S, n string) bool {
	for k := 0; k < len(n); k++ {
		if asciiLower(s[k]) != n[k] {
			return false
		}
	}
	return true
}

// isTitle reports a value that is a document title: a title word, or words
// that are all title words ("TAX INVOICE").
func isTitle(val string) bool {
	if !isASCII(val) {
		var low [64]byte
		if titleWords[string(appendLower(low[:0], strings.TrimSpace(val)))] {
			return true
		}
		var b wordBufs
		if lw, ok := b.words(val); ok {
			return allIn(lw, titleWords)
		}
		words := LabelTokens(val)
		return len(words) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !titleWords[w] })
	}
	if isTitleWord(strings.TrimSpace(val)) {
		return true
	}
	n := 0
	for start, i := -1, 0; i <= len(val); i++ {
		if i < len(val) && asciiWordByte(val[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !isTitleWord(val[start:i]) {
				return false
			}
			n++
			start = -1
		}
	}
	return n > 0
}

// leadWord is how many words LabelTokens cuts s into, and whether the first
// is a word that continues a name (nameContinuations).
func leadWord(s string) (n int, cont bool) {
	if !isASCII(s) {
		var b wordBufs
		if lw, ok := b.words(s); ok {
			return len(lw.ws), len(lw.ws) > 0 && nameContinuations[string(lw.word(0))]
		}
		toks := LabelTokens(s)
		return len(toks), len(toks) > 0 && nameContinuations[toks[0]]
	}
	var first string
	for start, i := -1, 0; i <= len(s); i++ {
		if i < len(s) && asciiWordByte(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if n == 0 {
				first = s[start:i]
			}
			n++
			start = -1
		}
	}
	if n == 0 {
		return n, false
	}
	cont, _ = lookupLower(nameContinuations, nil, first)
	return n, cont
}
