package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The sentence, header and label readers of findBilled as they were
// before they searched an ASCII text's bytes (indexRune) and fold
// (payInCode's "n "), rune by rune over the whole text; kept to compare.
func (d *doc) headedCodeByRunes() (string, Span, bool) {
	rs := d.rs
	for p := 0; p+4 < len(rs); p++ {
		if rs[p] != '(' {
			continue
		}
		q := p + 1
		if q+3 < len(rs) && rs[q] == 'i' && rs[q+1] == 'n' && rs[q+2] == ' ' {
			q += 3
		}
		if q+3 >= len(rs) || rs[q+3] != ')' || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) {
			continue
		}
		c := isoCodeAt(rs, q)
		if c == "" {
			continue
		}
		k, e := wordBefore(rs, p, func(r rune) bool { return unicode.IsSpace(r) && r != '\n' })
		if e-k >= 3 && e-k <= 7 && headerWords[strings.ToLower(string(rs[k:e]))] {
			return c, Span{Start: q, End: q + 3}, true
		}
	}
	return "", Span{}, false
}
func (d *doc) payInCodeByRunes() (string, Span, bool) {
	rs := d.rs
	for p := 1; p+6 <= len(rs); p++ {
		if rs[p-1] != ' ' || rs[p]|0x20 != 'i' && rs[p]|0x20 != 'e' || rs[p+1]|0x20 != 'n' || rs[p+2] != ' ' {
			continue
		}
		q := p + 3
		for q < len(rs) && rs[q] == ' ' {
			q++
		}
		if q+3 > len(rs) || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) ||
			q+3 < len(rs) && isWordRune(rs[q+3]) {
			continue
		}
		c := isoCodeAt(rs, q)
		if c == "" {
			continue
		}
		k, e := wordBefore(rs, p-1, func(r rune) bool { return r == ' ' })
		if e-k >= 3 && e-k <= 9 && payInWords[strings.ToLower(string(rs[k:e]))] {
			return c, Span{Start: q, End: q + 3}, true
		}
	}
	return "", Span{}, false
}
func (d *doc) labelledCurrencyByRunes() (string, Span, bool) {
	rs := d.rs
	for p := 1; p < len(rs); p++ {
		if rs[p] != ':' && rs[p] != '：' {
			continue
		}
		q := p + 1
		for q < len(rs) && rs[q] == ' ' {
			q++
		}
		if q+3 > len(rs) || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) ||
			q+3 < len(rs) && isWordRune(rs[q+3]) {
			continue
		}
		code := isoCodeAt(rs, q)
		if code == "" {
			continue
		}
		k := p
		for k > 0 && rs[k-1] == ' ' {
			k--
		}
		e := k
		for k > 0 && isWordRune(rs[k-1]) {
			k--
		}
		if e-k < 3 || e-k > 8 || !currencyLabels[strings.ToLower(string(rs[k:e]))] {
			continue
		}
		ls, le := d.lineBounds(d.lineOf(p))
		line := strings.ToLower(d.str(ls, le))
		if slices.ContainsFunc(bankLineWords, func(w string) bool { return strings.Contains(line, w) }) {
			continue
		}
		return code, Span{Start: q, End: q + 3}, true
	}
	return "", Span{}, false
}

// headedCode, payInCode and labelledCurrency read what their rune-by-rune
// scans read, on texts of headers, sentences and labels with runs of
// spaces, tabs, capitals, fullwidth colons and other scripts, and on the
// receipts.
func TestBilledReadersAreTheRuneScans(t *testing.T) {
	texts := []string{"Amount (AED)\n1 x 5.00", "Please pay in GBP", "All amounts in  NGN.", "zahlbar in CHF", "Currency: EUR",
		"IBAN DE00 Currency: USD", "Moneda：MXN", "Total (in USD) 5", "PAY IN EUR", "pay\tin EUR", "montants en EUR", "", "in",
		" in USD", "Währung: CHF", "Betrag (EUR)", "Prix (en EUR)", "payable  in   USD"}
	for _, r := range loadReceipts(t) {
		texts = append(texts, r.Text)
	}
	pieces := []string{"pay", "Paid", "amounts", "Betrag", "Amount", "Currency", "CURRENCY", "Währung", " ", "  ", "\t", "\n",
		"in", "IN", "en", "En", " in ", " en ", "(", ")", "(in ", ":", "：", ": ", "USD", "EUR", "XYZ", "GBPX", "ALL", "iban",
		"é", "x", "5.00", "Ä", "\u3000", "n ", "pay in USD", "amounts en EUR", "Amount (AED)", "Total (in GBP)",
		"Currency: EUR", "ccy:  JPY", "Summe (EUR)", "paid  IN  USD"}
	rng := rand.New(rand.NewPCG(5, 9))
	for range 4000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	found, schema := 0, Invoice()
	for _, text := range texts {
		d, err := analyze(context.Background(), text, schema)
		if err != nil {
			t.Fatal(err)
		}
		type read struct {
			code string
			sp   Span
			ok   bool
		}
		for _, f := range []struct {
			name     string
			got, was func() (string, Span, bool)
		}{{"headedCode", d.headedCode, d.headedCodeByRunes}, {"payInCode", d.payInCode, d.payInCodeByRunes},
			{"labelledCurrency", d.labelledCurrency, d.labelledCurrencyByRunes}} {
			var got, was read
			got.code, got.sp, got.ok = f.got()
			was.code, was.sp, was.ok = f.was()
			if got != was {
				t.Fatalf("%q: %s %+v, the rune scan %+v", text, f.name, got, was)
			}
			if got.ok {
				found++
			}
		}
	}
	if found < len(texts)/5 {
		t.Errorf("only %d readings in %d texts: the comparison says little", found, len(texts))
	}
}
