package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// screenNeedles are every needle list a party screen stands for, with the
// screen built from it.
func screenNeedles() map[string]struct {
	needles []string
	screen  []triNeedle
} {
	var seller []string
	for _, l := range sellerNeedles {
		for _, n := range l {
			seller = append(seller, string(n))
		}
	}
	return map[string]struct {
		needles []string
		screen  []triNeedle
	}{
		"seller":        {seller, sellerScreen},
		"principal":     {[]string{"behalf of", "amens ", "amen und", "our le compte de", "or cuenta de", "er conto di"}, principalScreen},
		"self-billing":  {selfBillingStems.stems, selfBillingScreen},
		"mail line":     {[]string{"to:", "from:"}, mailLineScreen},
		"our document":  {ourDocument, ourDocumentScreen},
		"your document": {yourDocument, yourDocumentScreen},
	}
}

// A trigram screen never turns away a document whose folded text holds one
// of its needles: every needle, in any case, between any text, ASCII or
// not, lets its document through. The screens only save the exact tests
// behind them from reading documents that hold none.
func TestTrigramScreenPassesEveryNeedleItHolds(t *testing.T) {
	fills := []string{"", "x", "Total 12.50\n", "ÄÖÜ ", "東京都 ", "  \t", "Ｓｏｌｄ ", "İ\u212a", "\n\n", "Rechnung Nr. 7\n"}
	rng := rand.New(rand.NewPCG(11, 13))
	schema := Invoice()
	for name, s := range screenNeedles() {
		for _, n := range s.needles {
			for _, form := range []string{n, strings.ToUpper(n), upperFirst(n)} {
				text := fills[rng.IntN(len(fills))] + form + fills[rng.IntN(len(fills))]
				d, err := analyze(context.Background(), text, schema)
				if err != nil {
					t.Fatal(err)
				}
				folded := string(d.fold.r)
				if !strings.Contains(folded, n) {
					continue // upper-casing changed the needle's runes (ß, İ)
				}
				if !d.trigrams().mayHoldAny(s.screen) {
					t.Fatalf("the %s screen turns away %q, which holds %q", name, text, n)
				}
			}
		}
	}
}

// On documents that hold none of its needles, a screen turns most away:
// the bundled golden documents and plain receipts pass only the screens
// whose needles they print (a screen that let everything through would
// save nothing).
func TestTrigramScreenTurnsAwayDocumentsWithoutNeedles(t *testing.T) {
	texts := []string{
		"KEDAI RUNCIT ABC SDN BHD\nNO 12 JALAN SATU\nTOTAL 12.50\nCASH 20.00\nCHANGE 7.50\nTHANK YOU",
		"Acme Ltd\nInvoice 17\nDate: 2026-01-02\nNet 100.00\nVAT 20.00\nTotal 120.00",
	}
	for _, g := range goldenDocuments(t) {
		texts = append(texts, g.text)
	}
	var docs []*doc
	schema := Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	for name, s := range screenNeedles() {
		passed, held := 0, 0
		for _, d := range docs {
			holds := slices.ContainsFunc(s.needles, func(n string) bool { return strings.Contains(string(d.fold.r), n) })
			may := d.trigrams().mayHoldAny(s.screen)
			if holds && !may {
				t.Fatalf("the %s screen turns away a document that holds a needle:\n%s", name, string(d.rs))
			}
			if holds {
				held++
			}
			if may {
				passed++
			}
		}
		t.Logf("the %s screen lets %d of %d documents through, %d of them holding a needle", name, passed, len(docs), held)
		if passed-held > len(docs)/20 {
			t.Errorf("the %s screen lets %d of %d documents through, only %d of them holding a needle", name, passed, len(docs), held)
		}
	}
}

func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// equalFoldAny answers as comparing with strings.EqualFold word by word,
// for ASCII words in any case and for runes beyond ASCII that fold to ASCII
// letters (the Kelvin sign, the long s).
func TestEqualFoldAnyIsEqualFold(t *testing.T) {
	words := append(slices.Clone(practitionerTitles), practitionerDegrees...)
	set := wordSet(words)
	var tries []string
	for _, w := range words {
		tries = append(tries, w, strings.ToUpper(w), upperFirst(w), w[:len(w)-1], w+"x",
			strings.ReplaceAll(w, "k", "\u212a"), strings.ReplaceAll(w, "s", "ſ"), strings.ReplaceAll(w, "d", "Đ"))
	}
	tries = append(tries, "", "Dr", "DR.", "é", strings.Repeat("d", 40))
	for _, w := range tries {
		want := slices.ContainsFunc(words, func(t string) bool { return strings.EqualFold(w, t) })
		if got := equalFoldAny(w, words, set); got != want {
			t.Errorf("equalFoldAny(%q) = %v; strings.EqualFold with each word gives %v", w, got, want)
		}
	}
}
