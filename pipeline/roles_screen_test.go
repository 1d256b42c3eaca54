package pipeline

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// hitFrom answers what firstHitFrom answers from any starting hit: near,
// far, past either end, on hits that share starts.
func TestHitFromIsFirstHitFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	for range 5000 {
		hits := make([]labelHit, rng.IntN(40))
		for i := range hits {
			hits[i].start = rng.IntN(60)
		}
		slices.SortFunc(hits, func(a, b labelHit) int { return a.start - b.start })
		for range 20 {
			p, at := rng.IntN(70)-5, rng.IntN(len(hits)+10)-5
			if got, want := hitFrom(hits, p, at), firstHitFrom(hits, p); got != want {
				t.Fatalf("hitFrom(%v, %d, %d) = %d, want %d", hits, p, at, got, want)
			}
		}
	}
}

// A screened set holds what its map holds, whatever the word's case,
// script or length, and whether or not its runes are valid.
func TestScreenedWordsAreTheirSets(t *testing.T) {
	sets := []screenedWords{modifierSet, exclusionSet, inclusionSet, grossSet, inWordSet}
	var words [][]rune
	add := func(ws ...string) {
		for _, w := range ws {
			words = append(words, []rune(w))
		}
	}
	for _, s := range sets {
		for w := range s.words {
			add(w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:], w+"s", w[:len(w)-1])
		}
	}
	add("İn", "KELVİN", "ın", "BELØB", "金額", "x", strings.Repeat("incl", 13))
	words = append(words, []rune{'i', 0xD800}, []rune{'i', -1}, []rune{0x110000, 'n'})
	for _, w := range words {
		rs := append([]rune("( "), w...)
		span := wordSpan{2, len(rs)}
		for i, s := range sets {
			if got, want := s.has(rs, span), inSet(rs, span, s.words); got != want {
				t.Errorf("set %d has %q: %v, want %v", i, string(w), got, want)
			}
		}
	}
	if !modifierSet.has([]rune("INCL."), wordSpan{0, 4}) || grossSet.has([]rune("amounts"), wordSpan{0, 7}) {
		t.Error(`"INCL" must be a modifier and "amounts" no gross noun`)
	}
}

// clausePunctAt lets through exactly the runes isClauseBreak may break at.
func TestClausePunctIsIsClauseBreaksRunes(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		rs := []rune{r, ' '}
		if got, want := clausePunctAt(r) && isClauseBreak(rs, 0), isClauseBreak(rs, 0); got != want {
			t.Fatalf("%U: clausePunctAt and isClauseBreak %v, isClauseBreak alone %v", r, got, want)
		}
	}
}

// aloneASCIIRune, then aloneRune for what it refuses, answers what
// aloneRune alone answers and gathers the same letters.
func TestAloneASCIIRuneIsAloneRune(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		for n0 := 0; n0 <= 4; n0++ {
			var got, want [4]rune
			gn, wn := n0, n0
			gotOK := aloneASCIIRune(r, &got, &gn) || aloneRune(r, got[:], &gn)
			wantOK := aloneRune(r, want[:], &wn)
			if gotOK != wantOK || gn != wn || got != want {
				t.Fatalf("%U after %d letters: %v %d %q, want %v %d %q", r, n0, gotOK, gn, got, wantOK, wn, want)
			}
		}
	}
}
