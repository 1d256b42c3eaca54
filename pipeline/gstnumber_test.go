package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The hand-read GST registration number is the regexp's first match, group
// and all: on the SROIE receipts, on the shapes around each part of the
// pattern (word boundaries, the long s, the 24-rune gap, spaces between the
// groups, a thirteenth digit, invalid UTF-8) and on random texts of them.
func TestGSTNumberIndexIsTheRegexp(t *testing.T) {
	re := issuerNumbers[0].re.(handRegexp).Regexp
	texts := []string{
		"", "GST", "gst 1234 5678 9012", "GST REG NO: 000123456789\n", "GST REG NO : 001234567890 ",
		"XGST 123456789012", "GSTX 123456789012", "_GST 123456789012", "éGST 123456789012", "GSTé123456789012x",
		"GſT 123456789012", "gſt: 1234 5678 9012", "GS", "G\xc5", "GST 1234567890123", "GST 12345678901",
		"GST 1234  5678 9012", "GST 1234 5678 90123", "GST 1234 5678 9012\n", "GST\n123456789012",
		"GST " + strings.Repeat("x", 24) + "123456789012", "GST " + strings.Repeat("x", 25) + "123456789012",
		"GST" + strings.Repeat("é", 24) + "123456789012", "GST" + strings.Repeat("é", 25) + "123456789012",
		"GST \xff\xfe 123456789012\xff", "GST 1 GST 123456789012", "GST 12 / GST ID: 123456789012é",
		"TOTAL GST @6%: 0.00\nGST ID 000306020352", "GST:\t1234 5678 9012", "GST 1234 5678 9012 ",
	}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	for _, r := range loadReceiptSet(t, "check") {
		texts = append(texts, r.Text)
	}
	pieces := []string{"G", "g", "S", "s", "ſ", "T", "t", "GST", "gst", " ", "\n", "1234", "5", "0", "x", "_", ":",
		"é", "\xff", " 1234 ", "123456789012"}
	rng := rand.New(rand.NewPCG(11, 7))
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	matched := 0
	for _, text := range texts {
		got, want := gstNumberIndex(text), re.FindStringSubmatchIndex(text)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v, the regexp %v", text, got, want)
		}
		if want != nil {
			matched++
		}
	}
	if matched < 100 {
		t.Errorf("only %d of %d texts hold a GST number: the comparison says little", matched, len(texts))
	}
}
