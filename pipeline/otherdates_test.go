package pipeline

import "testing"

// Class "another date taken as the invoice date": a document that prints
// its own issue date also prints the date of the order it fulfils
// (Sipariş Tarihi, Bestelldatum, order date), the fax machine's header
// line, the shipment or delivery, the treatment or service, the sale, and
// the instalments or due dates of its payment plan. Each of those offered
// as the invoice date is flagged; the issue date passes.
func TestOtherDatesAreNotTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	tr := "ANADOLU ELEKTRONİK A.Ş.\nVergi No: 1234567890\nFATURA\nFatura No: ANE2026000000412\n" +
		"Fatura Tarihi: 14.11.2026\nSipariş Tarihi: 09.11.2026\nSipariş No: 88213\nMAL HİZMET TOPLAMI 1.000,00\n" +
		"HESAPLANAN KDV (%20) 200,00\nÖDENECEK TUTAR 1.200,00 TL"
	de := "Müller Bürotechnik GmbH\nRechnung Nr. RE-2026-1187\nRechnungsdatum: 03.02.2026\nBestelldatum: 28.01.2026\n" +
		"Versanddatum: 30.01.2026\nGesamtbetrag 116,62 EUR"
	us := "Acme Outdoor Supply Inc.\nINVOICE #A-20931\nOrder date: 03/12/2026\nInvoice date: 03/15/2026\n" +
		"Ship date: 03/14/2026\nTotal $412.50"
	fax := "NOV-18-2026 09:14  FROM: KANSAI PARTS CO  +81 6 1234 5678  P.001/002\n" +
		"INVOICE\nInvoice No: KP-26-0871\nInvoice Date: 12 November 2026\nTotal JPY 48,400"
	fax2 := "18/11/2026 09:14  +44 161 555 0100  NORTHERN PRINT LTD   PAGE 01\n" +
		"INVOICE 2026-4471\nDate of invoice: 10/11/2026\nTotal £1,210.00"
	dental := "Zahnarztpraxis Dr. Weber\nRechnung Nr. 2026-0412\nRechnungsdatum: 20.11.2026\n" +
		"Behandlungsdatum: 06.11.2026\nBehandlungszeitraum: 02.11.2026 - 06.11.2026\nGesamtbetrag 412,30 EUR"
	clinic := "Westside Physio Clinic\nInvoice no: WP-88213\nInvoice date: 21/11/2026\nDate of treatment: 14/11/2026\n" +
		"Physiotherapy session   £65.00\nTotal £65.00"
	it := "Studio Medico Rossi\nFattura n. 2026/118 del 25/11/2026\nData prestazione: 18/11/2026\nTotale € 120,00"
	pl := "Hurtownia Nowak Sp. z o.o.\nFaktura VAT nr FV/2026/11/0412\nData wystawienia: 2026-11-30\n" +
		"Data sprzedaży: 2026-11-27\nRazem do zapłaty 1 230,00 zł"
	sale := "Harbour Auctions Ltd\nInvoice No: HA-2026-0091\nInvoice date: 12 Oct 2026\nSale date: 08 Oct 2026\nTotal £1,840.00"
	plan := "Bright Smiles Dental\nInvoice No: BSD-2026-0412\nIssue date: 01/10/2026\nPayment plan:\n" +
		"1st instalment 15/10/2026   £200.00\n2nd instalment 15/11/2026   £200.00\nTotal £400.00"
	es := "Academia Cervantes S.L.\nFactura nº F26-00412\nFecha de emisión: 02/09/2026\n" +
		"Plazo 1: 15/09/2026  150,00\nPlazo 2: 15/10/2026  150,00\nTotal 300,00 €"
	runDateCases(t, []classCase{
		{"turkish fatura tarihi right", tr, d("2026-11-14"), "", ""},
		{"turkish sipariş tarihi", tr, d("2026-11-09"), "invoice_date", "Sipariş Tarihi"},
		{"german rechnungsdatum right", de, d("2026-02-03"), "", ""},
		{"german bestelldatum", de, d("2026-01-28"), "invoice_date", "Bestelldatum"},
		{"german versanddatum", de, d("2026-01-30"), "invoice_date", "Versanddatum"},
		{"us invoice date right", us, d("2026-03-15"), "", ""},
		{"us order date", us, d("2026-03-12"), "invoice_date", "Order date"},
		{"us ship date", us, d("2026-03-14"), "invoice_date", "Ship date"},
		{"fax invoice date right", fax, d("2026-11-12"), "", ""},
		{"fax header date", fax, d("2026-11-18"), "invoice_date", "2026-11-12"},
		{"uk fax invoice date right", fax2, d("2026-11-10"), "", ""},
		{"uk fax header date", fax2, d("2026-11-18"), "invoice_date", "10/11/2026"},
		{"dental rechnungsdatum right", dental, d("2026-11-20"), "", ""},
		{"dental behandlungsdatum", dental, d("2026-11-06"), "invoice_date", "Behandlungs"},
		{"dental period start", dental, d("2026-11-02"), "invoice_date", "Behandlungszeitraum"},
		{"clinic invoice date right", clinic, d("2026-11-21"), "", ""},
		{"clinic date of treatment", clinic, d("2026-11-14"), "invoice_date", "Date of treatment"},
		{"italian fattura del right", it, d("2026-11-25"), "", ""},
		{"italian data prestazione", it, d("2026-11-18"), "invoice_date", "Data prestazione"},
		{"polish data wystawienia right", pl, d("2026-11-30"), "", ""},
		{"polish data sprzedaży", pl, d("2026-11-27"), "invoice_date", "Data sprzedaży"},
		{"auction invoice date right", sale, d("2026-10-12"), "", ""},
		{"auction sale date", sale, d("2026-10-08"), "invoice_date", "Sale date"},
		{"payment plan issue date right", plan, d("2026-10-01"), "", ""},
		{"first instalment", plan, d("2026-10-15"), "invoice_date", "instalment"},
		{"spanish fecha de emisión right", es, d("2026-09-02"), "", ""},
		{"spanish plazo", es, d("2026-09-15"), "invoice_date", "Plazo"},
	})
}

// The same class where the document dates itself without a label (a
// letter's "London, 12 October 2026", a date alone under the head) and
// names the other event in a phrase: "Sale of 08 October 2026", "Vente du",
// "Versteigerung am", "DOS:", "Service on", "Instalment 2: £200.00 on",
// "under the agreement dated", "Credit for invoice INV-0877 of": the first
// date after the phrase on its line is that event's, never the issue date.
func TestOtherDatesNamedInAPhrase(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	runDateCases(t, []classCase{
		{"sale of", "Harbour Auctions Ltd\nLondon, 12 October 2026\nInvoice HA-0091\nSale of 08 October 2026, lot 27\nTotal £1,840.00", d("2026-10-08"), "invoice_date", "Sale of"},
		{"sale of, the letter's date right", "Harbour Auctions Ltd\nLondon, 12 October 2026\nInvoice HA-0091\nSale of 08 October 2026, lot 27\nTotal £1,840.00", d("2026-10-12"), "", ""},
		{"auction held on", "Harbour Auctions Ltd\n12 October 2026\nAuction held on 08 October 2026\nTotal £1,840.00", d("2026-10-08"), "invoice_date", "Auction held on"},
		{"vente du", "Hôtel des Ventes\nParis, le 12 octobre 2026\nVente du 08/10/2026\nTotal 1 840,00 €", d("2026-10-08"), "invoice_date", "Vente du"},
		{"versteigerung am", "Auktionshaus Berlin\nBerlin, 12.10.2026\nVersteigerung am 08.10.2026\nGesamt 1.840,00 EUR", d("2026-10-08"), "invoice_date", "Versteigerung am"},
		{"dos", "Westside Clinic\n21/11/2026\nDOS: 14/11/2026\nTotal £65.00", d("2026-11-14"), "invoice_date", "DOS"},
		{"service on", "Westside Clinic\n21/11/2026\nService on 14/11/2026\nTotal £65.00", d("2026-11-14"), "invoice_date", "Service on"},
		{"an instalment past its amount", "Bright Smiles Dental\n01/10/2026\nInstalment 2: £200.00 on 15/11/2026\nTotal £600.00", d("2026-11-15"), "invoice_date", "Instalment"},
		{"agreement dated", "Lease Co\n01/03/2026\nUnder the agreement dated 15/01/2025\nTotal £900.00", d("2025-01-15"), "invoice_date", "agreement dated"},
		{"contract of", "Lease Co\n01/03/2026\nRent per contract of 15/01/2025\nTotal £900.00", d("2025-01-15"), "invoice_date", "contract of"},
		{"credited invoice's date", "Brightline\nCredit note CN-031\n10/03/2026\nCredit for invoice INV-0877 of 02/03/2026\nTotal -120.00", d("2026-03-02"), "invoice_date", ""},
		{"refunded receipt's date", "Corner Shop\n10/03/2026\nRefund of receipt 0412 from 02/03/2026\nTotal -12.00", d("2026-03-02"), "invoice_date", ""},
	})
}

// A UK VAT invoice's tax point is the time of supply, not the issue date,
// when both are printed ("Tax point" alone dates the invoice when it is
// the only date); "Date/Tax point" labels one date as both.
func TestTaxPointDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	two := "Northern Print Ltd\nInvoice 2026-4471\nInvoice date: 10/11/2026\nTax point: 31/10/2026\nTotal £1,210.00"
	one := "Northern Print Ltd\nInvoice 2026-4471\nDate/Tax point: 10/11/2026\nTotal £1,210.00"
	runDateCases(t, []classCase{
		{"invoice date right", two, d("2026-11-10"), "", ""},
		{"tax point taken", two, d("2026-10-31"), "invoice_date", "10/11/2026"},
		{"date/tax point right", one, d("2026-11-10"), "", ""},
	})
}
