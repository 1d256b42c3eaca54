package pipeline

import "testing"

// A contract's number is never the invoice number, however the contract is
// worded: "Contract No.", a compound (Mietvertrag, Wartungsvertrag), a
// qualified contract ("Договор поставки №", "contrato de arrendamiento nº"),
// or the contract named in a phrase ("as per contract", "gemäß Vertrag").
// Each document labels its own number too, and that number passes.
func TestContractNumberIsNotTheInvoiceNumber(t *testing.T) {
	en := "NORTHGATE FACILITIES LTD\nINVOICE NF-26-0311\nService Contract No. SC-2291-B\nCleaning, November 2026\nTotal  GBP 1,440.00"
	de := "Hausverwaltung Berger GmbH\nRECHNUNG 2026-1187\nMietvertrag Nr. MV-0442/19\nMiete Dezember 2026\nGesamtbetrag  1.850,00 EUR"
	es := "SERVICIOS TÉCNICOS DEL SUR S.L.\nFACTURA A-2026/0912\nContrato de mantenimiento nº 2026/0331\nTotal factura  968,00 €"
	ru := "ООО «Вектор»\nСЧЁТ 418 от 20.11.2026\nДоговор поставки № 17/26 от 01.03.2026\nИтого к оплате  84 000,00 руб."
	vi := "CÔNG TY TNHH AN PHÁT\nHÓA ĐƠN GIÁ TRỊ GIA TĂNG\nHợp đồng số: 45/2026/HĐ-AP\nTổng cộng: 16.200.000 VND"
	tr := "ÖZKAN TEKNİK HİZMETLER A.Ş.\nFATURA\nBakım Sözleşmesi No: SZ-2026-77\nGENEL TOPLAM  12.600,00 TL"
	trs := "ÖZKAN TEKNİK HİZMETLER A.Ş.\nFATURA\nSözleşme No: SZ-2026-78\nGENEL TOPLAM  12.600,00 TL"
	pt := "LIMPEZAS ATLÂNTICO LDA\nFATURA 2026/318\nconforme contrato n.º CT-118/2025\nTotal  615,00 €"
	fr := "SOCIÉTÉ D'ENTRETIEN DU LITTORAL\nFACTURE F26-00871\nContrat de maintenance n° CM-2024-091\nTotal TTC  1 140,00 €"
	pl := "SERWIS-TECH Sp. z o.o.\nFAKTURA VAT FV/112/11/2026\nUmowa serwisowa nr 14/S/2025\nRazem do zapłaty  2 460,00 zł"
	deLabelled := "Hausverwaltung Berger GmbH\nRechnung Nr. 2026-1188\nVertragsnummer: 4711-22\nGesamtbetrag  1.850,00 EUR"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"EN service contract", en, id("SC-2291-B"), "invoice_number", "Contract"},
		{"EN invoice title right", en, id("NF-26-0311"), "", ""},
		{"DE Mietvertrag", de, id("MV-0442/19"), "invoice_number", "Mietvertrag"},
		{"DE Rechnung title right", de, id("2026-1187"), "", ""},
		{"ES contrato de mantenimiento", es, id("2026/0331"), "invoice_number", "Contrato"},
		{"ES factura title right", es, id("A-2026/0912"), "", ""},
		{"RU договор поставки", ru, id("17/26"), "invoice_number", "Договор"},
		{"RU счёт title right", ru, id("418"), "", ""},
		{"VI hợp đồng số", vi, id("45/2026/HĐ-AP"), "invoice_number", "Hợp đồng"},
		{"TR bakım sözleşmesi", tr, id("SZ-2026-77"), "invoice_number", "Sözleşme"},
		{"TR sözleşme no", trs, id("SZ-2026-78"), "invoice_number", "Sözleşme"},
		{"PT conforme contrato", pt, id("CT-118/2025"), "invoice_number", "contrato"},
		{"PT fatura title right", pt, id("2026/318"), "", ""},
		{"FR contrat de maintenance", fr, id("CM-2024-091"), "invoice_number", "Contrat"},
		{"FR facture title right", fr, id("F26-00871"), "", ""},
		{"PL umowa serwisowa", pl, id("14/S/2025"), "invoice_number", "Umowa"},
		{"PL faktura title right", pl, id("FV/112/11/2026"), "", ""},
		{"DE Vertragsnummer beside a labelled number", deLabelled, id("4711-22"), "invoice_number", "Vertragsnummer"},
		{"DE Rechnung Nr. right", deLabelled, id("2026-1188"), "", ""},
	})
}

// Order, quotation, work-order, customer, device, lottery, permit, plate and
// payment-code numbers are not the document's number either, in whichever
// language the document labels them.
func TestOtherDocumentsNumbersAreNotTheInvoiceNumber(t *testing.T) {
	repair := "KLIMA SERVIS d.o.o.\nRAČUN 2026-00412\nRadni nalog br. RN-8831\nSerijski broj: 4C2209X7\nUkupno  1.240,00 EUR"
	ws := "Werkstatt Lindner KG\nRECHNUNG 26-1408\nAuftrags-Nr.: WA-55120\nAmtl. Kennzeichen: M-LK 4471\nGesamt  612,40 EUR"
	gr := "ΑΦΟΙ ΝΙΚΟΛΑΟΥ Ο.Ε.\nΑπόδειξη Λιανικής Α-1184\nΚωδικός λαχειοφόρου: 7741-2290-18\nΣύνολο  18,60 €"
	tw := "全家便利商店\n電子發票證明聯\nAB-12345678\n隨機碼 4471\n總計 128"
	export := "GOLDEN HARVEST EXPORTS PVT LTD\nCOMMERCIAL INVOICE GHE/EX/2026/118\nExport Permit No.: EP-2026-004471\nL/C No.: LC0091827361\nTOTAL USD 48,200.00"
	fine := "CITY OF ATLANTIS PARKING ENFORCEMENT\nPenalty Notice No. PN-2026-00917\nVehicle registration: KX26 WMB\nPayment code: 8841 2093 1177\nAmount due  EUR 60.00"
	presupuesto := "TOLDOS DEL MAR S.L.\nPRESUPUESTO (no es una factura)\nPresupuesto: P-2026-311\nTotal  2.310,00 €"
	quote := "BRIGHT SPARK ELECTRICAL\nTAX INVOICE INV-7781\nAs per Quotation QT-2026-118\nCustomer Ref: BS-CUST-0091\nTotal  AUD 2,310.00"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"HR radni nalog", repair, id("RN-8831"), "invoice_number", "nalog"},
		{"HR serijski broj", repair, id("4C2209X7"), "invoice_number", "Serijski"},
		{"HR račun right", repair, id("2026-00412"), "", ""},
		{"DE Auftrags-Nr.", ws, id("WA-55120"), "invoice_number", "Auftrags"},
		{"DE Kennzeichen", ws, id("M-LK 4471"), "invoice_number", "Kennzeichen"},
		{"GR lottery code", gr, id("7741-2290-18"), "invoice_number", "λαχειοφόρου"},
		{"GR receipt right", gr, id("Α-1184"), "", ""},
		{"TW random code", tw, id("4471"), "invoice_number", "隨機碼"},
		{"export permit", export, id("EP-2026-004471"), "invoice_number", "Export Permit"},
		{"L/C", export, id("LC0091827361"), "invoice_number", "L/C"},
		{"commercial invoice right", export, id("GHE/EX/2026/118"), "", ""},
		{"vehicle registration", fine, id("KX26 WMB"), "invoice_number", "Vehicle registration"},
		{"payment code", fine, id("8841 2093 1177"), "invoice_number", "Payment code"},
		{"quotation", quote, id("QT-2026-118"), "invoice_number", "Quotation"},
		{"customer ref", quote, id("BS-CUST-0091"), "invoice_number", "Customer Ref"},
		{"tax invoice right", quote, id("INV-7781"), "", ""},
		{"a quotation's own number at its line's start", presupuesto, id("P-2026-311"), "", ""},
	})
}

// A utility bill that prints no bill number of its own: the model may give
// the account, customer, meter, supply point or contract reference as the
// invoice number, and each is flagged by its label, in any language.
func TestUtilityReferenceIsNotTheInvoiceNumber(t *testing.T) {
	uk := "RIVERSIDE WATER plc\nYour water bill\nAccount reference: 7720 4419 0318\nBilling period 01/09/2026 - 30/11/2026\nAmount due  £ 142.18"
	id_ := "PT PLN (PERSERO)\nID Pelanggan: 532110447821\nPeriode: November 2026\nTotal Tagihan  Rp 412.500"
	ru := "АО «Мосэнергосбыт»\nЛицевой счёт: 71044-213-09\nПериод: ноябрь 2026\nИтого к оплате  2 418,60 руб."
	br := "COMPANHIA ENERGÉTICA DO SUL\nUnidade consumidora: 30091827\nReferência: NOV/2026\nTotal a pagar  R$ 318,44"
	in := "MAHARASHTRA STATE ELECTRICITY\nConsumer No.: 170019283746\nBill Month: NOV-2026\nNet Payable  Rs. 1,870.00"
	tr := "ENERJİSA BAŞKENT\nTesisat No: 4001928374\nAbone No: 1009283\nÖdenecek Tutar  1.248,30 TL"
	vn := "TỔNG CÔNG TY ĐIỆN LỰC\nMã khách hàng: PE01000123456\nKỳ: 11/2026\nTổng tiền thanh toán: 612.400 VND"
	ua := "ТОВ «Київводоканал»\nОсобовий рахунок № 10293847\nДо сплати  486,20 грн"
	es := "ELÉCTRICA DEL NORTE\nNº de contrato de suministro: 0012-9981-77\nTotal a pagar  88,41 €"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"UK account reference", uk, id("7720 4419 0318"), "invoice_number", "Account reference"},
		{"ID pelanggan", id_, id("532110447821"), "invoice_number", "Pelanggan"},
		{"RU лицевой счёт", ru, id("71044-213-09"), "invoice_number", "Лицевой"},
		{"BR unidade consumidora", br, id("30091827"), "invoice_number", "Unidade consumidora"},
		{"IN consumer no", in, id("170019283746"), "invoice_number", "Consumer No"},
		{"TR tesisat no", tr, id("4001928374"), "invoice_number", "Tesisat"},
		{"TR abone no", tr, id("1009283"), "invoice_number", "Abone"},
		{"VN mã khách hàng", vn, id("PE01000123456"), "invoice_number", "khách hàng"},
		{"UA особовий рахунок", ua, id("10293847"), "invoice_number", "Особовий"},
		{"ES contrato de suministro", es, id("0012-9981-77"), "invoice_number", "contrato"},
		{"UK no number, null", uk, map[string]any{"invoice_number": nil}, "", ""},
	})
}

// Another invoice's number (an earlier unpaid one, an advance invoice a final
// invoice deducts, the invoice a credit note credits) is flagged when the
// document gives its own number only in its title, with no "No." label.
func TestOtherInvoiceBesideATitledNumber(t *testing.T) {
	en := "HARBOUR BUILDERS PTY LTD\nTAX INVOICE 2026-0042\nStage 3 works  18,000.00\nLess advance invoice 2026-0031  -5,000.00\nTotal due  AUD 13,000.00"
	es := "CONSTRUCCIONES LEVANTE S.L.\nFACTURA 0042\nCertificación nº 3  12.000,00\nMenos factura de anticipo 0031  -3.000,00\nTotal  9.000,00 €"
	de := "Bauunternehmung Roth GmbH\nSCHLUSSRECHNUNG 2026-118\nLeistungen gesamt  40.000,00\nabzgl. Anzahlungsrechnung 2026-097  -10.000,00\nZahlbetrag  30.000,00 EUR"
	fr := "MENUISERIE DUPUIS SARL\nAVOIR AV-2026-014\nAvoir sur facture F-2026-0388\nTotal TTC  -240,00 €"
	pl := "INSTALBUD Sp. z o.o.\nFAKTURA KORYGUJĄCA FK/07/2026\nKorekta do faktury FV/311/2026\nRazem  -615,00 zł"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"EN advance invoice", en, id("2026-0031"), "invoice_number", "advance invoice"},
		{"EN title right", en, id("2026-0042"), "", ""},
		{"ES factura de anticipo", es, id("0031"), "invoice_number", "anticipo"},
		{"ES title right", es, id("0042"), "", ""},
		{"DE Anzahlungsrechnung", de, id("2026-097"), "invoice_number", "Anzahlungsrechnung"},
		{"DE title right", de, id("2026-118"), "", ""},
		{"FR avoir sur facture", fr, id("F-2026-0388"), "invoice_number", "facture"},
		{"FR title right", fr, id("AV-2026-014"), "", ""},
		{"PL korekta do faktury", pl, id("FV/311/2026"), "invoice_number", "faktury"},
		{"PL title right", pl, id("FK/07/2026"), "", ""},
	})
}
