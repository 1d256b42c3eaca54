package pipeline

import "testing"

// A medical or dental bill lists the charges before the insurer's share:
// what the patient owes ("Patient responsibility", "Amount due", "Your
// balance", "Eigenanteil", "Reste à charge") is the total, the gross
// charges are not, whether the insurer's lines are printed as adjustments or
// as payments.
func TestPatientOwesTheTotal(t *testing.T) {
	const usHospital = "Lakeside General Hospital\nPATIENT STATEMENT\nStatement date: 11/14/2026\nAccount no. 88120044\n" +
		"Total charges   $4,250.00\nInsurance adjustments   -$2,100.00\nInsurance payments   -$1,500.00\n" +
		"Patient responsibility   $650.00"
	const usDental = "Brightsmile Dental Group\nStatement 11/20/2026\nCrown, porcelain   1,200.00\nTotal charges   1,200.00\n" +
		"Insurance paid   950.00\nAmount you owe   250.00"
	const usClinic = "Cedar Valley Clinic\nVisit 10/02/2026\nOffice visit   $310.00\nLab panel   $90.00\nTotal charges   $400.00\n" +
		"Plan discount   -$160.00\nPlan paid   -$180.00\nPatient balance   $60.00"
	const deZahn = "Zahnarztpraxis Dr. Lena Vogt\nRechnung Nr. 2026-1187\nRechnungsdatum 03.11.2026\nKrone vollkeramisch   980,00 €\n" +
		"Gesamtkosten   980,00 €\nAnteil Krankenkasse   -410,00 €\nEigenanteil   570,00 €"
	const frClinique = "Cabinet dentaire Leroy\nFacture n° 2026-775\nDate : 05/11/2026\nCouronne céramique   600,00 €\nTotal des honoraires   600,00 €\n" +
		"Part Sécurité sociale   -120,00 €\nPart mutuelle   -300,00 €\nReste à charge   180,00 €"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"us hospital owed", usHospital, tot(650), "", ""},
		{"us hospital charges as total", usHospital, tot(4250), "total", "650.00"},
		{"us dental owed", usDental, tot(250), "", ""},
		{"us dental charges as total", usDental, tot(1200), "total", "250.00"},
		{"us clinic owed", usClinic, tot(60), "", ""},
		{"us clinic charges as total", usClinic, tot(400), "total", "60.00"},
		{"de eigenanteil", deZahn, tot(570), "", ""},
		{"de gesamtkosten as total", deZahn, tot(980), "total", "570.00"},
		{"fr reste à charge", frClinique, tot(180), "", ""},
		{"fr honoraires as total", frClinique, tot(600), "total", "180.00"},
	})
}

// India's GST is split between the centre and the state (CGST + SGST, or
// UTGST) within a state, and is IGST across states: the tax of an
// intra-state invoice is both halves, so one half alone is flagged.
// Canada's GST + QST/PST reads the same.
func TestSplitTaxIsBothHalves(t *testing.T) {
	const in = "Sharma Electricals Pvt. Ltd.\nTax Invoice No. SE/2026/0412\nDate: 12-11-2026\nGSTIN 27AAACS1234F1Z5\n" +
		"LED panels 20 nos   Rs. 10,000.00\nTaxable value   Rs. 10,000.00\nCGST @ 9%   Rs. 900.00\nSGST @ 9%   Rs. 900.00\n" +
		"Total   Rs. 11,800.00"
	const inIGST = "Sharma Electricals Pvt. Ltd.\nTax Invoice No. SE/2026/0413\nTaxable value   Rs. 10,000.00\nCGST   Rs. 0.00\nSGST   Rs. 0.00\n" +
		"IGST @ 18%   Rs. 1,800.00\nTotal   Rs. 11,800.00"
	const inLine = "Sharma Traders\nTax Invoice 77\nTaxable value 10,000.00\nCGST 9%: 900.00   SGST 9%: 900.00\nGrand Total 11,800.00"
	const inAdd = "Sharma Traders\nTax Invoice 78\nSub Total 10,000.00\nAdd: CGST @ 9% 900.00\nAdd: SGST @ 9% 900.00\nInvoice Value 11,800.00"
	const ca = "Boulangerie St-Denis Inc.\nFacture 4471\nSous-total   100,00 $\nTPS 5 %   5,00 $\nTVQ 9,975 %   9,98 $\nTotal   114,98 $"
	rec := func(tax float64) map[string]any { return map[string]any{"tax": tax} }
	runClassCases(t, []classCase{
		{"in cgst + sgst", in, rec(1800), "", ""},
		{"in cgst alone", in, rec(900), "tax", "1800.00"},
		{"in igst", inIGST, rec(1800), "", ""},
		{"in halves on one line", inLine, rec(1800), "", ""},
		{"in one half on one line", inLine, rec(900), "tax", "1800.00"},
		{"in add lines and invoice value", inAdd, rec(1800), "", ""},
		{"in one added half", inAdd, rec(900), "tax", "1800.00"},
		{"ca tps + tvq", ca, rec(14.98), "", ""},
		{"ca tps alone", ca, rec(5), "tax", "9.98 (TVQ"},
	})
}

// Turkish e-invoices with tevkifat: the buyer withholds part of the VAT
// ("KDV Tevkifatı") and pays the rest with the price. The tax charged is
// the computed VAT ("Hesaplanan KDV"), not the withheld part, and the total
// is the amount payable ("Ödenecek Tutar").
func TestTurkishWithheldVAT(t *testing.T) {
	const tr = "MARMARA TEMİZLİK HİZMETLERİ LTD. ŞTİ.\ne-Fatura No: MTH2026000000871\nFatura Tarihi: 14.11.2026\n" +
		"Temizlik hizmeti   10.000,00 TL\nMal Hizmet Toplam Tutarı   10.000,00 TL\nHesaplanan KDV (%20)   2.000,00 TL\n" +
		"KDV Tevkifatı (9/10)   1.800,00 TL\nVergiler Dahil Toplam Tutar   12.000,00 TL\nÖdenecek Tutar   10.200,00 TL"
	rec := func(tax, total float64) map[string]any { return map[string]any{"tax": tax, "total": total} }
	runClassCases(t, []classCase{
		{"tr right", tr, rec(2000, 10200), "", ""},
		{"tr withheld part as tax", tr, rec(1800, 10200), "tax", "2000.00"},
		{"tr total before withholding", tr, rec(2000, 12000), "total", "10200.00"},
	})
}

// A final bill that quotes its estimate ("Estimate", "Original quote",
// "Kostenvoranschlag", "Devis", "Presupuesto", "見積金額"): the estimate is
// no total.
func TestEstimateIsNotTheTotal(t *testing.T) {
	const us = "Rapid Auto Repair LLC\nINVOICE 30412\nDate 11/18/2026\nOriginal estimate   $450.00\nParts   $310.00\nLabor   $210.00\n" +
		"Total due   $520.00"
	const de = "Kfz-Meisterbetrieb Huber GmbH\nRechnung Nr. 2026-338\nKostenvoranschlag   800,00 €\nErsatzteile   540,00 €\nArbeitslohn   410,00 €\nRechnungsbetrag   950,00 €"
	const fr = "Plomberie Garnier SARL\nFacture n° F-1187\nMontant du devis   1 200,00 €\nTravaux réalisés   1 350,00 €\nTotal TTC   1 350,00 €"
	const jp = "株式会社サトウ工務店\n請求書\n見積金額 ¥300,000\n工事代金 ¥330,000\nご請求金額 ¥330,000"
	const approved = "Rapid Auto Repair LLC\nINVOICE 30413\nEstimate approved 11/02/2026: $450.00\nFinal amount   $520.00"
	const quoted = "Rapid Auto Repair LLC\nINVOICE 30414\nQuoted price   $450.00\nAmount due   $520.00"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"approved estimate final", approved, tot(520), "", ""},
		{"approved estimate as total", approved, tot(450), "total", "520.00"},
		{"quoted price as total", quoted, tot(450), "total", "520.00"},
		{"us final", us, tot(520), "", ""},
		{"us estimate as total", us, tot(450), "total", "520.00"},
		{"de final", de, tot(950), "", ""},
		{"de kostenvoranschlag as total", de, tot(800), "total", "950.00"},
		{"fr final", fr, tot(1350), "", ""},
		{"fr devis as total", fr, tot(1200), "total", "1350.00"},
		{"jp final", jp, tot(330000), "", ""},
		{"jp estimate as total", jp, tot(300000), "total", "330000.00"},
	})
}

// Tax labels of Switzerland (MWST, TVA, IVA, in every language of its
// receipts) and Japan (消費税): a null tax where they print one is an
// omission.
func TestSwissAndJapaneseTaxLabels(t *testing.T) {
	docs := map[string]struct {
		text string
		rec  map[string]any
	}{
		"ch de": {"Bäckerei Zurbrügg AG\nQuittung 55120\n12.11.2026\nZopf   CHF 8.50\nTotal CHF 8.50\nMWST 2.6% CHF 0.22",
			map[string]any{"total": 8.5, "tax": 0.22, "currency": "CHF"}},
		"ch fr": {"Boulangerie du Lac SA\nQuittance 4471\n12.11.2026\nTotal CHF 24.30\nTVA 8.1%   CHF 1.82",
			map[string]any{"total": 24.3, "tax": 1.82, "currency": "CHF"}},
		"ch it": {"Panetteria Bernasconi SA\nScontrino 881\n12.11.2026\nTotale CHF 16.20\nIVA 8.1% incl.   CHF 1.21",
			map[string]any{"total": 16.2, "tax": 1.21, "currency": "CHF"}},
		"ch mwst incl": {"Gasthaus Rössli GmbH\nRechnung 2026-441\n12.11.2026\nTotal CHF 86.00\ninkl. 8.1% MWST CHF 6.45",
			map[string]any{"total": 86.0, "tax": 6.45, "currency": "CHF"}},
		"jp": {"株式会社みどり書房\n領収書\n2026年11月12日\n書籍 ¥2,000\n消費税 ¥200\n合計 ¥2,200",
			map[string]any{"total": 2200.0, "tax": 200.0, "currency": "JPY"}},
		"jp 10%": {"喫茶ひまわり\n領収書\n2026年11月12日\n小計 ¥1,000\n消費税(10%) ¥100\n合計 ¥1,100",
			map[string]any{"total": 1100.0, "tax": 100.0, "currency": "JPY"}},
	}
	var cases []classCase
	for name, d := range docs {
		cases = append(cases,
			classCase{name + " right", d.text, d.rec, "", ""},
			classCase{name + " tax null", d.text, with(d.rec, "tax", nil), "tax", ""})
	}
	runClassCases(t, cases)
}

// A document that converts its amount into another currency for
// information ("≈ USD 123.40", "Amount in EUR", "Gegenwert", "soit") is
// payable in its own: the converted figure and currency are not the total
// and currency.
func TestConvertedAmountIsNotTheTotal(t *testing.T) {
	const uk = "Thornbury Books Ltd\nInvoice 2026-118\nDate 12/11/2026\nBooks   £98.00\nTotal   £98.00\n≈ USD 123.40 at today's rate"
	const ch = "Alpenblick Reisen AG\nRechnung 2026-0412\nDatum 12.11.2026\nReise Zermatt   CHF 1'240.00\nTotal CHF 1'240.00\nGegenwert in EUR: 1'318.00"
	const pl = "Drukarnia Wisła Sp. z o.o.\nFaktura VAT 2026/11/087\nData 12.11.2026\nRazem do zapłaty   2 460,00 PLN\nAmount in EUR: 566,30"
	// The converted figure in brackets beside each labelled one.
	const bracketed = "Thornbury Books Ltd\nInvoice 2026-119\nSubtotal   EUR 100.00 (USD 108.20)\nVAT 20%   EUR 20.00\nTotal   EUR 120.00 (USD 129.84)"
	rec := func(total float64, cur string) map[string]any { return map[string]any{"total": total, "currency": cur} }
	runClassCases(t, []classCase{
		{"bracketed right", bracketed, map[string]any{"subtotal": 100.0, "tax": 20.0, "total": 120.0, "currency": "EUR"}, "", ""},
		{"bracketed converted subtotal", bracketed, map[string]any{"subtotal": 108.2, "total": 120.0}, "subtotal", "100.00"},
		{"bracketed converted total", bracketed, map[string]any{"subtotal": 100.0, "total": 129.84}, "total", "120.00"},
		{"uk right", uk, rec(98, "GBP"), "", ""},
		{"uk converted as total", uk, rec(123.4, "USD"), "total", "98.00"},
		{"uk converted currency", uk, rec(98, "USD"), "currency", ""},
		{"ch right", ch, rec(1240, "CHF"), "", ""},
		{"ch gegenwert as total", ch, rec(1318, "EUR"), "total", "1240.00"},
		{"pl right", pl, rec(2460, "PLN"), "", ""},
		{"pl amount in eur as total", pl, rec(566.3, "EUR"), "total", "2460.00"},
	})
}

// An airline's e-ticket prints its fare, the taxes, fees and carrier
// charges, and the total in one box, often on one line: each keeps its own
// label.
func TestAirlineTaxBoxOnOneLine(t *testing.T) {
	const one = "Nordic Sky Airlines AS\nE-TICKET RECEIPT 0732219904471\nDate of issue 05 Nov 2026\n" +
		"Fare: NOK 1,890.00   Taxes/Fees/Carrier charges: NOK 612.40   Total: NOK 2,502.40"
	const two = "Aerolíneas del Sur S.A.\nRECIBO DE PASAJE ELECTRÓNICO 045-2218800173\nFecha de emisión 05/11/2026\n" +
		"Tarifa   USD 420.00\nTasas/Cargos/Impuestos   USD 148.60\nTotal   USD 568.60"
	// The box as a row of headings over a row of amounts.
	const box = "SkyNordic AS\nE-TICKET 0732219904471\nFare   Taxes/Fees/Carrier charges   Total\nNOK 1,890.00   NOK 612.40   NOK 2,502.40"
	rec := func(tax, total float64) map[string]any { return map[string]any{"tax": tax, "total": total} }
	runClassCases(t, []classCase{
		{"box right", box, rec(612.4, 2502.4), "", ""},
		{"box fare as total", box, rec(612.4, 1890), "total", "2502.40"},
		{"box total as tax", box, rec(2502.4, 2502.4), "tax", "612.40"},
		{"one line right", one, rec(612.4, 2502.4), "", ""},
		{"one line fare as total", one, rec(612.4, 1890), "total", "2502.40"},
		{"one line taxes as total", one, rec(612.4, 612.4), "total", "2502.40"},
		{"one line total as tax", one, rec(2502.4, 2502.4), "tax", ""},
		{"two lines right", two, rec(148.6, 568.6), "", ""},
		{"two lines fare as total", two, rec(148.6, 420), "total", "568.60"},
	})
}

// A telecom or utility bill carries the previous period's unpaid balance
// into what it asks to be paid: the bill's total is its own charges, and
// the payable with the arrears added is flagged. A statement of account,
// whose balance due is its total, is not titled an invoice or bill.
func TestCarriedBalanceIsNotTheBillsTotal(t *testing.T) {
	const tr = "BOĞAZİÇİ TELEKOM A.Ş.\nFATURA\nFatura No: BT2026000118834\nFatura Tarihi: 01.11.2026\n" +
		"Bu Dönem Fatura Tutarı   480,00 TL\nÖnceki Dönem Borcu   120,50 TL\nÖdenecek Tutar   600,50 TL"
	const uk = "Severn Water Ltd\nWater bill\nBill date 01/11/2026\nBalance brought forward   £42.10\nCharges this bill   £96.40\nTotal to pay   £138.50"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"tr bill's own charges", tr, tot(480), "", ""},
		{"tr arrears added", tr, tot(600.5), "total", "previous balance 120.50"},
		{"uk bill's own charges", uk, tot(96.4), "", ""},
		{"uk arrears added", uk, tot(138.5), "total", "previous balance 42.10"},
	})
}

// A Turkish telecom bill charges two taxes, KDV and the special
// communication tax ÖİV: the bill's tax is both.
func TestTurkishTelecomTaxes(t *testing.T) {
	const tr = "ANADOLU GSM İLETİŞİM A.Ş.\nFATURA\nFatura No: AG2026000551201\nFatura Tarihi: 01.11.2026\n" +
		"Aylık paket ücreti   400,00 TL\nÖİV (%10)   40,00 TL\nKDV (%20)   88,00 TL\nFatura Tutarı   528,00 TL"
	tax := func(x float64) map[string]any { return map[string]any{"tax": x, "total": 528.0} }
	runClassCases(t, []classCase{
		{"both taxes", tr, tax(128), "", ""},
		{"kdv alone", tr, tax(88), "tax", "40.00"},
	})
}

// A title's number is no amount of its role: "Tax Invoice 77" does not label
// 77 as the tax.
func TestTitleNumberIsNotTheTax(t *testing.T) {
	const in = "Kaveri Stores\nTax Invoice 77\nRice 5 kg   500.00\nGST 5%   25.00\nTotal   525.00"
	runClassCases(t, []classCase{
		{"the tax passes", in, map[string]any{"tax": 25.0, "total": 525.0}, "", ""},
		{"the title's number as tax", in, map[string]any{"tax": 77.0, "total": 525.0}, "tax", "25.00"},
	})
}

// A receipt that taxes two rates prints each rate's tax (Japan's 8% and
// 10% under "内消費税", one line under each rate's base): the tax is both,
// and one rate's alone is flagged.
func TestTwoRatesTaxIsBoth(t *testing.T) {
	const jp = "ファミリーマート 渋谷店\n領収書\n2026年11月12日\nおにぎり ¥162\nお茶 ¥140\nボールペン ¥220\n合計 ¥522\n" +
		"8%対象 ¥302\n内消費税 ¥22\n10%対象 ¥220\n内消費税 ¥20"
	tax := func(x float64) map[string]any { return map[string]any{"tax": x, "total": 522.0} }
	runClassCases(t, []classCase{
		{"both rates", jp, tax(42), "", ""},
		{"one rate", jp, tax(22), "tax", "42.00"},
	})
}
