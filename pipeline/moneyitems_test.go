package pipeline

import "testing"

// Class "one item as the whole": a receipt for three donations, or a bill
// of several lines summed under a label the checks do not know, returned
// with one line's amount as both its subtotal and its total (the record
// adds up). The line is one of several whose amounts add up to a printed
// sum, and is flagged; the sum passes. A single item whose amount the total
// line repeats is the total. Where the sum's label is known, the reason
// names the labelled total instead.
func TestOneItemIsNotTheTotal(t *testing.T) {
	en := "Hope Foundation\nDonation Receipt No. 2291\nDate: 12/11/2026\nDonation - General Fund      $100.00\n" +
		"Donation - Building Fund     $250.00\nDonation - Scholarship Fund  $50.00\nTotal received               $400.00"
	de := "Stiftung Hoffnung\nZuwendungsbestätigung Nr. 2291\nDatum: 12.11.2026\n03.03.2026 Spende 100,00 €\n" +
		"05.06.2026 Spende 250,00 €\n09.09.2026 Spende 50,00 €\nSumme der Zuwendungen 400,00 €"
	one := "Kelly Plumbing\nInvoice #4471\nCall-out and repair   180.00\nTotal   180.00"
	both := func(v float64) map[string]any { return map[string]any{"subtotal": v, "total": v} }
	runClassCases(t, []classCase{
		{"EN one donation of three", en, both(250), "total", "one of 3 item lines"},
		{"EN first donation", en, both(100), "subtotal", "add up to 400.00"},
		{"EN the sum", en, map[string]any{"total": 400.0}, "", ""},
		{"DE one Spende of three", de, both(250), "subtotal", "one of 3 item lines"},
		{"DE one Spende of three, total labelled", de, both(250), "total", "not the amount labelled total (400.00)"},
		{"DE the sum", de, map[string]any{"total": 400.0}, "", ""},
		{"single item is the total", one, both(180), "", ""},
	})
}

// The reverse of a bill that adds arrears to its own charges: the charges'
// total is the invoice's total and passes; the payable with the arrears is
// flagged for them.
func TestOwnChargesBesideArrearsPass(t *testing.T) {
	ng := "Lagos Power Distribution Co\nBill No: 88213\nBill date: 05/11/2026\nPrevious balance: N12,500.00\n" +
		"Arrears: N12,500.00\nCurrent charges: N8,400.00\nVAT 7.5%: N630.00\nTotal current bill: N9,030.00\nAmount due: N21,530.00"
	ng2 := "Lagos Power Distribution Co\nBill No: 88213\nEnergy charge N8,400.00\nVAT 7.5% N630.00\n" +
		"Current month total N9,030.00\nOutstanding balance N12,500.00\nTotal amount payable N21,530.00"
	runClassCases(t, []classCase{
		{"own charges", ng, map[string]any{"total": 9030.0, "tax": 630.0}, "", ""},
		{"due with arrears", ng, map[string]any{"total": 21530.0, "tax": 630.0}, "total", "previous balance"},
		{"own charges, balance after", ng2, map[string]any{"total": 9030.0, "tax": 630.0}, "", ""},
		{"payable with the balance", ng2, map[string]any{"total": 21530.0, "tax": 630.0}, "total", "previous balance"},
	})
}
