package pipeline

import "testing"

// The same classes (another reference as the number, another date as the
// invoice date) in the layouts documents print them in besides "Label:
// value": a row of column headings over a row of values, a label alone on
// the line above its value, and a sentence.
func TestReferencesAndDatesInOtherLayouts(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	cols := "NORDIC TOOLING AB\nINVOICE\nInvoice No.      Invoice Date    Order No.     Contract No.\n" +
		"NT-2026-0412     2026-03-12      ORD-77120     K-55190\nMachining services   SEK 12 000,00\nTotal SEK 15 000,00"
	cols2 := "Harbour Auctions Ltd\nSale No.   Paddle   Lot   Invoice\n2611       184      27    HA-26-0091\n" +
		"Hammer price £1,500.00\nBuyer's premium £300.00\nTotal £1,800.00"
	above := "Atlas Insurance Brokers Ltd\nINVOICE NUMBER\nAIB-26-00412\nPOLICY NUMBER\nMTR-88213-26\nMEMBER NO\n55190-04\n" +
		"Premium £412.30\nTotal due £412.30"
	prose := "Brightline Supplies Ltd\nCredit note CN-2026-031\nThis credit note relates to your invoice INV-2026-0877 of 02/03/2026.\n" +
		"Date: 10/03/2026\nReturned goods -120.00\nTotal credit -120.00"
	quoteInv := "Please quote your booking reference BK-88213 and student ID S2291044 with any payment.\n" +
		"Westbridge Language School\nReceipt No: WLS-26-0412\nCourse fee £900.00\nTotal paid £900.00"
	ship := "ACME OUTDOOR SUPPLY INC.\nInvoice #      Invoice Date    Ship Date     Terms\nA-20931        03/15/2026      03/14/2026    Net 30\n" +
		"Total $412.50"
	sched := "Bright Smiles Dental\nInvoice No: BSD-2026-0412\nDate: 01/10/2026\nPayment schedule\n" +
		"Instalment   Due date      Amount\n1            15/10/2026    £200.00\n2            15/11/2026    £200.00\nTotal £400.00"
	svc := "Westside Physio Clinic\nInvoice WP-88213 issued 21/11/2026\nFor treatment received on 14/11/2026\nTotal £65.00"
	fax := "18/11/2026 09:14  +44 161 555 0100  NORTHERN PRINT LTD   PAGE 01/02\nINVOICE\n" +
		"Invoice No      Date\n2026-4471       10/11/2026\nTotal £1,210.00"
	runClassCases(t, []classCase{
		{"columns: own number", cols, n("NT-2026-0412"), "", ""},
		{"columns: order number", cols, n("ORD-77120"), "invoice_number", ""},
		{"columns: contract number", cols, n("K-55190"), "invoice_number", ""},
		{"auction columns: own number", cols2, n("HA-26-0091"), "", ""},
		{"auction columns: paddle", cols2, n("184"), "invoice_number", ""},
		{"label above: own number", above, n("AIB-26-00412"), "", ""},
		{"label above: policy number", above, n("MTR-88213-26"), "invoice_number", ""},
		{"label above: member number", above, n("55190-04"), "invoice_number", ""},
		{"prose: own credit note number", prose, n("CN-2026-031"), "", ""},
		{"prose: the invoice it relates to", prose, n("INV-2026-0877"), "invoice_number", ""},
		{"prose: the cited invoice's date", prose, d("2026-03-02"), "invoice_date", ""},
		{"prose: own date", prose, d("2026-03-10"), "", ""},
		{"quoted references: own number", quoteInv, n("WLS-26-0412"), "", ""},
		{"quoted references: booking", quoteInv, n("BK-88213"), "invoice_number", ""},
		{"quoted references: student id", quoteInv, n("S2291044"), "invoice_number", ""},
		{"columns: own date", ship, d("2026-03-15"), "", ""},
		{"columns: ship date", ship, d("2026-03-14"), "invoice_date", ""},
		{"schedule: own date", sched, d("2026-10-01"), "", ""},
		{"schedule: first instalment", sched, d("2026-10-15"), "invoice_date", ""},
		{"prose: own date", svc, d("2026-11-21"), "", ""},
		{"prose: treatment date", svc, d("2026-11-14"), "invoice_date", ""},
		{"fax: own date in columns", fax, d("2026-11-10"), "", ""},
		{"fax: header date", fax, d("2026-11-18"), "invoice_date", ""},
	})
}
