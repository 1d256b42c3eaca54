package pipeline

import (
	"reflect"
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
	money, fields := newLabelIndex(labelSet(s)), newLabelIndex(fieldLabelSet(s))
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
