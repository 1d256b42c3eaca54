package pipeline

import "testing"

// Class "another invoice's number printed on this one taken as its number":
// a reminder's or statement's previous unpaid invoice, a final invoice's
// advance (deposit, prepayment) invoice, a credit note's or correcting
// invoice's original, in many languages; and a party's tax or company number
// under its national label. A line that names another invoice by a
// qualifier (previous, advance, original, credited …) gives that invoice's
// number, never the document's own.
func TestOtherInvoicesAndNationalIDsAreNotTheNumber(t *testing.T) {
	docs := []refDoc{
		{"uk invoice with a previous unpaid invoice", "Brightline Cleaning Ltd\nINVOICE\nInvoice No: INV-2317\nDate: 01/04/2026\n" +
			"Previous invoice INV-2291 unpaid: £180.00\nOffice cleaning April   £180.00\nTotal due £360.00",
			"INV-2317", []string{"INV-2291"}},
		{"arrears from an earlier invoice", "Harbour Lets\nInvoice number: HL-0412\nRent May 2026   £950.00\n" +
			"Arrears from invoice HL-0388   £950.00\nTotal due £1,900.00",
			"HL-0412", []string{"HL-0388"}},
		{"german rechnung with an open earlier one", "Schreinerei Roth\nRechnung Nr. 2026-118\nDatum: 03.05.2026\n" +
			"Rechnung Nr. 2026-097 vom 02.04.2026 noch offen: 420,00 EUR\nArbeitszeit 6 Std.  360,00\nGesamt 360,00 EUR",
			"2026-118", []string{"2026-097"}},
		{"final invoice less an advance invoice", "Apex Builders Pty Ltd\nTAX INVOICE\nInvoice No: FIN-2026-031\n" +
			"Kitchen fit-out, final            12,000.00\nLess advance invoice AV-2026-014   -4,000.00\nBalance due       8,000.00",
			"FIN-2026-031", []string{"AV-2026-014"}},
		{"german schlussrechnung less an anzahlungsrechnung", "Elektro Brandt GmbH\nSchlussrechnung\nRechnungsnummer: SR-2026-044\n" +
			"Installation gesamt        9.800,00\nabzgl. Anzahlungsrechnung Nr. AR-2026-019   -3.000,00\nRestbetrag 6.800,00 EUR",
			"SR-2026-044", []string{"AR-2026-019"}},
		{"spanish factura less a factura de anticipo", "Reformas Sol S.L.\nFACTURA Nº F-2026-210\nObra completa   15.000,00\n" +
			"Menos factura de anticipo A-2026-033   -5.000,00\nTotal 10.000,00 €",
			"F-2026-210", []string{"A-2026-033"}},
		{"french facture less a facture d'acompte", "Menuiserie Durand SARL\nFacture n° FA-2026-0561\n" +
			"Travaux 8 000,00\nDéduction facture d'acompte n° AC-2026-0102  -2 400,00\nNet à payer 5 600,00 €",
			"FA-2026-0561", []string{"AC-2026-0102"}},
		{"polish faktura less a faktura zaliczkowa", "Budmax Sp. z o.o.\nFaktura VAT nr FV/2026/05/117\n" +
			"Roboty budowlane 20 000,00\nRozliczenie: faktura zaliczkowa nr FZ/2026/03/009  -6 000,00\nDo zapłaty 14 000,00 zł",
			"FV/2026/05/117", []string{"FZ/2026/03/009"}},
		{"last term's invoice on a school bill", "St Anne's School\nInvoice no: SA-T3-0771\nTerm 3 fees   $2,400.00\n" +
			"Last term's invoice SA-T2-0655 outstanding   $400.00\nTotal $2,800.00",
			"SA-T3-0771", []string{"SA-T2-0655"}},
		{"german gutschrift zu rechnung", "Sanitär Weiß GmbH\nGutschrift Nr. GS-2026-008\nGutschrift zu Rechnung RE-2026-311\n" +
			"Rückgabe Armatur  -89,00\nGesamt -89,00 EUR",
			"GS-2026-008", []string{"RE-2026-311"}},
		{"french avoir sur facture", "Papeterie Lenoir\nAvoir n° AV-0932\nAvoir sur facture FC-2026-4410\nRetour 2 ramettes -11,80\nTotal -11,80 €",
			"AV-0932", []string{"FC-2026-4410"}},
		{"spanish nota de crédito ref. factura", "Distribuciones Norte S.A.\nNOTA DE CRÉDITO Nº NC-0077\n" +
			"Nota de crédito ref. factura F-2026-1188\nDevolución  -120,00\nTotal -120,00 €",
			"NC-0077", []string{"F-2026-1188"}},
		{"polish korekta do faktury", "Hurtownia Max\nFaktura korygująca nr FK/2026/004\nKorekta do faktury FV/2026/02/221\n" +
			"Zwrot towaru -50,00\nRazem -50,00 zł",
			"FK/2026/004", []string{"FV/2026/02/221"}},
		{"russian корректировка к счёт-фактуре", "ООО «Север»\nКорректировочный счёт-фактура № К-0045\n" +
			"Корректировка к счёт-фактуре № 1187 от 12.03.2026\nИНН 7701234567 КПП 770101001\nИтого -3 400,00 руб.",
			"К-0045", []string{"1187", "7701234567", "770101001"}},
		{"bulgarian фактура with ЕИК", "Търговия ЕООД\nЕИК: 204118823\nФактура № 0000001187\nДата: 10.04.2026\nОбщо 240,00 лв.",
			"0000001187", []string{"204118823"}},
		{"costa rican factura with cédula jurídica", "Servicios Tico S.A.\nCédula jurídica 3-101-654321\nFactura N° 00100001010000004412\nTotal ₡56.500",
			"00100001010000004412", []string{"3-101-654321"}},
		{"azerbaijani qaimə with VÖEN", "Bakı Ticarət MMC\nVÖEN: 1402345671\nHesab-faktura № BT-2026-088\nCəmi 350,00 AZN",
			"BT-2026-088", []string{"1402345671"}},
		{"dominican factura with RNC", "Ferretería Caribe SRL\nRNC: 1-31-45678-9\nFactura No. B0100004412\nTotal RD$ 3,540.00",
			"B0100004412", []string{"1-31-45678-9"}},
		{"greek τιμολόγιο with ΑΦΜ", "Ελληνικά Είδη Α.Ε.\nΑΦΜ: 094123456\nΤιμολόγιο αρ. ΤΠ-2026-0311\nΣύνολο 124,00 €",
			"ΤΠ-2026-0311", []string{"094123456"}},
		{"ukrainian рахунок with ЄДРПОУ", "ТОВ «Дніпро»\nЄДРПОУ 38123456\nРахунок № РФ-0412\nРазом 1 200,00 грн",
			"РФ-0412", []string{"38123456"}},
		{"serbian faktura with PIB and MB", "Trgovina d.o.o.\nPIB: 101234567  MB: 07654321\nFaktura br. 2026-0441\nUkupno 12.000,00 RSD",
			"2026-0441", []string{"101234567", "07654321"}},
		{"czech faktura with IČO and DIČ", "Stavby s.r.o.\nIČO: 27012345\nDIČ: CZ6801151234\nFaktura č. 2026-0187\nCelkem 24 200,00 Kč",
			"2026-0187", []string{"27012345", "CZ6801151234"}},
		{"portuguese fatura with NIPC", "Oficina Lusa, Lda\nNIPC: 509123456\nFatura FT 2026/118\nTotal 61,50 €",
			"FT 2026/118", []string{"509123456"}},
		{"colombian factura with NIT and a contract", "Servicios Andinos S.A.S.\nNIT: 900.123.456-7\nFactura electrónica de venta No. SETP-990001\n" +
			"Contrato No. CT-2026-55\nTotal $ 1.190.000",
			"SETP-990001", []string{"900.123.456-7", "CT-2026-55"}},
		{"repair invoice with a quote, work order and IMEI", "FixIt Phones\nInvoice # FX-5512\nQuote no: Q-8812\nWork order no: WO-7731\n" +
			"IMEI: 356938035643809\nScreen replacement  $129.00\nTotal $129.00",
			"FX-5512", []string{"Q-8812", "WO-7731", "356938035643809"}},
	}
	checkRefDocs(t, docs)
}

// Class "a contract's, work order's or device's number taken as the
// invoice number" on documents whose own number carries no label the schema
// knows (a bare "No."): the contract, agreement, work-order and serial
// labels of many languages name another thing's number directly.
func TestContractAndSerialNumbersAreNotTheNumber(t *testing.T) {
	docs := []refDoc{
		{"en agreement", "Acme Services Ltd\nAgreement: AG-2026-17\nMonthly support 100.00\nNo. 5512", "5512", []string{"AG-2026-17"}},
		{"en contract ref", "Acme Services Ltd\nContract ref: SC-2026-17\nMonthly support 100.00\nNo. 5512", "5512", []string{"SC-2026-17"}},
		{"de vertragsnummer", "Wartung Nord GmbH\nVertragsnr.: V-2026-17\nVertrags-Nr. V-2026-18\nGesamt 100,00\nNo. 5512", "5512", []string{"V-2026-17", "V-2026-18"}},
		{"pl umowa", "Serwis Sp. z o.o.\nUmowa nr U/2026/17\nNr umowy: U/2026/18\nRazem 100,00\nNo. 5512", "5512", []string{"U/2026/17", "U/2026/18"}},
		{"ru по договору", "ООО «Сервис»\nПо договору № Д-18\nИтого 100,00\nNo. 5512", "5512", []string{"Д-18"}},
		{"nl contractnummer", "Onderhoud BV\nContractnummer: CN-17\nTotaal 100,00\nNo. 5512", "5512", []string{"CN-17"}},
		{"cs smlouva", "Servis s.r.o.\nSmlouva č. S-17\nČíslo smlouvy: S-18\nCelkem 100,00\nNo. 5512", "5512", []string{"S-17", "S-18"}},
		{"tr sözleşme", "Servis A.Ş.\nSözleşme No: SZ-17\nToplam 100,00\nNo. 5512", "5512", []string{"SZ-17"}},
		{"de seriennummer", "Gerätedienst GmbH\nSeriennummer: SN-4471-19\nReparatur 100,00\nNo. 5512", "5512", []string{"SN-4471-19"}},
		{"es orden de trabajo", "Talleres Ruiz S.L.\nOrden de trabajo: OT-2026-17\nNúmero de serie: XJ-99812\nTotal 100,00\nNo. 5512", "5512", []string{"OT-2026-17", "XJ-99812"}},
	}
	checkRefDocs(t, docs)
}
