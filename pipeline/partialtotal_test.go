package pipeline

import "testing"

// The net an invoice says changes hands after the buyer's withholding (an
// Indian TDS, a Nigerian WHT) is no subtotal: "Net Receivable"/"Net Payable"
// do not label the subtotal as a bare "net" does, so the amount before tax
// on the item line is not flagged against it.
func TestNetAfterWithholdingIsNotTheSubtotal(t *testing.T) {
	const in = "Kaveri Software Services Pvt. Ltd.\nSoftware maintenance Q4   Rs. 4,50,000.00\nCGST 9%   Rs. 40,500.00\n" +
		"SGST 9%   Rs. 40,500.00\nInvoice Total   Rs. 5,31,000.00\nLess TDS u/s 194J @10%   Rs. 45,000.00\nNet Receivable   Rs. 4,86,000.00"
	const ng = "Eko Logistics Nigeria Ltd\nHaulage services   NGN 2,000,000.00\nVAT @ 7.5%   NGN 150,000.00\n" +
		"Gross Total   NGN 2,150,000.00\nWHT @ 5% (deducted at source)   NGN (100,000.00)\nNet Payable   NGN 2,050,000.00"
	sub := func(x float64) map[string]any { return map[string]any{"subtotal": x} }
	runClassCases(t, []classCase{
		{"tds net receivable", in, sub(450000), "", ""},
		{"wht net payable", ng, sub(2000000), "", ""},
	})
}

// A total printed before a tip is not the total when the document then
// prints what was paid ("Totale complessivo 92,00 / Mancia 10,00 / TOTALE
// PAGATO 102,00", "Total paid £30.40" after a discount): the paid figure is.
func TestTotalBeforeTheFinalPaidTotal(t *testing.T) {
	const it = "TRATTORIA DA MARCO\n4x Pizza 44,00\nTotale complessivo   92,00\ndi cui IVA 10%   8,36\nMancia   10,00\nTOTALE PAGATO   102,00"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"pre-tip total", it, tot(92), "total", "final total is 102.00"},
		{"paid total right", it, tot(102), "", ""},
	})
}

// A value whose every printing carries the other sign lost (or gained) its
// minus: a credit note's refund line "-120.00" is no subtotal of 120.
func TestDroppedSignOnEveryPrinting(t *testing.T) {
	const cn = "CREDIT NOTE CN-00412\nBrightwater Utilities Ltd\nOverbilled consumption refund   -120.00\nVAT 20%   -24.00\nTotal credit   -144.00\nGBP"
	sub := func(x float64) map[string]any { return map[string]any{"subtotal": x} }
	runClassCases(t, []classCase{
		{"credit note subtotal without its minus", cn, sub(120), "subtotal", "printed only as -120.00"},
		{"credit note subtotal right", cn, sub(-120), "", ""},
	})
}
