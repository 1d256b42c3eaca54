package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The label lookups below were written first as a scan of the whole list;
// these tests keep those scans and compare the indexed lookups with them.

func addressWordInByList(toks []string) string {
	bare := toks
	for len(bare) > 0 && honorifics[bare[len(bare)-1]] {
		bare = bare[:len(bare)-1]
	}
	for i, l := range addressWordToks {
		if slices.Equal(bare, l) {
			return addressWords[i]
		}
	}
	return ""
}

func labelLineByList(line string) (string, bool) {
	toks := LabelTokens(line)
	if len(toks) == 0 {
		return "", true
	}
	for i, l := range customerLabelToks {
		if slices.Equal(toks, l) {
			return customerLabels[i], true
		}
	}
	for i, l := range addressWordToks {
		if slices.Equal(toks, l) {
			return addressWords[i], true
		}
	}
	return "", false
}

func suffixLabelByList(toks []string, labels [][]string) string {
	for _, l := range labels {
		if len(l) > 0 && len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) {
			return strings.Join(l, " ")
		}
	}
	return ""
}

func (d *doc) nearCardLineByTokens(li int) bool {
	for k := max(li-3, 0); k < len(d.lineStarts) && k <= li+3; k++ {
		ls, le := d.lineBounds(k)
		if slices.ContainsFunc(LabelTokens(d.str(ls, le)), func(w string) bool { return cardWords[w] }) {
			return true
		}
	}
	return false
}

func (d *doc) cardIssuerLabelByTokens(li int, before string) string {
	if strings.TrimSpace(before) == "" {
		return ""
	}
	toks := LabelTokens(before)
	for _, l := range cardIssuerLabels {
		if len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) && d.nearCardLineByTokens(li) {
			return "card issuer"
		}
	}
	return ""
}

// partyTexts are random texts of the label lists' own words, in any case,
// with honorifics, separators, digits and words beyond ASCII.
func partyTexts(n int) []string {
	var words []string
	for _, ls := range [][][]string{customerLabelToks, addressWordToks, insurerFieldLabels, roleFieldLabels,
		debitHolderLabels, companyFieldLabels, cardIssuerLabels} {
		for _, l := range ls {
			words = append(words, l...)
		}
	}
	for w := range cardWords {
		words = append(words, w)
	}
	for h := range honorifics {
		words = append(words, h)
	}
	words = append(words, "ACME", "Sdn", "7", "x", "Müller", "東京", "\u212a")
	seps := []string{" ", "  ", ": ", ":", "-", ". ", "/", "   ", "\n", "\n\n", "：", " 12.50\n"}
	r := rand.New(rand.NewPCG(21, 23))
	var texts []string
	for range n {
		texts = append(texts, randomPhrase(r, words, seps, 8, 3))
	}
	return texts
}

// randomPhrase joins up to maxWords-1 random words by random separators,
// upper-casing one word in upperOneIn: label lookups must answer alike in any
// case and spacing.
func randomPhrase(r *rand.Rand, words, seps []string, maxWords, upperOneIn int) string {
	var b strings.Builder
	for k := range r.IntN(maxWords) {
		if k > 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		w := words[r.IntN(len(words))]
		if r.IntN(upperOneIn) == 0 {
			w = strings.ToUpper(w)
		}
		b.WriteString(w)
	}
	return b.String()
}

func TestPartyLabelIndexesAnswerAsTheListScans(t *testing.T) {
	texts := append(partyTexts(20000), customerLabels...)
	texts = append(texts, addressWords...)
	hits := 0
	for _, s := range texts {
		toks := LabelTokens(s)
		if got, want := addressWordIn(toks), addressWordInByList(toks); got != want {
			t.Fatalf("%q: addressWordIn %q, the list scan %q", s, got, want)
		}
		gl, gok := labelLineByTokens(s)
		if wl, wok := labelLineByList(s); gl != wl || gok != wok {
			t.Fatalf("%q: labelLineByTokens %q %v, the list scan %q %v", s, gl, gok, wl, wok)
		}
		for _, ls := range []struct {
			idx  *suffixLabels
			list [][]string
		}{{insurerFieldSuffixes, insurerFieldLabels}, {roleFieldSuffixes, roleFieldLabels},
			{debitHolderSuffixes, debitHolderLabels}, {companyFieldSuffixes, companyFieldLabels}} {
			got, want := suffixLabel(toks, ls.idx), suffixLabelByList(toks, ls.list)
			if got != want {
				t.Fatalf("%q: suffixLabel %q, the list scan %q", s, got, want)
			}
			if want != "" {
				hits++
			}
		}
	}
	if hits < len(texts)/20 {
		t.Errorf("only %d suffix labels found in %d texts: the comparison says little", hits, len(texts))
	}
}

// nearCardLine reads ASCII lines in place and cardIssuerLabel passes over
// texts whose last word ends no card issuer label: both answer as reading
// every line's LabelTokens did.
func TestCardSlipChecksAnswerAsLabelTokens(t *testing.T) {
	texts := partyTexts(3000)
	schema := Invoice()
	found := 0
	for i := 0; i+3 < len(texts); i += 4 {
		text := strings.Join(texts[i:i+4], "\n")
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		for li := range d.lineStarts {
			if got, want := d.nearCardLine(li), d.nearCardLineByTokens(li); got != want {
				t.Fatalf("%q line %d: nearCardLine %v, by tokens %v", text, li, got, want)
			}
			ls, le := d.lineBounds(li)
			for _, before := range []string{d.str(ls, le), texts[(i+li)%len(texts)], "Card issued by ", "EMISOR:"} {
				got, want := d.cardIssuerLabel(li, before), d.cardIssuerLabelByTokens(li, before)
				if got != want {
					t.Fatalf("%q line %d, %q: cardIssuerLabel %q, by tokens %q", text, li, before, got, want)
				}
				if want != "" {
					found++
				}
			}
		}
	}
	if found == 0 {
		t.Error("no card issuer label found: the comparison says little")
	}
}

// stemSet.in finds a stem where strings.Contains finds it in the line
// lowered (strings.ToLower beyond ASCII, then every ASCII capital): the
// byte tables that hold a capital's letter change no answer.
func TestStemSetInIsContainsLowered(t *testing.T) {
	sets := []*stemSet{selfBillingStems, taxOfficeStems, sellerStems, nonInvoiceStems, assignmentStems}
	var parts []string
	for _, st := range sets {
		for _, s := range st.stems {
			parts = append(parts, s, strings.ToUpper(s), upperFirst(s), s[:len(s)/2], s[len(s)/2:])
		}
	}
	parts = append(parts, " ", "İ", "\u212a", "\xff", "ÄÖÜ", "x", "@", "[", "`", "{", "请求书")
	rng := rand.New(rand.NewPCG(29, 31))
	found := 0
	for range 30000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		line := b.String()
		low := line
		if !isASCII(low) {
			low = strings.ToLower(low)
		}
		low = strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, low)
		for _, st := range sets {
			want := slices.ContainsFunc(st.stems, func(s string) bool { return strings.Contains(low, s) })
			if got := st.in(line); got != want {
				t.Fatalf("in(%q) = %v, strings.Contains in %q says %v", line, got, low, want)
			}
			if want {
				found++
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d stems found: the comparison says little", found)
	}
}

// mayHoldRegistrationByWords is mayHoldRegistration before it hashed the
// words as it read them; a line beyond ASCII by its LabelTokens.
func mayHoldRegistrationByWords(line string) bool {
	if !isASCII(line) {
		return slices.ContainsFunc(LabelTokens(line), func(w string) bool { _, ok := registrationsByFirst[w]; return ok })
	}
	for i := 0; i < len(line); {
		for i < len(line) && !asciiWordByte(line[i]) {
			i++
		}
		j := i
		for j < len(line) && asciiWordByte(line[j]) {
			j++
		}
		if j > i {
			if _, ok := lookupLower(registrationsByFirst, registrationFirstWords, line[i:j]); ok {
				return true
			}
		}
		i = j
	}
	return false
}

func TestMayHoldRegistrationAnswersAsBefore(t *testing.T) {
	var words []string
	for w := range registrationsByFirst {
		words = append(words, w, strings.ToUpper(w), upperFirst(w))
	}
	words = append(words, "no", "Acme", "12", "ß", "x", "&", strings.Repeat("v", 33), "\u212a")
	seps := []string{" ", "-", ".", ": ", "/", "", "\t", "é"}
	rng := rand.New(rand.NewPCG(37, 41))
	held := 0
	for range 30000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		l := b.String()
		want := mayHoldRegistrationByWords(l)
		if got := mayHoldRegistration(l); got != want {
			t.Fatalf("mayHoldRegistration(%q) = %v, was %v", l, got, want)
		}
		if want && isASCII(l) {
			held++
		}
	}
	if held < 1000 {
		t.Errorf("only %d ASCII lines may hold a label: the comparison says little", held)
	}
}

// A text mayEndInSenderLabel turns away has words, and no sender label
// ends them: senderNotIssuer's label test would fail on it.
func TestSenderLabelScreenTurnsAwayOnlyTextsWithoutLabels(t *testing.T) {
	var words []string
	for _, l := range senderLabels {
		for _, w := range l {
			if isASCII(w) && len(w) > maxLookupWord {
				t.Errorf("sender label word %q is longer than maxLookupWord", w)
			}
			words = append(words, w, strings.ToUpper(w))
		}
	}
	words = append(words, "Acme", "12", "name", "details", "s", "&", "é", "東京")
	seps := []string{" ", ": ", "'", "-", "\t", "", "("}
	rng := rand.New(rand.NewPCG(53, 59))
	turned, passed := 0, 0
	for range 30000 {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		before := b.String()
		toks := LabelTokens(before)
		label := slices.IndexFunc(senderLabels, func(l []string) bool {
			return len(toks) >= len(l) && slices.Equal(toks[len(toks)-len(l):], l)
		})
		if mayEndInSenderLabel(before) {
			passed++
			continue
		}
		turned++
		if len(toks) == 0 || label >= 0 {
			t.Fatalf("%q: turned away, but its words %q end sender label %d", before, toks, label)
		}
	}
	if turned < 1000 || passed < 1000 {
		t.Errorf("%d turned away, %d passed: the comparison says little", turned, passed)
	}
}
