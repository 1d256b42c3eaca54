package pipeline

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1,250.00", "1.234,56", "2 400,00", "1'250.00", "$5", "(5.00)", "RM193.00", "-0", ".5", "1e5", "12,34,567.00", "€", "1\u00a0250,50"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParseAmount(s)
		if !ok {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ParseAmount(%q) = %v", s, v)
		}
		// A parsed amount formats back and re-parses to the same value.
		back := strconv.FormatFloat(v, 'f', -1, 64)
		w, ok := ParseAmount(back)
		if !ok || w != v {
			t.Fatalf("ParseAmount(%q) = %v; re-parse of %q = %v, %v", s, v, back, w, ok)
		}
	})
}

func FuzzFindAmounts(f *testing.F) {
	for _, s := range []string{"Total: RM 75.00\nCASH (5.00)", "15/01/2019 11:05:16 193.00SR", "2 400,00 €", "Ünï 1.234,56-", "07-388 2218"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rs := []rune(text)
		prevEnd := 0
		for _, m := range FindAmounts(text) {
			if m.Start < prevEnd || m.Start >= m.End || m.End > len(rs) {
				t.Fatalf("bad span %+v in %d runes", m, len(rs))
			}
			prevEnd = m.End
			raw := string(rs[m.Start:m.End])
			if raw != m.Raw {
				t.Fatalf("Raw %q != text %q", m.Raw, raw)
			}
			v, ok := ParseAmount(raw)
			if !ok || v != math.Abs(m.Value) {
				t.Fatalf("token %q parses to %v, %v; match says %v", raw, v, ok, m.Value)
			}
			if m.Line != strings.Count(string(rs[:m.Start]), "\n") {
				t.Fatalf("line %d wrong for %+v", m.Line, m)
			}
		}
	})
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-03-14", "03/04/2026", "14.03.2026", "March 14, 2026", "14-Mar-19", "2026年4月1日", "31/02/2026", "14th Sept. 2026"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		isos, ok := ParseDate(s)
		if !ok {
			return
		}
		if len(isos) < 1 || len(isos) > 2 {
			t.Fatalf("ParseDate(%q) = %v", s, isos)
		}
		for _, iso := range isos {
			if !ValidISODate(iso) {
				t.Fatalf("ParseDate(%q) gave invalid %q", s, iso)
			}
			if again, ok := ParseDate(iso); !ok || len(again) != 1 || again[0] != iso {
				t.Fatalf("ISO %q re-parses to %v, %v", iso, again, ok)
			}
		}
	})
}

func FuzzFindDates(f *testing.F) {
	for _, s := range []string{"DATE : 15/01/2019 11:05:16 AM", "Oct 3, 2016 and 3 Oct 16", "2026 年 4 月 1", "1.2.3.4.5", "Ünï 30 DÉC 17"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rs := []rune(text)
		prevEnd := 0
		for _, m := range FindDates(text) {
			if m.Start < prevEnd || m.Start >= m.End || m.End > len(rs) {
				t.Fatalf("bad span %+v in %d runes", m, len(rs))
			}
			prevEnd = m.End
			if m.Raw != string(rs[m.Start:m.End]) {
				t.Fatalf("Raw %q is not the text at its span", m.Raw)
			}
			if len(m.ISO) == 0 || len(m.ISO) > 2 || m.Ambiguous != (len(m.ISO) == 2) {
				t.Fatalf("readings %+v", m)
			}
			for _, iso := range m.ISO {
				if !ValidISODate(iso) {
					t.Fatalf("invalid reading %q of %q", iso, m.Raw)
				}
			}
		}
	})
}

func FuzzFindSpans(f *testing.F) {
	f.Add("GLOBEX\n  LTD and globex ltd", "Globex Ltd")
	f.Add("Ünïcode Café", "CAFÉ")
	f.Fuzz(func(t *testing.T, text, needle string) {
		if !utf8.ValidString(text) || !utf8.ValidString(needle) {
			return
		}
		rs := []rune(text)
		want := strings.Join(strings.Fields(strings.ToLower(needle)), " ")
		prevEnd := 0
		for _, sp := range FindSpans(text, needle) {
			if sp.Start < prevEnd || sp.Start >= sp.End || sp.End > len(rs) {
				t.Fatalf("bad span %+v in %d runes", sp, len(rs))
			}
			prevEnd = sp.End
			got := string(foldRunes(rs[sp.Start:sp.End], foldSpaces).r)
			if got != string(foldNeedle(needle, foldSpaces)) {
				t.Fatalf("span %q folds to %q, needle folds to %q (%q)", string(rs[sp.Start:sp.End]), got, string(foldNeedle(needle, foldSpaces)), want)
			}
		}
	})
}

func FuzzRunHeuristics(f *testing.F) {
	f.Add(seedText, "Globex Ltd", "2026-02-28", 683.2, "GBP")
	f.Add(itemInvoice, "ACME", "2026-02-30", 45.0, "USD")
	f.Fuzz(func(t *testing.T, text, vendor, date string, total float64, cur string) {
		s := Invoice()
		rec := Record{"vendor_name": vendor, "invoice_date": date, "total": total, "currency": cur, "subtotal": total / 2, "tax": 1.0}
		rep := RunHeuristics(text, s, rec)
		n := utf8.RuneCountInString(text)
		for name, c := range rep {
			if c.Factor < 0 || c.Factor > 1 || math.IsNaN(c.Factor) {
				t.Fatalf("%s factor %v", name, c.Factor)
			}
			if c.Factor < 1 && len(c.Reasons) == 0 {
				t.Fatalf("%s lowered without a reason", name)
			}
			for _, sp := range c.Spans {
				if sp.Start < 0 || sp.Start >= sp.End || sp.End > n {
					t.Fatalf("%s span %+v outside %d runes", name, sp, n)
				}
			}
		}
	})
}
