package pipeline

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
)

// dateishText is a random ASCII text made of what dates are made of:
// digit runs of every length, the three separators, month names in three
// cases, ordinals, number labels, "de", spaces, newlines and punctuation.
func dateishText(rng *rand.Rand) string {
	parts := []string{"/", "-", ".", " ", "  ", "\n", ",", ":", "'", "#", "(", ")", "de", "th", "st", "er", "No.", "Nr",
		"Invoice number", "n", "Date", "DATE:", "Mar", "MARCH", "march", "Sept", "dec", "Oktober", "mei", "Ogos", "jan",
		"x", "Fattura", "Rechnungsnummer", "12.50", "RM", "abc", "Z", "\t", "          ", "@[`{", "~\x7f",
		"INVOICEDATEMARCHNOVEMBER", "1234567890123"}
	var b strings.Builder
	for range 1 + rng.IntN(40) {
		digits := func(n int) {
			for range n {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		switch rng.IntN(4) {
		case 0:
			digits(1 + rng.IntN(5))
			continue
		case 1:
			// A date's skeleton: digits, a separator, one or two digits
			// (a day or month, mostly valid), the separator or another,
			// digits.
			sep := "/-. "[rng.IntN(4)]
			digits(1 + rng.IntN(4))
			b.WriteByte(sep)
			b.WriteByte(byte('0' + rng.IntN(2)))
			digits(rng.IntN(2))
			if rng.IntN(8) == 0 {
				sep = "/-. "[rng.IntN(4)]
			}
			b.WriteByte(sep)
			digits(1 + rng.IntN(4))
			continue
		}
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return b.String()
}

// The byte loop over an ASCII text finds what the rune loop finds, in
// the same order with the same readings, and lists the same digit runs.
func TestDateScanASCIIIsRunes(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	texts := []string{"", "1", "a", "DATE : 15/01/2019 11:05:16 AM", "Oct 3, 2016 and 3 Oct 16", "No. 2026-03-14",
		"Invoice No. 2026-03-14", "14th March, 2026", "3 de octubre de 2026", "1.2.3.4.5", "220318/10049/04",
		"30 DEC 17", "28-FEB-2018", "Mar 14 2026", "MAR. 14, 2026"}
	for range 20000 {
		texts = append(texts, dateishText(rng))
	}
	found := 0
	for _, text := range texts {
		rs := []rune(text)
		wantD, wantR := scanDatesRuns(nil, nil, true, rs, "", nil)
		gotD, gotR := scanDatesRuns(nil, nil, true, rs, text, nil)
		if !reflect.DeepEqual(gotD, wantD) || !reflect.DeepEqual(gotR, wantR) {
			t.Fatalf("%q:\n bytes %+v %v\n runes %+v %v", text, gotD, gotR, wantD, wantR)
		}
		found += len(wantD)
	}
	if found < 3000 {
		t.Fatalf("only %d dates in the random texts: the test reads too few", found)
	}
}

// isoDate reads a month's length where it called time.Date: both accept
// the same days.
func TestIsoDateIsTimeDate(t *testing.T) {
	for y := 990; y <= 10010; y++ {
		if y == 1100 {
			y = 1890 // the centuries between read as those around them
		}
		for m := -1; m <= 14; m++ {
			for d := -1; d <= 33; d++ {
				got, gotOK := isoDate(y, m, d)
				want, wantOK := oldIsoDate(y, m, d)
				if got != want || gotOK != wantOK {
					t.Fatalf("isoDate(%d, %d, %d) = %q, %v; time.Date's %q, %v", y, m, d, got, gotOK, want, wantOK)
				}
			}
		}
	}
}

func oldIsoDate(y, m, d int) (string, bool) {
	if y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return "", false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || int(t.Month()) != m {
		return "", false
	}
	return t.Format("2006-01-02"), true
}

// numberLabelBefore screens the word before a date by its first and last
// letters before lowering it: it answers as the unscreened test did, on
// random words before random positions.
func TestNumberLabelBeforeScreen(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	words := []string{"n", "N", "no", "No", "NR", "nro", "Num", "núm", "NÚM", "number", "NUMMER", "numéro", "Número",
		"nº", "n°", "Rechnungsnummer", "InvoiceNumber", "ordernumber", "Date", "Datum", "r", "nummer", "umber", "mer",
		"İnvoice", "ñ", "Ñr", "fattura", "x"}
	between := []string{"", " ", ". ", ".", ":", " : ", "°", "º ", "\t", "#", "# ", "\n", "-", "1"}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(between[rng.IntN(len(between))])
		}
		rs := []rune(b.String())
		if got, want := numberLabelBefore(rs, len(rs)), oldNumberLabelBefore(rs, len(rs)); got != want {
			t.Fatalf("numberLabelBefore(%q) = %v, unscreened %v", string(rs), got, want)
		}
	}
	for r := range unicode.MaxRune + 1 {
		if l := unicode.ToLower(r); (l == 'n' || l == 'r') && r != l && r != l-'a'+'A' {
			t.Fatalf("%q lowers to %q: the screen misses it", r, l)
		}
	}
}

// oldNumberLabelBefore is numberLabelBefore before its screen.
func oldNumberLabelBefore(rs []rune, start int) bool {
	k := start - 1
	for k >= 0 && (rs[k] == ' ' || rs[k] == '\t' || rs[k] == ':') {
		k--
	}
	if k < 0 {
		return false
	}
	if rs[k] == '#' {
		return true
	}
	if rs[k] == '.' {
		k--
	}
	deg := k >= 0 && (rs[k] == '°' || rs[k] == 'º')
	if deg {
		k--
	}
	e := k + 1
	for k >= 0 && unicode.IsLetter(rs[k]) && rs[k] != 'º' {
		k--
	}
	return numberWordLower(strings.ToLower(string(rs[k+1:e])), deg)
}
