package pipeline

import (
	"math/rand/v2"
	"testing"
)

// allowedASCII8 answers as the byte rule on every byte value at every place
// of a window, and on windows of two or three odd bytes among letters.
func TestAllowedASCII8IsTheByteRule(t *testing.T) {
	allowed := func(c byte) bool {
		return c < 0x80 && (c >= 0x20 && c != 0x7f || c == '\t' || c == '\n' || c == '\r' || c == '\f')
	}
	check := func(w []byte) {
		want := true
		for _, c := range w {
			want = want && allowed(c)
		}
		if got := allowedASCII8(string(w)); got != want {
			t.Fatalf("allowedASCII8(%q) = %v, the byte rule says %v", w, got, want)
		}
	}
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			check(w)
		}
	}
	r := rand.New(rand.NewPCG(1, 8))
	for range 200000 {
		w := []byte("ABCD efg")
		for range 1 + r.IntN(3) {
			w[r.IntN(8)] = byte(r.IntN(256))
		}
		check(w)
	}
}
