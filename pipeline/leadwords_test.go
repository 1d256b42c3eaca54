package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Folding keeps every rune a letter or digit, or not: findLabelSets starts
// a walk at a word's last rune, in the node its leading word reaches,
// because a label ending on an earlier rune of the word then ends inside
// a word of the original text too.
func TestFoldingKeepsLettersAndDigits(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		f := r
		if uint32(f) >= utf8.RuneSelf {
			f = narrowRune(f)
		}
		if isSpace(f) {
			f = ' '
		} else {
			f = toLower(f)
		}
		if isAlnum(r) != isAlnum(f) {
			t.Fatalf("%U folds to %U: a letter or digit %v, then %v", r, f, isAlnum(r), isAlnum(f))
		}
	}
}

// Jumping from a leading word to its node finds what walking the word down
// the trie found: on receipts, and on random texts of labels' pieces in
// any case, glued to one another, in full width, with runs of spaces and
// other scripts between them.
func TestLeadWordsFindWhatTheWalkFound(t *testing.T) {
	idx := Invoice().labelSets()
	texts := []string{"", "x", " total", "ＴＯＴＡＬ　１２．５０ Gesamtbetrag: 9,90 №5 n°7 #12"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	rng := rand.New(rand.NewPCG(11, 10))
	glue := []string{" ", "  ", ": ", "\n", "x", "1", "-", ".", "é", "\u3000", "税", "\t", "", "ß", "İ"}
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			l := string(idx.labels[rng.IntN(len(idx.labels))].folded)
			if cut := rng.IntN(4); cut == 0 && len(l) > 1 {
				rs := []rune(l)
				l = string(rs[:1+rng.IntN(len(rs)-1)])
			}
			switch rng.IntN(4) {
			case 0:
				l = strings.ToUpper(l)
			case 1:
				l = toFullWidth(l)
			}
			b.WriteString(l)
			b.WriteString(glue[rng.IntN(len(glue))])
		}
		texts = append(texts, b.String())
	}
	found := 0
	for _, text := range texts {
		rs := narrowRunes(text)
		f := foldRunes(rs, foldSpaces)
		got := findLabelSets(rs, asciiText(text), f, idx, nil, nil)
		want := findLabelSetsByWalk(rs, asciiText(text), f, idx, nil, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("labels of %q:\n got %v\nwant %v", text, got, want)
		}
		found += len(got[0]) + len(got[1])
	}
	if found < 10000 {
		t.Errorf("%d labels found in %d texts: the texts hold too few to compare", found, len(texts))
	}
}

// toFullWidth writes s's printable ASCII runes in full width.
func toFullWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r > ' ' && r < 0x7F {
			return r + 0xFEE0
		}
		return r
	}, s)
}

// findLabelSetsByWalk is findLabelSets as it was before leadWords: each
// word the screen lets through is walked down the trie from the root.
// findLabelSets is findLabels for each of idx's two sets, in one pass;
// ascii is the text when it is all ASCII (asciiText), else "". The hits'
// list is sc's when sc is not nil.
func findLabelSetsByWalk(rs []rune, ascii string, f folded, idx *labelIndex, st *stopper, sc *scratch) (out [2][]labelHit) {
	if idx == nil {
		return out
	}
	// The raw hits are gathered on the stack while they fit: a receipt
	// holds a few dozen.
	var rawBuf [2][64]rawHit
	raw := [2][]rawHit{rawBuf[0][:0], rawBuf[1][:0]}
	// Labels start at word starts only (k == 0 or after a rune that is no
	// letter or digit); from each, one walk down the trie finds every label
	// there, so the scan is one pass over the text.
	root := &idx.tables[0] // the root always has a table
	for k, next := 0, 0; k < len(f.r); k = next {
		if st.stop() {
			return [2][]labelHit{}
		}
		// The next word start: the next rune after one that is no letter
		// or digit, else the rune after the end of k's word.
		next = k + 1
		if isAlnum(f.r[k]) {
			var h uint32
			next, h = alnumRun(f.r, k)
			next++
			// A label found here would start with this whole word: a
			// label's leading word that goes on past it in the text ends
			// inside a word, which a hit may not, and one whose leading
			// word stops before a rune that is no letter or digit needs
			// the text's word to stop there too.
			if idx.first != nil && !idx.first.has(h) {
				continue
			}
		}
		// Likewise the table lookups; most word starts (spaces,
		// punctuation, digits) begin no label.
		var node int32
		if r := f.r[k]; uint32(r) < utf8.RuneSelf {
			node = root[r]
		} else {
			node = idx.edgeChild(0, r)
		}
		if node == 0 {
			continue
		}
		group := [2]int{len(raw[0]), len(raw[1])}
		for j := k; ; {
			n := &idx.nodes[node]
			// Most nodes end no label: the list is not sliced for them.
			if n.nend > 0 {
				for _, li := range idx.ends[n.end : n.end+n.nend : n.end+n.nend] {
					start, end := f.origin(k), f.endOf(j)
					if end < len(rs) && isAlnum(rs[end-1]) && isAlnum(rs[end]) {
						continue
					}
					set := idx.setOf(li)
					raw[set] = append(raw[set], rawHit{int32(start), int32(end), li})
				}
			}
			if j++; j >= len(f.r) || j-k >= idx.maxLen {
				break
			}
			switch r := f.r[j]; {
			case n.nkid == 1: // most nodes deep in the trie: one label's tail
				node = 0
				if e := idx.edges[n.kid]; e.r == r {
					node = e.node
				}
			case n.table >= 0 && uint32(r) < utf8.RuneSelf:
				node = idx.tables[n.table][r]
			case n.nkid <= denseKids:
				node = 0
				for _, e := range idx.edges[n.kid : n.kid+n.nkid] {
					if e.r == r {
						node = e.node
						break
					}
				}
			default:
				node = idx.edgeChild(node, r)
			}
			if node == 0 {
				break
			}
		}
		// Longest first at each start, keeping list order among equal
		// spans (a schema's own label before a built-in one).
		for set, hits := range raw {
			g := group[set]
			for x := g + 1; x < len(hits); x++ {
				for y := x; y > g && hits[y].end > hits[y-1].end; y-- {
					hits[y], hits[y-1] = hits[y-1], hits[y]
				}
			}
		}
	}
	// Both sets' hits share one list: it was two allocations per document.
	var keep [2]int
	for set := range raw {
		keep[set] = markCovered(raw[set], idx.setMax[set])
	}
	all := sc.hitBuf(keep[0] + keep[1])[:0]
	for set := range raw {
		if keep[set] > 0 {
			n := len(all)
			all = keptHits(all, rs, ascii, raw[set], idx.labels)
			out[set] = all[n:len(all):len(all)]
		}
	}
	return out
}
