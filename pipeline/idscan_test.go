package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// embeddedTimeEveryRune is embeddedTime as it read every rune for a colon.
func embeddedTimeEveryRune(rs []rune, digits string, dated bool) string {
	for i := 0; i+4 < len(rs); i++ {
		if rs[i+2] != ':' || !isDigit(rs[i]) || !isDigit(rs[i+1]) || !isDigit(rs[i+3]) || !isDigit(rs[i+4]) ||
			i > 0 && isDigit(rs[i-1]) {
			continue
		}
		b := [6]byte{byte(rs[i]), byte(rs[i+1]), byte(rs[i+3]), byte(rs[i+4])}
		t := b[:4]
		if i+7 < len(rs) && rs[i+5] == ':' && isDigit(rs[i+6]) && isDigit(rs[i+7]) {
			b[4], b[5] = byte(rs[i+6]), byte(rs[i+7])
			t = b[:6]
		}
		if strings.Contains(digits, string(t)) && (len(t) == 6 || dated) {
			return string(t)
		}
	}
	return ""
}

// skipNumberSignAnyLength is skipNumberSign reading a token of any length.
func skipNumberSignAnyLength(rs []rune, p int) int {
	q := p
	for q < len(rs) && !unicode.IsSpace(rs[q]) && rs[q] != ':' && rs[q] != '：' {
		q++
	}
	if q == p || q >= len(rs) {
		return p
	}
	var buf [16]byte
	if w, ok := lowerWord(buf[:0], rs[p:q]); !ok || !numberSigns[string(w)] {
		return p
	}
	for q < len(rs) && (rs[q] == ' ' || rs[q] == '\t' || rs[q] == ':' || rs[q] == '：') {
		q++
	}
	return q
}

// The colon-led time search finds the time the every-rune search finds,
// and the bounded number-sign skip skips what the unbounded one skips, on
// random texts of times, colons, digits and number signs in and beyond
// ASCII.
func TestIdentifierScansReadAsBefore(t *testing.T) {
	pieces := []string{"12:30", "12:30:45", "1:30", "123:45", ":", "::", "7", "45", " ", "\n", "Nº ", "NO. ", "núm.", "NÚM:",
		"№", "n.", "Nr:", "no", "NOT", "：", "Zeit", "é", "語", "1230", "123045", "INV-1230"}
	s := Invoice()
	r := rand.New(rand.NewPCG(17, 3))
	found := 0
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		if strings.TrimSpace(text) == "" {
			continue
		}
		d, err := analyze(context.Background(), text, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, digits := range []string{"1230", "123045", "20261230|4512", "7"} {
			for _, dated := range []bool{false, true} {
				got, want := d.embeddedTime(digits, dated), embeddedTimeEveryRune(d.rs, digits, dated)
				if got != want {
					t.Fatalf("embeddedTime(%q, %v) in %q = %q, reading every rune %q", digits, dated, text, got, want)
				}
				if got != "" {
					found++
				}
			}
		}
		for p := range len(d.rs) + 1 {
			if got, want := skipNumberSign(d.rs, p), skipNumberSignAnyLength(d.rs, p); got != want {
				t.Fatalf("skipNumberSign(%q, %d) = %d, reading the whole token %d", string(d.rs), p, got, want)
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d times found: the texts test too little", found)
	}
}
