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

// chooseLabel picks what it picked before its word sets were screened and
// the words after a label were read only when a test needs them: on random
// segments of money labels and qualifier words.
func TestChooseLabelAsWritten(t *testing.T) {
	idx := Invoice().labelSets()
	money := idx.labels[:idx.split]
	words := []string{"incl", "INCL.", "excl", "in", "In", "total", "amount", "with", "less", "before", "inkl", "gross",
		"@", "6%", "(", ")", ",", "rm", "x", "Betrag", "金額"}
	rng := rand.New(rand.NewPCG(2, 71))
	picked := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			if rng.IntN(2) == 0 {
				b.WriteString(string(money[rng.IntN(len(money))].folded))
			} else {
				b.WriteString(words[rng.IntN(len(words))])
			}
			b.WriteString([]string{" ", "  ", ": ", ". ", ", "}[rng.IntN(5)])
		}
		text := b.String()
		if rng.IntN(2) == 0 {
			text = strings.ToUpper(text)
		}
		rs := narrowRunes(text)
		hits := findLabels(rs, foldRunes(rs, foldSpaces), idx, nil)
		lo, hi := 0, len(rs)
		if len(rs) > 4 && rng.IntN(3) == 0 {
			lo = rng.IntN(len(rs) / 2)
		}
		var in []labelHit
		for _, h := range hits {
			if h.start >= lo && h.end <= hi {
				in = append(in, h)
			}
		}
		got, gotOK := chooseLabel(rs, in, lo, hi)
		want, wantOK := chooseLabelAsWritten(rs, in, lo, hi)
		if got != want || gotOK != wantOK {
			t.Fatalf("%q [%d, %d): %+v %v, want %+v %v", text, lo, hi, got, gotOK, want, wantOK)
		}
		if gotOK {
			picked++
		}
	}
	if picked < 5000 {
		t.Errorf("a label picked in only %d segments: too few to compare", picked)
	}
}

// chooseLabelAsWritten is chooseLabel before its word sets were screened
// and the words after a label read only when needed.
// chooseLabel picks the label that names a number from the hits in the
// segment [lo, hi) next to it: the nearest one that is not a qualifier of
// another, with the qualifiers around it deciding what the figure is.
func chooseLabelAsWritten(rs []rune, hits []labelHit, lo, hi int) (labelHit, bool) {
	if len(hits) == 0 {
		return labelHit{}, false // most segments, asked of every amount
	}
	var kb [4]labelHit
	keep := kb[:0]
	excluded, included := false, false
	var qualifier labelHit // the last tax label read as a qualifier
	contained := false     // a label after "included in": the figure is a part of it
	gross := false         // "amount incl. GST": the amount that holds the tax
	var bb, ab [2]wordSpan
	for _, h := range hits {
		before := wordSpans(rs, h.start, -1, 2, lo, hi, bb[:0])
		after := wordSpans(rs, h.end, +1, 2, lo, hi, ab[:0])
		after1 := after[:min(1, len(after))]
		if len(before) > 0 && inSet(rs, before[0], inWords) {
			// "G 6% INCLUDED IN TOTAL 0.45": the container, not the figure.
			contained = contained || len(before) > 1 && inSet(rs, before[1], inclusionWords)
			if len(keep) == 0 && contained {
				qualifier, included = h, true
				qualifier.role = RoleTax
			}
			continue
		}
		if len(keep) > 0 && (anyInSpans(rs, after1, inWords) || len(after) == 2 && inSet(rs, after[1], inWords) && inSet(rs, after[0], modifierWords)) {
			// "GST included in total", "tax in total": the head of the phrase
			// names the figure, what follows says where it is contained.
			keep = append(keep, h)
			break
		}
		if h.role == RoleTax && (anyInSpans(rs, before, modifierWords) || len(keep) > 0 && anyInSpans(rs, after1, modifierWords) ||
			len(keep) > 0 && atBefore(rs, h.start, lo)) {
			// "NET AMT @ GST 6%": the rate a base is taxed at, not the tax.
			if anyInSpans(rs, before, exclusionWords) || anyInSpans(rs, after1, exclusionWords) {
				excluded = true
			} else {
				included = true
			}
			qualifier = h
			gross = len(before) == 2 && inSet(rs, before[0], inclusionWords) && inSet(rs, before[1], grossNouns)
			continue
		}
		if h.role == roleOther && len(keep) > 0 && anyInSpans(rs, before, modifierWords) {
			continue // "total after rounding"
		}
		if len(keep) > 0 && h.start < keep[len(keep)-1].end {
			continue // "SUB TOTAL RM": "total rm" starts inside "sub total"
		}
		keep = append(keep, h)
	}
	if len(keep) == 0 {
		// Only a qualified tax label: "AMT. EXCL. GST 50.00" is the pre-tax
		// amount; "INC. GST 6% : 0.23" is the tax the total includes.
		if qualifier.end == 0 {
			return labelHit{}, false
		}
		switch {
		case excluded && !contained:
			qualifier.role = RoleSubtotal
		case gross && !excluded:
			qualifier.role = RoleTotal
		}
		return qualifier, true
	}
	best := keep[len(keep)-1]
	// A tax qualifier says what the figure is: "total (excluding GST)" is a
	// subtotal, "amt paid incl GST" is the total, not cash tendered, and a
	// "sub-total (incl. GST)" already holds its tax.
	switch {
	case excluded && (best.role == RoleTotal || best.role == roleOther):
		best.role = RoleSubtotal
	case included && (best.role == roleOther || best.role == RoleSubtotal):
		best.role = RoleTotal
	}
	return best, true
}

// firstHitFrom, the binary search hitFrom replaced, is the index of the
// first hit starting at or after p (hits are sorted by start).
func firstHitFrom(hits []labelHit, p int) int {
	lo, hi := 0, len(hits)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if hits[m].start < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
