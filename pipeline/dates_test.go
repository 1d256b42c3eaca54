package pipeline

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestParseDate(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"2026-03-14", []string{"2026-03-14"}},
		{"2026/03/14", []string{"2026-03-14"}},
		{"2026.03.14", []string{"2026-03-14"}},
		{"03/14/2026", []string{"2026-03-14"}},
		{"14/03/2026", []string{"2026-03-14"}},
		{"03/04/2026", []string{"2026-04-03", "2026-03-04"}},
		{"14.03.2026", []string{"2026-03-14"}},
		{"03.04.2026", []string{"2026-04-03"}},
		{"14-03-2026", []string{"2026-03-14"}},
		{"14/03/26", []string{"2026-03-14"}},
		{"20/03/18", []string{"2018-03-20"}},
		{"12/12/2019", []string{"2019-12-12"}},
		{"March 14, 2026", []string{"2026-03-14"}},
		{"Mar 14 2026", []string{"2026-03-14"}},
		{"MAR. 14, 2026", []string{"2026-03-14"}},
		{"14 Mar 2026", []string{"2026-03-14"}},
		{"14-Mar-2026", []string{"2026-03-14"}},
		{"14th March 2026", []string{"2026-03-14"}},
		{"30 DEC 17", []string{"2017-12-30"}},
		{"28-FEB-2018", []string{"2018-02-28"}},
		{"14. März 2026", []string{"2026-03-14"}},
		{"2026年4月1日", []string{"2026-04-01"}},
		{"2026 年 4 月 1 日", []string{"2026-04-01"}},
		{" 2026-03-14. ", []string{"2026-03-14"}},
		{"20 maggio 2026", []string{"2026-05-20"}},
		{"1 settembre 2026", []string{"2026-09-01"}},
		{"14. März 2026", []string{"2026-03-14"}},
		{"3 de octubre de 2026", []string{"2026-10-03"}},
		{"1º de mayo de 2026", []string{"2026-05-01"}},
		{"1er avril 2026", []string{"2026-04-01"}},
		{"12 février 2026", []string{"2026-02-12"}},
		{"20 de março de 2026", []string{"2026-03-20"}},
		{"5 dezembro 2026", []string{"2026-12-05"}},
		{"14 maart 2026", []string{"2026-03-14"}},
		{"31 augustus 2026", []string{"2026-08-31"}},
		{"7 oktober 2026", []string{"2026-10-07"}},
		{"8 Dezember 2026", []string{"2026-12-08"}},
	}
	for _, tc := range cases {
		got, ok := ParseDate(tc.in)
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
		}
	}
	for _, bad := range []string{"", "2026-02-30", "31/02/2026", "13/13/2026", "hello", "14 Mar", "Date: 2026-03-14", "12:30:00", "16.46.00", "1/2"} {
		if got, ok := ParseDate(bad); ok {
			t.Errorf("ParseDate(%q) = %v, want failure", bad, got)
		}
	}
}

func TestValidISODate(t *testing.T) {
	for s, want := range map[string]bool{
		"2026-02-28": true, "2024-02-29": true, "2026-02-30": false, "2025-02-29": false,
		"2026-3-14": false, "26-03-14": false, "2026/03/14": false, "": false, "2026-13-01": false,
	} {
		if got := ValidISODate(s); got != want {
			t.Errorf("ValidISODate(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestFindDates(t *testing.T) {
	text := "INV NO/DATE:K074-001096(06/12/2016)\nDATE : 15/01/2019 11:05:16 AM\nINV NO: 220318/10049/04/24382\nDue Oct 3, 2016 — 日期 2026年4月1日"
	ms := FindDates(text)
	rs := []rune(text)
	want := []struct {
		raw   string
		amb   bool
		order DateOrder
	}{
		{"06/12/2016", true, OrderUnknown},
		{"15/01/2019", false, OrderDMY},
		{"Oct 3, 2016", false, OrderUnknown},
		{"2026年4月1日", false, OrderUnknown},
	}
	if len(ms) != len(want) {
		t.Fatalf("FindDates = %+v", ms)
	}
	for i, m := range ms {
		if got := string(rs[m.Start:m.End]); got != want[i].raw || m.Raw != got || m.Ambiguous != want[i].amb || m.Order != want[i].order {
			t.Errorf("match %d = %+v (%q), want %+v", i, m, got, want[i])
		}
	}
	if !reflect.DeepEqual(ms[0].ISO, []string{"2016-12-06", "2016-06-12"}) {
		t.Errorf("ambiguous readings = %v, want day-first then month-first", ms[0].ISO)
	}
}

// A date-shaped token glued to a number label is an identifier.
func TestFindDatesSkipsNumberedIdentifiers(t *testing.T) {
	for _, text := range []string{
		"Fattura n. 2026/05/12", "Invoice No. 2026-03-14", "Invoice no: 2026-03-14", "Rechnung Nr. 2026-03-14",
		"Order #2026-03-14", "Invoice # 2026-03-14", "Facture n° 2026-03-14", "Factura número 2026-03-14",
		"Rechnungsnummer 2026-03-14", "Invoice number: 14/03/2026", "Facture numéro 14.03.2026", "Fattura N.2026/05/12",
	} {
		if ms := FindDates(text); len(ms) != 0 {
			t.Errorf("FindDates(%q) = %+v, want none", text, ms)
		}
	}
	for text, want := range map[string]string{
		"Fattura n. 2026/05/12 del 20 maggio 2026": "2026-05-20",
		"Invoice No. 2026-0001\nDate: 2026-03-14":  "2026-03-14",
		"Invoice No. INV-7 dated 2026-03-14":       "2026-03-14",
	} {
		if ms := FindDates(text); len(ms) != 1 || ms[0].ISO[0] != want {
			t.Errorf("FindDates(%q) = %+v, want %s", text, ms, want)
		}
	}
	// Nor is the identifier read as amounts.
	if as := FindAmounts("Invoice No. 2026-03-14"); len(as) != 0 {
		t.Errorf("identifier read as amounts: %+v", as)
	}
}

// Every month name is read in a date, lower case, capitalised or in
// capitals as a receipt prints it: the screen of scanDates' words lets no
// month through unread.
func TestEveryMonthNameIsRead(t *testing.T) {
	for name, month := range monthNames {
		rs := []rune(name)
		capital := string(unicode.ToUpper(rs[0])) + string(rs[1:])
		for _, written := range []string{name, capital, strings.ToUpper(name)} {
			if strings.ToLower(written) != name {
				continue // a case that does not lower back (σ/ς)
			}
			text := "Date: 5 " + written + " 2026"
			ds := findDates([]rune(text))
			if len(ds) != 1 || len(ds[0].ISO) == 0 || ds[0].ISO[0][5:7] != fmt.Sprintf("%02d", month) {
				t.Errorf("%q: dates %+v, want one in month %d", text, ds, month)
			}
		}
	}
}
