package pipeline

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// wideLabelTexts are random phrases beyond ASCII of the words the party
// checks look for (customer labels, address words, honorifics, legal
// forms, title, card and registration words), in any case, with letters
// beyond ASCII glued to them, CJK, digits of other scripts, an invalid
// byte and runes that lower to ASCII (İ, the Kelvin sign).
func wideLabelTexts(n int) []string {
	words := []string{"Müller", "Söhne", "straße", "ÉMETTEUR", "Café", "株式会社", "さくら", "請求書", "御中", "様",
		"ΑΦΜ", "ΔΟΥ", "инн", "Счёт", "카드", "٣٤٥", "１２", "İstanbul", "\u212aarte", "ß", "\xff", "é", "Ünï"}
	for _, l := range [][]string{customerLabels, addressWords, titleWordList(), legalFormWords(), mapKeys(cardWords),
		mapKeys(honorifics), mapKeys(nameContinuations), mapKeys(registrationsByFirst)} {
		words = append(words, l...)
	}
	seps := []string{" ", "  ", ": ", ", ", ".", "-", "/", "(", ") ", "\t", "·", "　", "", "1"}
	r := rand.New(rand.NewPCG(17, 19))
	out := make([]string, 0, n)
	for len(out) < n {
		s := randomPhrase(r, words, seps, 7, 4)
		if r.IntN(3) == 0 && utf8.ValidString(s) {
			s = upperFirst(s)
		}
		out = append(out, s+[]string{"", "é", " 株", " 123"}[r.IntN(4)])
	}
	return out
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func titleWordList() []string { return mapKeys(titleWords) }

func legalFormWords() []string {
	var out []string
	for _, f := range legalForms {
		out = append(out, strings.Join(f, " "), strings.Join(f, "."))
	}
	return out
}

// The words read into stack arrays are LabelTokens' words, and every
// question asked of them is answered as LabelTokens' list answers it.
func TestKeyWordsAnswerAsLabelTokens(t *testing.T) {
	texts := append(wideLabelTexts(30000), "", " ", "株式会社", "Herrn Müller", "Müller & Söhne GmbH", strings.Repeat("é ", 30),
		strings.Repeat("ü", 200))
	hits := map[string]int{}
	for _, s := range texts {
		toks := LabelTokens(s)
		var b wordBufs
		lw, ok := b.words(s)
		if !ok {
			hits["long"]++
			continue
		}
		got := make([]string, len(lw.ws))
		for i := range lw.ws {
			got[i] = string(lw.word(i))
			if h := hashOf(got[i]); lw.hs[i] != h {
				t.Fatalf("%q: word %q hashed %d, hashesOf gives %d", s, got[i], lw.hs[i], h)
			}
		}
		if !slices.Equal(got, toks) {
			t.Fatalf("%q: words %q, LabelTokens %q", s, got, toks)
		}
		if g, w := lw.customerLabel(), customerLabelIn(toks); g != w {
			t.Fatalf("%q: customerLabel %q, customerLabelIn %q", s, g, w)
		} else if g != "" {
			hits["customer"]++
		}
		gl, gok := lw.labelLine()
		if wl, wok := labelLineByTokens(s); gl != wl || gok != wok {
			t.Fatalf("%q: labelLine %q %v, labelLineByTokens %q %v", s, gl, gok, wl, wok)
		} else if gl != "" {
			hits["label line"]++
		}
		if g, w := lw.endInLegalForm(), tokensEndInLegalForm(toks); g != w {
			t.Fatalf("%q: endInLegalForm %v, tokensEndInLegalForm %v", s, g, w)
		} else if g {
			hits["legal form"]++
		}
		if g, w := endsInLegalForm(s), endsInLegalFormByTokens(s); g != w {
			t.Fatalf("%q: endsInLegalForm %v, by LabelTokens %v", s, g, w)
		}
		if g, w := isTitle(s), isTitleByTokens(s); g != w {
			t.Fatalf("%q: isTitle %v, by LabelTokens %v", s, g, w)
		} else if g {
			hits["title"]++
		}
		gn, gc := leadWord(s)
		if wn, wc := leadWordByTokens(s); gn != wn || gc != wc {
			t.Fatalf("%q: leadWord %d %v, by LabelTokens %d %v", s, gn, gc, wn, wc)
		} else if gc {
			hits["continuation"]++
		}
		if g, w := cardWordIn(s), slices.ContainsFunc(toks, func(w string) bool { return cardWords[w] }); g != w {
			t.Fatalf("%q: cardWordIn %v, by LabelTokens %v", s, g, w)
		}
		if n, _, _ := registrationCues(toks); n > 0 && !mayHoldRegistration(s) {
			t.Fatalf("%q holds %d registration labels, but mayHoldRegistration turns it away", s, n)
		} else if n > 0 {
			hits["registration"]++
		}
	}
	for _, what := range []string{"customer", "label line", "legal form", "title", "continuation", "registration"} {
		if hits[what] < 50 {
			t.Errorf("only %d texts exercise %s: the comparison says little", hits[what], what)
		}
	}
	if hits["long"] == 0 {
		t.Error("no text overflows the arrays: the fallback is not exercised")
	}
}

func hashOf(w string) uint32 {
	h := uint32(wordHashSeed)
	for _, r := range w {
		h = wordHashStep(h, r)
	}
	return h
}

// The LabelTokens forms the stack-array paths replaced.

func endsInLegalFormByTokens(line string) bool {
	may, wide := legalWordIn(line)
	if !may && !wide {
		return false
	}
	if !wide && isASCII(line) {
		if ends, ok := asciiEndsInLegalForm(line); ok {
			return ends
		}
	} else if strings.Contains(line, "株式会社") || strings.Contains(line, "有限会社") || strings.Contains(line, "(주)") || strings.Contains(line, "주식회사") {
		return true
	} else if !may {
		return false
	}
	return tokensEndInLegalForm(LabelTokens(line))
}

func isTitleByTokens(val string) bool {
	if !isASCII(val) {
		words := LabelTokens(val)
		return titleWords[strings.ToLower(strings.TrimSpace(val))] ||
			len(words) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !titleWords[w] })
	}
	return isTitle(val)
}

func leadWordByTokens(s string) (int, bool) {
	toks := LabelTokens(s)
	return len(toks), len(toks) > 0 && nameContinuations[toks[0]]
}
