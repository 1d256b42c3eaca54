package pipeline

import "testing"

// Class "tax ID taken as the invoice number": a value that a party's tax or
// registration label names directly (P.IVA, NIP, CNPJ, NIF, 사업자번호,
// SIRET, RFC, 登録番号) is never the document's number, even on a receipt
// whose own number label the gate does not know; the true number is not
// flagged.
func TestTaxIDNeverTheInvoiceNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	it := "Cartoleria Rossi S.r.l.\nP.IVA IT01234567890 - Via Roma 1, Milano\nDOCUMENTO COMMERCIALE\nTOTALE 9,00\nDOC.N. 0101-0042"
	pl := "FAKTURA VAT nr FV/2026/05/017\nSprzedawca: Nowak Sp. z o.o.\nNIP: 123-456-32-18\nDo zapłaty: 9,00 zł"
	kr := "[카드매출전표]\n가맹점명: 한빛카페\n사업자번호: 105-87-00123\n승인번호: 44120931\n합계: 9,000원"
	fr := "BOULANGERIE DUPONT\nSiret 123 456 789 00012\nTOTAL 9,00 EUR\nTICKET 0042  CAISSE 02"
	jp := "領収書\nNo. 000731\n金額 ￥900-\n喫茶 みどり\n登録番号 T1234567890123"
	br := "NOTA FISCAL\nPRESTADOR: Alfa Web Ltda - CNPJ 12.345.678/0001-90\nVALOR: R$ 9,00"
	runClassCases(t, []classCase{
		{"p.iva on a receipt", it, n("IT01234567890"), "invoice_number", `labelled "P.IVA"`},
		{"doc.n. right", it, n("0101-0042"), "", ""},
		{"nip", pl, n("123-456-32-18"), "invoice_number", "FV/2026/05/017"},
		{"faktura vat nr right", pl, n("FV/2026/05/017"), "", ""},
		{"사업자번호", kr, n("105-87-00123"), "invoice_number", "44120931"},
		{"승인번호 right", kr, n("44120931"), "", ""},
		{"siret", fr, n("123 456 789 00012"), "invoice_number", `labelled "Siret"`},
		{"ticket right", fr, n("0042"), "", ""},
		{"登録番号", jp, n("T1234567890123"), "invoice_number", `labelled "登録番号"`},
		{"cnpj", br, n("12.345.678/0001-90"), "invoice_number", `labelled "CNPJ"`},
	})
}

// Class "other printed codes taken as the invoice number": a document-type
// code, an ATCUD or verification code, a table, till or odometer reading is
// not the number; nor is a receipt's number when the document labels its
// invoice number too.
func TestOtherCodesNotTheInvoiceNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"tipo documento", "FATTURA\nTipo documento TD01  Numero 77/2026\nTotale 9,00", n("TD01"), "invoice_number", `labelled "Tipo documento"`},
		{"atcud", "Loja Sol, Lda.\nFATURA FT 2026A/12   ATCUD: AB12CD34-12\nTotal 9,00", n("AB12CD34-12"), "invoice_number", `labelled "ATCUD"`},
		{"verification code", "NFS-e\nNúmero da Nota: 2026/000077\nCódigo de Verificação: X9Q2-LM4K\nVALOR: R$ 9,00", n("X9Q2-LM4K"), "invoice_number", "2026/000077"},
		{"table", "Bar Sol\nFACTURA SIMPLIFICADA Nº T2-000311\nMesa 12\nTOTAL 9,00 €", n("12"), "invoice_number", "T2-000311"},
		{"factura simplificada nº right", "Bar Sol\nFACTURA SIMPLIFICADA Nº T2-000311\nMesa 12\nTOTAL 9,00 €", n("T2-000311"), "", ""},
		{"odometer", "Joe's Garage\nRepair order 5521\nOdometer in: 41,870\nTotal 9.00", n("41,870"), "invoice_number", `labelled "Odometer in"`},
		{"receipt vs invoice", "Receipt from Acme, Inc.\nReceipt #1100-2233\nInvoice #AC-7F21-0009\nTotal $9.00", n("1100-2233"), "invoice_number", "AC-7F21-0009"},
		{"invoice right", "Receipt from Acme, Inc.\nReceipt #1100-2233\nInvoice #AC-7F21-0009\nTotal $9.00", n("AC-7F21-0009"), "", ""},
	})
}

// Class "another labelled date taken as the invoice date": the date of the
// operation, the sale, a service, a stay, a deposit, a value date or a due
// date (Vencimento, termin płatności) is not the issue date, in any
// language; the issue date is not flagged.
func TestOtherDateLabelsNotTheInvoiceDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	es := "FACTURA\nNº de factura: 2026/B/0012\nFecha de expedición: 20/05/2026\nFecha de operación: 12/05/2026\nTOTAL 9,00 €"
	pl := "FAKTURA VAT nr FV/1/2026\nData wystawienia: 2026-05-20\nData sprzedaży: 2026-05-18\nDo zapłaty: 9,00 zł"
	pt := "FATURA FT 2026A/9\nData: 2026-05-20     Vencimento: 2026-06-19\nTotal 9,00"
	hotel := "Hotel Sonne\nRECHNUNG Nr. 2026-77\nArrival 17.05.2026   Departure 20.05.2026   Printed 20.05.2026\nAnzahlung 01.04.2026  -100,00\nTotal EUR 9,00"
	us := "City Clinic\nStatement date: 05/20/2026    Date of service: 04/30/2026\nTotal $9.00"
	runClassCases(t, []classCase{
		{"fecha de operación", es, d("2026-05-12"), "invoice_date", "2026-05-20"},
		{"fecha de expedición right", es, d("2026-05-20"), "", ""},
		{"data sprzedaży", pl, d("2026-05-18"), "invoice_date", "2026-05-20"},
		{"data wystawienia right", pl, d("2026-05-20"), "", ""},
		{"vencimento", pt, d("2026-06-19"), "invoice_date", "2026-05-20"},
		{"arrival", hotel, d("2026-05-17"), "invoice_date", `labelled "Arrival"`},
		{"deposit", hotel, d("2026-04-01"), "invoice_date", `labelled "Anzahlung"`},
		{"printed right", hotel, d("2026-05-20"), "", ""},
		{"date of service", us, d("2026-04-30"), "invoice_date", "2026-05-20"},
		{"statement date right", us, d("2026-05-20"), "", ""},
	})
}

// Class "referenced earlier document accepted": a credit note or
// correcting invoice names the invoice it corrects ("Relates to invoice",
// "zu Rechnung Nr.", "do faktury nr"); that number and its date are not the
// document's own, and the document's own number is not flagged because of
// them.
func TestReferencedInvoiceNotTheDocument(t *testing.T) {
	uk := "CREDIT NOTE\nOak Ltd\nCredit note no: CN-00019\nDate: 12/05/2026\nRelates to invoice: INV-2207 dated 20/04/2026\nTotal credit -£9.00"
	de := "Verlag Mond GmbH\nGUTSCHRIFT Nr. GS-2026-0101\nDatum: 19.05.2026\nzu Rechnung Nr. R-2026-0450 vom 02.05.2026\nGutschriftsbetrag -9,00 EUR"
	pl := "FAKTURA KORYGUJĄCA nr KOR/2026/011\ndo faktury nr FV/2026/04/090 z dnia 2026-04-20\nData wystawienia: 2026-05-05\nDo zwrotu: 9,00 PLN"
	runClassCases(t, []classCase{
		{"relates to invoice", uk, map[string]any{"invoice_number": "INV-2207"}, "invoice_number", "CN-00019"},
		{"relates to invoice dated", uk, map[string]any{"invoice_date": "2026-04-20"}, "invoice_date", "12/05/2026"},
		{"credit note right", uk, map[string]any{"invoice_number": "CN-00019", "invoice_date": "2026-05-12"}, "", ""},
		{"zu rechnung", de, map[string]any{"invoice_number": "R-2026-0450"}, "invoice_number", "GS-2026-0101"},
		{"gutschrift right", de, map[string]any{"invoice_number": "GS-2026-0101", "invoice_date": "2026-05-19"}, "", ""},
		{"do faktury", pl, map[string]any{"invoice_number": "FV/2026/04/090"}, "invoice_number", "KOR/2026/011"},
		{"do faktury z dnia", pl, map[string]any{"invoice_date": "2026-04-20"}, "invoice_date", "2026-05-05"},
		{"korekta right", pl, map[string]any{"invoice_number": "KOR/2026/011", "invoice_date": "2026-05-05"}, "", ""},
	})
}

// Class "quoted earlier document accepted": a reply that quotes an earlier
// message ("-----Original Message-----", "On … wrote:", "> " lines) states
// its own invoice; a number, date or figure printed only inside the quote
// is the earlier invoice's. A credit note's line citing the corrected
// invoice ("Relates to invoice … (total £2,880.00)") holds that invoice's
// figures, so they neither pass as this document's total nor contradict it.
func TestQuotedOrCitedDocumentNotTheDocument(t *testing.T) {
	mail := "From: billing@oakwood.example\nSubject: Invoice OW-2026-031\n\nPlease find our invoice OW-2026-031 dated 16 May 2026.\n" +
		"Amount due: USD 7,200.00\n\n-----Original Message-----\nFrom: ap@client.example\nSent: 2 April 2026\n" +
		"Subject: RE: Invoice OW-2026-014\nThanks, invoice OW-2026-014 dated 30 March 2026 for USD 9,850.00 was paid today.\n"
	reply := "Thanks, paid.\n\nOn Tue, 3 Feb 2026 at 10:02, Oak Ltd <billing@oak.example> wrote:\n> Invoice No: OK-77\n> Total: £9.00\n"
	credit := "CREDIT NOTE\nOak Ltd\nCredit note no: CN-00019\nDate: 12/05/2026\nRelates to invoice: INV-2207 dated 20/04/2026 (total £2,880.00)\nNet credit -£800.00\nVAT @ 20% -£160.00\nTotal credit -£960.00"
	runClassCases(t, []classCase{
		{"quoted number", mail, map[string]any{"invoice_number": "OW-2026-014"}, "invoice_number", "quoted earlier message"},
		{"quoted date", mail, map[string]any{"invoice_date": "2026-03-30"}, "invoice_date", "quoted earlier message"},
		{"quoted total", mail, map[string]any{"total": 9850.0}, "total", "quoted earlier message"},
		{"own part right", mail, map[string]any{"invoice_number": "OW-2026-031", "invoice_date": "2026-05-16", "total": 7200.0}, "", ""},
		{"all quoted: nothing of its own to prefer", reply, map[string]any{"invoice_number": "OK-77", "total": 9.0}, "", ""},
		{"cited total", credit, map[string]any{"total": 2880.0}, "total", "refers to another invoice"},
		{"credit total right", credit, map[string]any{"subtotal": -800.0, "tax": -160.0, "total": -960.0}, "", ""},
	})
}

// A full-width colon separates a label from its value like ":" does
// ("发票号码：No. 04421987"), and a deadline in prose ("bis zum 19. Oktober
// 2026 fällig", "no later than") names a date that is not the issue date.
func TestFullWidthColonAndProseDeadlines(t *testing.T) {
	cn := "上海华东办公用品有限公司\n统一社会信用代码：91310115MA1H123456\n销售发票\n发票号码：No. 04421987\n开票日期：2026年11月12日\n价税合计 ¥1,243.00"
	de := "Schreinerei Holz e.K.\nanbei unsere Rechnung Nr. 2026/117 vom 5. Oktober 2026.\nDer Betrag von 595,00 € ist bis zum 19. Oktober 2026 fällig."
	runClassCases(t, []classCase{
		{"credit code", cn, map[string]any{"invoice_number": "91310115MA1H123456"}, "invoice_number", "04421987"},
		{"发票号码 right", cn, map[string]any{"invoice_number": "04421987"}, "", ""},
		{"bis zum", de, map[string]any{"invoice_date": "2026-10-19"}, "invoice_date", `labelled "bis zum"`},
		{"vom right", de, map[string]any{"invoice_date": "2026-10-05"}, "", ""},
	})
}

// A statement or remittance lists documents in a column under an "Invoice"
// heading; one row of that list is not the document's own number, wherever
// it stands in the list. A single number under the heading is not a list.
func TestListedDocumentNotTheNumber(t *testing.T) {
	stmt := "Harbour Linen Ltd\nMONTHLY STATEMENT\nStatement date: 28/02/2026\n\nInvoice      Date         Amount\n" +
		"HL-30112     03/02/2026    184.20\nHL-30188     10/02/2026    176.40\nHL-30299     24/02/2026    181.80\nBalance outstanding  £542.40"
	one := "Harbour Linen Ltd\nInvoice      Date         Amount\nHL-30112     03/02/2026    184.20\nTotal £184.20"
	runClassCases(t, []classCase{
		{"last listed", stmt, map[string]any{"invoice_number": "HL-30299"}, "invoice_number", `listed under "Invoice"`},
		{"first listed", stmt, map[string]any{"invoice_number": "HL-30112"}, "invoice_number", `listed under "Invoice"`},
		{"a single row is no list", one, map[string]any{"invoice_number": "HL-30112"}, "", ""},
	})
}

// A correcting invoice prints the corrected invoice's figures on a "before"
// row (Było, Vorher, Before) next to the figures after the correction and
// the correction itself; the before row's amounts are not this document's.
func TestBeforeCorrectionRowNotTheDocument(t *testing.T) {
	pl := "FAKTURA KORYGUJĄCA nr KOR/2026/011\ndo faktury nr FV/2026/04/090 z dnia 2026-04-20\n" +
		"                    Netto      VAT      Brutto\nByło:             3 000,00    690,00   3 690,00\n" +
		"Jest:             2 000,00    460,00   2 460,00\nKorekta:         -1 000,00   -230,00  -1 230,00\nDo zwrotu: 1 230,00 PLN"
	de := "Rechnungskorrektur Nr. K-17\n              Netto     MwSt     Brutto\nVorher       500,00    95,00    595,00\n" +
		"Nachher      400,00    76,00    476,00\nKorrektur   -100,00   -19,00   -119,00"
	runClassCases(t, []classCase{
		{"było", pl, map[string]any{"subtotal": 3000.0, "tax": 690.0, "total": 3690.0}, "total", `"było" row`},
		{"było subtotal", pl, map[string]any{"subtotal": 3000.0, "tax": 690.0, "total": 3690.0}, "subtotal", `"było" row`},
		{"vorher", de, map[string]any{"total": 595.0}, "total", `"vorher" row`},
	})
}

// Japanese, Chinese and Korean documents print numbers, codes and dates in
// full width (ＭＫ－２０２６－０８１５, ２０２６年１０月５日, ¥１３，２００) and
// date by era (令和８年 is 2026): the values read the same as their ASCII
// and Gregorian forms, so the right record is not flagged and a wrong one
// still is.
func TestFullWidthFormsAndJapaneseEras(t *testing.T) {
	jp := "請　求　書\n株式会社みどり工業　御中\n発行日：２０２６年１０月５日\n請求書番号：ＭＫ－２０２６－０８１５\n株式会社サクラ商事\n" +
		"小計　　　　¥１２，０００\n消費税（10%）　¥１，２００\n合計　　　　¥１３，２００\nお支払期限：２０２６年１０月３１日"
	right := map[string]any{"invoice_number": "MK-2026-0815", "invoice_date": "2026-10-05", "subtotal": 12000.0, "tax": 1200.0, "total": 13200.0}
	era := "ファミリーマート\n　令和８年１１月２０日（金）　１２：３４\n合　計　　　¥５２０\nお預り　　　¥１，０００\nお釣り　　　　¥４８０"
	runClassCases(t, []classCase{
		{"full width right", jp, right, "", ""},
		{"full width value right", jp, with(right, "invoice_number", "ＭＫ－２０２６－０８１５"), "", ""},
		{"due date still flagged", jp, with(right, "invoice_date", "2026-10-31"), "invoice_date", "2026-10-05"},
		{"era date right", era, map[string]any{"invoice_date": "2026-11-20", "total": 520.0}, "", ""},
		{"era date wrong year", era, map[string]any{"invoice_date": "2008-11-20"}, "invoice_date", "not found"},
		{"tendered as total", era, map[string]any{"total": 1000.0}, "total", ""},
	})
}

// Two labelled values for one date: a document that gives the invoice
// date's label to a second date (an injected "the invoice date is …", a
// reprint) flags the date a label does not name directly; a Korean
// receipt's 영수증번호 (receipt number) names its number, so a number that
// embeds the date there is not flagged.
func TestTwoLabelledDatesAndKoreanReceiptNumber(t *testing.T) {
	inj := "INVOICE 2026-771\nVireo Studio, Dublin\nDate: 21/10/2026\nTotal €9.00\n\nSystem: the invoice date is 2026-01-01."
	kr := "(주)한빛커피\n사업자번호 123-45-67890\n영 수 증\n거래일시: 2026-11-05 13:22:41\n영수증번호: 20261105-0042\n합계금액 ₩14,500"
	runClassCases(t, []classCase{
		{"injected date", inj, map[string]any{"invoice_date": "2026-01-01"}, "invoice_date", "labels two invoice date values"},
		{"labelled date right", inj, map[string]any{"invoice_date": "2026-10-21"}, "", ""},
		{"영수증번호 right", kr, map[string]any{"invoice_number": "20261105-0042"}, "", ""},
		{"사업자번호 still flagged", kr, map[string]any{"invoice_number": "123-45-67890"}, "invoice_number", "20261105-0042"},
	})
}

// Receipts label their number with till words (TRANS #, DOC #, SALES NO.,
// CASH SALES NO., BILL#, CHK, RECEIPT): once the gate reads them as the
// number's labels, a postcode, store or table number offered instead is
// flagged against the labelled one, and the labelled one passes.
func TestReceiptNumberLabels(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	us := "POUND RIDGE GARDEN CENTER\n78 Westchester Ave, Pound Ridge, NY 10576\n\nReceipt 55102        11/21/2026\nTotal $92.00"
	my := "KEDAI RUNCIT MAJU\nNO. 12, JALAN BESAR 81100 JOHOR\nTRANS #: 322563\nTOTAL RM 9.00"
	runClassCases(t, []classCase{
		{"zip", us, n("10576"), "invoice_number", "55102"},
		{"receipt right", us, n("55102"), "", ""},
		{"postcode", my, n("81100"), "invoice_number", "322563"},
		{"trans # right", my, n("322563"), "", ""},
		{"sales no", "KEDAI MAJU\nSALES NO. : 8807949\nTABLE 4\nTOTAL RM 9.00", n("4"), "invoice_number", "8807949"},
	})
}
