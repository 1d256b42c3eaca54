package pipeline

import "testing"

// Class "another printed date taken as the document's date": a return-by,
// delivery, pick-up, contract, order, due, service, reprint or validity
// date offered as the invoice date. The document's date is the one it
// points to as its own: under its own date label, beside its title or
// number in the head, or a receipt's transaction timestamp. A value printed
// only under another date's label, or in a sentence about another event, is
// flagged with a reason naming that label; the true record passes.
func TestTheDocumentDateIsTheOneItPointsTo(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	ukReturn := "BRIGHT HOME STORES LTD\n12 High Street, Leeds LS1 4AB\nVAT No GB 123 4567 89\n12/11/2026 14:33  Till 4  Rcpt 0098\n" +
		"Kettle  24.99\nTOTAL  £24.99\nCard  £24.99\nUnwanted items may be returned by 12/12/2026 with this receipt."
	usReturn := "GADGET HUT #412\n455 Market St, San Francisco CA 94105\n11/12/2026 3:45 PM\nHeadphones  59.99\nTax  5.17\n" +
		"TOTAL  $65.16\nReturn by: 12/12/2026"
	deContract := "Stadtwerke Nordheim GmbH\nRECHNUNG Nr. 2026-118 vom 03.11.2026\nKundennummer 44120\n" +
		"Vertragsbeginn: 01.01.2025\nStrom 11/2026  88,40\nGesamtbetrag 105,20 EUR"
	frReturn := "Loca'Ski SARL\n14 rue des Alpes, 74400 Chamonix\nFacture n° F-2026-0412\nDate : 05/11/2026\n" +
		"Date de retour : 19/11/2026\nLocation skis 7 jours  140,00\nTotal TTC 168,00 €"
	esReturn := "Alquileres Costa S.L.\nCIF B-12345678\nFactura 2026/311\nFecha: 07/11/2026\nFecha de devolución: 21/11/2026\n" +
		"Furgoneta 14 días  420,00\nTotal 508,20 €"
	itContract := "Servizi Idrici Srl\nFattura n. 118 del 04/11/2026\nContratto n. 55 stipulato il 12/03/2025\n" +
		"Consumo ottobre  44,00\nTotale 53,68 EUR"
	jpReturn := "レンタル京都株式会社\n請求書 No.4471\n2026年11月10日\n返却期限 2026年11月24日\nレンタル料 ¥12,000\n合計 ¥13,200"
	cnValid := "上海优品贸易有限公司\n发票号码 44012288\n开票日期 2026年11月10日\n保修期至 2027年11月10日\n合计 ¥1,800.00"
	ruReturn := "ООО «Прокат-Сервис»\nСчёт № 118 от 10.11.2026\nДата возврата: 24.11.2026\nАренда 14 дней 4 200,00\nИтого 4 200,00 руб."
	ptReturn := "Aluguer Lisboa Lda\nNIF 501234567\nFatura FT 2026/311\nData de emissão: 10/11/2026\nData de devolução: 24/11/2026\n" +
		"Aluguer viatura 350,00\nTotal 430,50 €"
	trReturn := "Kiralama A.Ş.\nFatura No: KRL2026000118\nFatura Tarihi: 10.11.2026\nİade Tarihi: 24.11.2026\nKira bedeli 4.200,00\nToplam 5.040,00 TL"
	nlReturn := "Fietsverhuur Amsterdam B.V.\nFactuurnummer 2026-118\nFactuurdatum 10-11-2026\nRetourneren vóór 24-11-2026\n" +
		"Huur fiets 14 dagen 140,00\nTotaal € 169,40"
	krReturn := "한빛전자\n사업자번호 123-45-67890\n거래일시 2026-11-10 14:22\n반품기한 2026-11-24\n이어폰 59,000\n합계 59,000원"
	subRenew := "Streamly Inc.\nReceipt #1234-5678\nNovember 10, 2026\nPremium plan (monthly)  $12.99\nTotal  $12.99\n" +
		"Your plan renews on December 10, 2026."
	creditRef := "Northwind Traders Ltd\nCREDIT NOTE CN-77\n20/11/2026\nRefers to invoice INV-4471 of 02/11/2026\nReturned goods  -120.00\nTotal  £-120.00"
	warranty := "TechWorld Electronics\nTax Invoice TI-9921\n12 Nov 2026\nLaptop  1,299.00\nGST  129.90\nTotal  A$1,428.90\nWarranty valid until 12 Nov 2027"
	carPickup := "Sunshine Car Rentals Pty Ltd\nTAX INVOICE 88213 · 14/11/2026\nPick-up: 10/11/2026 09:00  Sydney Airport\nReturn: 14/11/2026 17:00  Sydney Airport\n" +
		"4 days x 65.00  260.00\nTotal  $260.00"
	reprint := "CAFE MOCHA\nNo. 8, Jalan Bukit Bintang, KL\nDate: 12/11/2026  Time: 14:33\nLatte  12.00\nTotal RM 12.00\n" +
		"*** REPRINT ***\nReprinted: 30/11/2026 09:14"
	plReturn := "Wypożyczalnia Sprzętu Sp. z o.o.\nFaktura VAT nr 118/2026\nData wystawienia: 10.11.2026\nTermin zwrotu sprzętu: 24.11.2026\n" +
		"Wynajem 140,00\nRazem 172,20 zł"
	dePickup := "Autovermietung Süd GmbH\nRechnung 2026-4471\nDatum: 14.11.2026\nAbholung: 10.11.2026 in München\nRückgabe: 14.11.2026\n" +
		"Miete 4 Tage 260,00\nGesamt 309,40 EUR"
	arReturn := "شركة الخليج للتأجير\nفاتورة رقم 118\nالتاريخ: 10/11/2026\nتاريخ الإرجاع: 24/11/2026\nالإجمالي 4,830.00 ر.س"
	quoteValid := "Bluegum Landscaping\nINVOICE 2026-0311 — 14/11/2026\nAs per our quote Q-0877 of 22/10/2026\nLabour  800.00\nTotal  $880.00"
	deliveredSentence := "Green Valley Farms Ltd\nInvoice INV-2208\n14 November 2026\nGoods delivered to your store on 11 November 2026.\n" +
		"Eggs 30 trays  150.00\nTotal  £150.00"
	svPeriod := "Nordic Cloud AB\nFaktura 2026-118\nFakturadatum 2026-11-05\nAvser perioden 2026-10-01 – 2026-10-31\nAbonnemang 990,00\nAtt betala 1 237,50 kr"
	runDateCases(t, []classCase{
		{"UK receipt timestamp", ukReturn, d("2026-11-12"), "", ""},
		{"UK return-by sentence", ukReturn, d("2026-12-12"), "invoice_date", "returned by"},
		{"US receipt timestamp", usReturn, d("2026-11-12"), "", ""},
		{"US return by", usReturn, d("2026-12-12"), "invoice_date", "Return by"},
		{"DE invoice vom", deContract, d("2026-11-03"), "", ""},
		{"DE contract start", deContract, d("2025-01-01"), "invoice_date", "Vertragsbeginn"},
		{"FR date", frReturn, d("2026-11-05"), "", ""},
		{"FR date de retour", frReturn, d("2026-11-19"), "invoice_date", "Date de retour"},
		{"ES fecha", esReturn, d("2026-11-07"), "", ""},
		{"ES fecha de devolución", esReturn, d("2026-11-21"), "invoice_date", "Fecha de devolución"},
		{"IT fattura del", itContract, d("2026-11-04"), "", ""},
		{"IT contract", itContract, d("2025-03-12"), "invoice_date", "stipulato"},
		{"JP head date", jpReturn, d("2026-11-10"), "", ""},
		{"JP return deadline", jpReturn, d("2026-11-24"), "invoice_date", "返却期限"},
		{"CN issue date", cnValid, d("2026-11-10"), "", ""},
		{"CN warranty", cnValid, d("2027-11-10"), "invoice_date", "保修期至"},
		{"RU счёт от", ruReturn, d("2026-11-10"), "", ""},
		{"RU дата возврата", ruReturn, d("2026-11-24"), "invoice_date", "Дата возврата"},
		{"PT data de emissão", ptReturn, d("2026-11-10"), "", ""},
		{"PT data de devolução", ptReturn, d("2026-11-24"), "invoice_date", "Data de devolução"},
		{"TR fatura tarihi", trReturn, d("2026-11-10"), "", ""},
		{"TR iade tarihi", trReturn, d("2026-11-24"), "invoice_date", "İade Tarihi"},
		{"NL factuurdatum", nlReturn, d("2026-11-10"), "", ""},
		{"NL retourneren vóór", nlReturn, d("2026-11-24"), "invoice_date", "Retourneren vóór"},
		{"KR transaction time", krReturn, d("2026-11-10"), "", ""},
		{"KR return deadline", krReturn, d("2026-11-24"), "invoice_date", "반품기한"},
		{"subscription head date", subRenew, d("2026-11-10"), "", ""},
		{"subscription renewal", subRenew, d("2026-12-10"), "invoice_date", "renews on"},
		{"credit note head date", creditRef, d("2026-11-20"), "", ""},
		{"credit note's invoice", creditRef, d("2026-11-02"), "invoice_date", "invoice"},
		{"AU head date", warranty, d("2026-11-12"), "", ""},
		{"AU warranty", warranty, d("2027-11-12"), "invoice_date", "Warranty valid until"},
		{"AU car rental date", carPickup, d("2026-11-14"), "", ""},
		{"AU car pick-up", carPickup, d("2026-11-10"), "invoice_date", "Pick-up"},
		{"MY receipt date", reprint, d("2026-11-12"), "", ""},
		{"MY reprint time", reprint, d("2026-11-30"), "invoice_date", "Reprinted"},
		{"PL data wystawienia", plReturn, d("2026-11-10"), "", ""},
		{"PL termin zwrotu", plReturn, d("2026-11-24"), "invoice_date", "Termin zwrotu"},
		{"DE Datum", dePickup, d("2026-11-14"), "", ""},
		{"DE Abholung", dePickup, d("2026-11-10"), "invoice_date", "Abholung"},
		{"SA التاريخ", arReturn, d("2026-11-10"), "", ""},
		{"SA return date", arReturn, d("2026-11-24"), "invoice_date", "تاريخ الإرجاع"},
		{"AU invoice head", quoteValid, d("2026-11-14"), "", ""},
		{"AU quote of", quoteValid, d("2026-10-22"), "invoice_date", "quote"},
		{"UK head date", deliveredSentence, d("2026-11-14"), "", ""},
		{"UK delivered on", deliveredSentence, d("2026-11-11"), "invoice_date", "delivered"},
		{"SE fakturadatum", svPeriod, d("2026-11-05"), "", ""},
		{"SE service period", svPeriod, d("2026-10-31"), "invoice_date", "perioden"},
	})
}
