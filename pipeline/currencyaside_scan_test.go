package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// searchAsideCues is the aside-cue scan as first written: each cue searched
// for in turn, every occurrence after no letter, the leftmost kept (the
// first cue in list order where two start together).
func searchAsideCues(line string) (int, string) {
	at, cue := -1, ""
	for _, c := range asideCues {
		for from := 0; from < len(line); {
			i := -1
			for k := from; k+len(c) <= len(line); k++ {
				if foldPrefix(line[k:], c) {
					i = k
					break
				}
			}
			if i < 0 {
				break
			}
			if r, _ := utf8.DecodeLastRuneInString(line[:i]); (i == 0 || !unicode.IsLetter(r)) && (at < 0 || i < at) {
				at, cue = i, c
			}
			from = i + 1
		}
	}
	return at, cue
}

// firstAsideCueLine is the aside-cue scan over a lowered line's bytes
// that firstCue replaced, kept to compare with: one pass comparing the
// cues a byte starts.
func firstAsideCueLine(line string, cues []string) (int, string) {
	var byFirst [256][]int
	for k, c := range cues {
		byFirst[c[0]] = append(byFirst[c[0]], k)
	}
	for i := 0; i < len(line); i++ {
		ks := byFirst[asciiLower(line[i])]
		if len(ks) == 0 {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(line[:i]); i > 0 && unicode.IsLetter(r) {
			continue
		}
		for _, k := range ks {
			if c := cues[k]; len(line)-i >= len(c) && foldPrefix(line[i:], c) {
				return i, c
			}
		}
	}
	return -1, ""
}

// firstCue finds in one pass over a line's runes what searching its
// lowered text for each cue finds, and what the byte scan it replaced
// found, for the aside and the value cues, on lines of cues, letters
// glued to them, other scripts and the receipts'.
func TestFirstCueIsEachCueSearched(t *testing.T) {
	for _, ix := range []*cueIndex{asideCueIndex, valueCueIndex} {
		if len(ix.cues) > 256 {
			t.Fatal("a cueIndex indexes its cues with a byte")
		}
		for _, c := range ix.cues {
			if c != strings.ToLower(c) {
				t.Errorf("cue %q is not lowercase: it would never match", c)
			}
		}
	}
	lines := []string{"Total AED 10,500.00 (≈ USD 2,859.08)", "USD equivalent (for information only): USD 2,859.08",
		"Gegenwert zur Information: 1.234,00 EUR", "inequivalent 5", "FOR INFORMATION ONLY", "approx.approx",
		"à titre indicatif: 5 €", "À TITRE INDICATIF", "ما يعادل 5", "Эквивалент 100", "справочно", "",
		"CUSTOMS VALUE: USD 100", "Valeur déclarée 5", "VALEUR DÉCLARÉE", "Zollwert", "İnsured value", "\u212Aurs"}
	for _, r := range loadReceipts(t) {
		lines = append(lines, strings.Split(r.Text, "\n")...)
	}
	pieces := []string{"for ", "information", " only", "equiv.", "Equivalent", "≈", "approx", "x", "é", " ", "(", "1",
		"Zur Info", "Gegenwert", "эквивалент", "للعلم فقط", "à titre d'information", "conversion rate", "A",
		"Declared Value", "valeur déclarée", "É", "\u212A", "İ", "Ω", "\uFFFD", "price list", "ZOLLWERT"}
	rng := rand.New(rand.NewPCG(2, 7))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	found := [2]int{}
	for _, l := range lines {
		low := l
		if !isASCII(l) {
			low = strings.ToLower(l) // as the byte scan read it
		}
		rs := []rune(l)
		for n, ix := range []*cueIndex{asideCueIndex, valueCueIndex} {
			// Parts of a line too, as valueLine reads one up to an amount.
			for _, part := range [][2]int{{0, len(rs)}, {len(rs) / 3, len(rs)}, {0, 2 * len(rs) / 3}} {
				from, to := part[0], part[1]
				gotAt, gotCue := ix.firstCue(rs, from, to)
				sub := string(rs[from:to])
				if !isASCII(sub) {
					sub = strings.ToLower(sub)
				}
				wantAt, wantCue := firstAsideCueLine(sub, ix.cues)
				if wantAt >= 0 {
					wantAt = from + utf8.RuneCountInString(sub[:wantAt])
				}
				if gotAt != wantAt || gotCue != wantCue {
					t.Fatalf("%q [%d:%d]: firstCue %d %q, the byte scan %d %q", l, from, to, gotAt, gotCue, wantAt, wantCue)
				}
				if ix == asideCueIndex && from == 0 && to == len(rs) {
					searchAt, searchCue := searchAsideCues(low)
					if searchAt >= 0 {
						searchAt = utf8.RuneCountInString(low[:searchAt])
					}
					if gotAt != searchAt || gotCue != searchCue {
						t.Fatalf("%q: firstCue %d %q, each cue searched %d %q", l, gotAt, gotCue, searchAt, searchCue)
					}
				}
				if gotAt >= 0 && from == 0 && to == len(rs) {
					found[n]++
				}
			}
		}
	}
	for n, f := range found {
		if f < len(lines)/20 {
			t.Errorf("cue list %d: only %d of %d lines hold a cue: the comparison says little", n, f, len(lines))
		}
	}
}

// The trigram screen may rule a cue out only where the fold cannot hold
// it: each cue must be its own fold, as newTriNeedles takes it.
func TestCueScreensAreFolded(t *testing.T) {
	for _, ix := range []*cueIndex{asideCueIndex, valueCueIndex} {
		for _, c := range ix.cues {
			if got := string(foldNeedle(c, foldSpaces)); got != c {
				t.Errorf("cue %q folds to %q: the trigram screen would look for another text", c, got)
			}
		}
	}
}

// A document's lines read the same aside and value cues with the trigram
// screen as without it, on texts of cues in any case, split by runs of
// spaces and lines, in other scripts and widths, and on the receipts.
func TestCueScreenMissesNoCue(t *testing.T) {
	texts := []string{"Total AED 10,500.00 (≈ USD 2,859.08)", "USD equivalent (for information only): USD 2,859.08",
		"Customs value: USD 100\nTotal EUR 5", "ＥＱＵＩＶＡＬＥＮＴ 5", "for  information only", "Эквивалент 100",
		"Declared\tValue 5", "", "≈"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	var pieces []string
	for _, ix := range []*cueIndex{asideCueIndex, valueCueIndex} {
		for _, c := range ix.cues {
			pieces = append(pieces, c, strings.ToUpper(c), strings.Replace(c, " ", "  ", 1))
		}
	}
	pieces = append(pieces, " ", "\n", "x", "5.00", "USD", "é", "(", "\u3000", "Ｆ")
	rng := rand.New(rand.NewPCG(3, 1))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(3) == 0 {
				b.WriteString("\n")
			}
		}
		texts = append(texts, b.String())
	}
	found, schema := 0, Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		for li := range d.lineStarts {
			ls, le := d.lineBounds(li)
			at, cue := asideCueIndex.firstCue(d.rs, ls, le)
			if m := d.lineCueOf(li); m.at != at || m.cue != cue {
				t.Fatalf("%q line %d: screened %d %q, scanned %d %q", text, li, m.at, m.cue, at, cue)
			}
			v, _ := valueCueIndex.firstCue(d.rs, ls, le)
			if got := d.valueLine(ls, le); got != (v >= 0) {
				t.Fatalf("%q line %d: screened value line %v, scanned %d", text, li, got, v)
			}
			if at >= 0 || v >= 0 {
				found++
			}
		}
	}
	if found < len(texts)/4 {
		t.Errorf("only %d cues in %d texts: the comparison says little", found, len(texts))
	}
}
