package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// A stem screen never turns away a document a line of which holds one of
// its stems: every stem, in any case, glued to any text, ASCII or not
// (whitespace runs, full-width forms, İ and the Kelvin sign around it),
// lets its document through. The screens only save the searches.
func TestStemScreenPassesEveryTextThatHoldsAStem(t *testing.T) {
	screens := map[*stemScreen]*stemSet{taxOfficeScreen: taxOfficeStems, bankScreen: bankStems,
		accountScreen: accountStems, assignmentScreen: assignmentStems, assignedAfterScreen: assignedAfterStems,
		holderScreen: holderStems}
	fills := []string{"", "x", "Total 12.50\n", "ÄÖÜ ", "東京都 ", "  \t", "Ｓｏｌｄ ", "İ\u212a", "\n\n", "a", "V", "D"}
	rng := rand.New(rand.NewPCG(23, 29))
	schema := Invoice()
	held, turned := 0, 0
	for sc, st := range screens {
		var pieces []string
		for _, s := range st.stems {
			pieces = append(pieces, s, strings.ToUpper(s), upperFirst(s), s[:len(s)/2], s[len(s)/2:])
		}
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(5) {
				b.WriteString(fills[rng.IntN(len(fills))])
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := b.String()
			d, err := analyze(context.Background(), text, schema)
			if err != nil {
				t.Fatal(err)
			}
			d.facts.src = text
			in := false
			for li := range d.lineStarts {
				ls, le := d.lineBounds(li)
				in = in || st.in(d.str(ls, le))
			}
			if in {
				held++
				if !d.mayHoldStems(sc) {
					t.Fatalf("screen %d turns away %q, whose lines hold one of %q", sc.id, text, st.stems)
				}
			} else if !d.mayHoldStems(sc) {
				turned++
			}
		}
	}
	if held < 5000 || turned < 500 {
		t.Errorf("%d texts held a stem, %d were turned away: the comparison says little", held, turned)
	}
}
