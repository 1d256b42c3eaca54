package pipeline

import (
	"strings"
	"testing"
)

// refDoc is a document that prints its own number beside references to
// other things: a client's file, a guest's folio and room, a prescription,
// a bill of lading, an account, a customer. right is the document's own
// number; others are the numbers printed for something else.
type refDoc struct {
	name   string
	text   string
	right  string
	others []string
}

// Class "a reference to something else taken as the invoice number": our
// and your references, a hotel folio and room, guest, client, customer,
// account and member numbers, a prescription (Rx) number, a bill of lading
// or booking, an order or PO number and a party's VAT number name something
// other than this document. A label that names the document itself
// (invoice, receipt, fee note, bill, "TAX INVOICE / RECEIPT No.", in any
// language) outranks them. For every document:
//   - the right number is not flagged on invoice_number;
//   - each other number offered as the invoice number is flagged;
//   - no reason, on any record, names one of the other numbers as the
//     document's number (a reviewer following it would replace a right value
//     with a wrong one).
func TestReferencesToOtherThingsAreNotTheNumber(t *testing.T) {
	docs := []refDoc{
		{"uk solicitor's fee note", "HARROW & FINCH LLP\nSolicitors, 12 Bridge Street, Leeds LS1 4AB\nVAT reg no: GB 318 4471 20\n\nFEE NOTE\n\n" +
			"Client: Ms R. Adeyemi        Our ref: HF/RAD/1187-2\nYour ref: RA/PROB/07         Matter no: 40918\n" +
			"Fee note no: 26/03391\nDate: 14/04/2026\n\nProfessional charges re estate administration    1,200.00\n" +
			"VAT @ 20%                                           240.00\nTotal due                                        £1,440.00",
			"26/03391", []string{"HF/RAD/1187-2", "RA/PROB/07", "40918", "GB 318 4471 20"}},
		{"singapore hotel tax invoice / receipt", "MARINA BAY SUITES PTE LTD\nGST Reg No: M2-0088123-4\n" +
			"TAX INVOICE / RECEIPT    No. MBS-F-26-04410\nGuest: Ms P. Lindqvist     Room 712     Folio 30871\n" +
			"Arrival: 03/03/2026   Departure: 05/03/2026\nRoom charge 2 nights                 480.00\n" +
			"GST 9%                                43.20\nTotal (SGD)                          523.20",
			"MBS-F-26-04410", []string{"30871", "712", "M2-0088123-4"}},
		{"hotel folio beside an invoice number", "Hotel Lindenhof\nGuest folio no: 88213\nInvoice No: LH-2026-0912\n" +
			"Guest no: 55-2291\nAccommodation 3 nights   EUR 390.00\nTotal EUR 390.00",
			"LH-2026-0912", []string{"88213", "55-2291"}},
		{"us pharmacy receipt", "CORNER DRUG PHARMACY\n118 Main St, Dayton OH 45402\nRECEIPT #: 7730-1184\nDate: 05/12/2026\n" +
			"Rx #: 6021457   Refill 2 of 5\nPatient: J. Morales\nAmoxicillin 500mg caps #30     12.40\nTotal                $12.40",
			"7730-1184", []string{"6021457"}},
		{"danish freight invoice with a bill of lading", "NORDSEA FREIGHT LINES A/S\nInvoice No.: NSF-2026-00871     Date: 2026-02-17\n" +
			"B/L No.: NSFL26HAM004412\nBooking no: HAM-771203\nShipper: Baltic Timber Oy\n" +
			"Ocean freight Hamburg-Helsinki    EUR 1,850.00\nBAF                                 EUR 210.00\nTotal                              EUR 2,060.00",
			"NSF-2026-00871", []string{"NSFL26HAM004412", "HAM-771203"}},
		{"freight invoice, bill of lading spelled out", "Gulf Coast Carriers LLC\nINVOICE 2026-4471\nBill of Lading No. GCC-BL-99120\n" +
			"PO Number: 4500018821\nLine haul Houston-Dallas   $1,400.00\nTotal $1,400.00",
			"2026-4471", []string{"GCC-BL-99120", "4500018821"}},
		{"uk utility bill with an account number", "Northgate Water\nYour water bill\nAccount number: 4410 2291 0087\n" +
			"Bill number: 880214471\nBill date: 02/03/2026\nCustomer number: C-552019\nCharges this period   £48.20\nAmount due  £48.20",
			"880214471", []string{"4410 2291 0087", "C-552019"}},
		{"german rechnung with kundennummer", "Müller Bürotechnik GmbH, Hauptstr. 4, 70173 Stuttgart\nHerrn Jan Weber, Lindenweg 9, 80331 München\n" +
			"Kundennummer: 40021         Rechnungsnummer: RE-2026-1187\nAuftragsnummer: A-7781      Datum: 12.03.2026\n" +
			"USt-IdNr.: DE811234567\nToner HP 305A       2 x 49,00    98,00\nNettobetrag                       98,00\n" +
			"MwSt 19%                          18,62\nGesamtbetrag                 116,62 EUR",
			"RE-2026-1187", []string{"40021", "A-7781", "DE811234567"}},
		{"spanish factura with nº de cliente", "Suministros Levante S.L.   CIF B46123456\nFACTURA\nNº de factura: F26-00412     Fecha: 09/04/2026\n" +
			"Nº de cliente: 11873\nPedido nº: PE-2291\nBase imponible    250,00\nIVA 21%            52,50\nTotal             302,50 €",
			"F26-00412", []string{"11873", "PE-2291", "B46123456"}},
		{"japanese 請求書 with お客様番号", "請求書\n株式会社みどり商会 御中\nお客様番号：C-00871\n請求書番号：INV-26-0412\n発行日：2026年4月30日\n" +
			"株式会社ヤマト電機\n登録番号：T8010001234567\n小計 ¥50,000\n消費税(10%) ¥5,000\n合計 ¥55,000",
			"INV-26-0412", []string{"C-00871", "T8010001234567"}},
		{"belgian invoice pasted from a spreadsheet", "Factuur;2026-0193\nDatum;15/03/2026\nLeverancier;Drukkerij Vlaanderen NV\n" +
			"Invoice no;F2026-0193;BTW-nr;BE0456.789.123;Klantnummer;K-7781\nTotaal;1.210,00",
			"F2026-0193", []string{"BE0456.789.123", "K-7781"}},
	}
	checkRefDocs(t, docs)
}

// checkRefDocs asserts, for every document, that its own number passes as
// the invoice number, that every other number printed is flagged, and that
// no reason names one of the other numbers as the document's.
func checkRefDocs(t *testing.T, docs []refDoc) {
	t.Helper()
	for _, doc := range docs {
		t.Run(doc.name, func(t *testing.T) {
			res := validateHO(t, doc.text, map[string]any{"invoice_number": doc.right})
			if reason, flagged := flagReason(res, "invoice_number"); flagged {
				t.Errorf("the right number %s is flagged: %s", doc.right, reason)
			}
			for _, other := range doc.others {
				res := validateHO(t, doc.text, map[string]any{"invoice_number": other})
				reason, flagged := flagReason(res, "invoice_number")
				if !flagged {
					t.Errorf("%s passes as the invoice number", other)
					continue
				}
				for _, named := range doc.others {
					if named != other && strings.Contains(reason, named) {
						t.Errorf("the reason for %s names %s, another reference, as if it were the number: %s", other, named, reason)
					}
				}
			}
		})
	}
}

// When the document prints no label of its own number, a reference to
// something else is still flagged, and its reason names the reference's
// label without asserting any other printed number is the invoice number:
// the verify stage cannot tell which number is this document's.
func TestReferenceFlaggedWithoutAnInvoiceNumberToPointAt(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	letter := "Okonjo & Partners, Solicitors\nOur ref: OP/KL/3391\nYour ref: KL-2026-17\n\nTo professional services rendered  £900.00\nTotal £900.00"
	water := "Northgate Water\nAccount number: 4410 2291 0087\nCustomer number: C-552019\nAmount due  £48.20"
	pharmacy := "CORNER DRUG PHARMACY\nRx: 6021457\nPatient: J. Morales\nCopay $10.00\nTotal $10.00"
	sheet := "Leverancier;Drukkerij Vlaanderen NV;BTW-nr;BE0456.789.123;Klantnummer;K-7781\nTotaal;1.210,00"
	cases := []struct {
		name, text, val, label, notNamed string
	}{
		{"our ref", letter, "OP/KL/3391", "Our ref", "KL-2026-17"},
		{"your ref", letter, "KL-2026-17", "Your ref", "OP/KL/3391"},
		{"account number", water, "4410 2291 0087", "Account number", "C-552019"},
		{"customer number", water, "C-552019", "Customer number", "4410 2291 0087"},
		{"rx", pharmacy, "6021457", "Rx", ""},
		{"vat number in a semicolon row", sheet, "BE0456.789.123", "BTW-nr", "K-7781"},
		{"customer number in a semicolon row", sheet, "K-7781", "Klantnummer", "BE0456.789.123"},
	}
	for _, c := range cases {
		res := validateHO(t, c.text, n(c.val))
		reason, flagged := flagReason(res, "invoice_number")
		switch {
		case !flagged:
			t.Errorf("%s: %s passes as the invoice number", c.name, c.val)
		case !strings.Contains(reason, `"`+c.label+`"`):
			t.Errorf("%s: reason %q does not name the label %q", c.name, reason, c.label)
		case c.notNamed != "" && strings.Contains(reason, c.notNamed):
			t.Errorf("%s: reason %q points at %s, another reference", c.name, reason, c.notNamed)
		}
	}
}

// A label that merely starts like a reference does not take the document's
// own number away: Mexico's CFDI prints its number as "Folio" (a hotel's
// folio is the guest's account only beside a label naming the document),
// and a receipt's own "Receipt No." is its number when nothing else is.
func TestOwnNumberLabelsStillHold(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"cfdi folio", "Ferretería del Norte SA de CV\nRFC: FNO850101AB1\nFACTURA  Serie B  Folio 11873\nCliente: Juan Pérez\nTotal $9.00", n("11873"), "", ""},
		{"receipt no alone", "Kedai Buku Ilmu\nRECEIPT NO: KB-22918\nMember no: 88120\nTotal RM 9.00", n("KB-22918"), "", ""},
		{"member no beside it", "Kedai Buku Ilmu\nRECEIPT NO: KB-22918\nMember no: 88120\nTotal RM 9.00", n("88120"), "invoice_number", "KB-22918"},
		{"fee note no. after the title", "FEE NOTE No. 26/00917\nOkonjo & Partners\nOur ref: OP/KL/3391\nTotal £900.00", n("26/00917"), "", ""},
		{"our ref beside it", "FEE NOTE No. 26/00917\nOkonjo & Partners\nOur ref: OP/KL/3391\nTotal £900.00", n("OP/KL/3391"), "invoice_number", "26/00917"},
	})
}

// A party's VAT or enterprise number and a customer's number are printed in
// many shapes: bare national labels (BTW, KBO, BCE, Ondernemingsnummer), a
// debtor's or subscriber's number, cells of a row pasted from a spreadsheet
// with ';', '|' or ',' between them, quoted or not. Each is flagged as the
// invoice number, naming its label; the labelled number passes.
func TestTaxAndCustomerNumbersInRows(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	be := "Drukkerij Vlaanderen NV; Kerkstraat 4; 9000 Gent; BTW BE 0456.789.123\nFACTUUR\nFactuurnummer: 2026/0193\nTotaal 1.210,00"
	fr := "Imprimerie Wallonne SA | BCE 0456.789.123 | Rue Haute 8, 4000 Liège\nFacture n° FW-2026-0077\nTotal 605,00 €"
	csv := "\"Supplier\",\"Ghent Textiles BV\",\"Enterprise no\",\"0456789123\"\n\"Invoice no\",\"GT-2026-041\",\"Debtor no\",\"D-11873\"\n\"Total\",\"1210.00\""
	fi := "Oy Pohjoisvalo Ab, Y-tunnus 1234567-8\nLasku nro 2026-551\nAsiakasnumero: 88120\nYhteensä 124,00 €"
	tr := "Anadolu Kırtasiye Ltd. Şti.\nFATURA NO: AKL2026000000412\nMüşteri No: 552019\nVergi No: 1234567890\nGENEL TOPLAM 1.180,00 TL"
	nl := "Bakkerij De Molen BV\nBTW-nr: NL812345678B01; KvK-nr: 33112211\nFactuurnr.: 2026-041\nKlantnr.: K-552\nTotaal € 121,00"
	cz := "Tiskárna Morava s.r.o., IČO: 12345678, DIČ: CZ12345678\nČíslo faktury: 2026-0317\nZákaznické číslo: 44120\nCelkem 1 210,00 Kč"
	runClassCases(t, []classCase{
		{"btw-nr before a ';'", nl, n("NL812345678B01"), "invoice_number", "2026-041"},
		{"kvk-nr", nl, n("33112211"), "invoice_number", "2026-041"},
		{"klantnr", nl, n("K-552"), "invoice_number", "2026-041"},
		{"factuurnr right", nl, n("2026-041"), "", ""},
		{"ičo", cz, n("12345678"), "invoice_number", "2026-0317"},
		{"zákaznické číslo", cz, n("44120"), "invoice_number", "2026-0317"},
		{"číslo faktury right", cz, n("2026-0317"), "", ""},
		{"bare btw", be, n("BE 0456.789.123"), "invoice_number", "2026/0193"},
		{"factuurnummer right", be, n("2026/0193"), "", ""},
		{"bce in a | row", fr, n("0456.789.123"), "invoice_number", "FW-2026-0077"},
		{"facture n° right", fr, n("FW-2026-0077"), "", ""},
		{"enterprise no in quoted cells", csv, n("0456789123"), "invoice_number", "GT-2026-041"},
		{"debtor no in quoted cells", csv, n("D-11873"), "invoice_number", "GT-2026-041"},
		{"invoice no in quoted cells right", csv, n("GT-2026-041"), "", ""},
		{"asiakasnumero", fi, n("88120"), "invoice_number", `labelled "Asiakasnumero"`},
		{"müşteri no", tr, n("552019"), "invoice_number", "AKL2026000000412"},
		{"vergi no", tr, n("1234567890"), "invoice_number", "AKL2026000000412"},
		{"fatura no right", tr, n("AKL2026000000412"), "", ""},
	})
}

// A record that leaves the invoice number null is told which number the
// document prints under its surest own label: the invoice's, not a
// folio's or a bare reference's printed above it.
func TestNullNumberPointsAtTheSurestLabel(t *testing.T) {
	folio := "Hotel Lindenhof\nFolio 88213\nInvoice No: LH-2026-0912\nTotal EUR 390.00"
	ref := "Okonjo & Partners\nRef: OP/KL/3391\nReceipt no: R-2026-118\nTotal £900.00"
	for _, c := range []struct{ name, text, want, not string }{
		{"folio above an invoice number", folio, `LH-2026-0912 after "Invoice No"`, "88213"},
		{"ref above a receipt number", ref, `R-2026-118 after "Receipt no"`, "OP/KL/3391"},
	} {
		res := validateHO(t, c.text, map[string]any{"total": 390.0, "invoice_number": nil})
		reason, flagged := flagReason(res, "invoice_number")
		if !flagged || !strings.Contains(reason, c.want) || strings.Contains(reason, c.not) {
			t.Errorf("%s: null invoice number: flagged %v, reason %q, want it to name %s and not %s", c.name, flagged, reason, c.want, c.not)
		}
	}
}

// The last digits of a masked payment card ("Visa ****4471", "•••• 8812",
// "**** **** **** 3021") are the card's, never the document's number; and
// an account or customer number a bill asks the payer to quote is still
// that account's number where the sentence prints it again unlabelled.
func TestCardDigitsAndQuotedAccountNumbers(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	hotel := "MARINA BAY SUITES PTE LTD\nTAX INVOICE / RECEIPT    No. MBS-F-26-04410\nTotal (SGD) 523.20\nPaid by Visa ****4471"
	cafe := "Café Lindgren\nKvitto 2026-11-20 14:02\nSumma 89,00 kr\nMASTERCARD •••• 8812\nTack!"
	shop := "Book Nook\nCard: **** **** **** 3021   Auth 55120\nTotal $9.00"
	water := "Northgate Water\nAccount number: 4410 2291 0087\nAmount due £48.20\nPlease quote 4410 2291 0087 when you pay."
	runClassCases(t, []classCase{
		{"visa ****", hotel, n("4471"), "invoice_number", "card"},
		{"receipt no right beside a card", hotel, n("MBS-F-26-04410"), "", ""},
		{"mastercard ••••", cafe, n("8812"), "invoice_number", "card"},
		{"grouped mask", shop, n("3021"), "invoice_number", "card"},
		{"account number quoted again", water, n("4410 2291 0087"), "invoice_number", `labelled "Account number"`},
		{"bare cliente", "Ferretería del Norte SA\nFactura Nº F-2291\nCliente: 11873\nTotal $9.00", n("11873"), "invoice_number", "F-2291"},
		{"n.º de cliente", "Papelaria Lusa, Lda.\nN.º de cliente: 88120\nTotal 9,00 €", n("88120"), "invoice_number", `labelled "N.º de cliente"`},
		{"member #", "Kedai Buku Ilmu\nMember #: 88120\nTotal RM 9.00", n("88120"), "invoice_number", `labelled "Member"`},
	})
}
