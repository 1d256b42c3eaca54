package pipeline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The ASCII fast path of labelTokens cuts, lowercases and places every
// token exactly as the general path does.
func TestASCIILabelTokensAgreeWithGeneralPath(t *testing.T) {
	texts := []string{"", "TOTAL(INCL.GST)", "total incl gst", "  Sub-Total & Tax: 12.50 RM\n", "A&W  NSW 2000",
		"Invoice No.: INV-1001/26", "\t\x00\x7f~[]{}|`^_@", "abc123DEF", "&&&", "x"}
	// Every ASCII byte, and random ASCII strings over them.
	all := make([]byte, 128)
	for i := range all {
		all[i] = byte(i)
	}
	texts = append(texts, string(all))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(128))
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := asciiLabelTokens(s), runeLabelTokens(s); !slices.Equal(got, want) {
			t.Fatalf("%q: ascii path %v, general path %v", s, got, want)
		}
	}
}

// eachTokenSpan walks the tokens labelTokens cuts, at the same offsets.
func TestEachTokenSpanCutsAsLabelTokens(t *testing.T) {
	for _, s := range []string{"", "Sydney NSW 2000", "株式会社さくら商事 TEL 03-1234", "TOTAL(INCL.GST)&X", "Ünïcödé  straße 5a",
		"北京市 100000, NY 10013", "İstanbul VİC 3000", "ＡＢＣ １２３"} {
		var got []Span
		eachTokenSpan([]rune(s), func(sp Span) { got = append(got, sp) })
		var want []Span
		for _, tok := range labelTokens(s) {
			want = append(want, Span{Start: tok.start, End: tok.end})
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: eachTokenSpan %v, labelTokens %v", s, got, want)
		}
	}
}
