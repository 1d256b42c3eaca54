package pipeline

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// Every line that opens a quoted reply passes the cheap test findQuoted
// runs first.
func TestMayOpenQuoteKeepsEveryQuoteLine(t *testing.T) {
	lines := []string{"> Invoice No: OK-77", "___________", "-----Original Message-----", "----- Ursprüngliche Nachricht -----"}
	for _, w := range wroteWords {
		lines = append(lines, "On Tue, 3 Feb 2026, Oak Ltd "+w, "Am 3. Februar 2026 SCHRIEB "+w)
	}
	for _, l := range lines {
		if !mayOpenQuote([]rune(l)) {
			t.Errorf("%q opens a quote, but mayOpenQuote says no", l)
		}
	}
	for _, l := range []string{"Total: 12.00", "Thanks, paid.", "---- 4 dashes ----", "__ two"} {
		if mayOpenQuote([]rune(l)) {
			t.Errorf("%q cannot open a quote, but mayOpenQuote says it may", l)
		}
	}
}

// An ASCII document's lines are read from its bytes, with the answer the
// rune test gives.
func TestMayOpenQuoteAtReadsASCIIBytesAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	pieces := []string{">", ":", "_", "-", "--", "-----", "a", " ", "___"}
	s := Invoice()
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := strings.TrimSpace(b.String())
		if line == "" {
			continue
		}
		d, err := analyze(context.Background(), line, s)
		if err != nil {
			t.Fatal(err)
		}
		d.facts.src = line
		dashes := strings.Contains(line, "-----")
		if got, want := d.mayOpenQuoteAt(0, len(d.rs), dashes), mayOpenQuote(d.rs); got != want {
			t.Errorf("%q: from bytes %v, from runes %v", line, got, want)
		}
	}
}

// opensQuote reads an ASCII line in any case as the lowercased line reads.
func TestOpensQuoteReadsASCIIInAnyCase(t *testing.T) {
	byLower := func(line string) bool {
		low := strings.ToLower(line)
		quote := strings.HasPrefix(line, ">")
		if strings.Contains(line, "-----") || strings.HasPrefix(line, "___") {
			for _, w := range originalMessageWords {
				quote = quote || strings.Contains(low, w)
			}
		}
		for _, w := range wroteWords {
			quote = quote || strings.HasSuffix(low, w) && len([]rune(line)) < 200
		}
		return quote
	}
	r := rand.New(rand.NewPCG(3, 14))
	pieces := []string{"-----", "Original Message", "ORIGINAL MESSAGE", "___", ">", "Tom ", "WROTE:", "wrote:", "schrieb:",
		"Ursprüngliche Nachricht", "a écrit :", " ", "x", strings.Repeat("y", 190)}
	quotes := 0
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := strings.TrimSpace(b.String())
		want := byLower(line)
		if got := opensQuote(line); got != want {
			t.Errorf("%q: opensQuote %v, lowercased %v", line, got, want)
		}
		if want {
			quotes++
		}
	}
	if quotes < 500 {
		t.Errorf("only %d lines open a quote: the comparison says little", quotes)
	}
}

// A text with a line that opens a quote passes the whole-text screen
// findQuoted runs first, in any case and script the mail client wrote.
func TestMayQuoteKeepsEveryTextWithAQuoteLine(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	pieces := []string{"-----", "----", "Original Message", "___", "__", ">", "Tom ", "Date:", "Total: 12.00", " ", "\n", "x",
		"ÉCRIT :", "İ", "\u212a", "Ó:", "NAPISAŁ:", "ESCRIBIÓ:", "Ha Scritto:", ":", "é:"}
	for _, w := range wroteWords {
		pieces = append(pieces, w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:])
	}
	quotes, screened := 0, 0
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		opens := false
		for line := range strings.SplitSeq(text, "\n") {
			opens = opens || opensQuote(strings.TrimSpace(line))
		}
		may := mayQuote(text)
		if opens && !may {
			t.Fatalf("%q has a line that opens a quote, but mayQuote says none may", text)
		}
		if opens {
			quotes++
		}
		if !may {
			screened++
		}
	}
	if quotes < 1000 || screened < 1000 {
		t.Fatalf("%d texts open a quote and %d are screened out: the texts test too little", quotes, screened)
	}
}

// The key written on the stack is LabelKey's, on runes in and beyond ASCII,
// CJK runes (a word each), punctuation and keys too long for the buffer.
func TestAppendLabelKeyIsLabelKey(t *testing.T) {
	pieces := []string{"Było", "PRZED KOREKTĄ", "Wartość", " ", "  ", ":", "-", "é", "İ", "\u212a", "優惠", "券", "a1", "x",
		"Before correction", "VOR KORREKTUR", "ANTES DE LA CORRECCIÓN", ".", "'", strings.Repeat("b", 70), "Ä"}
	r := rand.New(rand.NewPCG(4, 40))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var buf [64]byte
		got, ok := appendLabelKey(buf[:0], []rune(s))
		want := LabelKey(s)
		if ok && string(got) != want || !ok && len(want) <= len(buf)-5 {
			t.Fatalf("appendLabelKey(%q) = %q, %v; LabelKey gives %q", s, got, ok, want)
		}
	}
}
