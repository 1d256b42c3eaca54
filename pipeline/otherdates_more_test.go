package pipeline

import "testing"

// Class "another date taken as the invoice date", in the layouts and
// languages where the issue date has a label of its own: the due date
// under its Nordic, Central European and Turkish labels (Forfallsdato,
// Förfallodatum, Eräpäivä, Forfald, Sidste rettidige betalingsdag,
// Fälligkeitsdatum, Splatnost, Vade, Срок оплаты), the Czech tax point
// (DUZP) beside datum vystavení, a bank's value date, a delivery,
// departure, dispatch or shipment, an event, the end of a billing or claim
// period and the day the work was done. Each, offered as the invoice date,
// is flagged with a reason that names its label; the issue date passes,
// and a null is flagged where the issue date is printed under its own label.
func TestOtherDatesBesideALabelledIssueDate(t *testing.T) {
	d := func(v string) map[string]any {
		if v == "" {
			return map[string]any{"invoice_date": nil}
		}
		return map[string]any{"invoice_date": v}
	}
	no := "Fjordlys Elektro AS\nOrg.nr. 987 654 321 MVA\nFAKTURA\nFakturanr: 20814\nFakturadato: 12.11.2026\n" +
		"Forfallsdato: 26.11.2026\nLeveringsdato: 09.11.2026\nSum eks. mva 8 000,00\nMva 25% 2 000,00\nÅ betale NOK 10 000,00"
	se := "Norrsken Bygg AB\nFaktura 7731\nFakturadatum 2026-11-12\nFörfallodatum 2026-12-12\nAtt betala 12 500,00 kr"
	fi := "Kuusiston Putkityö Oy\nLASKU\nLaskun numero: 4471\nLaskun päivämäärä: 12.11.2026\nEräpäivä: 26.11.2026\n" +
		"Maksuehto: 14 pv netto\nYhteensä 1 240,00 EUR"
	dk := "Skovbo Tømrer ApS\nCVR 12345678\nFaktura nr. 2291\nFakturadato: 12-11-2026\nForfald: 27-11-2026\n" +
		"Betalingsbetingelser: netto 15 dage\nI alt DKK 6 250,00"
	dk2 := "Havnens VVS ApS\nFaktura 3310\nFakturadato 01.11.2026\nSidste rettidige betalingsdag 15.11.2026\nTotal kr 1 875,00"
	cz := "Stavebniny Novák s.r.o.\nFAKTURA - DAŇOVÝ DOKLAD č. 2026110045\nDatum vystavení: 05.11.2026\n" +
		"Datum uskutečnění zdanitelného plnění: 31.10.2026\nDatum splatnosti: 19.11.2026\nCelkem k úhradě 12 100,00 Kč"
	cz2 := "Elektro Dvořák s.r.o.\nFaktura č. 260412\nDatum vystavení: 05.11.2026\nDUZP: 31.10.2026\nCelkem 2 420,00 Kč"
	de := "Schreinerei Holz GmbH\nRechnung Nr. 2026-771\nRechnungsdatum: 03.11.2026\nFälligkeitsdatum: 17.11.2026\n" +
		"Ausführungsdatum: 28.10.2026\nGesamtbetrag 1.190,00 EUR"
	tr := "Ege Makina A.Ş.\nFatura No: EGE2026000000771\nFatura Tarihi: 03.11.2026\nVade: 17.11.2026\n" +
		"Ödenecek Tutar 12.000,00 TL"
	ru := "ООО «Север»\nСчёт № 412\nДата выставления: 03.11.2026\nСрок оплаты: 17.11.2026\nИтого к оплате 12 000,00 руб."
	es := "Talleres Ibarra S.L.\nFactura nº 2026-0771\nFecha de emisión: 03/11/2026\nVencimiento: 03/12/2026\n" +
		"Fecha de envío: 29/10/2026\nTotal 1.210,00 €"
	it := "Officina Bianchi S.r.l.\nFattura n. 771\nData fattura: 03/11/2026\nScadenza: 03/12/2026\nData spedizione: 30/10/2026\nTotale € 1.220,00"
	pl := "Drukarnia Kowalski sp. z o.o.\nFaktura VAT nr 771/11/2026\nData wystawienia: 2026-11-03\nTermin płatności: 2026-11-17\nDo zapłaty 1 230,00 zł"
	bank := "Bankhaus Lindner AG\nGebührenabrechnung\nBelegdatum: 05.11.2026\nWertstellung: 03.11.2026\nKontoführung 12,50 EUR\nGesamt 12,50 EUR"
	bankFR := "Banque du Lac SA\nAvis de débit\nDate d'émission : 05/11/2026\nDate de valeur : 03/11/2026\nFrais de tenue de compte 15,00 €\nTotal 15,00 €"
	bankNO := "Kystbanken ASA\nFakturadato: 05.11.2026\nValuta: 03.11.2026\nGebyr NOK 75,00\nSum NOK 75,00"
	event := "Golden Fork Catering Ltd\nINVOICE INV-2291\nInvoice date: 01 November 2026\nEvent date: 14 November 2026\n" +
		"Wedding buffet, 80 guests   £3,200.00\nTotal £3,200.00"
	event2 := "Partyservice Kranz\nRechnung 2291\nRechnungsdatum: 01.11.2026\nVeranstaltungsdatum: 14.11.2026\nGesamt 3.200,00 EUR"
	claim := "Southern Civil Pty Ltd\nTAX INVOICE - Progress Claim No. 4\nInvoice date: 30/11/2026\n" +
		"Claim period: 01/11/2026 to 28/11/2026\nWork completed to date $120,000.00\nTotal $13,200.00"
	billing := "Stadtwerke Nord GmbH\nRechnung 88213\nRechnungsdatum: 05.11.2026\nAbrechnungszeitraum: 01.10.2026 - 31.10.2026\nGesamtbetrag 84,20 EUR"
	freight := "Blue Anchor Freight Ltd\nInvoice No: BAF-2291\nInvoice Date: 10/11/2026\nDate of Departure: 02/11/2026\n" +
		"Shipment Date: 01/11/2026\nTotal USD 4,400.00"
	dispatch := "Northern Paper Co\nInvoice 2291\nInvoice date: 10 Nov 2026\nDispatched: 06 Nov 2026\nTotal £640.00"
	work := "Kelly Plumbing\nInvoice #4471\nInvoice date: 20/11/2026\nWork date: 14/11/2026\nLabour 2 hrs  $180.00\nTotal $180.00"
	work2 := "Elektro Huber\nRechnung Nr. 4471\nRechnungsdatum: 20.11.2026\nArbeitsdatum: 14.11.2026\nGesamt 214,20 EUR"
	runDateCases(t, []classCase{
		{"NO fakturadato right", no, d("2026-11-12"), "", ""},
		{"NO forfallsdato", no, d("2026-11-26"), "invoice_date", "invoice date is 2026-11-12"},
		{"NO forfallsdato named", no, d("2026-11-26"), "invoice_date", "Forfallsdato"},
		{"NO issue date left out", no, d(""), "invoice_date", "Fakturadato"},
		{"NO leveringsdato", no, d("2026-11-09"), "invoice_date", "Leveringsdato"},
		{"SE fakturadatum right", se, d("2026-11-12"), "", ""},
		{"SE förfallodatum", se, d("2026-12-12"), "invoice_date", "Förfallodatum"},
		{"FI laskun päivämäärä right", fi, d("2026-11-12"), "", ""},
		{"FI eräpäivä", fi, d("2026-11-26"), "invoice_date", "Eräpäivä"},
		{"DK fakturadato right", dk, d("2026-11-12"), "", ""},
		{"DK forfald", dk, d("2026-11-27"), "invoice_date", "Forfald"},
		{"DK fakturadato right, last payment day", dk2, d("2026-11-01"), "", ""},
		{"DK sidste rettidige betalingsdag", dk2, d("2026-11-15"), "invoice_date", "Sidste rettidige betalingsdag"},
		{"CZ datum vystavení right", cz, d("2026-11-05"), "", ""},
		{"CZ tax point", cz, d("2026-10-31"), "invoice_date", "zdanitelného plnění"},
		{"CZ splatnost", cz, d("2026-11-19"), "invoice_date", "splatnosti"},
		{"CZ DUZP right", cz2, d("2026-11-05"), "", ""},
		{"CZ DUZP", cz2, d("2026-10-31"), "invoice_date", "DUZP"},
		{"DE rechnungsdatum right", de, d("2026-11-03"), "", ""},
		{"DE fälligkeitsdatum", de, d("2026-11-17"), "invoice_date", "Fälligkeitsdatum"},
		{"DE ausführungsdatum", de, d("2026-10-28"), "invoice_date", "Ausführungsdatum"},
		{"TR fatura tarihi right", tr, d("2026-11-03"), "", ""},
		{"TR vade", tr, d("2026-11-17"), "invoice_date", "Vade"},
		{"RU дата выставления right", ru, d("2026-11-03"), "", ""},
		{"RU срок оплаты", ru, d("2026-11-17"), "invoice_date", "Срок оплаты"},
		{"ES fecha de emisión right", es, d("2026-11-03"), "", ""},
		{"ES vencimiento", es, d("2026-12-03"), "invoice_date", "Vencimiento"},
		{"ES fecha de envío", es, d("2026-10-29"), "invoice_date", "Fecha de envío"},
		{"IT data fattura right", it, d("2026-11-03"), "", ""},
		{"IT scadenza", it, d("2026-12-03"), "invoice_date", "Scadenza"},
		{"IT data spedizione", it, d("2026-10-30"), "invoice_date", "Data spedizione"},
		{"PL data wystawienia right", pl, d("2026-11-03"), "", ""},
		{"PL termin płatności", pl, d("2026-11-17"), "invoice_date", "Termin płatności"},
		{"DE bank belegdatum right", bank, d("2026-11-05"), "", ""},
		{"DE wertstellung", bank, d("2026-11-03"), "invoice_date", "Wertstellung"},
		{"FR bank date d'émission right", bankFR, d("2026-11-05"), "", ""},
		{"FR date de valeur", bankFR, d("2026-11-03"), "invoice_date", "Date de valeur"},
		{"NO bank fakturadato right", bankNO, d("2026-11-05"), "", ""},
		{"NO valuta", bankNO, d("2026-11-03"), "invoice_date", "Valuta"},
		{"event invoice date right", event, d("2026-11-01"), "", ""},
		{"event date", event, d("2026-11-14"), "invoice_date", "Event date"},
		{"DE rechnungsdatum right, event", event2, d("2026-11-01"), "", ""},
		{"DE veranstaltungsdatum", event2, d("2026-11-14"), "invoice_date", "Veranstaltungsdatum"},
		{"claim invoice date right", claim, d("2026-11-30"), "", ""},
		{"claim period start", claim, d("2026-11-01"), "invoice_date", "Claim period"},
		{"claim period end", claim, d("2026-11-28"), "invoice_date", "Claim period"},
		{"billing rechnungsdatum right", billing, d("2026-11-05"), "", ""},
		{"billing period end", billing, d("2026-10-31"), "invoice_date", "Abrechnungszeitraum"},
		{"freight invoice date right", freight, d("2026-11-10"), "", ""},
		{"freight departure", freight, d("2026-11-02"), "invoice_date", "Date of Departure"},
		{"freight shipment", freight, d("2026-11-01"), "invoice_date", "Shipment Date"},
		{"dispatch invoice date right", dispatch, d("2026-11-10"), "", ""},
		{"dispatched", dispatch, d("2026-11-06"), "invoice_date", "Dispatched"},
		{"work invoice date right", work, d("2026-11-20"), "", ""},
		{"work date", work, d("2026-11-14"), "invoice_date", "Work date"},
		{"DE arbeitsdatum right", work2, d("2026-11-20"), "", ""},
		{"DE arbeitsdatum", work2, d("2026-11-14"), "invoice_date", "Arbeitsdatum"},
	})
}

// A bare "date" label qualified by a word the lists do not know ("Inspection
// date", "Survey date", "Installation date") dates that event, not the
// document, when the document prints another date under a plain own label
// or none: the event's date is flagged with its label, the issue date
// passes. A qualified date whose only rivals are named for something else
// (a due date) is the issue date's; "Sales date" and "Trans. date" on a
// receipt are its own.
func TestQualifiedDateLabels(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	survey := "Hill Surveyors Ltd\n20 November 2026\nInvoice 412\nInspection date: 14/11/2026\nTotal £300.00"
	install := "Solar Roofs Pty Ltd\nTax Invoice 8821\nDate: 20/11/2026\nInstallation date: 02/11/2026\nTotal $6,600.00"
	due := "Hill Surveyors Ltd\nInvoice 412\nSurvey date: 14/11/2026\nDue date: 28/11/2026\nTotal £300.00"
	sales := "KEDAI RUNCIT ABC\nSales date: 14/11/2026 13:02\nTOTAL 12.50\nPrinted 14/11/2026"
	runDateCases(t, []classCase{
		{"inspection date", survey, d("2026-11-14"), "invoice_date", "Inspection date"},
		{"letter date right", survey, d("2026-11-20"), "", ""},
		{"installation date", install, d("2026-11-02"), "invoice_date", "Installation date"},
		{"date right beside installation", install, d("2026-11-20"), "", ""},
		{"survey date beside only a due date", due, d("2026-11-14"), "", ""},
		{"sales date on a receipt", sales, d("2026-11-14"), "", ""},
	})
}
