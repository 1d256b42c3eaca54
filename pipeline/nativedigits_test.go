package pipeline

import (
	"strings"
	"testing"
)

// inDigits writes s with its ASCII digits in the digits of the script whose
// zero is zero.
func inDigits(s string, zero rune) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return zero + r - '0'
		}
		return r
	}, s)
}

// Documents from Myanmar, Nepal, Bangladesh, Thailand, Laos and Cambodia
// print their numbers, amounts and dates in their own digits. They read as
// 0-9 like Arabic-Indic ones: the true record passes, a wrong value is
// flagged, numeric dates are day first, and spans point at the digits as
// printed.
func TestNativeScriptDigitsAreRead(t *testing.T) {
	scripts := []struct {
		name string
		zero rune
		head string // the issuer, in its own script
	}{
		{"Burmese", '၀', "ရွှေမြန်မာ ကုမ္ပဏီ လီမိတက်"},
		{"Nepali", '०', "हिमालय ट्रेडर्स प्रा. लि."},
		{"Bengali", '০', "পদ্মা ট্রেডার্স লিমিটেড"},
		{"Thai", '๐', "บริษัท สยามการค้า จำกัด"},
		{"Lao", '໐', "ບໍລິສັດ ລາວການຄ້າ ຈຳກັດ"},
		{"Khmer", '០', "ក្រុមហ៊ុន អង្គរ ពាណិជ្ជកម្ម"},
	}
	for _, s := range scripts {
		text := s.head + "\n" + inDigits("Invoice No: 4521\nDate: 05/04/2026\nSubtotal: 1,000.00\nTax 10%: 100.00\nTotal: 1,100.00", s.zero)
		rec := map[string]any{"vendor_name": s.head, "invoice_number": "4521", "invoice_date": "2026-04-05",
			"subtotal": 1000.0, "tax": 100.0, "total": 1100.0}
		runClassCases(t, []classCase{
			{s.name + " true record", text, rec, "", ""},
			{s.name + " another number", text, with(rec, "invoice_number", "4522"), "invoice_number", "not found"},
			{s.name + " subtotal as total", text, with(rec, "total", 1000.0), "total", "labelled total (1100.00)"},
			{s.name + " rate as tax", text, with(rec, "tax", 10.0), "tax", ""},
		})
		runDateCases(t, []classCase{
			{s.name + " day and month swapped", text, map[string]any{"invoice_date": "2026-05-04"}, "invoice_date", "Southeast Asian script"},
		})
		res := validateHO(t, text, rec)
		rs := []rune(text)
		for field, printed := range map[string]string{"invoice_number": "4521", "invoice_date": "05/04/2026", "total": "1,100.00"} {
			spans := res.FieldProvenance[field]
			if len(spans) == 0 {
				t.Errorf("%s %s: no span", s.name, field)
				continue
			}
			if got, want := string(rs[spans[0].Start:spans[0].End]), inDigits(printed, s.zero); got != want {
				t.Errorf("%s %s: span reads %q, want %q", s.name, field, got, want)
			}
		}
	}
}

// Every decimal digit Unicode knows reads as its value; other runes are
// left as they are.
func TestNativeDigitValues(t *testing.T) {
	for _, zero := range []rune{'०', '০', '੦', '૦', '௦', '౦', '೦', '൦', '෦', '๐', '໐', '༠', '၀', '០', '᠐', '𑁦'} {
		for v := rune(0); v < 10; v++ {
			if got := narrowRune(zero + v); got != '0'+v {
				t.Errorf("narrowRune(%q) = %q, want %q", zero+v, got, '0'+v)
			}
		}
	}
	for _, r := range []rune{'क', 'ก', 'မ', '中', 'ж', '€'} {
		if got := narrowRune(r); got != r {
			t.Errorf("narrowRune(%q) = %q, want it unchanged", r, got)
		}
	}
}
