package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// searchRegistrationCues is registrationCues as first written: each label
// searched for in the line's words in turn.
func searchRegistrationCues(toks []string) (n int, bank bool, first int) {
	first = -1
	note := func(i int) {
		n++
		if first < 0 || i < first {
			first = i
		}
	}
	for _, l := range registrationLabels {
		if i := tokenRun(toks, l); i >= 0 {
			note(i)
		}
	}
	for _, l := range bankLabels {
		if i := tokenRun(toks, l); i >= 0 {
			note(i)
			bank = true
		}
	}
	return n, bank, first
}

// registrationCues finds from each word what searching for every label
// finds, on the receipts' lines and random runs of label words.
func TestRegistrationCuesIsEachLabelSearched(t *testing.T) {
	if n := len(registrationLabels) + len(bankLabels); n > 4*64 {
		t.Fatalf("%d labels: registrationCues counts them in 256 bits", n)
	}
	var words []string
	for k := range len(registrationLabels) + len(bankLabels) {
		l, _ := registrationLabel(k)
		if len(l) == 0 {
			t.Fatalf("label %d has no words: every line would hold it", k)
		}
		words = append(words, l...)
	}
	words = append(words, "acme", "ltd", "12345", "no", "nr", "vat")
	lines := [][]string{LabelTokens("ACME Oy | Y-tunnus 1234567-8 | IBAN FI21 1234 | BIC NDEAFIHH"), LabelTokens("VAT No: GB123 VAT No: GB456")}
	for _, r := range loadReceipts(t) {
		for l := range strings.SplitSeq(r.Text, "\n") {
			lines = append(lines, LabelTokens(l))
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for range 5000 {
		toks := make([]string, rng.IntN(9))
		for i := range toks {
			toks[i] = words[rng.IntN(len(words))]
		}
		lines = append(lines, toks)
	}
	found := 0
	for _, toks := range lines {
		n, bank, first := registrationCues(toks)
		wn, wbank, wfirst := searchRegistrationCues(toks)
		if n != wn || bank != wbank || first != wfirst {
			t.Fatalf("%q: registrationCues %d %v %d, each label searched %d %v %d", toks, n, bank, first, wn, wbank, wfirst)
		}
		if n > 0 {
			found++
		}
	}
	if found < len(lines)/4 {
		t.Errorf("only %d of %d lines hold a label: the comparison says little", found, len(lines))
	}
}

// A line mayHoldRegistration turns away holds no label registrationCues
// counts, and the labels' first words fit its buffer.
func TestMayHoldRegistrationTurnsAwayOnlyLinesWithoutLabels(t *testing.T) {
	for w := range registrationsByFirst {
		if len(w) > maxLookupWord {
			t.Errorf("label word %q is longer than maxLookupWord", w)
		}
	}
	lines := []string{"ACME Oy | Y-tunnus 1234567-8", "VAT No: GB123", "IBAN: FI21", "Straße 5, USt-IdNr.: DE1", "Company Number 0123",
		"Hauptstraße 5",
		"x" + strings.Repeat("a", 40) + " vat", strings.Repeat("b", 40), "", "   ", "TVA: FR12", "P.IVA 0123", "ABN: 12 345"}
	for _, r := range loadReceipts(t) {
		lines = append(lines, strings.Split(r.Text, "\n")...)
	}
	var words []string
	for w := range registrationsByFirst {
		words = append(words, w, strings.ToUpper(w))
	}
	words = append(words, "no", "NR", "iva", "Reg", "Acme", "12", "ß", "x")
	seps := []string{" ", "-", ".", ": ", "/", ""}
	rng := rand.New(rand.NewPCG(6, 1))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		lines = append(lines, b.String())
	}
	turned := 0
	for _, l := range lines {
		if mayHoldRegistration(l) {
			continue
		}
		turned++
		if n, _, _ := registrationCues(LabelTokens(l)); n > 0 {
			t.Errorf("%q: turned away, but it holds %d labels", l, n)
		}
	}
	if turned < len(lines)/2 {
		t.Errorf("only %d of %d lines turned away: the screen does little", turned, len(lines))
	}
	for _, l := range lines[:5] {
		if !mayHoldRegistration(l) {
			t.Errorf("%q holds a label but is turned away", l)
		}
	}
}
