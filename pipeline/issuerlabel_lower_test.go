package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// afterIssuerLabelToLower is afterIssuerLabel as it was written first: the
// whole line lowercased before the labels are compared with its head.
func afterIssuerLabelToLower(line string) (string, string, bool) {
	if indexColon(line) < 0 {
		return "", "", false
	}
	if r, _ := utf8.DecodeRuneInString(line); !issuerLabelFirst[unicode.ToLower(r)] {
		return "", "", false
	}
	low := strings.ToLower(line)
	for _, l := range issuerLabels {
		if !strings.HasPrefix(low, l) {
			continue
		}
		rest := line[len(l):]
		trimmed := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(trimmed, ":") && !strings.HasPrefix(trimmed, "：") {
			continue
		}
		name := firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(trimmed, ":"), "：")))
		if !strings.ContainsFunc(name, unicode.IsLetter) || strings.IndexByte(name, '@') >= 0 || indexColon(name) >= 0 {
			continue
		}
		return name, l, true
	}
	return "", "", false
}

// Lowering only the head of a line finds the label and name the whole
// lowered line gave, for every label in any case, cut short, followed by
// names, other labels, capitals beyond ASCII and invalid bytes.
func TestAfterIssuerLabelMatchesToLower(t *testing.T) {
	var heads []string
	for _, l := range issuerLabels {
		r, n := utf8.DecodeRuneInString(l)
		heads = append(heads, l, strings.ToUpper(l), string(unicode.ToUpper(r))+l[n:], l[:len(l)/2])
	}
	heads = append(heads, "Q", "1", "x", "-", "Ü", "東") // no label's first letter
	tails := []string{": ", "：", " : ", ":", " ", "Ä", "İ", "\u212a", "\xff", "ACME GmbH", "Ölwerke AG", "ΔΟΥ Σ",
		"x@y.z", "Nabywca:", "  ", "Ⱥ", strings.Repeat("É", 40)}
	rng := rand.New(rand.NewPCG(3, 5))
	for range 30000 {
		var b strings.Builder
		b.WriteString(heads[rng.IntN(len(heads))])
		for range rng.IntN(4) {
			b.WriteString(tails[rng.IntN(len(tails))])
		}
		line := b.String()
		n, l, ok := afterIssuerLabel(line)
		wn, wl, wok := afterIssuerLabelToLower(line)
		if n != wn || l != wl || ok != wok {
			t.Fatalf("afterIssuerLabel(%q) = %q, %q, %v; the whole-line lowering gives %q, %q, %v", line, n, l, ok, wn, wl, wok)
		}
	}
}

// bareColonCut is bareColon before opensWord spared it firstSegment.
func bareColonCut(line string) bool {
	for i := 0; i < len(line); {
		j := indexColon(line[i:])
		if j < 0 {
			return false
		}
		c := i + j
		if firstSegment(strings.TrimLeft(strings.TrimLeft(line[c:], ":"), "：")) == "" {
			return true
		}
		_, w := utf8.DecodeRuneInString(line[c:])
		i = c + w
	}
	return false
}

// A colon followed by spaces and a letter or digit is never bare: bareColon
// answers as cutting the first segment after every colon did, on lines of
// labels, column gaps, separators, brackets and runes beyond ASCII.
func TestBareColonMatchesFirstSegment(t *testing.T) {
	pieces := []string{":", "：", " ", "   ", "\t", ", ", " · ", " | ", " — ", " - ", "(", ")", " (", "(1)", "A", "z", "7",
		"Seller", "Nabywca", "Ä", "\u00a0", "\u3000", "-", "|", "·", ",", "@", "x@y.z", "\xff"}
	rng := rand.New(rand.NewPCG(7, 9))
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := b.String()
		if got, want := bareColon(line), bareColonCut(line); got != want {
			t.Fatalf("bareColon(%q) = %v, cutting the segments gives %v", line, got, want)
		}
	}
}
