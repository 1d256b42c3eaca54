package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// oldEndsInLegalForm is endsInLegalForm before legalWordIn screened it.
func oldEndsInLegalForm(line string) bool {
	if isASCII(line) {
		if ends, ok := asciiEndsInLegalForm(line); ok {
			return ends
		}
	} else if strings.Contains(line, "株式会社") || strings.Contains(line, "有限会社") || strings.Contains(line, "(주)") || strings.Contains(line, "주식회사") {
		return true
	}
	return tokensEndInLegalForm(LabelTokens(line))
}

// The screen in front of endsInLegalForm changes none of its answers: on
// every line of the golden and black-box documents, and on random lines
// built from legal forms' words in any case, glued to letters beyond ASCII,
// to digits, to CJK forms, to the Kelvin sign and the dotted capital I
// (which lower to ASCII letters), and past 24 words.
func TestLegalFormScreenKeepsEndsInLegalForm(t *testing.T) {
	var lines []string
	for _, g := range goldenDocuments(t) {
		lines = append(lines, strings.Split(g.text, "\n")...)
	}
	pieces := []string{" ", " ", ".", ",", "/", "-", "(", ")", "&", "1", "23-X", "Acme", "Müller", "é", "株式会社",
		"有限会社", "(주)", "\u212a", "K", "İ", "I", "İnc", "Limİted", "\u212aG", "\u212a\u212a", "ltda", "Corporation",
		"ENTERPRISES", "enterprise", "Invoice", "TAX", "Co", "\t", "東京", "Sdn", "BHD", "s", "A", "v", "ooo", "Ａ"}
	for _, f := range legalForms {
		pieces = append(pieces, strings.Join(f, " "), strings.ToUpper(strings.Join(f, ".")), upperFirst(f[len(f)-1]))
	}
	rng := rand.New(rand.NewPCG(17, 19))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	passed := 0
	for _, l := range lines {
		want := oldEndsInLegalForm(l)
		if got := endsInLegalForm(l); got != want {
			t.Fatalf("endsInLegalForm(%q) = %v, was %v", l, got, want)
		}
		if may, _ := legalWordIn(l); may {
			passed++
		}
	}
	t.Logf("%d of %d lines pass the screen", passed, len(lines))
}
