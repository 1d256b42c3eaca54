package pipeline

import (
	"math/bits"
	"unicode/utf8"
)

// wordShapes are the shapes of a word set's members: bit n of [c] is set
// when a member n runes long starts with the ASCII rune c. The passes over
// a document look most of its words up in some set, and most words have no
// member's shape: those need neither lowering nor a lookup.
type wordShapes [utf8.RuneSelf]uint32

func shapesOf[V any](set map[string]V) *wordShapes {
	var s wordShapes
	for w := range set {
		if f, _ := utf8.DecodeRuneInString(w); f < utf8.RuneSelf {
			if n := utf8.RuneCountInString(w); n < 32 {
				s[f] |= 1 << n
			}
		}
	}
	return &s
}

// mayHold reports whether a word of n runes whose first rune lowers to f
// may be a member: false only when f is ASCII and no member has that
// initial and length.
func (s *wordShapes) mayHold(f rune, n int) bool {
	return uint32(f) >= utf8.RuneSelf || n >= 32 || s[f]&(1<<n) != 0
}

// wordHashes is a set of word hashes as a bit table: a screen before a
// costlier lookup, for a pass that would otherwise look up nearly every
// word of a document. It may let a word through that is no member (at most
// about one in 32 of the words that are none), never the other way: the
// caller's own lookup decides.
type wordHashes struct {
	bits  []uint64
	shift uint // a hash's top 32-shift bits index bits
}

// newWordHashes sizes the table at 32 bits or more per member, a power of
// two.
func newWordHashes(hs []uint32) *wordHashes {
	size := uint(64 * 64)
	for size < 32*uint(len(hs)) {
		size <<= 1
	}
	w := &wordHashes{bits: make([]uint64, size/64), shift: 32 - uint(bits.Len(size-1))}
	for _, h := range hs {
		h >>= w.shift
		w.bits[h>>6] |= 1 << (h & 63)
	}
	return w
}

// has reports whether a word of hash h may be a member.
func (w *wordHashes) has(h uint32) bool {
	h >>= w.shift
	return w.bits[h>>6]&(1<<(h&63)) != 0
}

// wordHashStep adds rune r to a word's hash h (FNV-1a); the hash of a word
// starts at wordHashSeed.
func wordHashStep(h uint32, r rune) uint32 { return (h ^ uint32(r)) * 16777619 }

const wordHashSeed = 2166136261

// hashesOf is the screen of a word set's members.
func hashesOf[V any](set map[string]V) *wordHashes {
	hs := make([]uint32, 0, len(set))
	for w := range set {
		h := uint32(wordHashSeed)
		for _, r := range w {
			h = wordHashStep(h, r)
		}
		hs = append(hs, h)
	}
	return newWordHashes(hs)
}
