package pipeline

import (
	"reflect"
	"slices"
	"testing"
)

func TestFindSpans(t *testing.T) {
	cases := []struct {
		text, needle string
		want         []Span
	}{
		{"Bill from Globex Ltd below", "globex ltd", []Span{{Start: 10, End: 20}}},
		{"GLOBEX\n  LTD and globex ltd", "Globex Ltd", []Span{{Start: 0, End: 12}, {Start: 17, End: 27}}},
		{"Globex Ltd", "  Globex    Ltd ", []Span{{Start: 0, End: 10}}},
		{"Ünïcode Café — Café", "café", []Span{{Start: 8, End: 12}, {Start: 15, End: 19}}},
		{"abc", "", nil},
		{"ab", "abc", nil},
		{"aaaa", "aa", []Span{{Start: 0, End: 2}, {Start: 2, End: 4}}},
	}
	for _, tc := range cases {
		if got := FindSpans(tc.text, tc.needle); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindSpans(%q, %q) = %v, want %v", tc.text, tc.needle, got, tc.want)
		}
	}
}

// Provenance spans are code-point offsets into the text as received, whatever
// it holds: emoji (one and several code points), combining marks, CRLF line
// ends, no-break spaces.
func TestSpansAreCodePointOffsets(t *testing.T) {
	text := "🧾👩‍💻 Re\u0301sume\u0301 d'achat\r\nFrom: Café Zoë GmbH\r\nInvoice # INV-77\r\nDate: 14 März 2026\r\n" +
		"Subtotal: €1.234,56\r\nMwSt 19 %: 234,57\r\nGesamtbetrag:\u00a01.469,13 EUR\r\n"
	s := Invoice()
	rec := Record{"vendor_name": "Café Zoë GmbH", "invoice_number": "INV-77", "invoice_date": "2026-03-14",
		"subtotal": 1234.56, "tax": 234.57, "total": 1469.13, "currency": "EUR"}
	want := map[string]string{"vendor_name": "Café Zoë GmbH", "invoice_number": "INV-77", "invoice_date": "14 März 2026",
		"subtotal": "1.234,56", "tax": "234,57", "total": "1.469,13", "currency": "EUR"}
	rs := []rune(text)
	rep := RunHeuristics(text, s, rec)
	for name, w := range want {
		c := rep[name]
		if len(c.Spans) != 1 || c.Factor != 1 {
			t.Errorf("%s: spans %v factor %v %v", name, c.Spans, c.Factor, c.Reasons)
			continue
		}
		if got := string(rs[c.Spans[0].Start:c.Spans[0].End]); got != w {
			t.Errorf("%s: span %v holds %q, want %q", name, c.Spans[0], got, w)
		}
	}
	if got := rep["vendor_name"].Spans[0]; got != (Span{Start: 29, End: 42}) {
		t.Errorf("vendor span %v, want {29 42}: code points, not bytes or UTF-16 units", got)
	}
}

// A span never cuts a character in two: "Resume" is not grounded by the
// decomposed "Résumé" (e + U+0301), and a base letter alone never matches.
func TestSpansDoNotSplitCombiningMarks(t *testing.T) {
	text := "Re\u0301sume\u0301 Services\nTotal 5.00"
	s := Invoice()
	for _, v := range []string{"Resume Services", "Re"} {
		if c := RunHeuristics(text, s, Record{"vendor_name": v})["vendor_name"]; c.Grounded || len(c.Spans) != 0 {
			t.Errorf("%q grounded in %q at %v", v, text, c.Spans)
		}
	}
	c := RunHeuristics(text, s, Record{"vendor_name": "Re\u0301sume\u0301 Services"})["vendor_name"]
	if len(c.Spans) != 1 || c.Spans[0] != (Span{Start: 0, End: 17}) {
		t.Errorf("decomposed value as written: spans %v, want [{0 17}]", c.Spans)
	}
}

// Folding remembers where each folded rune stood: the same place while no
// rune was dropped, and the right place after a run of spaces collapsed or
// a mode dropped punctuation.
func TestFoldedOrigins(t *testing.T) {
	for _, c := range []struct {
		text string
		mode foldMode
		want string // folded runes
		at   []int  // their original offsets
	}{
		{"Total 5", foldSpaces, "total 5", []int{0, 1, 2, 3, 4, 5, 6}},
		{"A \n B", foldSpaces, "a b", []int{0, 1, 4}},
		{"INV-10", foldCompact, "inv10", []int{0, 1, 2, 4, 5}},
		{"S.B", foldAlnum, "sb", []int{0, 2}},
	} {
		f := foldRunes([]rune(c.text), c.mode)
		var at []int
		for k := range f.r {
			at = append(at, f.origin(k))
		}
		if string(f.r) != c.want || !slices.Equal(at, c.at) {
			t.Errorf("fold %q: %q at %v, want %q at %v", c.text, string(f.r), at, c.want, c.at)
		}
	}
}
