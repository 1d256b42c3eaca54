package pipeline

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// mayNameInvoice is true exactly when a hyphen-separated part of a word
// lineWords gives is an invoice word or another invoice's word: the screen
// in front of otherInvoicePhrase never hides a line it would have read.
func TestMayNameInvoiceIsLineWordsLookup(t *testing.T) {
	byWords := func(s string) bool {
		for _, w := range lineWords(s) {
			for _, part := range strings.Split(w, "-") {
				if invoiceWords[part] || otherInvoiceWords[part] {
					return true
				}
			}
		}
		return false
	}
	pieces := []string{"Invoice", "INV", "inv", "Rechnung", "SCHLUSS-RECHNUNG", "Anzahlungsrechnung", "faktury",
		"СЧЁТ", "Счет-фактуре", "ΤΙΜΟΛΟΓΙΟ", "Laskun", "RAČUN", "invoices", "no", "Nr.", "#", "-", "--", "'", "’",
		" ", "  ", ":", "İ", "\u212a", "x", "2026", "d'acompte", "invoice's", "\xff", strings.Repeat("a", 70),
		"VORAUSZAHLUNGSRECHNUNG", "previous", "/", "фактуры", "τιμολογίου"}
	r := rand.New(rand.NewPCG(11, 11))
	hit := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		want := byWords(string([]rune(s)))
		if want {
			hit++
		}
		if got := mayNameInvoice([]rune(s)); got != want {
			t.Errorf("%q: screen says %v, lineWords %v", s, got, want)
		}
	}
	if hit == 0 || hit == 20000 {
		t.Fatalf("%d of 20000 texts name an invoice: the texts test nothing", hit)
	}
}
