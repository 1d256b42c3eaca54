package pipeline

import "testing"

// A date label naming another date (order received, dispatched, date of
// supply) beats the bare "date", so its value is not the invoice date; and
// with no printed date to settle day/month order, the document's locale (a
// day-first currency, an Australian address) settles it: the month-first
// reading is flagged as the wrong order, the day-first one passes.
func TestDateLabelsAndLocaleOrder(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	shop := "Bookbinders Ltd\nInvoice AB/77/2026\nOrder received: 3rd November 2026 · Dispatched: Nov. 9, 2026 · Invoiced: 10-Nov-26\nTotal £9.00"
	supply := "Harbour Print Ltd\nInvoice date: 30/11/2026\nDate of supply: 02/11/2026 - 27/11/2026\nTotal £9.00"
	fr := "Boulangerie Paul\nFACTURE N° F-2026-118\nDate : 12/10/2026\nTotal 9,00 €"
	au := "Bondi Surf Co Pty Ltd\n88 Campbell Parade, Bondi Beach NSW 2026\nTAX INVOICE 000457\nDate: 7/10/2026\nTotal $9.00"
	runClassCases(t, []classCase{
		{"order received", shop, d("2026-11-03"), "invoice_date", `labelled "Order received"`},
		{"dispatched", shop, d("2026-11-09"), "invoice_date", `labelled "Dispatched"`},
		{"invoiced right", shop, d("2026-11-10"), "", ""},
		{"date of supply", supply, d("2026-11-02"), "invoice_date", `labelled "Date of supply"`},
		{"supply right", supply, d("2026-11-30"), "", ""},
		{"euro month-first", fr, d("2026-12-10"), "invoice_date", "(EUR)"},
		{"euro day-first", fr, d("2026-10-12"), "", ""},
		{"australian month-first", au, d("2026-07-10"), "invoice_date", "NSW 2026"},
		{"australian day-first", au, d("2026-10-07"), "", ""},
		{"no locale stays a note", "Acme\nDate: 12/10/2026\nTotal $9.00", d("2026-12-10"), "", ""},
	})
}

// A "dated" after another document's number dates that document.
func TestDatedForOtherDocument(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	credit := "Acme Inc\nCREDIT MEMO CM-00419\nDate: 18/11/2026\nOriginal Invoice #: 100873 dated October 30, 2026\nTotal (9.00)"
	order := "Deccan Tools Pvt Ltd\nInvoice No: SE/26-27/0456            Dated: 05/08/2026\nBuyer's Order No: BO-99812           Dated: 28/07/2026\nTotal ₹9.00"
	runClassCases(t, []classCase{
		{"original invoice dated", credit, d("2026-10-30"), "invoice_date", "2026-11-18"},
		{"credit right", credit, d("2026-11-18"), "", ""},
		{"order dated", order, d("2026-07-28"), "invoice_date", `labelled "Order No"`},
		{"invoice dated right", order, d("2026-08-05"), "", ""},
	})
}
