package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// isTaxHeaderLine, reading an ASCII letter's class and case at once and
// looking its words up by their hashes, finds the headers that
// isTaxHeaderLine with isLetter, toLower and a map look-up found: on
// random lines of header words, item words and others, in any case and
// script.
func TestTaxHeaderLineReadsWordsAsBefore(t *testing.T) {
	words := []string{"GST", "gst", "Tax", "VAT", "MwSt", "tva", "IVA", "amount", "AMT", "Netto", "excl", "SUMMARY",
		"ht", "消費税", "税抜", "item", "QTY", "Description", "price", "Menge", "RM", "6%", "(RM)", "S", "Z",
		"İtem", "ÀMOUNT", "Ａｍｏｕｎｔ", "ΦΠΑ", "x1", "@", "K", "taxé"}
	seps := []string{" ", "  ", "\t", ":", "-", "(", ")", "/", "1", "é"}
	rng := rand.New(rand.NewPCG(6, 0))
	headers := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			w := words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 {
				w = strings.ToUpper(w)
			}
			b.WriteString(w)
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		rs := []rune(b.String())
		n := 1 + rng.IntN(9)
		got, want := isTaxHeaderLine(rs, 0, len(rs), n), isTaxHeaderLineByToLower(rs, 0, len(rs), n)
		if got != want {
			t.Fatalf("%q (%d words): %v, want %v", b.String(), n, got, want)
		}
		if got {
			headers++
		}
	}
	if headers < 1000 {
		t.Errorf("only %d of the lines are headers: too few to compare", headers)
	}
}

// isTaxHeaderLineByToLower is isTaxHeaderLine as it was: each rune asked
// isLetter, then lowered, and a word the screens let through lowered into
// a key of taxHeaderClass.
func isTaxHeaderLineByToLower(rs []rune, lo, hi, n int) bool {
	tax, col := false, false
	line := rs[lo:hi]
	for i, found := 0, 0; found < n && i < len(line); {
		if !isLetter(line[i]) {
			i++
			continue
		}
		j, h := i, uint32(wordHashSeed)
		for j < len(line) && isLetter(line[j]) {
			h = wordHashStep(h, toLower(line[j]))
			j++
		}
		found++
		w := line[i:j]
		i = j
		if !taxHeaderShapes.mayHold(toLower(w[0]), len(w)) || !taxHeaderHashes.has(h) {
			continue
		}
		c := taxHeaderWord(w)
		if c&headerItem != 0 {
			return false
		}
		tax = tax || c&headerTax != 0
		col = col || c&headerCol != 0
	}
	return tax && col
}

// taxHeaderWord is the classes of w, lowered, in taxHeaderClass.
func taxHeaderWord(w []rune) uint8 {
	var buf [48]byte
	b, ok := lowerWord(buf[:0], w)
	if !ok {
		return 0
	}
	return taxHeaderClass[string(b)]
}
