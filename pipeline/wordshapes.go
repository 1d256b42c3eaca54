package pipeline

import "unicode/utf8"

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
