package pipeline

import (
	"context"
	"strings"
	"testing"
	"unicode"
)

// namesDirectlyAlways is namesDirectly as it wrote the gap out and ran
// the number-sign replacer over it whatever it held.
func (d *doc) namesDirectlyAlways(h labelHit, sp Span) bool {
	if h.end > sp.Start || sp.Start-h.end > 12 {
		return false
	}
	gap := strings.ToLower(string(d.rs[h.end:sp.Start]))
	gap = numberSignDropper.Replace(gap)
	if o := strings.IndexByte(gap, '('); o >= 0 {
		// A gloss in another language: "Ký hiệu (Serial): 1C26TML".
		if c := strings.IndexByte(gap[o:], ')'); c > 0 && !strings.ContainsFunc(gap[o:o+c], unicode.IsDigit) {
			gap = gap[:o] + gap[o+c+1:]
		}
	}
	return strings.IndexFunc(gap, func(r rune) bool {
		return !unicode.IsSpace(r) && !strings.ContainsRune(":：#.-–№º°();|,\"", r) || r == '\n'
	}) < 0
}

// namesDirectly, reading the gap in place and dropping number signs only
// from a gap holding an n, answers as it did: for every label of the
// golden documents and every offset up to 14 runes after it, and for
// labels glued to number signs in any case.
func TestNamesDirectlyAsAlways(t *testing.T) {
	texts := []string{"Invoice No. 4711", "INVOICE NO: 4711", "Rechnung Nr. 4711", "Factura n.º 12", "Fattura N° 7",
		"Invoice\nNo 5", "Ký hiệu (Serial): 1C26TML", "VAT;\"BE0456\"", "Nota nr 8 (x) 9", "Invoice Number (No.) 42"}
	for _, g := range goldenDocuments(t) {
		texts = append(texts, g.text)
	}
	n, yes := 0, 0
	for _, text := range texts {
		d, err := analyze(context.Background(), text, Invoice())
		if err != nil {
			t.Fatal(err)
		}
		d.facts.src = text
		for _, hits := range [][]labelHit{d.fieldHits, d.moneyHits} {
			for _, h := range hits {
				for p := h.end; p <= min(len(d.rs), h.end+14); p++ {
					sp := Span{Start: p, End: min(len(d.rs), p+1)}
					got, want := d.namesDirectly(h, sp), d.namesDirectlyAlways(h, sp)
					if got != want {
						t.Fatalf("namesDirectly(%q, %q) = %v, always %v", h.text, string(d.rs[h.end:p]), got, want)
					}
					n++
					if want {
						yes++
					}
				}
			}
		}
	}
	if yes == 0 || yes == n {
		t.Fatalf("%d of %d pairs named directly: the comparison compared little", yes, n)
	}
}
