package pipeline

import "testing"

// Another reference is not the invoice number. A document prints many
// numbers beside its own: the order or purchase order it fulfils, the
// pro-forma it follows, the delivery note, the registration or upload
// index a tax authority's e-invoice system gave it, the fiscal device's
// or till's own counters, the payment reference a bank reads (UPI, KID,
// OCR, viite), a clinic's patient file, prescription, admission or
// affiliation number, a phone number, the seller's tax ID. When the
// document prints its own number under its own label, any other value is
// flagged, with a reason naming what the value is; a value shaped like a
// phone number after a phone word, a tax ID after a tax-ID word, or an
// IBAN or account is never the invoice number, own label or not. The
// documents are our own, from many countries.
func TestAnotherReferenceIsNotTheInvoiceNumber(t *testing.T) {
	docs := []ownNumberDoc{
		{"Indian hospital OPD bill", "Sunrise Multispeciality Hospital\nTel: 080 4123 5566\nOPD BILL\nBill No: OPD/26/11873        Date: 20/11/2026\n" +
			"Patient: R. Kumar   UHID: SMH00452211\nAdmission No: IP-2026-3321\nConsultation   600.00\nTotal   ₹ 600.00",
			[]string{"OPD/26/11873"}, [][2]string{{"SMH00452211", "UHID"}, {"IP-2026-3321", "Admission"}, {"080 4123 5566", "Tel"}}},
		{"French pharmacy", "Pharmacie du Marché\n12 rue de la Paix, 75002 Paris\nTél. 01 45 67 89 10\nN° FINESS 750012345\nFacture n° 2026-004471\n" +
			"Ordonnance n° 118552 du 18/11/2026\nTotal TTC   23,40 €",
			[]string{"2026-004471"}, [][2]string{{"118552", "Ordonnance"}, {"750012345", "FINESS"}, {"01 45 67 89 10", "Tél"}}},
		{"Norwegian KID", "Fjord Rør AS\nOrg.nr 987 654 321 MVA\nFAKTURA\nFakturanr: 20261118\nFakturadato: 20.11.2026\nKID: 2026111800047\n" +
			"Kontonr: 1503.12.34567\nÅ betale   kr 12 500,00",
			[]string{"20261118"}, [][2]string{{"2026111800047", "KID"}, {"1503.12.34567", "Kontonr"}}},
		{"Indian UPI receipt", "Chai Point\nGSTIN: 29AAACC1234F1Z5\nBill No: 4471\nDate: 20-11-2026\nPaid via UPI\nUPI Ref No: 432112345678\nTotal   ₹ 240.00",
			[]string{"4471"}, [][2]string{{"432112345678", "Ref"}, {"29AAACC1234F1Z5", "GSTIN"}}},
		{"Hungarian upload index", "Duna Szerviz Kft.\nAdószám: 12345678-2-42\nSzámla sorszáma: DSZ-2026/0118\nNAV feltöltési azonosító: 4KJ8L2P0XY0001\n" +
			"Kelt: 2026.11.20\nFizetendő: 127 000 Ft",
			[]string{"DSZ-2026/0118"}, [][2]string{{"4KJ8L2P0XY0001", "feltöltési"}, {"12345678-2-42", "Adószám"}}},
		{"Greek MARK", "ΚΑΦΕ ΑΘΗΝΑ Ι.Κ.Ε.\nΑΦΜ: 801234567\nΑΠΟΔΕΙΞΗ ΛΙΑΝΙΚΗΣ ΠΩΛΗΣΗΣ\nΑρ. Παραστατικού: ΑΛΠ-4471\nΜΑΡΚ: 400001234567890\nΣύνολο   12,40 €",
			[]string{"ΑΛΠ-4471"}, [][2]string{{"400001234567890", "ΜΑΡΚ"}, {"801234567", "ΑΦΜ"}}},
		{"Polish KSeF", "Budmat Sp. z o.o.\nNIP: 526-104-08-28\nFaktura VAT nr FV/118/11/2026\nNumer KSeF: 5261040828-20261120-0A1B2C3D4E-7F\n" +
			"Data wystawienia: 20.11.2026\nRazem do zapłaty: 1 230,00 zł",
			[]string{"FV/118/11/2026"}, [][2]string{{"5261040828-20261120-0A1B2C3D4E-7F", "KSeF"}, {"526-104-08-28", "NIP"}}},
		{"Italian SdI", "Ferramenta Rossi S.r.l.\nP.IVA IT01234567890\nFattura n. 118/2026 del 20/11/2026\nIdentificativo SdI: 9876543210\nTotale   € 244,00",
			[]string{"118/2026"}, [][2]string{{"9876543210", "SdI"}, {"IT01234567890", "P.IVA"}}},
		{"Serbian SEF", "Beograd Trade d.o.o.\nPIB: 101234567\nRačun br. 118/2026\nSEF ID: 12345678\nDatum: 20.11.2026\nUkupno: 12.000,00 RSD",
			[]string{"118/2026"}, [][2]string{{"12345678", "SEF"}, {"101234567", "PIB"}}},
		{"Taiwanese seller number", "美好咖啡股份有限公司\n電子發票證明聯\n發票號碼: AB-87654321\n賣方統編: 24681357\n總計: 180",
			[]string{"AB-87654321"}, [][2]string{{"24681357", "賣方"}}},
		{"Malaysian restaurant bill", "RESTORAN SELERA KAMPUNG\nTel: 03-7781 2234\nTable: 12   Pax: 4\nBill No: B0004471\nCashier: Amy\nDate: 20/11/2026 19:42\nTotal   RM 86.40",
			[]string{"B0004471"}, [][2]string{{"03-7781 2234", "Tel"}}},
		{"commercial invoice after a pro-forma", "Atlas Export Ltd\nCOMMERCIAL INVOICE\nInvoice No.: AE/26/0912\nProforma Ref.: PI-26-0455\nP.O. No.: 4500123456\n" +
			"Date: 20/11/2026\nTotal   USD 12,400.00",
			[]string{"AE/26/0912"}, [][2]string{{"PI-26-0455", "Ref"}, {"4500123456", "P.O."}}},
		{"UK builders' merchant", "Pennine Builders Merchants\nInvoice 118552\nDelivery Note: DN 44712\nAccount: PEN0042\nDate: 20/11/2026\nTotal   £540.00",
			[]string{"118552"}, [][2]string{{"DN 44712", "Delivery Note"}, {"PEN0042", "Account"}}},
		{"South African grill", "The Grill House\nVAT No: 4123456789\nTel: 021 555 0182\nInv# 0118   Table 4\nTotal   R 420.00",
			[]string{"0118"}, [][2]string{{"4123456789", "VAT No"}, {"021 555 0182", "Tel"}}},
		{"Emirati TRN", "Al Noor Trading LLC\nTRN: 100234567800003\nTax Invoice\nInvoice No: ANT-4471\nDate: 20/11/2026\nTotal   AED 1,050.00",
			[]string{"ANT-4471"}, [][2]string{{"100234567800003", "TRN"}}},
		{"German customer number", "Müller Elektro GmbH\nUSt-IdNr.: DE123456789\nTel. +49 30 1234567\nRechnung Nr. 2026-118\nKundennr.: 40471\nGesamt   119,00 €",
			[]string{"2026-118"}, [][2]string{{"DE123456789", "USt-IdNr"}, {"+49 30 1234567", "Tel"}, {"40471", "Kundennr"}}},
		{"Spanish dental clinic", "Clínica Dental Sonrisa S.L.\nCIF: B12345678\nTel.: 912 345 678\nFactura nº: 2026/0118\nNº Historia clínica: HC-5521\n" +
			"Paciente: Ana López\nTotal   120,00 €",
			[]string{"2026/0118"}, [][2]string{{"HC-5521", "Historia"}, {"B12345678", "CIF"}, {"912 345 678", "Tel"}}},
		{"Mexican clinic affiliation", "Clínica San Rafael S.A. de C.V.\nRFC CSR010101AB1\nFolio: A-118\nPaciente: José Ruiz\nNo. de afiliación: 12345678901\n" +
			"Receta No. RX-5512\nTotal $ 850.00",
			[]string{"A-118"}, [][2]string{{"12345678901", "Folio"}, {"RX-5512", "Folio"}}},
		{"Japanese izakaya", "居酒屋 はなまる\nTEL 03-1234-5678\n登録番号 T1234567890123\n領収書\nNo. 004471\n2026年11月20日\n合計 ¥4,800",
			[]string{"004471"}, [][2]string{{"T1234567890123", "登録番号"}, {"03-1234-5678", "TEL"}}},
		{"Brazilian NFC-e protocol", "Mercado Bom Preço Ltda\nCNPJ 12.345.678/0001-90\nNFC-e nº 000004471 Série 001\nProtocolo de autorização: 135260001234567\n" +
			"Total   R$ 150,00",
			[]string{"000004471"}, [][2]string{{"135260001234567", "Protocolo"}}},
		{"Indian e-invoice acknowledgement", "Shakti Steels Pvt Ltd\nGSTIN: 27AABCS1234L1Z2\nTAX INVOICE\nAck No: 112610012345678   Ack Date: 20-11-2026\n" +
			"Invoice No: SS/26-27/0118     Date: 20-11-2026\nTotal   ₹ 1,18,000.00",
			[]string{"SS/26-27/0118"}, [][2]string{{"112610012345678", "Ack"}, {"27AABCS1234L1Z2", "GSTIN"}}},
		{"Chilean boleta", "Almacén Don Pedro\nR.U.T.: 76.123.456-7\nBOLETA ELECTRÓNICA N° 4471\nFecha: 20/11/2026\nTotal   $ 5.990",
			[]string{"4471"}, [][2]string{{"76.123.456-7", "R.U.T."}}},
		{"Finnish reference number", "Oy Pohjolan Puu Ab\nY-tunnus: 1234567-8\nLASKU\nLaskun numero: 2026118\nViitenumero: 20261180\nTilinumero: FI21 1234 5600 0007 85\n" +
			"Yhteensä   1 240,00 €",
			[]string{"2026118"}, [][2]string{{"20261180", "Viitenumero"}, {"FI21 1234 5600 0007 85", "Tilinumero"}, {"1234567-8", "Y-tunnus"}}},
		{"Swedish OCR", "Byggvaror i Umeå AB\nOrg.nr 556123-4567\nFakturanummer: 4471\nOCR: 447100012\nBankgiro: 123-4567\nAtt betala   1 250,00 kr",
			[]string{"4471"}, [][2]string{{"447100012", "OCR"}, {"556123-4567", "Org.nr"}}},
		{"Australian ABN", "Harbourside Plumbing Pty Ltd\nABN 12 345 678 901\nTax Invoice 4471\nPh (02) 9555 0182\nTotal incl. GST   $440.00",
			[]string{"4471"}, [][2]string{{"12 345 678 901", "ABN"}, {"(02) 9555 0182", "Ph"}}},
		{"Canadian veterinary clinic", "Maple Animal Hospital\n(604) 555-0182\nGST/HST # 123456789RT0001\nInvoice #: 55120\nClient #: 1182\nPatient ID: 33219\n" +
			"Total   CAD 212.50",
			[]string{"55120"}, [][2]string{{"33219", "Patient"}, {"1182", "Client"}, {"123456789RT0001", "GST/HST"}}},
		{"Thai POS receipt", "ร้านกาแฟดอย\nเลขประจำตัวผู้เสียภาษี 0105551234567\nPOS ID: E051234567890\nใบเสร็จรับเงิน เลขที่ R0118\nรวม 120.00 บาท",
			[]string{"R0118"}, [][2]string{{"E051234567890", "POS ID"}, {"0105551234567", "เลขประจำตัวผู้เสียภาษี"}}},
		{"card slip beside the receipt", "Café Lumière\nReçu n° 4471\nCB Visa ****1234\nN° transaction: 632012345678\nAutorisation: 123456\nTotal   12,40 €",
			[]string{"4471"}, [][2]string{{"632012345678", "transaction"}}},
		{"Turkish ETTN", "Anadolu Gıda A.Ş.\nVKN: 1234567890\nFatura No: GIB2026000000118\nETTN: 1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d\nToplam   1.180,00 TL",
			[]string{"GIB2026000000118"}, [][2]string{{"1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "ETTN"}, {"1234567890", "VKN"}}},
		{"Kenyan clinic", "Uzima Medical Centre\nPIN: P051234567X\nTel: 0722 123 456\nReceipt No: UMC/0118\nNHIF No: 4471882\nOP No: 2026/5521\nTotal   KES 3,500.00",
			[]string{"UMC/0118"}, [][2]string{{"4471882", "NHIF"}, {"2026/5521", "OP"}, {"0722 123 456", "Tel"}}},
		{"German restaurant order on the head line", "Kaffeehaus Klatsch\nBestellung 5521   Tisch 4\nBon-Nr. 0118\n2 Cappuccino   7,80\nSumme   7,80 €",
			[]string{"0118"}, [][2]string{{"5521", "Bestellung"}}},
		{"Dutch phone and VAT", "Bakkerij De Molen\nTel. 020-6123456\nBTW NL001234567B01\nBonnr: 4471\nTotaal   € 8,40",
			[]string{"4471"}, [][2]string{{"020-6123456", "Tel"}, {"NL001234567B01", "BTW"}}},
		// An own label's word inside another label: a pro-forma, an advance
		// or a reference invoice, an e-invoice system's index, a till's
		// transaction; a second number after the own number on its line.
		{"pro-forma invoice number beside the invoice's", "Atlas Export Ltd\nCOMMERCIAL INVOICE\nInvoice No.: AE/26/0912\nProforma Invoice No.: PI-26-0455\nDate: 20/11/2026\nTotal   USD 12,400.00",
			[]string{"AE/26/0912"}, [][2]string{{"PI-26-0455", "Proforma Invoice No."}}},
		{"Spanish pro-forma", "Suministros Ebro S.L.\nFactura Nº A-118\nFecha: 20/11/2026\nFactura proforma Nº PF-55 del 02/11/2026\nTotal   121,00 €",
			[]string{"A-118"}, [][2]string{{"PF-55", "proforma"}}},
		{"French advance invoice", "Atelier Brume SARL\nFacture n° F-2026-118\nDate : 20/11/2026\nVotre facture d'acompte n° AC-44 est déduite\nReste à payer   120,00 €",
			[]string{"F-2026-118"}, [][2]string{{"AC-44", "acompte"}}},
		{"Polish advance invoice", "Budmat Sp. z o.o.\nFaktura VAT nr FV/118/11/2026\nData wystawienia: 20.11.2026\nFaktura zaliczkowa nr FZ/12/2026\nDo zapłaty: 1 230,00 zł",
			[]string{"FV/118/11/2026"}, [][2]string{{"FZ/12/2026", "zaliczkowa"}}},
		{"Turkish pro-forma", "Anadolu Gıda A.Ş.\nFatura No: ABC2026000000118\nTarih: 20.11.2026\nProforma Fatura No: PF-4471\nToplam   1.180,00 TL",
			[]string{"ABC2026000000118"}, [][2]string{{"PF-4471", "Proforma"}}},
		{"Bulgarian upload index", "Sofia Trade EOOD\nInvoice No: INV-2026-118\nInvoice Upload Index: 77123\nDate: 20.11.2026\nTotal   120,00 BGN",
			[]string{"INV-2026-118"}, [][2]string{{"77123", "Upload Index"}}},
		{"Korean-style registration", "Hanbit Trading Co.\nInvoice No: HB-2026-118\nInvoice Registration No: 20261120-4100-0012\nTotal   KRW 550,000",
			[]string{"HB-2026-118"}, [][2]string{{"20261120-4100-0012", "Registration"}}},
		{"Japanese provisional invoice", "株式会社山田商事\n請求書番号: 2026-1120\n仮請求書番号: K-0044\n発行日: 2026年11月20日\n合計 ¥55,000",
			[]string{"2026-1120"}, [][2]string{{"K-0044", "仮請求書番号"}}},
		{"till transaction beside the receipt number", "SUPERMARKET JAYA\nReceipt No: 0118\nTill 03   Trans No: 4471\nDate: 20/11/2026\nTotal   RM 12.00",
			[]string{"0118"}, [][2]string{{"4471", "Trans No"}}},
		{"German order after the number", "Holzbau Weber GmbH\nRechnung 2026-118 zu Auftrag 77812\nDatum: 20.11.2026\nGesamt   1.428,00 €",
			[]string{"2026-118"}, [][2]string{{"77812", "Auftrag"}}},
		{"English order after the number", "Harbour Tools Ltd\nInvoice INV-118 for your order 5521\nDate: 20/11/2026\nTotal   £216.00",
			[]string{"INV-118"}, [][2]string{{"5521", "order"}}},
		{"Swedish order after the number", "Byggvaror i Umeå AB\nFaktura 4471 avser order 8812\nFakturadatum: 2026-11-20\nAtt betala   1 250,00 kr",
			[]string{"4471"}, [][2]string{{"8812", "order"}}},
		// Stay quiet: a sure label beside a looser one, a long title before
		// its number, a date between label and number.
		{"sales invoice beside a receipt", "Manila Office Supply Inc.\nSales Invoice No: SI-0118\nReceipt No: R-55\nTotal   PHP 2,400.00", []string{"SI-0118"}, nil},
		{"long title", "Tienda Bogotá S.A.S.\nFACTURA ELECTRÓNICA DE VENTA No. FE-4471\nFactura: FE-4471\nTotal $ 150.000", []string{"FE-4471"}, nil},
		{"date before the number", "Holzbau Weber GmbH\nRechnung vom 20.11.2026 Nr. 2026-118\nGesamt   1.428,00 €", []string{"2026-118"}, nil},
		{"invoice beside a till transaction", "BOOKSTORE SDN BHD\nINVOICE NO: 008558 TRANS: 009628\nDATE: 20/11/2026\nTOTAL   RM 31.45", []string{"008558"}, nil},
		{"series and number", "Suministros Ebro S.L.\nFactura Serie A Nº 000123\nFecha: 20/11/2026\nTotal   121,00 €", []string{"000123", "A-000123"}, nil},
		// A phone number under a phone word no list knows, or dialled with
		// its country code; a number under a label opening a cell of its line.
		{"Indonesian shop phone", "Toko Maju\nJl. Merdeka 12, Bandung\nTelp. 0812 555 0182\n20/11/2026 14:02\nTotal Rp 45.000",
			nil, [][2]string{{"0812 555 0182", "Telp."}, {"08125550182", "phone number"}}},
		{"Kenyan chemist on WhatsApp", "Uzima Chemist\nCall/WhatsApp 0722123456\nReceipt No: 4471\n20/11/2026\nTotal   KES 350.00",
			[]string{"4471"}, [][2]string{{"0722123456", "WhatsApp"}}},
		{"French café dialled abroad", "Café Lumière\n+33 1 45 67 89 10\n20/11/2026\nTotal   12,40 €",
			nil, [][2]string{{"+33 1 45 67 89 10", "country code"}}},
		{"Vietnamese phone", "CỬA HÀNG AN PHÁT\nĐT: 028 3822 1234\nHóa đơn số: 0000871\nTổng cộng: 160.000 VND",
			[]string{"0000871"}, [][2]string{{"028 3822 1234", "ĐT"}}},
		{"Japanese phone glued", "カフェ・ミドリ\n電話 03-1234-5678\n領収書\n2026年11月20日\n合計 ¥1,200",
			nil, [][2]string{{"03-1234-5678", "電話"}}},
		{"Italian till terminal", "BAR CENTRALE SNC\nP.IVA 01234567890\nDOCUMENTO COMMERCIALE\nCassa 02   Terminale 88123401\nDocumento n. 0118-0042\n" +
			"20-11-2026 12:02\nTotale complessivo   7,50",
			[]string{"0118-0042"}, [][2]string{{"88123401", "Terminale"}}},
		// Stay quiet: an own number shaped like a phone number under its own
		// label, a fiscal series of groups starting with zeros.
		{"own number shaped like a phone's", "Harbour Tools Ltd\nTel: 0117 496 0000\nInvoice No: 0117 496 0118\nTotal £50.00", []string{"0117 496 0118"}, nil},
		{"Paraguayan series", "Ferretería Asunción S.A.\nTel: (021) 555 018\nFactura N°: 001-001-0004471\nTotal   Gs. 150.000", []string{"001-001-0004471"}, nil},
		// Never the invoice number, even where the document prints no own
		// number: a phone number after a phone word, a tax ID after a
		// tax-ID word, an IBAN.
		{"receipt with no number", "KEDAI MAKAN AH SENG\nGST Reg No: 001234567890\nTel: 03-7781 2234\n20/11/2026 12:02\nNasi lemak   8.50\nTotal   RM 8.50",
			nil, [][2]string{{"03-7781 2234", "Tel"}, {"001234567890", "GST Reg"}}},
		{"bill with only an IBAN", "Studio Verde\nIBAN: IT60X0542811101000000123456\nParcella per consulenza\nTotale   € 500,00",
			nil, [][2]string{{"IT60X0542811101000000123456", "IBAN"}}},
		// Stay quiet: a composed number, a number printed in two forms, an
		// own number that looks like a phone number under its own label.
		{"prefix and number", "Budmat Sp. z o.o.\nNIP: 526-104-08-28\nFaktura VAT nr FV/118/11/2026\nRazem 1 230,00 zł", []string{"FV/118/11/2026"}, nil},
		{"number inside a phone number", "Harbour Tools Ltd\nInvoice No: 0118\nTel: 0117 496 0118\nTotal £50.00", []string{"0118"}, nil},
		{"number in two forms", "Loja Brasil Ltda\nNF-e Nº 000.004.471 Série 1\nNota Fiscal 4471\nTotal R$ 150,00", []string{"000.004.471", "4471"}, nil},
		{"own number shaped like a phone number", "Pronto Serviços Lda\nNIF 501234567\nFatura nº 2026-118-4471\nTotal 24,60 €", []string{"2026-118-4471"}, nil},
	}
	var cases []classCase
	for _, d := range docs {
		for _, r := range d.right {
			cases = append(cases, classCase{d.name + " right " + r, d.text, map[string]any{"invoice_number": r}, "", ""})
		}
		for _, w := range d.wrong {
			cases = append(cases, classCase{d.name + " wrong " + w[0], d.text, map[string]any{"invoice_number": w[0]}, "invoice_number", w[1]})
		}
	}
	runClassCases(t, cases)
}
