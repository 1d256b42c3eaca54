package pipeline

import "testing"

// Class "day and month swapped": the record reads the document's date with
// the other order than the document writes. Another date on the same page
// that only one order reads (25/03/2026 is day first, 03/25/2026 month
// first) proves the document's order, whatever its separator, year length
// or place on the page; the record's date read the other way is flagged,
// and the date read the document's way passes. A date printed without its
// year proves the order too where it is printed as a date: a period's
// start, a date with its time, a date under a date's label; so does the
// same date printed again in words or in ISO form.
func TestAnotherDateProvesTheDayMonthOrder(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	slashDue := "Harbour Supplies Ltd\nInvoice 4471\nDate: 05/11/2026\nDue: 25/11/2026\nRope 40.00\nTotal 40.00"
	dashProof := "Kigali Hardware Ltd\nInvoice No 118\nDate 04-11-2026\nDelivered 19-11-2026\nCement 120,000\nTotal 120,000"
	dotMixed := "Bäckerei Sonnenschein\nBeleg 4471\n03/11/2026 08:15\nMHD 21.11.2026\nBrot 3,20\nSumme 3,20"
	shortYear := "Corner Deli\nReceipt 0098\n06/11/26 12:01\nPromo valid to 28/11/26\nSandwich 6.50\nTotal 6.50"
	usProof := "Lakeside Plumbing Inc.\nInvoice 2231\nInvoice Date: 11/05/2026\nDue Date: 11/20/2026\nLabor 200.00\nTotal 200.00"
	usFooter := "Blue Ox Diner\nCheck 4471\n10/07/2026 7:42 PM\nBurger 12.00\nTotal 12.00\nSurvey code valid through 10/31/2026"
	isoAndDmy := "Atlas Trading SARL\nFacture F-118\nDate : 02/11/2026\nRéf. commande 2026-10-28\nÉchéance : 30/11/2026\nTotal 1 200,00"
	period := "Cape Fibre (Pty) Ltd\nTax Invoice INV-4471\nInvoice date: 07/11/2026\nPeriod 01/10/2026 - 31/10/2026\nFibre 100Mbps 899.00\nTotal R 899.00"
	yearlessDue := "Tuck Shop\nReceipt 0098\nDate: 05/11/2026\nLayby due 25/11\nPie 4.50\nTotal 4.50"
	yearlessPeriod := "Mobile One\nBill 4471\nBill date 06/11/2026\nUsage 13/10 - 12/11/2026\nCalls 12.00\nTotal 12.00"
	yearlessTimed := "Quick Couriers\nConsignment note 4471\nDate 03/11/2026\nCollected 28/10 16:40\nFreight 30.00\nTotal 30.00"
	ratioOnly := "Diner 66\nCheck 4471\n05/11/2026\nTable 25/11 covers 2\nTotal $40.00"
	againWords := "Maple & Co. Stationers\nInvoice 4471\nDate: 05/11/2026\nPens 12.00\nTotal $12.00\nIssued at Toronto on 5 November 2026"
	againISO := "Nordwind Logistik\nLieferschein-Rechnung 4471\nDatum: 05/11/2026\nFracht 120,00\nGesamt 120,00\nerstellt 2026-11-05T10:14"
	runDateCases(t, []classCase{
		{"the same date in words", againWords, d("2026-11-05"), "", ""},
		{"same date in words: swapped", againWords, d("2026-05-11"), "invoice_date", "prints the same date again as \"5 November 2026\""},
		{"the same date in ISO form", againISO, d("2026-11-05"), "", ""},
		{"same date in ISO form: swapped", againISO, d("2026-05-11"), "invoice_date", "prints the same date again as \"2026-11-05\""},
		{"a yearless due date proves day first", yearlessDue, d("2026-11-05"), "", ""},
		{"yearless due: swapped", yearlessDue, d("2026-05-11"), "invoice_date", "\"25/11\" in the same document is day-first"},
		{"a yearless period start proves it", yearlessPeriod, d("2026-11-06"), "", ""},
		{"yearless period: swapped", yearlessPeriod, d("2026-06-11"), "invoice_date", "\"13/10\" in the same document is day-first"},
		{"a yearless date with its time proves it", yearlessTimed, d("2026-11-03"), "", ""},
		{"yearless timed: swapped", yearlessTimed, d("2026-03-11"), "invoice_date", "\"28/10\" in the same document is day-first"},
		{"a table number proves nothing", ratioOnly, d("2026-05-11"), "", ""},
		{"slash due proves day first", slashDue, d("2026-11-05"), "", ""},
		{"slash due: swapped", slashDue, d("2026-05-11"), "invoice_date", "25/11/2026"},
		{"dashes prove day first", dashProof, d("2026-11-04"), "", ""},
		{"dashes: swapped", dashProof, d("2026-04-11"), "invoice_date", "19-11-2026"},
		{"a dotted date proves the slashed one", dotMixed, d("2026-11-03"), "", ""},
		{"dotted: swapped", dotMixed, d("2026-03-11"), "invoice_date", "21.11.2026"},
		{"two-digit years", shortYear, d("2026-11-06"), "", ""},
		{"two-digit years: swapped", shortYear, d("2026-06-11"), "invoice_date", "28/11/26"},
		{"due proves month first", usProof, d("2026-11-05"), "", ""},
		{"month first: swapped", usProof, d("2026-05-11"), "invoice_date", "11/20/2026"},
		{"a footer proves month first", usFooter, d("2026-10-07"), "", ""},
		{"footer: swapped", usFooter, d("2026-07-10"), "invoice_date", "10/31/2026"},
		{"an ISO reference does not unsettle", isoAndDmy, d("2026-11-02"), "", ""},
		{"ISO beside: swapped", isoAndDmy, d("2026-02-11"), "invoice_date", "30/11/2026"},
		{"a period's bound proves it", period, d("2026-11-07"), "", ""},
		{"period: swapped", period, d("2026-07-11"), "invoice_date", "31/10/2026"},
	})
}
