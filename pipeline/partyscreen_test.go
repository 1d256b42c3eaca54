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

// oldTrigramBits is the trigram set as session 9 built it, a bit per hash:
// the byte-per-hash build must set the same hashes.
func oldTrigramBits(fold []rune) (bits [64]uint64) {
	var x uint64
	for _, c := range fold {
		x = x<<runeBits | uint64(uint32(c))
		m := x * triMul
		bits[m>>58] |= 1 << (m >> 52 & 63)
	}
	return bits
}

// The trigram set holds exactly the hashes the bit-per-hash build held, on
// random texts of every length around the build's rounds of eight runes,
// ASCII or not, so every screen answers as before.
func TestTrigramSetHoldsTheOldBuildsHashes(t *testing.T) {
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz ABC:.,0123456789\n\t  éß東京")
	rng := rand.New(rand.NewPCG(3, 5))
	schema := Invoice()
	pool := &scratchPool{}
	for n := range 700 { // past 255 documents on one scratch: its marks run out
		rs := make([]rune, n%40+rng.IntN(3)*n)
		ascii := rng.IntN(2) == 0
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
			for ascii && rs[i] >= 0x80 {
				rs[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		for _, p := range []*scratchPool{nil, pool} {
			d, err := analyzeWith(context.Background(), string(rs), schema, p)
			if err != nil {
				t.Fatal(err)
			}
			set, want := d.trigrams(), oldTrigramBits(d.fold.r)
			for h := range 1 << triBits {
				if got := set.seen[h] == set.mark; got != (want[h>>6]&(1<<(h&63)) != 0) {
					t.Fatalf("%q: hash %d is %v in the set, %v in the old build", string(rs), h, got, !got)
				}
			}
			p.put(d.lent)
		}
	}
}
