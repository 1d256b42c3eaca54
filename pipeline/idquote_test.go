package pipeline

import "testing"

// A quotation's number under its Spanish or Portuguese label (Cotización No.,
// Presupuesto No., Orçamento nº) is never the invoice's, also where the invoice's
// own number is a fiscal one the labels do not name (a Dominican NCF); and
// "Inv. No." with its dots labels the invoice's own number, so a reference
// beside it is not taken for it.
func TestQuoteNumbersAndInvNoLabel(t *testing.T) {
	num := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	dominican := "Ferretería Caribe SRL\nRNC 1-01-12345-6\nSanto Domingo\nFACTURA DE CRÉDITO FISCAL\nNCF: B0100004521\nFecha: 20/11/2026\nCotización No. COT-118\nTotal RD$ 4,500.00"
	ecf := "Ferretería Caribe SRL\nRNC 101123456\ne-CF E310000004521\nPresupuesto No. 118\nTotal RD$ 4,500.00"
	brazil := "Papelaria Paulista Ltda\nCNPJ 12.345.678/0001-90\nNota Fiscal nº 4521\nOrçamento nº 0932\nTotal R$ 1.250,00"
	colombo := "Colombo Hardware (Pvt) Ltd\nColombo 03, Sri Lanka\nInv. No. 884\nDate: 20/11/2026\nReference No. 77120\nTotal Rs. 11,800.00"
	runClassCases(t, []classCase{
		{"dominican NCF", dominican, num("B0100004521"), "", ""},
		{"dominican quotation", dominican, num("COT-118"), "invoice_number", `labelled "Cotización No"`},
		{"e-CF", ecf, num("E310000004521"), "", ""},
		{"e-CF budget", ecf, num("118"), "invoice_number", `"Presupuesto No"`},
		{"brazilian quote", brazil, num("0932"), "invoice_number", "Orçamento"},
		{"brazilian own", brazil, num("4521"), "", ""},
		{"inv. no.", colombo, num("884"), "", ""},
		{"reference beside inv. no.", colombo, num("77120"), "invoice_number", "the document's invoice number is 884"},
	})
}
