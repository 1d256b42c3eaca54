package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// searchAsideCues is the aside-cue scan as first written: each cue searched
// for in turn, every occurrence after no letter, the leftmost kept (the
// first cue in list order where two start together).
func searchAsideCues(line string) (int, string) {
	at, cue := -1, ""
	for _, c := range asideCues {
		for from := 0; from < len(line); {
			i := -1
			for k := from; k+len(c) <= len(line); k++ {
				if foldPrefix(line[k:], c) {
					i = k
					break
				}
			}
			if i < 0 {
				break
			}
			if r, _ := utf8.DecodeLastRuneInString(line[:i]); (i == 0 || !unicode.IsLetter(r)) && (at < 0 || i < at) {
				at, cue = i, c
			}
			from = i + 1
		}
	}
	return at, cue
}

// firstAsideCue finds in one pass what searching for each cue finds, on
// lines of cues, letters glued to them, other scripts and the receipts'.
func TestFirstAsideCueIsEachCueSearched(t *testing.T) {
	if len(asideCues) > 256 {
		t.Fatal("asideCuesByFirst indexes the cues with a byte")
	}
	for _, c := range asideCues {
		if c != strings.ToLower(c) {
			t.Errorf("aside cue %q is not lowercase: foldPrefix would never match it", c)
		}
	}
	lines := []string{"Total AED 10,500.00 (≈ USD 2,859.08)", "USD equivalent (for information only): USD 2,859.08",
		"Gegenwert zur Information: 1.234,00 EUR", "inequivalent 5", "FOR INFORMATION ONLY", "approx.approx",
		"à titre indicatif: 5 €", "À TITRE INDICATIF", "ما يعادل 5", "Эквивалент 100", "справочно", ""}
	for _, r := range loadReceipts(t) {
		lines = append(lines, strings.Split(r.Text, "\n")...)
	}
	pieces := []string{"for ", "information", " only", "equiv.", "Equivalent", "≈", "approx", "x", "é", " ", "(", "1",
		"Zur Info", "Gegenwert", "эквивалент", "للعلم فقط", "à titre d'information", "conversion rate", "A"}
	rng := rand.New(rand.NewPCG(2, 7))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	found := 0
	for _, l := range lines {
		low := l
		if !isASCII(l) {
			low = strings.ToLower(l) // as asideCue reads it
		}
		gotAt, gotCue := firstAsideCue(low)
		wantAt, wantCue := searchAsideCues(low)
		if gotAt != wantAt || gotCue != wantCue {
			t.Fatalf("%q: firstAsideCue %d %q, each cue searched %d %q", low, gotAt, gotCue, wantAt, wantCue)
		}
		if gotAt >= 0 {
			found++
		}
	}
	if found < len(lines)/10 {
		t.Errorf("only %d of %d lines hold a cue: the comparison says little", found, len(lines))
	}
}
