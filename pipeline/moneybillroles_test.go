package pipeline

import "testing"

// What a bill asks for when paid after its due date (the total with a late
// fee) is not its total, in any language; the amount payable by the due
// date passes.
func TestAmountAfterDueDateIsNotTheTotal(t *testing.T) {
	const pk = "City Water Utility\nBill No. W-55123  Bill date 01/11/2026  Due date 20/11/2026\n" +
		"Current charges 84.50\nAmount payable by due date 84.50\nAmount payable after due date 89.50"
	const co = "Empresa Eléctrica del Valle\nFactura 778812  Fecha de emisión 02/11/2026\nTotal a pagar 1.250,00\n" +
		"Vencimiento 22/11/2026\nDespués del vencimiento pagar 1.312,50"
	const br = "Companhia de Saneamento do Norte\nConta 2026/11-0091  Emissão 03/11/2026\nTotal a pagar R$ 96,40\n" +
		"Vencimento 25/11/2026\nValor após o vencimento R$ 99,29"
	const de = "Stadtwerke Nordheim GmbH\nRechnung 778-2026  Datum 03.11.2026\nZu zahlen bis 24.11.2026: 120,00 EUR\n" +
		"Betrag nach Fälligkeit 125,00 EUR"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"english payable by due date", pk, tot(84.5), "", ""},
		{"english payable after due date", pk, tot(89.5), "total", "AMOUNT PAYABLE AFTER DUE DATE"},
		{"spanish total a pagar", co, tot(1250), "", ""},
		{"spanish después del vencimiento", co, tot(1312.5), "total", "1250.00"},
		{"portuguese total a pagar", br, tot(96.4), "", ""},
		{"portuguese valor após o vencimento", br, tot(99.29), "total", "96.40"},
		{"german zu zahlen", de, tot(120), "", ""},
		{"german betrag nach fälligkeit", de, tot(125), "total", "120.00"},
	})
}

// A bill that carries a previous invoice left unpaid prints its own charges
// and a payable that adds the arrears: the payable is not this invoice's
// total, under the previous invoice's label in several languages.
func TestPreviousInvoiceIsNotInTheTotal(t *testing.T) {
	const de = "Stadtwerke Nordheim GmbH\nRechnung 778-2026  Datum 03.11.2026\nRechnungsbetrag dieser Rechnung 120,00\n" +
		"Offener Betrag aus Vorrechnung 80,00\nGesamt zu zahlen 200,00 EUR"
	const fr = "Eaux du Littoral SA\nFacture 2026-11-4471 du 04/11/2026\nMontant de la facture 64,20\nSolde antérieur 31,00\nTotal à payer 95,20 €"
	const es = "Telecomunicaciones del Sur S.A.\nFactura 0091-2231 Fecha 05/11/2026\nCargos del mes 45.900,00\nDeuda anterior 12.350,00\nTotal a pagar 58.250,00"
	const en = "Harbour Gas Ltd\nInvoice HG-7781  Date 06/11/2026\nThis invoice 58.30\nPrevious invoice (unpaid) 61.10\nTotal payable 119.40"
	const pl = "Wodociągi Miejskie Sp. z o.o.\nFaktura FV/11/2026/88 z dnia 07.11.2026\nNależność bieżąca 142,00\nZaległość 38,00\nRazem do zapłaty 180,00 zł"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"german own charges", de, tot(120), "", ""},
		{"german vorrechnung added", de, tot(200), "total", "previous balance 80.00"},
		{"french own charges", fr, tot(64.2), "", ""},
		{"french solde antérieur added", fr, tot(95.2), "total", "previous balance 31.00"},
		{"spanish own charges", es, tot(45900), "", ""},
		{"spanish deuda anterior added", es, tot(58250), "total", "previous balance 12350.00"},
		{"english own charges", en, tot(58.3), "", ""},
		{"english previous invoice added", en, tot(119.4), "total", "previous balance 61.10"},
		{"polish own charges", pl, tot(142), "", ""},
		{"polish zaległość added", pl, tot(180), "total", "previous balance 38.00"},
	})
}

// A tax exemption, or the exempt sales it covers, is never the tax: a
// senior citizen's "VAT Exemption" on a Philippine receipt, "VAT Exempt
// Sales", Peruvian "Op. Exoneradas", Spanish "Ventas exentas".
func TestTaxExemptionIsNotTheTax(t *testing.T) {
	const ph = "Mercury Drug Corporation\nOR No. 0098123   Date 11/05/2026\nTotal Sales (VAT Inclusive) 1,120.00\n" +
		"Less: 20% SC Discount 200.00\nAmount Due 800.00\nVAT Exempt Sales 1,000.00\nVAT Exemption 120.00"
	const ph2 = "Jollibee Foods Corporation\nInvoice No. 55123   Date 11/05/2026\nVATable Sales 500.00\n" +
		"VAT Exempt Sales 200.00\nVAT (12%) 60.00\nTotal 760.00"
	const pe = "Distribuidora Amazonas S.A.C.\nFactura F001-4471  Fecha 06/11/2026\nOp. Gravadas 100.00\nOp. Exoneradas 50.00\n" +
		"IGV 18% 18.00\nImporte Total 168.00"
	const es = "Librería Central S.L.\nFactura 2026/311  Fecha 07/11/2026\nBase imponible 100,00\nIVA 21% 21,00\n" +
		"Ventas exentas 40,00\nTotal 161,00 €"
	tax := func(x float64) map[string]any { return map[string]any{"tax": x} }
	runClassCases(t, []classCase{
		{"philippine senior citizen exemption as tax", ph, tax(120), "tax", "VAT EXEMPTION"},
		{"philippine vat exempt sales as tax", ph2, tax(200), "tax", "VAT EXEMPT SALES"},
		{"philippine vat charged", ph2, map[string]any{"tax": 60.0, "total": 760.0}, "", ""},
		{"peruvian exoneradas as tax", pe, tax(50), "tax", "OP. EXONERADAS"},
		{"peruvian igv", pe, map[string]any{"tax": 18.0, "total": 168.0}, "", ""},
		{"spanish ventas exentas as tax", es, tax(40), "tax", "VENTAS EXENTAS"},
		{"spanish iva", es, map[string]any{"tax": 21.0, "total": 161.0}, "", ""},
	})
}

// Amounts in a three-decimal currency (the Kuwaiti, Bahraini, Jordanian,
// Tunisian and Libyan dinar, the Omani rial) print their fils: "1.250" is
// one and a quarter, read so without doubt, and 1250 is flagged.
func TestThreeDecimalCurrencies(t *testing.T) {
	const kw = "Al Shamiya Trading Co. W.L.L.\nKuwait City, Kuwait\nInvoice 2026/118   Date 05/11/2026\n" +
		"Item A 2 x 0.625 = 1.250\nSubtotal 1.250\nTotal KWD 1.250"
	const bh = "Manama Office Supplies W.L.L.\nManama, Kingdom of Bahrain   VAT No. 200012345600002\n" +
		"Tax Invoice No. MOS-7712   Date 2026-11-06\nSubtotal 12.500\nVAT 10% 1.250\nTotal BHD 13.750"
	const om = "Muscat Electronics LLC\nSultanate of Oman\nInvoice No. 4410 Date 07/11/2026\nTotal amount (OMR) 2.375"
	const jo = "Amman Print House\nAmman, Jordan\nInvoice 7781  Date 09/11/2026\nTotal JOD 3.450"
	const ly = "شركة طرابلس للتجارة\nفاتورة 55\nالإجمالي 4.500 د.ل\nTotal LYD 4.500"
	// A euro document's "1.250" stays in doubt: German groups thousands so.
	const de = "Bäckerei Brandt\nRechnung 12\nSumme 1.250\nEUR"
	rec := func(kv ...any) map[string]any { return with(map[string]any{}, kv...) }
	runClassCases(t, []classCase{
		{"kuwaiti fils", kw, rec("total", 1.25, "currency", "KWD"), "", ""},
		{"kuwaiti read as thousands", kw, rec("total", 1250.0), "total", "keep three decimals"},
		{"bahraini fils", bh, rec("subtotal", 12.5, "tax", 1.25, "total", 13.75, "currency", "BHD"), "", ""},
		{"bahraini total read as thousands", bh, rec("total", 13750.0), "total", "13.75 BHD"},
		{"bahraini tax read as thousands", bh, rec("tax", 1250.0), "tax", "keep three decimals"},
		{"omani baisa", om, rec("total", 2.375), "", ""},
		{"omani read as thousands", om, rec("total", 2375.0), "total", "Omani rial"},
		{"jordanian fils", jo, rec("total", 3.45), "", ""},
		{"jordanian read as thousands", jo, rec("total", 3450.0), "total", "keep three decimals"},
		{"libyan dirham", ly, rec("total", 4.5), "", ""},
		{"libyan read as thousands", ly, rec("total", 4500.0), "total", "keep three decimals"},
		{"euro thousands stay in doubt", de, rec("total", 1250.0), "total", "may be"},
	})
}

// Already caught, kept as specifications: an equivalent in another
// currency, and an auction's hammer price before the buyer's premium, are
// not the total.
func TestEquivalentAndHammerPriceAreNotTheTotal(t *testing.T) {
	const ke = "Global Freight Forwarders Ltd\nInvoice GFF-2210  Date 2026-11-02\nOcean freight USD 1,200.00\nTotal USD 1,200.00\n" +
		"Equivalent in KES 155,400.00 (rate 129.50)"
	const md = "SRL Vinaria Codru\nFactura nr. VC-0091 din 03.11.2026\nTotal EUR 480,00\n≈ 9 480,00 MDL (curs BNM 19,75)"
	const cl = "Exportadora del Sur SpA\nFactura de Exportación N° 1203   Fecha: 04/11/2026\nTotal USD 2.500,00\nContravalor en pesos chilenos: CLP 2.375.000"
	const uk = "Heritage Auctioneers Ltd\nBuyer's Invoice No. 2026-441   Sale date 10/11/2026\nLot 57  Victorian mahogany bureau\n" +
		"Hammer price 1,000.00\nBuyer's premium 25% 250.00\nVAT on premium 20% 50.00\nTotal due GBP 1,300.00"
	const de = "Auktionshaus Berger KG\nRechnung Nr. 3381 vom 12.11.2026\nLos 12  Ölgemälde\nZuschlag 2.000,00\nAufgeld 22% 440,00\n" +
		"MwSt. auf Aufgeld 83,60\nEndbetrag EUR 2.523,60"
	tot := func(x float64) map[string]any { return map[string]any{"total": x} }
	runClassCases(t, []classCase{
		{"kenyan shilling equivalent", ke, tot(155400), "total", "1200.00"},
		{"usd total", ke, tot(1200), "", ""},
		{"moldovan lei equivalent", md, tot(9480), "total", "480.00"},
		{"eur total", md, tot(480), "", ""},
		{"chilean contravalor", cl, tot(2375000), "total", "2500.00"},
		{"export total", cl, tot(2500), "", ""},
		{"english hammer price", uk, tot(1000), "total", "1300.00"},
		{"english total with premium", uk, tot(1300), "", ""},
		{"german zuschlag", de, tot(2000), "total", "2523.60"},
		{"german endbetrag", de, tot(2523.6), "", ""},
	})
}
