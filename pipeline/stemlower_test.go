package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// stemsInLowered is stemSet.in as it was written first: a line beyond
// ASCII lowered by strings.ToLower, then searched.
func stemsInLowered(st *stemSet, line string) bool {
	if !isASCII(line) {
		line = strings.ToLower(line)
	}
	return stemsIn(st, line)
}

// appendLower writes what strings.ToLower gives, in every script, for
// runes whose lowercase is longer or shorter than they are (U+023A, the
// Kelvin sign, U+0130) and for invalid bytes.
func TestAppendLowerIsToLower(t *testing.T) {
	lines := []string{"", "abc", "RECHNUNG für", "ΔΟΥ ΚΑΛΑΜΑΡΙΑΣ", "VERGİ DAİRESİ", "\u212a\u00c5", "\u023a\u023e",
		"bad \xff\xfe byte", "ÉCOLE Société", "СЧЁТ-ФАКТУРА", "セルフ請求書", "\xe2\x82", "Ⱥ" + strings.Repeat("Ä", 200)}
	for _, l := range lines {
		if got, want := string(appendLower(nil, l)), strings.ToLower(l); got != want {
			t.Errorf("appendLower(%q) = %q, strings.ToLower says %q", l, got, want)
		}
	}
}

// The stack-lowered stem search answers as the ToLower one on lines built
// from the stems, their capitals, non-ASCII letters and invalid bytes.
func TestStemSetInMatchesToLower(t *testing.T) {
	sets := []*stemSet{selfBillingStems, taxOfficeStems, sellerStems, nonInvoiceStems}
	var parts []string
	for _, st := range sets {
		for _, s := range st.stems {
			parts = append(parts, s, strings.ToUpper(s), s[:len(s)/2])
		}
	}
	parts = append(parts, " ", "İ", "\u212a", "Ⱥ", "\xff", "ÄÖÜ", "äöü", "ΔΟΥ", "δου", "Σ", "x", ":", "請求書", "–", strings.Repeat("é", 130))
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		line := b.String()
		for _, st := range sets {
			if got, want := st.in(line), stemsInLowered(st, line); got != want {
				t.Fatalf("in(%q) = %v, the ToLower search says %v", line, got, want)
			}
		}
	}
}
