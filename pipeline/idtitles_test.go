package pipeline

import "testing"

// Class "another identifier of the document taken as its number, while the
// document's own number stands under a title or label in its own language":
// a hotel's folio beside a Portuguese FATURA-RECIBO, a booking or
// confirmation reference, an Israeli allocation number, an IBAN, a Japanese
// registration number, a Brazilian access key or authorisation protocol, a
// card slip's approval code, RRN, terminal and batch, a fiscal receipt's
// device and document numbers, a dispatch guide or purchase order, a customs
// declaration, a Taiwanese e-invoice's random code. Each is flagged as the
// invoice number, the document's own number passes, and no reason names
// another of these numbers as the document's.
func TestOwnNumberUnderItsTitleBesideOtherIdentifiers(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"portuguese hotel fatura-recibo with a folio", "HOTEL MIRADOURO DO TEJO, LDA\nNIF 509 123 456\n" +
			"FATURA-RECIBO FR 2026A/1184\nData: 14-11-2026\nFolio n.º 88213   Quarto 412\n" +
			"Alojamento 2 noites   180,00\nIVA 6%   10,80\nTotal  190,80 EUR\nATCUD: JJ4K7M2P-1184",
			"FR 2026A/1184", []string{"88213", "412", "JJ4K7M2P-1184"}},
		{"hotel invoice with booking and confirmation numbers", "GRAND HARBOUR HOTEL PTE LTD\nINVOICE GH-26-55021\n" +
			"Confirmation No. 7734219   Booking.com Reservation 3021774590\nGuest: A. Smith   Room 1207\n" +
			"Arrival 10/11/2026   Departure 12/11/2026\nTotal SGD 612.40",
			"GH-26-55021", []string{"7734219", "3021774590", "1207"}},
		{"israeli tax invoice with an allocation number", "מלון ים התכלת בע\"מ\nע.מ. 514123456\n" +
			"חשבונית מס / קבלה 40217\nמספר הקצאה: 123456789\nתאריך: 14/11/2026\nסה\"כ לתשלום ₪ 1,170.00",
			"40217", []string{"123456789", "514123456"}},
		{"israeli invoice labelled מספר חשבונית", "אופק מחשבים בע\"מ\nמספר חשבונית: 30112\n" +
			"מספר הקצאה 987654321\nסה\"כ לתשלום ₪ 4,956.00",
			"30112", []string{"987654321"}},
		{"polish rachunek with the seller's IBAN", "Kowalski Usługi Sp. z o.o.\nNIP 525-000-12-34\n" +
			"Rachunek nr 12/11/2026\nData wystawienia: 2026-11-14\nDo zapłaty: 1 230,00 PLN\n" +
			"Numer konta: PL61 1090 1014 0000 0712 1981 2874",
			"12/11/2026", []string{"PL61 1090 1014 0000 0712 1981 2874", "525-000-12-34"}},
		{"japanese invoice with the registration number", "請求書\n株式会社みどり商会 御中\n" +
			"株式会社サクラ精機\n適格請求書発行事業者 T8010001234567\n請求No. S-2611-042\n" +
			"小計 ¥50,000\n消費税(10%) ¥5,000\n合計 ¥55,000",
			"S-2611-042", []string{"T8010001234567"}},
		{"brazilian DANFE with access key and protocol", "DANFE\nDOCUMENTO AUXILIAR DA NOTA FISCAL ELETRÔNICA\n" +
			"COMERCIAL PAULISTA LTDA\nCNPJ 12.345.678/0001-90\nNº 000.012.345   SÉRIE 001\nCHAVE DE ACESSO\n" +
			"3526 1112 3456 7800 0190 5500 1000 0123 4510 0012 3458\nPROTOCOLO DE AUTORIZAÇÃO DE USO\n" +
			"135261234567890 - 14/11/2026 10:22:31\nVALOR TOTAL DA NOTA 1.250,00",
			"000.012.345", []string{"3526 1112 3456 7800 0190 5500 1000 0123 4510 0012 3458", "135261234567890"}},
		{"card slip with approval code, RRN, terminal and batch", "CAFE LUMIERE\n12 Rue des Lilas, Lyon\n" +
			"Ticket n° 0412\nCARTE VISA\nTerminal ID: 28841977\nBatch 000118   Trace 000987\n" +
			"RRN 631812345678\nApproval code 0A12B4\nMontant 23,50 EUR",
			"0412", []string{"28841977", "000118", "000987", "631812345678", "0A12B4"}},
		{"ukrainian fiscal receipt", "ТОВ \"ЗЕЛЕНИЙ КОШИК\"\nм. Київ, вул. Хрещатик 1\nПН 123456789012\n" +
			"ФІСКАЛЬНИЙ ЧЕК № 0412-17\nХліб   32,50\nМолоко   45,00\nСУМА 77,50 ГРН\nПДВ А 20% 12,92\n" +
			"ФН ПРРО 4000654321\nФН чека 998877665\nФД 30571\nФП 7086421935",
			"0412-17", []string{"4000654321", "998877665", "30571", "7086421935", "123456789012"}},
		{"chilean factura with a dispatch guide and a purchase order", "COMERCIAL ANDES SpA\nR.U.T.: 76.123.456-7\n" +
			"FACTURA ELECTRÓNICA N° 18433\nFecha Emisión: 14/11/2026\nGuía de despacho N° 5521\n" +
			"Orden de compra: OC-2026-0912\nTotal $ 1.785.000",
			"18433", []string{"5521", "OC-2026-0912", "76.123.456-7"}},
		{"peruvian customs broker with a declaration", "AGENCIA DE ADUANAS PACÍFICO S.A.C.\nRUC 20123456789\n" +
			"FACTURA ELECTRÓNICA F001-00012345\nDUA: 118-2026-10-012345\nDAM N° 118-2026-10-054321\n" +
			"Comisión de agencia   S/ 850.00\nIGV 18%   S/ 153.00\nImporte total S/ 1,003.00",
			"F001-00012345", []string{"118-2026-10-012345", "118-2026-10-054321", "20123456789"}},
		{"taiwanese e-invoice with a random code", "電子發票證明聯\n2026-11-14\n發票號碼: AB-12345678\n" +
			"隨機碼: 4821   總計: 560\n賣方 24681357   買方 86420975",
			"AB-12345678", []string{"4821", "24681357", "86420975"}},
		{"mexican cfdi with its fiscal folio", "FERRETERÍA DEL BAJÍO SA DE CV\nRFC: FBA850101AB1\n" +
			"Serie A   Folio 8821\nFolio fiscal: 5FB2822E-396D-4725-8521-CDC4BDD20CCF\n" +
			"No. de serie del CSD: 00001000000504465028\nTotal $ 1,160.00",
			"8821", []string{"5FB2822E-396D-4725-8521-CDC4BDD20CCF", "00001000000504465028"}},
		{"indian e-invoice with IRN and ack number", "SHREE GANESH TRADERS\nGSTIN: 27ABCDE1234F1Z5\n" +
			"IRN: 3b5f2a9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a\nAck No.: 112610012345678\n" +
			"E-Way Bill No: 391012345678\nInvoice No.: SGT/26-27/0412\nTaxable value 10,000.00\nIGST 18% 1,800.00\nTotal 11,800.00",
			"SGT/26-27/0412", []string{"112610012345678", "391012345678"}},
		{"italian fattura with IBAN and transport document", "Rossi Forniture S.r.l.\nP.IVA 01234560987\n" +
			"Fattura n. 412/2026 del 14/11/2026\nDDT n. 0912 del 10/11/2026\nCIG: Z1A2B3C4D5\n" +
			"IBAN: IT60 X054 2811 1010 0000 0123 456\nTotale documento € 1.220,00",
			"412/2026", []string{"0912", "Z1A2B3C4D5", "IT60 X054 2811 1010 0000 0123 456"}},
		{"german receipt with TSE counters", "Bäckerei Hoffmann\nKassenbeleg 2026-118-0412\n" +
			"TSE-Transaktion: 88213\nTSE-Signaturzähler: 177120\nTSE-Seriennummer: 5a1b2c3d4e\nSumme 9,40 EUR",
			"2026-118-0412", []string{"88213", "177120"}},
		{"norwegian faktura with a KID", "Fjordservice AS\nOrg.nr 987 654 321 MVA\nFaktura 26041\n" +
			"KID: 0002604112345\nKontonummer: 1503.12.34567\nÅ betale kr 2 500,00",
			"26041", []string{"0002604112345", "1503.12.34567"}},
		{"swedish faktura with OCR and bankgiro", "Norrland Bygg AB\nFakturanummer 7712\nOCR-nummer 771220268\n" +
			"Bankgiro 5050-1055\nAtt betala 12 500,00 kr",
			"7712", []string{"771220268", "5050-1055"}},
		{"finnish lasku with a reference number", "Savon Sähkö Oy\nLasku nro 44120\nViitenumero 44120 00015\n" +
			"IBAN FI21 1234 5600 0007 85\nYhteensä 310,00 EUR",
			"44120", []string{"44120 00015", "FI21 1234 5600 0007 85"}},
		{"turkish e-archive fatura with ETTN", "ANADOLU GIDA A.Ş.\nVKN 1234567890\ne-Arşiv Fatura\n" +
			"Fatura No: ANA2026000000412\nETTN: 7d9c2a1b-3e4f-4a5b-8c6d-9e0f1a2b3c4d\nÖdenecek Tutar 1.180,00 TL",
			"ANA2026000000412", []string{"7d9c2a1b-3e4f-4a5b-8c6d-9e0f1a2b3c4d", "1234567890"}},
		{"greek invoice with the myDATA mark", "ΑΦΟΙ ΠΑΠΑΔΟΠΟΥΛΟΙ Ο.Ε.\nΑΦΜ 098765432\nΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ Α-1207\n" +
			"ΜΑΡΚ 400001234567890\nUID 8F2C1A9B0D3E4F5A6B7C8D9E0F1A2B3C4D5E6F70\nΣύνολο 1.240,00 €",
			"Α-1207", []string{"400001234567890", "098765432"}},
		{"russian cash receipt with fiscal numbers", "ООО «Север»\nИНН 7701234567\nКАССОВЫЙ ЧЕК № 412\n" +
			"Смена № 118\nРН ККТ 0004417729035561\nЗН ККТ 00106798765432\nФН 9960440300887766\nФД 52718  ФП 3091847265\n" +
			"ИТОГ =1 250,00",
			"412", []string{"118", "0004417729035561", "00106798765432", "9960440300887766", "52718", "3091847265"}},
		{"arabic invoice titled فاتورة رقم", "مؤسسة الريادة للتجارة\nفاتورة رقم 2026/412\n" +
			"رقم الحساب: 0108061198800015\nالآيبان: SA03 8000 0000 6080 1016 7519\nالإجمالي 1,150.00 ر.س",
			"2026/412", []string{"0108061198800015", "SA03 8000 0000 6080 1016 7519"}},
		{"vietnamese VAT invoice with a lookup code", "CÔNG TY TNHH AN PHÁT\nMã số thuế: 0312345678\n" +
			"HÓA ĐƠN GIÁ TRỊ GIA TĂNG\nKý hiệu: 1C26TAP   Số hóa đơn: 00000871\nMã tra cứu: X7K2P9Q4R1\n" +
			"Mã của CQT: 00A1B2C3D4E5F60718293A4B5C6D7E8F90\nTổng cộng: 16.200.000 VND",
			"00000871", []string{"X7K2P9Q4R1", "0312345678"}},
		{"indonesian faktur with NPWP and order", "PT SINAR JAYA ABADI\nNPWP: 01.234.567.8-901.000\n" +
			"Nomor Faktur: INV/2026/11/0412\nNo. Pesanan: PO-88213\nTotal Rp 1.110.000",
			"INV/2026/11/0412", []string{"01.234.567.8-901.000", "PO-88213"}},
		{"thai tax invoice with a POS number", "บริษัท สยามเทรดดิ้ง จำกัด\nเลขประจำตัวผู้เสียภาษี 0105551234567\n" +
			"เลขที่ใบกำกับภาษี IV6911-0042\nPOS ID: E051234567\nรวมเงิน 1,070.00 บาท",
			"IV6911-0042", []string{"E051234567", "0105551234567"}},
		{"korean tax invoice with an approval number of the NTS", "(주)한빛상사\n사업자등록번호 123-45-67890\n" +
			"세금계산서 번호 2026-1114-0412\n국세청 승인번호 20261114-41000012-abcd1234\n합계 1,100,000원",
			"2026-1114-0412", []string{"20261114-41000012-abcd1234", "123-45-67890"}},
		{"czech faktura with constant symbol and EET codes", "Novák stavby s.r.o.\nIČ 12345678\n" +
			"Faktura - daňový doklad č. 2026010045\nKonstantní symbol 0308\nFIK: 1b3e5f7a-2c4d-4e6f-8a0b-1c2d3e4f5a6b\n" +
			"Celkem k úhradě 58 685,00 Kč",
			"2026010045", []string{"0308", "1b3e5f7a-2c4d-4e6f-8a0b-1c2d3e4f5a6b"}},
	})
}

// Some identifiers say what they are by their shape, whatever label (or
// none) stands before them: an IBAN whose check digits hold, a Japanese
// registration number (T and 13 digits), an electronic document's 44-digit
// access key, a UUID, a 64-character hash. None is the document's number;
// the number its own label names passes, and so does a shape one of the
// field's own labels names.
func TestIdentifierShapesThatAreNeverTheNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	cz := "Elektro Dvořák s.r.o.\nFaktura 2026-0412\nBankovní spojení: CZ65 0800 0000 1920 0014 5399\nCelkem 12 100,00 Kč"
	jp := "領収書\n喫茶 こもれび\nT3012345678901\n2026年11月14日\nNo. 0045\n合計 ¥1,320"
	br := "NFC-e nº 4471 Série 1\nConsulte pela chave:\n35261112345678000190650010000044711000044719\nTotal R$ 38,90"
	in := "SHREE GANESH TRADERS\nInvoice No.: SGT/0412\n3b5f2a9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a\nTotal 11,800.00"
	mx := "FERRETERÍA DEL BAJÍO\nFactura A-8821\n5FB2822E-396D-4725-8521-CDC4BDD20CCF\nTotal $ 1,160.00"
	runClassCases(t, []classCase{
		{"IBAN under an unread label", cz, n("CZ65 0800 0000 1920 0014 5399"), "invoice_number", "IBAN"},
		{"IBAN's own faktura right", cz, n("2026-0412"), "", ""},
		{"registration number alone on its line", jp, n("T3012345678901"), "invoice_number", "registration number"},
		{"registration number's own receipt right", jp, n("0045"), "", ""},
		{"NFC-e access key", br, n("35261112345678000190650010000044711000044719"), "invoice_number", "44-digit access key"},
		{"NFC-e number right", br, n("4471"), "", ""},
		{"IRN hash", in, n("3b5f2a9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a"), "invoice_number", "64-character hash"},
		{"UUID without a label", mx, n("5FB2822E-396D-4725-8521-CDC4BDD20CCF"), "invoice_number", "UUID"},
		{"factura number right", mx, n("A-8821"), "", ""},
		{"a UUID its own label names", "Cloudly Inc\nInvoice ID: 6f1c2a3b-4d5e-6789-abcd-0123456789ef\nTotal $9.00",
			n("6f1c2a3b-4d5e-6789-abcd-0123456789ef"), "", ""},
		{"portuguese number without its type code", "HOTEL MIRADOURO DO TEJO, LDA\nFATURA-RECIBO FR 2026A/1184\n" +
			"Folio n.º 88213\nTotal  190,80 EUR", n("2026A/1184"), "", ""},
	})
}

// A schema that asks for an IBAN under its own label gets it unflagged.
func TestAnIBANFieldOfItsOwnIsNotFlagged(t *testing.T) {
	s, err := ParseSchema([]byte("name: payment\nfields:\n  - name: iban\n    kind: identifier\n    labels: [iban]\n"), "payment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep := RunHeuristics("Pay to IBAN: DE89 3704 0044 0532 0130 00", s, Record{"iban": "DE89 3704 0044 0532 0130 00"})
	if c := rep["iban"]; c.Factor != 1 {
		t.Errorf("the IBAN field's own value is flagged: %v", c.Reasons)
	}
}

// The same class in the other layouts documents print: headings over a row
// of values, a label alone on the line above, a sentence that asks the payer
// to quote a payment reference, a card slip stapled under a bill.
func TestOtherIdentifiersInOtherLayouts(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"spanish factura with headings over the values", "DISTRIBUCIONES LEVANTE S.L.\nCIF B46123456\n" +
			"Nº Factura      Fecha        Nº Pedido     Albarán\nFV26-00412      14/11/2026   PD-77120      AL-5521\n" +
			"Base imponible 250,00\nIVA 21% 52,50\nTotal 302,50 €",
			"FV26-00412", []string{"PD-77120", "AL-5521", "B46123456"}},
		{"japanese 請求書 with labels above their values", "請求書\n株式会社みどり商会 御中\n請求書番号\nINV-2611-0412\n" +
			"登録番号\nT8010001234567\n振込先口座番号\n0987123\n合計 ¥55,000",
			"INV-2611-0412", []string{"T8010001234567", "0987123"}},
		{"norwegian faktura asking to quote the KID", "Fjordservice AS\nFaktura nr 26041\n" +
			"Vennligst bruk KID 000260411234 ved betaling til konto 1503.12.34567.\nÅ betale kr 2 500,00",
			"26041", []string{"000260411234", "1503.12.34567"}},
		{"german rechnung asking for a transfer to an IBAN", "Schreinerei Vogt\nRechnung 2026-118\n" +
			"Bitte überweisen Sie den Betrag auf DE89 3704 0044 0532 0130 00.\nGesamtbetrag 1.190,00 EUR",
			"2026-118", []string{"DE89 3704 0044 0532 0130 00"}},
		{"restaurant bill with a card slip under it", "TRATTORIA DA MARIO\nRicevuta n. 0412\nCoperti 2\n" +
			"Totale € 64,00\n--- PAGAMENTO CARTA ---\nTERM. 28841977  STAN 004512\nAUT. 0A12B4  ACQ. 631812345678\nIMPORTO EUR 64,00",
			"0412", []string{"28841977", "004512", "0A12B4"}},
		{"mexican cfdi with its fiscal folio in a heading", "FERRETERÍA DEL BAJÍO SA DE CV\nSerie   Folio   Folio Fiscal\n" +
			"A       8821    5FB2822E-396D-4725-8521-CDC4BDD20CCF\nTotal $ 1,160.00",
			"8821", []string{"5FB2822E-396D-4725-8521-CDC4BDD20CCF"}},
		{"hotel folio from a booking engine", "Hotel Sol de Mayo\nFactura Nº A-0001-00004471\nReserva: BK7734219\n" +
			"Huésped: J. Pérez  Habitación 214\nTotal $ 98.400,00",
			"A-0001-00004471", []string{"BK7734219", "214"}},
		{"korean card receipt keeps its approval number as its own", "스타벅스 역삼점\n사업자번호 123-45-67890\n" +
			"카드 승인번호 30012345\n합계 5,600원",
			"30012345", []string{"123-45-67890"}},
	})
}

// A title's number sign in its own language ("מס'", "Nº", "Αρ.", "รหัส")
// or a document class letter ("FACTURA B") between the title and the
// number: the number after them is the document's.
func TestTitleNumberSignsInTheirLanguage(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"hebrew tax invoice number", "אופק מחשבים בע\"מ\nחשבונית מס מס' 30112\nמספר הקצאה 987654321\nסה\"כ לתשלום ₪ 4,956.00",
			"30112", []string{"987654321"}},
		{"argentine factura B", "DISTRIBUIDORA DEL PLATA S.R.L.\nFACTURA B Nº 0003-00001234\nRemito: 0001-00008812\n" +
			"CAE N°: 76123456789012\nTotal $ 12.100,00",
			"0003-00001234", []string{"0001-00008812", "76123456789012"}},
		{"greek retail receipt", "ΚΑΦΕΝΕΙΟ Η ΠΛΑΤΕΙΑ\nΑΦΜ 098765432\nΑΠΟΔΕΙΞΗ ΛΙΑΝΙΚΗΣ ΠΩΛΗΣΗΣ Αρ. 2093\n" +
			"ΜΑΡΚ 400001234567890\nΣΥΝΟΛΟ 7,50 €",
			"2093", []string{"400001234567890", "098765432"}},
		{"saudi simplified tax invoice", "مقهى الواحة\nالرقم الضريبي: 300123456700003\nفاتورة ضريبية مبسطة رقم 4471\n" +
			"رقم الطلب 88213\nالإجمالي 23.00 ر.س",
			"4471", []string{"300123456700003", "88213"}},
		{"russian receipt under its document number", "ИП Смирнов А.В.\nИНН 771234567890\nКвитанция № 0412\n" +
			"Заказ-наряд № ЗН-7712\nИтого: 3 500,00 руб.",
			"0412", []string{"771234567890"}},
		{"romanian bon fiscal", "SC ALFA COM SRL\nCIF RO12345678\nBON FISCAL NR. 0412\nID UNIC 8871234567\nTOTAL 45,50 LEI",
			"0412", []string{"RO12345678", "8871234567"}},
		{"chinese receipt number", "上海明远餐饮有限公司\n收据号: 20261114-0412\n订单号: 771203\n税号 91310000MA1FL0XXXX\n合计 ¥128.00",
			"20261114-0412", []string{"91310000MA1FL0XXXX"}},
	})
}

// A number beside the title's document-class letter is compared with the
// number after the sign, not with the letter.
func TestClassLetterBeforeTheNumberSign(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	ar := "DISTRIBUIDORA DEL PLATA S.R.L.\nFACTURA B Nº 0003-00001234\nCliente 4471-22\nTotal $ 12.100,00"
	runClassCases(t, []classCase{
		{"the number after the sign", ar, n("0003-00001234"), "", ""},
		{"another number, unlabelled", ar, n("4471-22"), "invoice_number", "0003-00001234"},
	})
}

// A booking's confirmation or a card's approval in more of the ways they
// are printed: in a sentence, as a card slip's APPROVED line, under the
// labels of Turkish, Brazilian, Thai and Spanish card terminals.
func TestConfirmationsAndCardApprovals(t *testing.T) {
	checkRefDocs(t, []refDoc{
		{"hotel invoice whose e-mail gives the confirmation", "Seaview Lodge Ltd\nThank you for staying with us. " +
			"Your confirmation number is 7734219.\nTax Invoice SL-26-0412\nTotal NZD 412.30",
			"SL-26-0412", []string{"7734219"}},
		{"us card slip under a check", "BLUE DOOR DINER\nCheck #2041   Server: Ann\nTotal 48.60\nVISA  APPROVED 083112\n" +
			"AUTH ID: 083112\nRETRIEVAL REF 631812345678",
			"2041", []string{"083112", "631812345678"}},
		{"turkish card slip", "KAHVE DURAĞI\nFİŞ NO: 0412\nTOPLAM 145,00 TL\nONAY KODU: 771203\nPROVİZYON NO 552019",
			"0412", []string{"771203", "552019"}},
		{"brazilian card slip", "PADARIA BOM DIA LTDA\nCupom nº 4471\nTotal R$ 38,90\nCARTÃO DÉBITO\nNSU 000912 AUT 0A12B4",
			"4471", []string{"000912", "0A12B4"}},
		{"thai card slip", "ร้านกาแฟ บ้านสวน\nใบเสร็จรับเงิน เลขที่ R6911-0042\nรวม 120.00 บาท\nรหัสอนุมัติ 083112",
			"R6911-0042", []string{"083112"}},
		{"chilean card slip", "CAFÉ LOS ANDES\nBoleta Electrónica N° 88213\nTotal $ 4.500\nCód. Autorización: 771203\nNº Operación 552019",
			"88213", []string{"771203"}},
	})
}

// A sentence that names a booking's confirmation number names it as a label
// would, with no number of the document's own to compare it with.
func TestConfirmationNumberInASentence(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"confirmation in a sentence", "Seaview Lodge Ltd\nYour confirmation number is 7734219.\nTotal NZD 412.30",
			n("7734219"), "invoice_number", "confirmation number"},
		{"booking number in a German sentence", "Pension Seeblick\nIhre Buchungsnummer ist 88213.\nGesamt 240,00 EUR",
			n("88213"), "invoice_number", "Buchungsnummer"},
	})
}

// Card slips in more countries print the approval and the retrieval
// reference under their own abbreviations.
func TestCardSlipAbbreviations(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	fr := "BOULANGERIE DU PORT\nCARTE BANCAIRE SANS CONTACT\nNo AUTO : 083112\nMONTANT 12,40 EUR"
	it := "BAR CENTRALE\nPAGAMENTO POS\nCOD.AUTORIZZ. 771203\nIMPORTO EUR 6,50"
	dk := "Café Nørrebro\nDankort\nAut.kode 552019\nBeløb DKK 84,00"
	cn := "北京味道餐厅\n银联签购单\n检索参考号: 631812345678\n金额 RMB 128.00"
	runClassCases(t, []classCase{
		{"french No AUTO", fr, n("083112"), "invoice_number", "No AUTO"},
		{"italian COD.AUTORIZZ.", it, n("771203"), "invoice_number", "AUTORIZZ"},
		{"danish Aut.kode", dk, n("552019"), "invoice_number", "Aut.kode"},
		{"chinese retrieval reference", cn, n("631812345678"), "invoice_number", "检索参考号"},
	})
}

// A title tied to another thing ("Invoice for order #4471") names that
// thing's number, not the document's.
func TestTitleForAnotherThingNamesNoNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	en := "Brightline Supplies Ltd\nInvoice for order #4471\nInvoice No: BL-2026-0412\nTotal £120.00"
	de := "Schreinerei Vogt\nRechnung zu Auftrag Nr. 55190\nRechnungsnummer 2026-118\nGesamtbetrag 1.190,00 EUR"
	runClassCases(t, []classCase{
		{"own number beside an order title", en, n("BL-2026-0412"), "", ""},
		{"the order's number", en, n("4471"), "invoice_number", "BL-2026-0412"},
		{"own number beside an Auftrag title", de, n("2026-118"), "", ""},
	})
}

// Titles that number the document in Central and Eastern European
// languages: a number printed under a label the gate does not know is
// compared with the title's.
func TestMoreTitlesNameTheOwnNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	bg := "Балкан Трейд ЕООД\nЕИК 123456789\nФАКТУРА № 0000004471\nПоръчка 77120\nОбщо 1 200,00 лв."
	lt := "UAB Vilniaus prekyba\nPVM sąskaita faktūra Nr. VP-0412\nUžsakymas 55190\nIš viso 121,00 EUR"
	hr := "Obrt Marić\nOIB 12345678901\nRačun br. 412-1-1\nNarudžba 88213\nUkupno 62,50 EUR"
	runClassCases(t, []classCase{
		{"bulgarian фактура right", bg, n("0000004471"), "", ""},
		{"bulgarian order number", bg, n("77120"), "invoice_number", "0000004471"},
		{"lithuanian sąskaita right", lt, n("VP-0412"), "", ""},
		{"lithuanian order number", lt, n("55190"), "invoice_number", "VP-0412"},
		{"croatian račun right", hr, n("412-1-1"), "", ""},
		{"croatian order number", hr, n("88213"), "invoice_number", "412-1-1"},
	})
}

// A restaurant's bill is called by a word that also means a bank account
// (Conta, Cuenta, Conto, Účet, Hesap): the number after it is the bill's,
// and a true record passes.
func TestBillWordsThatAlsoMeanAnAccount(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"portuguese conta", "Tasca do Chico\nConta nº 412\nMesa 7\nTotal 38,50 €", n("412"), "", ""},
		{"spanish cuenta", "Bar El Faro\nCuenta Nº 88213\nMesa 4\nTotal 22,00 €", n("88213"), "", ""},
		{"italian conto", "Osteria Bella\nConto n. 1207\nTavolo 5\nTotale € 64,00", n("1207"), "", ""},
		{"czech účet", "Hospoda U Lípy\nÚčet č. 4471\nStůl 3\nCelkem 412 Kč", n("4471"), "", ""},
		{"turkish hesap", "Kebapçı Ali\nHesap No: 5521\nMasa 9\nToplam 640,00 TL", n("5521"), "", ""},
		{"a bank account still flagged", "Tasca do Chico\nConta nº 412\nConta bancária: 0035 0123 0001 2345 6789 1\nTotal 38,50 €",
			n("0035 0123 0001 2345 6789 1"), "invoice_number", "Conta bancária"},
	})
}
