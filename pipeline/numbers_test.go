package pipeline

import (
	"reflect"
	"testing"
)

func TestParseAmount(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1,250.00", 1250, true},
		{"1.234,56", 1234.56, true},
		{"2 400,00", 2400, true},
		{"1'250.00", 1250, true},
		{"1\u00a0250,50", 1250.5, true},
		{"$1,250.00", 1250, true},
		{"€ 12,50", 12.5, true},
		{"12,50 €", 12.5, true},
		{"£7", 7, true},
		{"¥1,200", 1200, true},
		{"RM193.00", 193, true},
		{"RM 0.02", 0.02, true},
		{"USD 99.99", 99.99, true},
		{"99.99 USD", 99.99, true},
		{"US$5", 5, true},
		{"-5.00", -5, true},
		{"(5.00)", -5, true},
		{"$-5.00", -5, true},
		{"-$5.00", -5, true},
		{"6.00-", -6, true},
		{"1,250", 1250, true},
		{"1,25", 1.25, true},
		{"1,5", 1.5, true},
		{"1.250", 1.25, true},
		{"1,234,567.89", 1234567.89, true},
		{"1.234.567", 1234567, true},
		{"12,34,567.00", 1234567, true},
		{".50", 0.5, true},
		{"0", 0, true},
		{"  42  ", 42, true},
		{"", 0, false},
		{"abc", 0, false},
		{"1,2,3", 0, false},
		{"1..2", 0, false},
		{"1.2.3", 0, false},
		{"12,3456,789", 0, false},
		{"1 234.567,89", 0, false},
		{"5 apples", 0, false},
		{"RMB5", 5, true},
		{"$", 0, false},
		{"1e5", 0, false},
	}
	for _, tc := range cases {
		got, ok := ParseAmount(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func values(ms []AmountMatch) []float64 {
	out := []float64{}
	for _, m := range ms {
		out = append(out, m.Value)
	}
	return out
}

func TestFindAmounts(t *testing.T) {
	cases := []struct {
		text string
		want []float64
	}{
		{"Total: 75.00", []float64{75}},
		{"TOTAL RM7.42\nROUNDING -0.02\nCASH RM7.40", []float64{7.42, -0.02, 7.40}},
		{"DATE : 15/01/2019 11:05:16 AM\nTOTAL: 193.00", []float64{193}},
		{"TEL:07-388 2218 FAX:07-388 8218", []float64{2218, 8218}},
		{"ROC NO: 538358-H INVOICE NO : PEGIV-1030765", []float64{}},
		{"000000111 1 193.00 193.00 SR", []float64{1, 193, 193}},
		{"TOTAL GST @6%: 0.00", []float64{0}},
		{"JUMBO SAUSAGE 1 3.10 3.10SR", []float64{1, 3.1, 3.1}},
		{"B05 X12 12kg", []float64{}},
		{"Betrag: 2 400,00 EUR", []float64{2400}},
		{"1 193.00", []float64{1, 193}},
		{"ROUNDING ADJUSTMENT : (0.01)", []float64{-0.01}},
		{"JALAN SS21/58 LOT 2.70.00", []float64{}},
		{"Ref: GLX/2026/778", []float64{}},
		{"Billing date 2026-02-28.", []float64{}},
		{"Price €1.234,56 (incl.)", []float64{1234.56}},
		{"TOTAL:193.00 EV :2.10", []float64{193, 2.10}},
		{"TIME 11:05", []float64{}},
	}
	for _, tc := range cases {
		if got := values(FindAmounts(tc.text)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindAmounts(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestFindAmountsOffsetsAndLines(t *testing.T) {
	text := "Café déjà vu\nTotal: €75.00\n\n  12,50"
	ms := FindAmounts(text)
	if len(ms) != 2 {
		t.Fatalf("got %+v", ms)
	}
	rs := []rune(text)
	want := []struct {
		raw  string
		line int
	}{{"75.00", 1}, {"12,50", 3}}
	for i, m := range ms {
		if string(rs[m.Start:m.End]) != want[i].raw || m.Raw != want[i].raw || m.Line != want[i].line {
			t.Errorf("match %d = %+v (text %q), want %q on line %d", i, m, string(rs[m.Start:m.End]), want[i].raw, want[i].line)
		}
	}
}

// A number in an aside is not negative; a number wrapped in parentheses is.
func TestParenthesesNegativeOnlyWhenTight(t *testing.T) {
	for text, want := range map[string]float64{
		"(VAT £68.75)":               68.75,
		"(68.75)":                    -68.75,
		"(£68.75)":                   -68.75,
		"(incl. 19 % MwSt. 23,75 €)": 23.75,
	} {
		ams := FindAmounts(text)
		if len(ams) == 0 || ams[len(ams)-1].Value != want {
			t.Errorf("%q: amounts %+v, want last %v", text, ams, want)
		}
	}
}

// German, French and Japanese documents label their totals in their own words.
func TestForeignRoleLabels(t *testing.T) {
	text := "Summe netto:      125,00 €\nzzgl. 19 % MwSt.:  23,75 €\nRechnungsbetrag:  148,75 €"
	rep := RunHeuristics(text, Invoice(), Record{"subtotal": 125.0, "tax": 23.75, "total": 148.75, "currency": "EUR"})
	for f, c := range rep {
		if c.Factor < 0.9 {
			t.Errorf("%s: %v %v", f, c.Factor, c.Reasons)
		}
	}
	rep = RunHeuristics(text, Invoice(), Record{"total": 125.0})
	if c := rep["total"]; c.Factor > 0.3 {
		t.Errorf("the net sum taken as total must be penalised: %+v", c)
	}
}
