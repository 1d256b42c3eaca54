package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// The trigram screen in front of the currency searches rules out only
// needles the folded text does not hold: findScreened finds what
// folded.find finds, for every currency code and marker and for random
// pieces of the text itself.
func TestFindScreenedFindsWhatFindFinds(t *testing.T) {
	texts := []string{"Total USD 12.00\nIVA € 3,00", "Summe 9,99 EUR  CHF", "合計 ¥1,200 円", "ريال 12", "kr. 100 Reykjavík",
		"", "R$ 5,00 BRL", "US$ 4 A$ 3 NZ$ 2", "ÖSTERREICH  €"}
	r := rand.New(rand.NewPCG(13, 17))
	pieces := []string{"USD", "usd", " ", "  ", "$", "€", "EUR", "円", "¥", "kr.", "R", "M", "RM", "\n", "1", "ريال", "ä", "Ö", "SGD"}
	for range 400 {
		var b strings.Builder
		for range r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	var needles [][]rune
	for code, ms := range currencyMarkers {
		needles = append(needles, foldNeedle(code, foldSpaces))
		for _, m := range ms {
			needles = append(needles, foldNeedle(m.text, foldSpaces))
		}
	}
	s := Invoice()
	found := 0
	for _, text := range texts {
		d, err := analyze(context.Background(), text, s)
		if err != nil {
			t.Fatal(err)
		}
		ns := needles
		for range 20 {
			if len(d.fold.r) == 0 {
				break
			}
			i := r.IntN(len(d.fold.r))
			j := i + 1 + r.IntN(min(6, len(d.fold.r)-i))
			ns = append(ns[:len(ns):len(ns)], d.fold.r[i:j])
		}
		for _, n := range ns {
			want := d.fold.find(n)
			got := d.findScreened(n)
			if len(got) != len(want) {
				t.Fatalf("%q in %q: screened %v, find %v", string(n), text, got, want)
			}
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("%q in %q: screened %v, find %v", string(n), text, got, want)
				}
			}
			if len(want) > 0 {
				found++
			}
		}
	}
	if found < len(texts) {
		t.Errorf("only %d needles found in %d texts: the comparison says little", found, len(texts))
	}
}
