package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// findEveryRune is find as it read every rune: the leftmost match, then the
// next one after it.
func findEveryRune(f folded, needle []rune) []Span {
	m := len(needle)
	if m == 0 || m > len(f.r) {
		return nil
	}
	var out []Span
	for k := 0; k+m <= len(f.r); {
		if f.r[k] == needle[0] && runesEqual(f.r[k:k+m], needle) {
			out = append(out, Span{Start: f.origin(k), End: f.endOf(k + m - 1)})
			k += m
			continue
		}
		k++
	}
	return out
}

// The skipping search finds what reading every rune finds, on texts of few
// runes (so needles recur and overlap), runes that share a low byte
// ('a' U+0061 and 'š' U+0161, 'A' and 'Ł' U+0141) and folded texts that
// dropped space runs.
func TestFindSkippingFindsWhatEveryRuneFinds(t *testing.T) {
	alphabet := []rune{'a', 'b', 'š', 'Ł', 'A', ' ', '1', 'ő'}
	rng := rand.New(rand.NewPCG(3, 5))
	pick := func(n int) []rune {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return rs
	}
	for range 30000 {
		text := string(pick(rng.IntN(60)))
		f := foldRunes([]rune(text), foldSpaces)
		var needle []rune
		if len(f.r) > 0 && rng.IntN(2) == 0 {
			// A needle cut from the text occurs at least once.
			a := rng.IntN(len(f.r))
			needle = f.r[a : a+min(len(f.r)-a, 1+rng.IntN(12))]
		} else {
			needle = foldNeedle(string(pick(1+rng.IntN(12))), foldSpaces)
		}
		if got, want := f.find(needle), findEveryRune(f, needle); !reflect.DeepEqual(got, want) {
			t.Fatalf("find(%q in %q) = %v, reading every rune finds %v", string(needle), text, got, want)
		}
	}
}

// A hit's text is its runes as written, beyond ASCII too, where the texts
// are cut from one string: on the golden documents and on a text with more
// hits than keptHits notes on the stack.
func TestKeptHitTextsAreTheirRunes(t *testing.T) {
	texts := []string{strings.Repeat("Gesamtbetrag 9,90 MwSt 1,58 Rechnungsnummer Ä-1\n", 40),
		"ＴＯＴＡＬ　１２．５０\nMwSt-Nr DE123 Rechnungsnummer 4711 Gesamtbetrag 9,90"}
	for _, g := range goldenDocuments(t) {
		texts = append(texts, g.text)
	}
	both := Invoice().labelSets()
	for _, text := range texts {
		rs := narrowRunes(text)
		for _, hits := range findLabelSets(rs, "", foldRunes(rs, foldSpaces), both, nil, nil) {
			for _, h := range hits {
				if h.text != string(rs[h.start:h.end]) {
					t.Fatalf("hit [%d,%d) of %.40q reads %q, its runes %q", h.start, h.end, text, h.text, string(rs[h.start:h.end]))
				}
			}
		}
	}
}

// The byte search of an ASCII text's fold finds what reading every rune
// finds: on ASCII texts of few bytes (so needles recur and overlap), with
// space runs the fold drops, needles beyond ASCII and needles long enough
// for the skipping search.
func TestFindBytesFindsWhatEveryRuneFinds(t *testing.T) {
	alphabet := []byte("abA  1-\n\t")
	rng := rand.New(rand.NewPCG(7, 11))
	sc := new(scratch)
	for range 30000 {
		b := make([]byte, rng.IntN(100))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		text := string(b)
		_, f, ascii, _ := textRunes(text, sc)
		if ascii == "" && text != "" || f.b == nil {
			t.Fatalf("textRunes(%q) kept no ASCII fold", text)
		}
		var needle []rune
		switch k := rng.IntN(4); {
		case len(f.r) > 0 && k < 2:
			// A needle cut from the text occurs at least once.
			a := rng.IntN(len(f.r))
			needle = f.r[a : a+min(len(f.r)-a, 1+rng.IntN(12))]
		case k == 2:
			needle = foldNeedle(string(b[:rng.IntN(len(b)+1)])+"é", foldSpaces)
		default:
			needle = foldNeedle(string(alphabet[rng.IntN(3)])+string(alphabet[rng.IntN(3)]), foldSpaces)
		}
		if got, want := f.find(needle), findEveryRune(f, needle); !reflect.DeepEqual(got, want) {
			t.Fatalf("find(%q in %q) = %v, reading every rune finds %v", string(needle), text, got, want)
		}
	}
}
