package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// firstPlacedSigns reads in one pass what signSpans finds searching for
// each sign in turn: the first span of every sign that is no letter, and
// none for a letter sign, on texts of signs glued to letters, in either
// case, with runs of spaces, and on the receipts.
func TestFirstPlacedSignsIsEachSignSearched(t *testing.T) {
	if len(placedSigns) > maxPlacedSigns {
		t.Fatalf("%d placed signs, firstPlacedSigns holds %d", len(placedSigns), maxPlacedSigns)
	}
	for _, s := range placedSigns {
		// An occurrence overlapping an earlier one is one the search skips.
		r := foldNeedle(s.sign, foldSpaces)
		for n := 1; n < len(r); n++ {
			if slices.Equal(r[:n], r[len(r)-n:]) {
				t.Errorf("%q overlaps itself: one pass would read occurrences the search skips", s.sign)
			}
		}
	}
	texts := []string{"Total 5.000 FCFA", "TOTAL FCFA 5 000\nDakar, Sénégal", "Rs. 1,200.00\nColombo", "RS 100", "rs 100",
		"Lei 12,00 lei", "LEI 5", "C$ 100.00 c$", "B/. 25.00", "francs CFA 300", "Francs  CFA 300", "F CFA 10 F.CFA",
		"xRs 5 Rsx", "L 1,150.00", "Q 25.00", "K 10.00", "", "Rs", "Prs. 5 (Rs.5)", "F\tCFA 1", "ÉRs 5"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	pieces := []string{"Rs", "Rs.", "rs", "RS", "FCFA", "fcfa", "F CFA", "F.CFA", "F  CFA", "CFA", "francs CFA", "FRANCS CFA",
		"C$", "c$", "lei", "Lei", "LEI", "B/.", "b/.", "L", "Q", "K", " ", "  ", "\n", "1,150.00", "5", "x", "é", "(", ".", "Ä"}
	rng := rand.New(rand.NewPCG(11, 3))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	found, schema := 0, Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		first := d.firstPlacedSigns()
		for i, s := range placedSigns {
			var want Span
			if spans := d.signSpans(s); len(spans) > 0 && !s.letter {
				want = spans[0]
				found++
			}
			if first[i] != want {
				t.Fatalf("%q: %q first at %v, signSpans %v", text, s.sign, first[i], want)
			}
		}
	}
	if found < len(texts)/2 {
		t.Errorf("only %d signs found in %d texts: the comparison says little", found, len(texts))
	}
}
