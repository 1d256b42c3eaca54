package pipeline

import (
	"strings"
	"testing"
)

// moneyCase is one document with a money value: wrong values must be
// penalized with a reason naming want, correct ones left alone.
type moneyCase struct {
	name, text string
	rec        Record
	field      string
	wrong      bool
	want       string // a substring of the reasons when wrong
}

func runMoneyCases(t *testing.T, cases []moneyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := RunHeuristics(tc.text, Invoice(), tc.rec)[tc.field]
			all := strings.Join(c.Reasons, "; ")
			if tc.wrong {
				if c.Factor > 0.5 || !strings.Contains(all, tc.want) {
					t.Errorf("%s = %v: factor %v reasons %q, want penalized with %q", tc.field, tc.rec[tc.field], c.Factor, all, tc.want)
				}
				return
			}
			if c.Factor < 0.9 {
				t.Errorf("correct %s = %v penalized: factor %v reasons %q", tc.field, tc.rec[tc.field], c.Factor, all)
			}
		})
	}
}

// Dot leaders and spaced dots join a label to its amount like spaces do.
func TestMoneyDotLeaders(t *testing.T) {
	doc := func(sep string) string {
		return "ACME LAWN LLC\nInvoice A-1   Date 2026-11-30\nSubtotal" + sep + "$1,000.00\nSales tax" + sep + "$80.00\nTotal" + sep + "$1,080.00\n"
	}
	var cases []moneyCase
	for _, sep := range []string{" ........ ", " :........ ", " . . . . ", "....", " … "} {
		cases = append(cases,
			moneyCase{name: sep + "wrong", text: doc(sep), rec: Record{"total": 1000.0}, field: "total", wrong: true, want: "is not the amount labelled total (1080.00)"},
			moneyCase{name: sep + "tax as total", text: doc(sep), rec: Record{"total": 80.0}, field: "total", wrong: true, want: "is not the amount labelled total (1080.00)"},
			moneyCase{name: sep + "right", text: doc(sep), rec: Record{"subtotal": 1000.0, "tax": 80.0, "total": 1080.0}, field: "total"},
		)
	}
	rounded := "SHOP SDN BHD\nTOTAL AMT.......... RM 60.31\nROUNDING ADJ....... -0.01\nRM 60.30\nCASH.............. RM 70.30\n"
	cases = append(cases,
		moneyCase{name: "rounded payable after a dotted total", text: rounded, rec: Record{"total": 60.30}, field: "total"},
		moneyCase{name: "cash after a dotted total", text: rounded, rec: Record{"total": 70.30}, field: "total", wrong: true, want: "is not the amount labelled total (60.31)"})
	cases = append(cases, moneyCase{name: "sentence stop still breaks", text: "Paid in full. 45.00 was the deposit.\nTotal 75.00", rec: Record{"total": 75.0}, field: "total"})
	runMoneyCases(t, cases)
}

// A credit note prints its amounts negative: the value with the sign
// dropped is not the printed amount.
func TestMoneySignMustAgree(t *testing.T) {
	credit := "ACME INC\nCredit memo CM-9  2026-11-18\nSubtotal: -$1,000.00\nTax: -$130.00\nTotal: -$1,130.00\n"
	paren := "ACME INC\nCredit memo CM-9  2026-11-18\nSubtotal (1,000.00)\nTax (130.00)\nTotal (1,130.00)\n"
	sek := "ACME AB\nCredit note CN-1  2026-10-19\nNet -1 200,00 SEK\nVAT 25% -300,00 SEK\nTotal -1 500,00 SEK\n"
	plain := "ACME INC\nInvoice 9  2026-11-18\nSubtotal: $1,000.00\nTax: $130.00\nTotal: $1,130.00\n"
	sv := "ACME AB\nKreditfaktura K-3  2026-10-19\nNetto -1 200,00 SEK\nMoms 25 % -300,00 SEK\nAtt återfå -1 500,00 SEK\n"
	ca := "ACME LTD\nCredit Memo #: CM-00419\nSubtotal (1,000.00)\nHST 13% (130.00)\nTotal Credit (1,130.00) CAD\n"
	netProse := "Der Gesamtbetrag von 595,00 € (inkl. 19 % MwSt. = 95,00 €) ist fällig.\nDer Nettobetrag beläuft sich auf 500,00 €.\n"
	runMoneyCases(t, []moneyCase{
		{name: "swedish refund total", text: sv, rec: Record{"total": 1500.0}, field: "total", wrong: true, want: "opposite sign"},
		{name: "total credit", text: ca, rec: Record{"total": 1130.0}, field: "total", wrong: true, want: "opposite sign"},
		{name: "total credit kept", text: ca, rec: Record{"total": -1130.0}, field: "total"},
		{name: "net in prose is no total", text: netProse, rec: Record{"total": 500.0}, field: "total", wrong: true, want: "is not the amount labelled total (595.00)"},
		{name: "minus dropped", text: credit, rec: Record{"total": 1130.0}, field: "total", wrong: true, want: "1130.00 has the opposite sign of the amount labelled total (-1130.00"},
		{name: "minus kept", text: credit, rec: Record{"subtotal": -1000.0, "tax": -130.0, "total": -1130.0}, field: "total"},
		{name: "parentheses dropped", text: paren, rec: Record{"total": 1130.0}, field: "total", wrong: true, want: "opposite sign"},
		{name: "parentheses kept", text: paren, rec: Record{"total": -1130.0}, field: "total"},
		{name: "spaced thousands minus dropped", text: sek, rec: Record{"total": 1500.0}, field: "total", wrong: true, want: "opposite sign"},
		{name: "subtotal minus dropped", text: sek, rec: Record{"subtotal": 1200.0}, field: "subtotal", wrong: true, want: "opposite sign"},
		{name: "spaced thousands minus kept", text: sek, rec: Record{"subtotal": -1200.0, "tax": -300.0, "total": -1500.0}, field: "total"},
		{name: "sign invented", text: plain, rec: Record{"total": -1130.0}, field: "total", wrong: true, want: "opposite sign"},
		{name: "plain", text: plain, rec: Record{"total": 1130.0}, field: "total"},
	})
}

// The tax names of common regimes are tax labels: a correct tax next to
// one is not "labelled no tax anywhere", and the same figure as a total is
// still the tax.
func TestMoneyTaxRegimeWords(t *testing.T) {
	var cases []moneyCase
	for _, tc := range []struct {
		label          string
		sub, tax, tot  float64
		subRaw, taxRaw string
	}{
		{"Moms 25 %", 1200, 300, 1500, "1 200,00 SEK", "300,00 SEK"},
		{"BTW 21%", 1000, 210, 1210, "€ 1.000,00", "€ 210,00"},
		{"HST 13%", 1000, 130, 1130, "$1,000.00", "$130.00"},
		{"消費税額", 30000, 3000, 33000, "30,000", "3,000"},
		{"税额（13%）", 1100, 143, 1243, "¥1,100.00", "¥143.00"},
		{"부가세", 13180, 1318, 14498, "13,180", "1,318"},
		{"ISS (5%)", 4850, 242.5, 5092.5, "R$ 4.850,00", "R$ 242,50"},
		{"City franchise fee & taxes", 64.2, 6.42, 70.62, "$64.20", "$6.42"},
		{"CGST 9%", 1000, 90, 1090, "₹1,000.00", "₹90.00"},
	} {
		text := "ACME\nInvoice 7  2026-11-02\nWidget    " + tc.subRaw + "\n" + tc.label + "    " + tc.taxRaw + "\n"
		cases = append(cases,
			moneyCase{name: tc.label + " right", text: text, rec: Record{"tax": tc.tax}, field: "tax"},
			moneyCase{name: tc.label + " item as tax", text: text, rec: Record{"tax": tc.sub}, field: "tax", wrong: true, want: "is not the amount labelled tax"},
		)
	}
	runMoneyCases(t, cases)
}

// A total under a plain or carried-over label is not the total when a final
// total (grand total, balance due, Jumlah Besar) follows with another figure.
func TestMoneyNonFinalTotal(t *testing.T) {
	tip := "BISTRO\nCheck 12  2026-11-02\nSubtotal 124.00\nTax 11.01\nTOTAL 135.01\nTip: 24.80\nGrand Total: 159.81\n"
	jumlah := "KEDAI SDN BHD\nResit 5  02/11/2026\nJumlah RM 1,233.45\nPelarasan Pembundaran RM 0.05\nJumlah Besar RM 1,233.50\n"
	de := "ACME GmbH\nRechnung 5  02.11.2026\nSumme 100,00 EUR\nTrinkgeld 10,00 EUR\nGesamtbetrag 110,00 EUR\n"
	stmt := "ACME LAWN LLC\nStatement A-1   Date 2026-11-30\nPrevious Balance ........ $340.00\nNew Charges ........ $275.00\nTOTAL BALANCE DUE ........ $615.00\n"
	paid := "ACME\nInvoice 7  2026-10-01\nInvoice total $1,800.00\nAmount paid (ACH 2026-10-20) -$1,800.00\nBalance due $0.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "pre-tip", text: tip, rec: Record{"total": 135.01}, field: "total", wrong: true, want: `135.01 is labelled "TOTAL", but the document's final total is 159.81 ("GRAND TOTAL", line 7)`},
		{name: "after tip", text: tip, rec: Record{"total": 159.81}, field: "total"},
		{name: "pre-rounding malay", text: jumlah, rec: Record{"total": 1233.45}, field: "total", wrong: true, want: "final total is 1233.50"},
		{name: "rounded malay", text: jumlah, rec: Record{"total": 1233.50}, field: "total"},
		{name: "german before tip", text: de, rec: Record{"total": 100.0}, field: "total", wrong: true, want: "final total is 110.00"},
		{name: "german final", text: de, rec: Record{"total": 110.0}, field: "total"},
		{name: "previous balance", text: stmt, rec: Record{"total": 340.0}, field: "total", wrong: true, want: `"PREVIOUS BALANCE"`},
		{name: "balance due", text: stmt, rec: Record{"total": 615.0}, field: "total"},
		{name: "paid invoice keeps its total", text: paid, rec: Record{"total": 1800.0}, field: "total"},
	})
}

// A count or rate in prose is no money field's value when the document
// prints amounts with cents.
func TestMoneyQuantityInProse(t *testing.T) {
	free := "Invoice #0042 from Ann Lee Design, dated 2026-11-01.\n40 hours at $85/hr comes to $3,400.00. No sales tax applies.\n"
	photo := "Studio Lumen Fotografie\nFactuur 2026-118  12-11-2026\nPortretsessie inclusief 10 digitale foto's\nTotaal: € 350,00 (incl. 21% btw)\n"
	de := "ACME GmbH\nRechnung 5  02.11.2026\n12 Stunden à 80,00 EUR\nGesamtbetrag 960,00 EUR\n"
	runMoneyCases(t, []moneyCase{
		{name: "hours", text: free, rec: Record{"total": 40.0}, field: "total", wrong: true, want: `40.00 is printed as a quantity or rate ("40 hours")`},
		{name: "rate", text: free, rec: Record{"total": 85.0}, field: "total", wrong: true, want: `("85/hr")`},
		{name: "prose total", text: free, rec: Record{"total": 3400.0}, field: "total"},
		{name: "photo count", text: photo, rec: Record{"total": 10.0}, field: "total", wrong: true, want: "quantity or rate"},
		{name: "photo total", text: photo, rec: Record{"total": 350.0}, field: "total"},
		{name: "german hours", text: de, rec: Record{"total": 12.0}, field: "total", wrong: true, want: `("12 Stunden")`},
		{name: "german total", text: de, rec: Record{"total": 960.0}, field: "total"},
	})
}

// A balance left after a payment is not the invoice's total: the flag lands
// on the total, naming the payment and the printed total.
func TestMoneyBalanceAfterPayment(t *testing.T) {
	paid := "INVOICE - PAID\nSummit IT Services LLC\nInvoice # SIT-2026-0311\nManaged services, October   $1,800.00\nTax   $0.00\nInvoice total   $1,800.00\nAmount paid (ACH 2026-10-20)   -$1,800.00\nBalance due   $0.00\n"
	deposit := "ACME GmbH\nRechnung 5  02.11.2026\nGesamtbetrag 1.000,00 EUR\nAnzahlung / deposit -400,00 EUR\nZu zahlen 600,00 EUR\n"
	receipt := "SHOP SDN BHD\nTOTAL 10.00\nCASH 20.00\nCHANGE 10.00\n"
	// A deposit named in the document's own language only: the label's
	// words, not the English "deposit", make it a payment.
	anzahlung := "ACME GmbH\nRechnung 5  02.11.2026\nGesamtbetrag 1.000,00 EUR\nAnzahlung -400,00 EUR\nZu zahlen 600,00 EUR\n"
	maeukekin := "株式会社ACME\n請求書 5  2026年11月02日\n合計 100,000.00 JPY\n前受金 -40,000.00 JPY\nご請求金額 60,000.00 JPY\n"
	runMoneyCases(t, []moneyCase{
		{name: "zero balance", text: paid, rec: Record{"subtotal": 1800.0, "tax": 0.0, "total": 0.0}, field: "total", wrong: true,
			want: `0.00 is the balance left after a payment ("PAID" -1800.00, line 7); the document's total is 1800.00`},
		{name: "invoice total", text: paid, rec: Record{"subtotal": 1800.0, "tax": 0.0, "total": 1800.0}, field: "total"},
		{name: "after deposit", text: deposit, rec: Record{"total": 600.0}, field: "total", wrong: true, want: "the document's total is 1000.00"},
		{name: "after anzahlung", text: anzahlung, rec: Record{"total": 600.0}, field: "total", wrong: true, want: "the document's total is 1000.00"},
		{name: "after 前受金", text: maeukekin, rec: Record{"total": 60000.0}, field: "total", wrong: true, want: "the document's total is 100000.00"},
		{name: "cash change equal to total", text: receipt, rec: Record{"total": 10.0}, field: "total"},
	})
}

// Split tax regimes print the parts and their sum: both are tax.
func TestMoneySplitTax(t *testing.T) {
	in := "ACME PVT LTD\nTax Invoice 7  02-11-2026\nTaxable Value 10,000.00\nCGST @ 9% 900.00\nSGST @ 9% 900.00\nTotal Tax Amount 1,800.00\nTotal 11,800.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "total tax", text: in, rec: Record{"subtotal": 10000.0, "tax": 1800.0, "total": 11800.0}, field: "tax"},
		{name: "one part only", text: in, rec: Record{"subtotal": 10000.0, "tax": 900.0, "total": 11800.0}, field: "tax", wrong: true, want: "tax"},
	})
}
