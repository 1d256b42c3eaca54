package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// keepBoundedCopy is keepBounded as it always copied the spans it kept.
func keepBoundedCopy(rs []rune, spans []Span, word func(rune) bool) []Span {
	var out []Span
	for _, s := range spans {
		if isBounded(rs, s, word) {
			out = append(out, s)
		}
	}
	return out
}

// wholeIdentifiersCopy is wholeIdentifiers as it always copied the spans
// it kept.
func wholeIdentifiersCopy(rs []rune, spans []Span) []Span {
	joiner := func(r rune) bool { return strings.ContainsRune("/-._", r) }
	var out []Span
	for _, sp := range spans {
		after := sp.End+1 < len(rs) && joiner(rs[sp.End]) && isAlnum(rs[sp.End+1])
		before := sp.Start >= 2 && joiner(rs[sp.Start-1]) && isAlnum(rs[sp.Start-2])
		if !after && !before {
			out = append(out, sp)
		}
	}
	return out
}

// Keeping the bounded spans, or the whole identifiers, without copying
// them when all are kept keeps what copying kept, nil when none: on random
// texts of letters, digits, joiners, spaces and a combining mark, with
// spans anywhere in them.
func TestBoundedSpansAreTheCopiedOnes(t *testing.T) {
	alphabet := []rune("ab1 -/.é\u0301")
	rng := rand.New(rand.NewPCG(19, 23))
	for range 20000 {
		rs := make([]rune, 1+rng.IntN(30))
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		var spans []Span
		if rng.IntN(8) > 0 {
			spans = []Span{}
		}
		for range rng.IntN(5) {
			a := rng.IntN(len(rs))
			spans = append(spans, Span{Start: a, End: a + 1 + rng.IntN(len(rs)-a)})
		}
		for name, word := range map[string]func(rune) bool{"alnum": isAlnum, "letter": unicode.IsLetter} {
			in := append([]Span(nil), spans...)
			if got, want := keepBounded(rs, in, word), keepBoundedCopy(rs, spans, word); !reflect.DeepEqual(got, want) {
				t.Fatalf("keepBounded(%s) of %v in %q = %v, copying kept %v", name, spans, string(rs), got, want)
			}
		}
		in := append([]Span(nil), spans...)
		if got, want := wholeIdentifiers(rs, in), wholeIdentifiersCopy(rs, spans); !reflect.DeepEqual(got, want) {
			t.Fatalf("wholeIdentifiers of %v in %q = %v, copying kept %v", spans, string(rs), got, want)
		}
	}
}
