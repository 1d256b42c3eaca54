package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// phraseByStrings is otherInvoicePhraseIn as it was written with strings:
// the line lowered by strings.ToLower, split by strings.FieldsFunc and at
// hyphens by strings.Split.
func phraseByStrings(rs []rune, ls int, sp Span, le int) string {
	lineWords := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-')
		})
	}
	before := string(rs[ls:sp.Start])
	ws := lineWords(before)
	for i, w := range ws {
		inv := false
		for _, part := range strings.Split(w, "-") {
			if otherInvoiceWords[part] {
				return strings.TrimSpace(before)
			}
			inv = inv || invoiceWords[part]
		}
		if !inv {
			continue
		}
		for j := max(0, i-3); j < len(ws) && j <= i+3; j++ {
			if j != i && otherInvoiceQualifiers[ws[j]] {
				return strings.TrimSpace(before)
			}
		}
		if sp.End >= le {
			continue
		}
		for _, a := range lineWords(string(rs[sp.End:le])) {
			if unpaidWords[a] {
				return strings.TrimSpace(before)
			}
		}
	}
	return ""
}

// The stack-lowered phrase check answers as the strings one on lines built
// from invoice words, qualifiers, unpaid words, their capitals, hyphens,
// apostrophes, runes whose lowercase differs in length (İ, the Kelvin
// sign), invalid runes and words longer than the buffers.
func TestOtherInvoicePhraseInIsTheStringsCheck(t *testing.T) {
	pieces := []string{"Invoice", "INV", "inv", "Rechnung", "SCHLUSS-RECHNUNG", "Anzahlungsrechnung", "faktury",
		"СЧЁТ", "Счет-фактуре", "ΤΙΜΟΛΟΓΙΟ", "Laskun", "RAČUN", "invoices", "no", "Nr.", "#", "-", "--", "'", "’",
		" ", "  ", ":", "İ", "\u212a", "x", "2026", "d'acompte", "D'ACOMPTE", "invoice's", strings.Repeat("a", 70),
		"VORAUSZAHLUNGSRECHNUNG", "previous", "Previous", "PRIOR", "down-payment", "/", "фактуры", "τιμολογίου",
		"unpaid", "OFFEN", "noch", "Nieopłacona", "\ufffd", strings.Repeat("Ä", 150), "Korekta", "do"}
	r := rand.New(rand.NewPCG(11, 11))
	hit := 0
	for range 30000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		rs := []rune(b.String())
		if r.IntN(8) == 0 && len(rs) > 0 {
			rs[r.IntN(len(rs))] = 0xD800 // a surrogate: string(rs) writes U+FFFD
		}
		// A value somewhere on the line, the line's end at or after it.
		start := r.IntN(len(rs) + 1)
		end := start + r.IntN(len(rs)-start+1)
		le := end + r.IntN(len(rs)-end+1)
		ls := r.IntN(start + 1)
		sp := Span{Start: start, End: end}
		want := phraseByStrings(rs, ls, sp, le)
		if want != "" {
			hit++
		}
		if got := otherInvoicePhraseIn(rs, ls, sp, le); got != want {
			t.Fatalf("%q, value at [%d,%d), line [%d,%d): got %q, the strings check %q", string(rs), start, end, ls, le, got, want)
		}
	}
	if hit < 100 || hit > 29000 {
		t.Fatalf("%d of 30000 lines name another invoice: the lines test too little", hit)
	}
}
