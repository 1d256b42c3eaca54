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
