package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// An issuer number read by hand finds what its regexp finds, first match
// and every match, groups and all: on the SROIE receipts, on the shapes
// around each part of the patterns (word boundaries, the long s, the
// 24-rune gap, spaces between the groups, a thirteenth digit, every pair of
// capitals before a ZIP code, ZIP+4, invalid UTF-8) and on random texts of
// those pieces.
func TestHandRegexpsAreTheirRegexps(t *testing.T) {
	texts := []string{
		"", "GST", "gst 1234 5678 9012", "GST REG NO: 000123456789\n", "GST REG NO : 001234567890 ",
		"XGST 123456789012", "GSTX 123456789012", "_GST 123456789012", "éGST 123456789012", "GSTé123456789012x",
		"GſT 123456789012", "gſt: 1234 5678 9012", "GS", "G\xc5", "GST 1234567890123", "GST 12345678901",
		"GST 1234  5678 9012", "GST 1234 5678 90123", "GST 1234 5678 9012\n", "GST\n123456789012",
		"GST " + strings.Repeat("x", 24) + "123456789012", "GST " + strings.Repeat("x", 25) + "123456789012",
		"GST" + strings.Repeat("é", 24) + "123456789012", "GST" + strings.Repeat("é", 25) + "123456789012",
		"GST \xff\xfe 123456789012\xff", "GST 1 GST 123456789012", "GST 12 / GST ID: 123456789012é",
		"TOTAL GST @6%: 0.00\nGST ID 000306020352", "GST:\t1234 5678 9012", "GST 1234 5678 9012 ",
		"Boise, ID 83702", "NY 10013-1234", "NY 10013-12345", "NY 10013-123", "NY 100134", "XNY 10013", "éNY 10013",
		"NY 10013é", "NY  10013", "ny 10013", "NY 10013_", "_NY 10013", "NY 10013-1234x", "NY 10013-",
		"TX 75001 and CA 90210-1234\nDC 20500", "MASAI AI 81750",
	}
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			texts = append(texts, "City, "+string(a)+string(b)+" 12345-6789 x")
		}
	}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	for _, r := range loadReceiptSet(t, "check") {
		texts = append(texts, r.Text)
	}
	pieces := []string{"G", "g", "S", "s", "ſ", "T", "t", "GST", "gst", " ", "\n", "1234", "5", "0", "x", "_", ":",
		"é", "\xff", " 1234 ", "123456789012", "NY", "CA ", "AI ", "-", "12345", "-1234"}
	rng := rand.New(rand.NewPCG(11, 7))
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	hands := 0
	for _, n := range issuerNumbers {
		h, ok := n.re.(handRegexp)
		if !ok {
			continue
		}
		hands++
		matched := 0
		for _, text := range texts {
			if got, want := h.FindStringSubmatchIndex(text), h.Regexp.FindStringSubmatchIndex(text); !reflect.DeepEqual(got, want) {
				t.Errorf("%s in %q: got %v, the regexp %v", n.what, text, got, want)
			} else if want != nil {
				matched++
			}
			for _, k := range []int{-1, 0, 1, 8} {
				if got, want := h.FindAllStringSubmatchIndex(text, k), h.Regexp.FindAllStringSubmatchIndex(text, k); !reflect.DeepEqual(got, want) {
					t.Errorf("%s in %q, %d matches: got %v, the regexp %v", n.what, text, k, got, want)
				}
			}
		}
		if matched < 100 {
			t.Errorf("%s: only %d of %d texts hold one: the comparison says little", n.what, matched, len(texts))
		}
	}
	if hands < 2 {
		t.Errorf("%d issuer numbers read by hand, want the GST number and the US address", hands)
	}
}
