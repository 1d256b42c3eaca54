package pipeline

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// One pass over both label sets finds exactly what a pass over each set
// alone finds: analyze reads the money and field labels together, and
// cuts their texts from an ASCII text instead of building them.
func TestLabelSetsFindWhatEachSetFinds(t *testing.T) {
	texts := []string{
		"Total incl. GST: 12.50\nSubtotal 11.79\nInvoice No: A-1 Date: 01/02/2026",
		"ＴＯＴＡＬ　１２．５０\nMwSt-Nr DE123 Rechnungsnummer 4711 Gesamtbetrag 9,90",
		"total total hours 40 total 12.00 bill to ACME",
		"",
	}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	s := Invoice()
	money, fields := newLabelSets(labelSet(s), nil), newLabelSets(fieldLabelSet(s), nil)
	both := s.labelSets()
	for i, text := range texts {
		rs := narrowRunes(text)
		f := foldRunes(rs, foldSpaces)
		got := findLabelSets(rs, "", f, both, nil, nil)
		if a := asciiText(text); a != "" {
			if cut := findLabelSets(rs, a, f, both, nil, nil); !reflect.DeepEqual(cut, got) {
				t.Errorf("labels of %.40q cut from the ASCII text:\n got %v\nwant %v", text, cut, got)
			}
		}
		if i == 0 && (len(got[0]) < 2 || len(got[1]) < 2) {
			t.Errorf("%q: %d money and %d field labels, want at least 2 of each", text, len(got[0]), len(got[1]))
		}
		if want := findLabels(rs, f, money, nil); !reflect.DeepEqual(got[0], want) {
			t.Errorf("money labels of %.40q:\n got %v\nwant %v", text, got[0], want)
		}
		if want := findLabels(rs, f, fields, nil); !reflect.DeepEqual(got[1], want) {
			t.Errorf("field labels of %.40q:\n got %v\nwant %v", text, got[1], want)
		}
	}
}

// The screen of labels' leading words only skips word starts that begin no
// label: the trie walked from every word start finds the same labels, on
// receipts and on texts made of the labels themselves, in any case and
// glued to the words around them.
func TestFirstWordScreenLosesNoLabel(t *testing.T) {
	s := Invoice()
	screened := s.labelSets()
	unscreened := *screened
	unscreened.first = nil
	texts := []string{"", "x", "ＴＯＴＡＬ　１２．５０ Gesamtbetrag: 9,90 №5 n°7 #12"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	var every strings.Builder
	for i, l := range screened.labels {
		every.WriteString(string(l.folded))
		switch i % 4 {
		case 0:
			every.WriteString(": 12.50\n")
		case 1:
			every.WriteString(" ")
		case 2:
			every.WriteString("x ") // the label's last word goes on
		}
	}
	texts = append(texts, every.String(), strings.ToUpper(every.String()))
	found := 0
	for _, text := range texts {
		rs := narrowRunes(text)
		f := foldRunes(rs, foldSpaces)
		got := findLabelSets(rs, asciiText(text), f, screened, nil, nil)
		want := findLabelSets(rs, asciiText(text), f, &unscreened, nil, nil)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("labels of %.60q with the screen:\n got %v\nwant %v", text, got, want)
		}
		found += len(got[0]) + len(got[1])
	}
	if found < len(screened.labels)/2 {
		t.Errorf("%d labels found in texts made of %d labels", found, len(screened.labels))
	}
}

// BenchmarkLabelSetsBuild is what a run pays once for its schema before the
// first document: the label lists and the trie of the invoice schema.
func BenchmarkLabelSetsBuild(b *testing.B) {
	s := Invoice()
	b.ReportAllocs()
	for b.Loop() {
		if idx := newLabelSets(labelSet(s), fieldLabelSet(s)); idx == nil {
			b.Fatal("no index")
		}
	}
}

// markCoveredByPairs is markCovered as it was first written: each hit
// compared with the hits around it.
func markCoveredByPairs(hits []rawHit, maxLen int) int {
	kept := 0
	last := rawHit{start: -1}
	for i, h := range hits {
		covered := false
		for j := i - 1; j >= 0 && !covered && int(hits[j].start) >= int(h.start)-2*maxLen; j-- {
			o := hits[j]
			covered = o.end >= h.end && o.end-o.start > h.end-h.start
		}
		for j := i + 1; j < len(hits) && hits[j].start < h.end && !covered; j++ {
			o := hits[j]
			covered = o.start <= h.start && o.end >= h.end && o.end-o.start > h.end-h.start
		}
		if covered || h.start == last.start && h.end == last.end {
			hits[i].li = -1
			continue
		}
		last = h
		kept++
	}
	return kept
}

// markCovered drops the same hits as comparing them pair by pair, on hit
// lists in findLabelSets' order (by start, longest first at each start),
// spans longer than the longest label (over collapsed spaces) included.
func TestMarkCoveredIsPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		maxLen := 1 + rng.IntN(8)
		var hits []rawHit
		for start := int32(rng.IntN(3)); len(hits) < 12; start += int32(1 + rng.IntN(4)) {
			var ends []int32
			for range 1 + rng.IntN(3) {
				ends = append(ends, start+1+int32(rng.IntN(3*maxLen)))
			}
			slices.SortStableFunc(ends, func(a, b int32) int { return int(b - a) })
			for _, e := range ends {
				hits = append(hits, rawHit{start, e, int32(len(hits))})
			}
		}
		want := slices.Clone(hits)
		nWant := markCoveredByPairs(want, maxLen)
		got := slices.Clone(hits)
		if n := markCovered(got, maxLen); n != nWant || !slices.Equal(got, want) {
			t.Fatalf("maxLen %d, hits %v: markCovered kept %d %v, pairwise %d %v", maxLen, hits, n, got, nWant, want)
		}
	}
}
