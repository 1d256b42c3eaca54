package pipeline

import "testing"

// Class "a payment term read as an amount": the days a term grants ("Net
// 30", "netto 15 dage", "14 pv netto", "30 days net", "14 Tage netto") are
// no amount, and the "net" beside them labels no subtotal. A record that
// takes the days for a money field is flagged; the true record passes (the
// days no longer stand as the labelled subtotal it is compared with), and
// the reason names the term.
func TestPaymentTermsAreNoAmounts(t *testing.T) {
	fi := "Kuusiston Putkityö Oy\nLASKU 4471\nLaskun päivämäärä: 12.11.2026\nMaksuehto: 14 pv netto\n" +
		"Veroton 1 000,00\nALV 24 % 240,00\nYhteensä 1 240,00 EUR"
	dk := "Skovbo Tømrer ApS\nFaktura nr. 2291\nBetalingsbetingelser: netto 15 dage\nI alt DKK 6 250,00"
	us := "Acme Corp\nInvoice 2291\nTerms: Net 30\nSubtotal $1,000.00\nTax $80.00\nTotal $1,080.00"
	us2 := "Acme Corp\nInvoice 2291\nPayment terms: 30 days net\nTotal $1,080.00"
	de := "Holz GmbH\nRechnung 2291\nZahlbar innerhalb 14 Tagen netto\nGesamtbetrag 1.190,00 EUR"
	runClassCases(t, []classCase{
		{"FI true record", fi, map[string]any{"subtotal": 1000.0, "tax": 240.0, "total": 1240.0}, "", ""},
		{"FI days as subtotal", fi, map[string]any{"subtotal": 14.0, "total": 1240.0}, "subtotal", "days of a payment term (\"Maksuehto: 14 pv netto\")"},
		{"DK days as subtotal", dk, map[string]any{"subtotal": 15.0, "total": 6250.0}, "subtotal", "days of a payment term (\"Betalingsbetingelser: netto 15 dage\")"},
		{"US true record", us, map[string]any{"subtotal": 1000.0, "tax": 80.0, "total": 1080.0}, "", ""},
		{"US net 30 as subtotal", us, map[string]any{"subtotal": 30.0, "total": 1080.0}, "subtotal", "days of a payment term (\"Terms: Net 30\")"},
		{"US days net as tax", us2, map[string]any{"tax": 30.0, "total": 1080.0}, "tax", "days of a payment term (\"Payment terms: 30 days net\")"},
		{"DE days as tax", de, map[string]any{"tax": 14.0, "total": 1190.0}, "tax", "days of a payment term (\"Zahlbar innerhalb 14 Tagen netto\")"},
		{"a net amount with cents is an amount", "Shop\nNet 30.00\nVAT 6.00\nTotal 36.00", map[string]any{"subtotal": 30.0, "tax": 6.0, "total": 36.0}, "", ""},
	})
}
