package pipeline

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The party checks screen a document before they read its lines: most
// documents print no seller phrase, no self-billing title and no phrase
// naming a principal, and one pass over the folded text answers for all of
// them. A screen may let a document through that holds none; the exact
// test behind it decides.

// issuerLabelsByByte lists, for each byte, the issuer labels that start
// with it, in issuerLabels' order: afterIssuerLabel compares a head line
// only with the labels its first byte allows, where it compared every label
// with every head line. Read-only after init.
var issuerLabelsByByte = func() (m [256][]string) {
	for _, l := range issuerLabels {
		m[l[0]] = append(m[l[0]], l)
	}
	return m
}()

// partyFacts are the party checks' per-document screens, built on first
// use.
type partyFacts struct {
	tri trigramSet
	// stemsRead marks the stem screens read (mayHoldStems), stemsHeld
	// those the text may hold, a bit per stemScreenID.
	stemsRead, stemsHeld uint8
}

// trigramSet holds the hashes of every run of three runes of a document's
// folded text (lowercased, each run of whitespace one space), one byte per
// hash of 12 bits, and whether the text holds a rune beyond ASCII.
type trigramSet struct {
	// seen[h] is mark for each hash h the text holds: a byte, not a bit,
	// so that the build stores each rune's hash without reading the word
	// it falls in first, which costs fewer instructions a rune. It is the
	// scratch's array when one was lent, and mark is new to it: the array
	// is cleared once in 255 documents, not before each.
	seen *[1 << triBits]byte
	mark byte
	// runes holds the hashes of the runes beyond ASCII, in 1,024 bits: a
	// needle in CJK has few trigrams or none, and a text in CJK holds many.
	runes [16]uint64
	wide  bool
	done  bool
}

// runeBits is how many bits apart a trigram packs its runes: every rune
// fits.
const runeBits = 21

// triBits is how many bits of the product a trigram's hash keeps.
const triBits = 12

// triMul hashes three runes packed runeBits apart: it is even, so the
// product ignores the top bit of the packed word (the fourth rune back).
const triMul = 0x3C6EF372FE94F82A // 0x9E3779B97F4A7C15 << 1, wrapped

// trigrams is the document's trigram set.
func (d *doc) trigrams() *trigramSet {
	t := &d.facts.party.tri
	if t.done {
		return t
	}
	t.done, t.wide = true, !d.ascii
	t.seen, t.mark = d.lent.trigramBuf()
	seen, mark, r := t.seen, t.mark, d.fold.r
	if !t.wide {
		// The first two runes also set the hashes of a run padded with
		// zero runes: one more, and no test in the loop. Four runes a
		// round save three loop tests.
		var x uint64
		for len(r) >= 8 {
			q := (*[8]rune)(r)
			x = x<<runeBits | uint64(uint32(q[0]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[1]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[2]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[3]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[4]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[5]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[6]))
			seen[x*triMul>>(64-triBits)] = mark
			x = x<<runeBits | uint64(uint32(q[7]))
			seen[x*triMul>>(64-triBits)] = mark
			r = r[8:]
		}
		for _, c := range r {
			x = x<<runeBits | uint64(uint32(c))
			seen[x*triMul>>(64-triBits)] = mark
		}
		return t
	}
	var x uint64
	for _, c := range r {
		x = x<<runeBits | uint64(uint32(c))
		seen[x*triMul>>(64-triBits)] = mark
		if c >= utf8.RuneSelf {
			h := uint64(uint32(c)) * triMul
			t.runes[h>>60] |= 1 << (h >> 54 & 63)
		}
	}
	return t
}

// triNeedle is what a text must hold for a lowercase needle to stand in
// it: the hashes of its three-rune runs, and a rune beyond ASCII when the
// needle has one (a needle of one or two runes is screened by that alone).
type triNeedle struct {
	hashes []uint16
	wide   bool
	// runes are the hashes of a needle's runes beyond ASCII.
	runes []uint16
}

func newTriNeedles(needles ...string) []triNeedle {
	out := make([]triNeedle, len(needles))
	for i, n := range needles {
		rs := []rune(n)
		var x uint64
		for k, c := range rs {
			if c >= 0x80 {
				out[i].wide = true
			}
			x = x<<runeBits | uint64(uint32(c))
			if k >= 2 {
				out[i].hashes = append(out[i].hashes, uint16(x*triMul>>(64-triBits)))
			}
		}
		for _, c := range rs {
			if c >= utf8.RuneSelf {
				out[i].runes = append(out[i].runes, uint16(uint64(uint32(c))*triMul>>54))
			}
		}
	}
	return out
}

// mayHold reports whether the text may hold the needle: false only when
// it cannot.
func (t *trigramSet) mayHold(n triNeedle) bool {
	if n.wide && !t.wide {
		return false
	}
	for _, h := range n.hashes {
		if t.seen[h&(1<<triBits-1)] != t.mark {
			return false
		}
	}
	for _, h := range n.runes {
		if t.runes[h>>6&15]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

// mayHoldRunes is mayHold for a needle folded as the text is, hashed as
// it is read: a needle searched once per document is not worth a
// triNeedle's allocations.
func (t *trigramSet) mayHoldRunes(n []rune) bool {
	var x uint64
	for k, c := range n {
		if c >= utf8.RuneSelf {
			if !t.wide {
				return false
			}
			h := uint64(uint32(c)) * triMul
			if t.runes[h>>60]&(1<<(h>>54&63)) == 0 {
				return false
			}
		}
		x = x<<runeBits | uint64(uint32(c))
		if k >= 2 && t.seen[x*triMul>>(64-triBits)] != t.mark {
			return false
		}
	}
	return true
}

// findScreened is d.fold.find for a needle the trigram set may rule out
// first.
func (d *doc) findScreened(needle []rune) []Span {
	if !d.trigrams().mayHoldRunes(needle) {
		return nil
	}
	return d.fold.find(needle)
}

// mayHoldAny reports whether the text may hold one of needles.
func (t *trigramSet) mayHoldAny(needles []triNeedle) bool {
	for _, n := range needles {
		if t.mayHold(n) {
			return true
		}
	}
	return false
}

// sellerScreen is sellerNeedles for the trigram set.
var sellerScreen = func() []triNeedle {
	var ns []string
	for _, l := range sellerNeedles {
		for _, n := range l {
			ns = append(ns, string(n))
		}
	}
	return newTriNeedles(ns...)
}()

// principalScreen is principalScreens lowercased, as the folded text
// holds them.
var principalScreen = newTriNeedles("behalf of", "amens ", "amen und", "our le compte de", "or cuenta de",
	"er conto di")

// selfBillingScreen is selfBillingStems for the trigram set.
var selfBillingScreen = newTriNeedles(selfBillingStems.stems...)

// mailLineScreen is what headMailLine's lines open with.
var mailLineScreen = newTriNeedles("to:", "from:")

// ourDocumentScreen and yourDocumentScreen are ourDocument and
// yourDocument for the trigram set.
var ourDocumentScreen, yourDocumentScreen = newTriNeedles(ourDocument...), newTriNeedles(yourDocument...)

// spacesOnly reports whether every rune of rs is whitespace: trimmedRunes
// leaving nothing, with ASCII whitespace decided inline.
func spacesOnly(rs []rune) bool {
	for _, r := range rs {
		if !isSpace(r) {
			return false
		}
	}
	return true
}

// maxIssuerLabelByByte is, for each byte, the length in bytes of the
// longest issuer label that starts with it.
var maxIssuerLabelByByte = func() (m [256]int) {
	for _, l := range issuerLabels {
		m[l[0]] = max(m[l[0]], len(l))
	}
	return m
}()

// segmentByte marks the bytes a separator of segmentSeps starts with.
var segmentByte = func() (m [256]bool) {
	for _, sep := range segmentSeps {
		m[sep[0]] = true
	}
	return m
}()

// strongIssuerLabels are issuerLabels but the sender labels
// (weakIssuerLabels), in the same order.
var strongIssuerLabels = func() (out []string) {
	for _, l := range issuerLabels {
		if !weakIssuerLabels[l] {
			out = append(out, l)
		}
	}
	return out
}()

// strongIssuerLabelsByLast lists, for each byte, the strong issuer labels
// that end in it, in issuerLabels' order.
var strongIssuerLabelsByLast = func() (m [256][]string) {
	for _, l := range strongIssuerLabels {
		m[l[len(l)-1]] = append(m[l[len(l)-1]], l)
	}
	return m
}()

// opensBlocks reports whether every one of spans (capped) opens its line
// and its block: a blank line or the text's start above it, nothing before
// it on its line. addresseeBlock asks it of every span before it reads the
// document's blocks.
func (d *doc) opensBlocks(spans []Span) bool {
	for _, sp := range capped(spans) {
		li := d.lineOf(sp.Start)
		ls, _ := d.lineBounds(li)
		if !spacesOnly(d.rs[ls:sp.Start]) {
			return false
		}
		if li > 0 {
			ps, pe := d.lineBounds(li - 1)
			if !spacesOnly(d.rs[ps:pe]) {
				return false
			}
		}
	}
	return true
}

// equalFoldAny reports whether w is one of the lowercase ASCII words,
// compared as strings.EqualFold does: an ASCII w is lowered on the stack
// and looked up in set (the words as a set), any other w compared with
// each word (a rune beyond ASCII may fold to an ASCII letter, as the Kelvin
// sign does to k).
func equalFoldAny(w string, words []string, set map[string]bool) bool {
	if isASCII(w) {
		in, _ := lookupLower(set, nil, w)
		return in
	}
	return slices.ContainsFunc(words, func(t string) bool { return strings.EqualFold(w, t) })
}

// practitionerTitleSet and practitionerDegreeSet are practitionerTitles
// and practitionerDegrees as sets.
var practitionerTitleSet, practitionerDegreeSet = wordSet(practitionerTitles), wordSet(practitionerDegrees)

func wordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
