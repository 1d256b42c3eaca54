package pipeline

import "testing"

// money is a record of the three money fields; a negative argument leaves
// the field out (not stated), so a case states only what a Generator returned.
func money(subtotal, tax, total float64) map[string]any {
	r := map[string]any{}
	for k, v := range map[string]float64{"subtotal": subtotal, "tax": tax, "total": total} {
		if v >= 0 {
			r[k] = v
		}
	}
	return r
}

// The subtotal is the taxable net: the amount the tax was computed on. A
// document that prints a discount between the goods' sum and the tax
// (Rabatt, Remise, Descuento, Diskon, 値引, ส่วนลด, Sleva…) has its net after
// the discount, printed or not: the goods' sum above the discount is not the
// subtotal, even where the total and the tax are right and nothing adds up
// wrongly once the tax is left out. The true net is grounded where the page
// prints it, or as the goods' sum less the discount where it does not. A
// document that charges no tax has no net to compute it on: its printed
// subtotal stands.
func TestTheSubtotalIsTheNetAfterTheDiscount(t *testing.T) {
	const de = "Bürobedarf Krause GmbH\nRechnung Nr. 2026-4471\nZwischensumme   1.000,00 €\nRabatt 10 %   -100,00 €\n" +
		"Nettobetrag   900,00 €\nMwSt. 19 %   171,00 €\nGesamtbetrag   1.071,00 €"
	const in = "Shree Ganesh Steel Traders\nTax Invoice No. SGT/2026/118\nSub Total   1,25,000.00\n" +
		"Less: Trade Discount 5%   6,250.00\nTaxable Value   1,18,750.00\nCGST @ 9%   10,687.50\nSGST @ 9%   10,687.50\n" +
		"Grand Total   1,40,125.00"
	const fr = "Menuiserie Lefèvre SARL\nFacture n° F-2026-0311\nTotal HT brut   2 400,00 €\nRemise 5 %   -120,00 €\n" +
		"Total HT net   2 280,00 €\nTVA 20 %   456,00 €\nTotal TTC   2 736,00 €"
	const es = "Suministros Garrido S.L.\nFactura 2026/0912\nImporte bruto   1.500,00 €\nDescuento 10%   150,00 €\n" +
		"Base imponible   1.350,00 €\nIVA 21%   283,50 €\nTotal factura   1.633,50 €"
	const us = "Cedar Ridge Outfitters\nInvoice #40917\nSubtotal   $480.00\nDiscount (SAVE10)   -$48.00\n" +
		"Sales Tax 8.25%   $35.64\nTotal   $467.64"
	const id = "PT Sinar Abadi Elektrindo\nFaktur No. INV/2026/11/0457\nSubtotal   Rp 2.000.000\nDiskon   Rp 200.000\n" +
		"DPP   Rp 1.800.000\nPPN 11%   Rp 198.000\nTotal   Rp 1.998.000"
	const pl = "Hurtownia Nowak Sp. z o.o.\nFaktura VAT nr FV/118/11/2026\nWartość netto   3 000,00 zł\nRabat 15%   450,00 zł\n" +
		"Netto po rabacie   2 550,00 zł\nVAT 23%   586,50 zł\nRazem brutto   3 136,50 zł"
	const jp = "株式会社ミドリ商会\n請求書番号 2026-0871\n小計 ¥12,000\n値引 -¥1,000\n課税対象額 ¥11,000\n消費税(10%) ¥1,100\n合計 ¥12,100"
	const uk = "Harrow Print Ltd\nInvoice 7713\nGoods total   £1,250.00\nLess 20% trade discount   £250.00\n" +
		"Net   £1,000.00\nVAT @ 20%   £200.00\nInvoice total   £1,200.00"
	const th = "บริษัท สยามวัสดุ จำกัด\nใบกำกับภาษี เลขที่ IV2026-0331\nรวมเงิน   5,000.00\nส่วนลด   500.00\n" +
		"จำนวนเงินหลังหักส่วนลด   4,500.00\nภาษีมูลค่าเพิ่ม 7%   315.00\nจำนวนเงินรวมทั้งสิ้น   4,815.00"
	const nl = "Drukkerij Van Dijk B.V.\nFactuur 2026-0219\nSubtotaal   € 640,00\nKorting 10%   -€ 64,00\n" +
		"Btw 21%   € 120,96\nTotaal   € 696,96"
	const cz = "Stavebniny Dvořák s.r.o.\nFaktura č. 2026110045\nMezisoučet   10 000,00 Kč\nSleva 5 %   -500,00 Kč\n" +
		"Základ daně   9 500,00 Kč\nDPH 21 %   1 995,00 Kč\nCelkem k úhradě   11 495,00 Kč"
	const sa = "مؤسسة الريان للتجارة\nفاتورة ضريبية رقم 2026-554\nالمجموع الفرعي   1,000.00\nالخصم   50.00\n" +
		"الإجمالي الخاضع للضريبة   950.00\nضريبة القيمة المضافة 15%   142.50\nالإجمالي   1,092.50 ر.س"
	const mx = "Refacciones del Bajío S.A. de C.V.\nFactura A-2231\nSubtotal   $5,000.00\nDescuento   $500.00\n" +
		"IVA 16%   $720.00\nTotal   $5,220.00"
	const br = "Papelaria Central Ltda\nNota 000.812\nSubtotal   R$ 800,00\nDesconto   R$ 80,00\nTotal   R$ 720,00"
	// No discount anywhere: the subtotal stands (no flag from the rule).
	const plain = "Nordlicht Handel GmbH\nRechnung 2026-118\nZwischensumme   1.000,00 €\nMwSt. 19 %   190,00 €\nGesamtbetrag   1.190,00 €"
	// A discount for paying early comes off nothing on the invoice itself.
	const skonto = "Nordlicht Handel GmbH\nRechnung 2026-119\nNettobetrag   1.000,00 €\nMwSt. 19 %   190,00 €\n" +
		"Gesamtbetrag   1.190,00 €\nBei Zahlung innerhalb 10 Tagen 2 % Skonto   23,80 €"
	runClassCases(t, []classCase{
		{"DE subtotal before Rabatt, tax left out", de, money(1000, -1, 1071), "subtotal", "Rabatt"},
		{"DE subtotal before Rabatt", de, money(1000, 171, 1071), "subtotal", "Rabatt"},
		{"DE net after Rabatt", de, money(900, 171, 1071), "", ""},
		{"IN sub total before trade discount", in, money(125000, -1, 140125), "subtotal", "Trade Discount"},
		{"IN taxable value", in, money(118750, 21375, 140125), "", ""},
		{"FR HT brut before remise", fr, money(2400, -1, 2736), "subtotal", "Remise"},
		{"FR HT net", fr, money(2280, 456, 2736), "", ""},
		{"ES importe bruto before descuento", es, money(1500, 283.5, 1633.5), "subtotal", "Descuento"},
		{"ES base imponible", es, money(1350, 283.5, 1633.5), "", ""},
		{"US subtotal before a coupon, net not printed", us, money(480, 35.64, 467.64), "subtotal", "Discount"},
		{"US subtotal before a coupon, tax left out", us, money(480, -1, 467.64), "subtotal", "Discount"},
		{"ID subtotal before diskon", id, money(2000000, -1, 1998000), "subtotal", "Diskon"},
		{"ID DPP", id, money(1800000, 198000, 1998000), "", ""},
		{"PL wartość netto before rabat", pl, money(3000, -1, 3136.5), "subtotal", "Rabat"},
		{"PL netto po rabacie", pl, money(2550, 586.5, 3136.5), "", ""},
		{"JP 小計 before 値引", jp, money(12000, -1, 12100), "subtotal", "値引"},
		{"JP 課税対象額", jp, money(11000, 1100, 12100), "", ""},
		{"UK goods total before trade discount", uk, money(1250, 200, 1200), "subtotal", "trade discount"},
		{"UK net", uk, money(1000, 200, 1200), "", ""},
		{"TH รวมเงิน before ส่วนลด", th, money(5000, -1, 4815), "subtotal", "ส่วนลด"},
		{"TH after ส่วนลด", th, money(4500, 315, 4815), "", ""},
		{"NL subtotaal before korting", nl, money(640, 120.96, 696.96), "subtotal", "Korting"},
		{"CZ mezisoučet before sleva", cz, money(10000, -1, 11495), "subtotal", "Sleva"},
		{"CZ základ daně", cz, money(9500, 1995, 11495), "", ""},
		{"SA subtotal before الخصم", sa, money(1000, -1, 1092.5), "subtotal", "الخصم"},
		{"SA taxable", sa, money(950, 142.5, 1092.5), "", ""},
		{"MX subtotal before descuento", mx, money(5000, 720, 5220), "subtotal", "Descuento"},
		{"BR no tax: the printed subtotal stands", br, money(800, -1, 720), "", ""},
		{"BR total before desconto", br, money(-1, -1, 800), "total", "Desconto"},
		{"no discount: the subtotal stands", plain, money(1000, 190, 1190), "", ""},
		{"skonto: the net stands", skonto, money(1000, 190, 1190), "", ""},
	})
}

// The total is the amount the document invoices: the net plus every tax. A
// buyer's withholding (PPh 23, retención en la fuente, TDS, EWT, WHT,
// withholding VAT), a construction retention, or an advance, deposit or
// earlier payment printed after it leaves a smaller "amount payable" that
// is no total; the reason names the line taken off. A layout whose own
// "Total" already stands after its retentions (a Mexican CFDI) keeps it.
func TestTheTotalIsWhatIsInvoicedNotWhatIsLeftToPay(t *testing.T) {
	const id = "PT Cipta Solusi Digital\nInvoice No. CSD/INV/2026/0912\nDPP   Rp 10.000.000\nPPN 11%   Rp 1.100.000\n" +
		"Total Tagihan   Rp 11.100.000\nPPh 23 (2%)   Rp 200.000\nJumlah Dibayar   Rp 10.900.000"
	const co = "Ingeniería Andina S.A.S.\nFactura electrónica FE-3381\nSubtotal   $ 4.000.000\nIVA 19%   $ 760.000\n" +
		"Total factura   $ 4.760.000\nRetención en la fuente 2,5%   $ 100.000\nReteIVA 15%   $ 114.000\nNeto a pagar   $ 4.546.000"
	const in = "Kulkarni & Associates\nInvoice No. KA/26-27/044\nTaxable Value   50,000.00\nIGST @ 18%   9,000.00\n" +
		"Invoice Total   59,000.00\nLess: TDS u/s 194J @ 10%   5,000.00\nNet Amount Payable   54,000.00"
	const mx = "Consultores Vega S.C.\nFactura B-118\nSubtotal   $10,000.00\nIVA 16%   $1,600.00\nTotal   $11,600.00\n" +
		"ISR retenido 10%   $1,000.00\nIVA retenido   $1,066.67\nNeto a pagar   $9,533.33"
	const cfdi = "Consultores Vega S.C.\nCFDI Factura B-119\nSubtotal   $10,000.00\nIVA trasladado 16%   $1,600.00\n" +
		"ISR retenido 10%   $1,000.00\nIVA retenido   $1,066.67\nTotal   $9,533.33"
	const au = "Redgum Constructions Pty Ltd\nProgress Claim No. 6\nContract works this claim   $48,000.00\nGST   $4,800.00\n" +
		"Total this claim (incl GST)   $52,800.00\nLess retention 5%   $2,640.00\nAmount payable this claim   $50,160.00"
	const uk = "Ashdown Joinery Ltd\nInvoice 2210\nSubtotal   £2,000.00\nVAT 20%   £400.00\nTotal   £2,400.00\n" +
		"Less deposit paid   £600.00\nAmount Due   £1,800.00"
	const de = "Elektro Brandt GmbH\nRechnung 2026-0677\nNettobetrag   5.000,00 €\nUSt. 19 %   950,00 €\n" +
		"Rechnungsbetrag   5.950,00 €\nabzüglich Anzahlung vom 01.10.2026   -2.000,00 €\nRestbetrag   3.950,00 €"
	const fr = "Plomberie Girard\nFacture n° 2026-233\nTotal HT   3 000,00 €\nTVA 20 %   600,00 €\nTotal TTC   3 600,00 €\n" +
		"Acompte versé   1 000,00 €\nReste à payer   2 600,00 €"
	const ph = "Luzon Freight Services Inc.\nSales Invoice No. 004512\nVATable Sales   100,000.00\nVAT 12%   12,000.00\n" +
		"Total Amount   112,000.00\nLess: Withholding Tax (EWT 2%)   2,000.00\nAmount Payable   110,000.00"
	const ke = "Savannah Logistics Ltd\nTax Invoice 00871\nAmount (excl VAT)   100,000.00\nVAT 16%   16,000.00\n" +
		"Total (incl VAT)   116,000.00\nLess Withholding VAT 2%   2,000.00\nNet Payable   114,000.00"
	const ng = "Okafor Engineering Ltd\nInvoice OE-2026-77\nSub-total   ₦500,000.00\nVAT 7.5%   ₦37,500.00\n" +
		"Total   ₦537,500.00\nWHT 5%   (₦25,000.00)\nNet amount payable   ₦512,500.00"
	const pk = "Indus Tech Services\nInvoice ITS-2026-301\nService charges   Rs. 250,000\nTotal   Rs. 250,000\n" +
		"Income Tax Withheld @ 4.5%   Rs. 11,250\nNet Payable   Rs. 238,750"
	const es = "Reformas Ortega S.L.\nFactura 2026/118\nBase imponible   800,00 €\nIVA 21%   168,00 €\nTotal   968,00 €\n" +
		"Anticipo recibido   300,00 €\nPendiente de pago   668,00 €"
	const us = "Bluebird Landscaping LLC\nInvoice 5512\nSubtotal   $3,000.00\nSales Tax 8.33%   $250.00\nInvoice Total   $3,250.00\n" +
		"Payments/Credits   -$1,000.00\nAmount Due   $2,250.00"
	runClassCases(t, []classCase{
		{"ID jumlah dibayar after PPh 23", id, money(10000000, 1100000, 10900000), "total", "PPh 23"},
		{"ID jumlah dibayar alone", id, money(-1, -1, 10900000), "total", "PPh 23"},
		{"ID total tagihan", id, money(10000000, 1100000, 11100000), "", ""},
		{"CO neto a pagar after retenciones", co, money(-1, -1, 4546000), "total", "Retención en la fuente"},
		{"CO total factura", co, money(4000000, 760000, 4760000), "", ""},
		{"IN net payable after TDS", in, money(50000, 9000, 54000), "total", "TDS"},
		{"IN invoice total", in, money(50000, 9000, 59000), "", ""},
		{"MX neto after ISR and IVA retenido", mx, money(-1, -1, 9533.33), "total", "retenido"},
		{"MX total before retentions", mx, money(10000, 1600, 11600), "", ""},
		{"MX CFDI total after its retentions", cfdi, money(10000, 1600, 9533.33), "", ""},
		{"AU amount payable after retention", au, money(48000, 4800, 50160), "total", "retention"},
		{"AU total this claim", au, money(48000, 4800, 52800), "", ""},
		{"UK amount due after a deposit", uk, money(2000, 400, 1800), "total", "DEPOSIT"},
		{"UK total", uk, money(2000, 400, 2400), "", ""},
		{"DE Restbetrag after Anzahlung", de, money(-1, -1, 3950), "total", "Anzahlung"},
		{"DE Rechnungsbetrag", de, money(5000, 950, 5950), "", ""},
		{"FR reste à payer after acompte", fr, money(-1, -1, 2600), "total", "Acompte"},
		{"FR total TTC", fr, money(3000, 600, 3600), "", ""},
		{"PH amount payable after EWT", ph, money(-1, -1, 110000), "total", "WITHHOLDING TAX"},
		{"PH total amount", ph, money(100000, 12000, 112000), "", ""},
		{"KE net payable after withholding VAT", ke, money(-1, -1, 114000), "total", "Withholding"},
		{"KE total incl VAT", ke, money(100000, 16000, 116000), "", ""},
		{"NG net after WHT", ng, money(-1, -1, 512500), "total", "WHT"},
		{"NG total", ng, money(500000, 37500, 537500), "", ""},
		{"PK net payable after income tax withheld", pk, money(-1, -1, 238750), "total", "Withheld"},
		{"PK total", pk, money(-1, -1, 250000), "", ""},
		{"ES pendiente after anticipo", es, money(-1, -1, 668), "total", "Anticipo"},
		{"ES total", es, money(800, 168, 968), "", ""},
		{"US amount due after payments", us, money(-1, -1, 2250), "total", "Payments"},
		{"US invoice total", us, money(3000, 250, 3250), "", ""},
	})
}

// The tax is every tax the document adds to the net to make its total: the
// federal and the provincial one (GST and QST, GST and PST), the central
// and the state one (CGST and SGST, IGST and cess), the state and the
// county sales tax, an excise and a VAT. One of them alone is a part, and
// the reason names the other's line. A charge that is no tax (a service
// charge) is not added, and a single tax stands alone. A tax whose rate
// is taken of a price that holds another tax (Mexico's IVA on the price
// with IEPS, VAT on a price with an environmental tax) makes that one part
// of the price: the ledger leaves such a tax to the labels.
func TestTheTaxIsEveryTaxOnTheTotal(t *testing.T) {
	const qc = "Rénovations Tremblay inc.\nFacture 2026-0412\nSous-total   1 000,00 $\nTPS 5 %   50,00 $\n" +
		"TVQ 9,975 %   99,75 $\nTotal   1 149,75 $"
	const bc = "Coastal Cycle Works\nInvoice 3381\nSubtotal   $400.00\nGST 5%   $20.00\nPST 7%   $28.00\nTotal   $448.00"
	const us = "Prairie Hardware\nInvoice 20931\nSubtotal   $250.00\nState Sales Tax 6.25%   $15.63\nCounty Tax 1.00%   $2.50\n" +
		"Total   $268.13"
	const mx = "Distribuidora La Palma\nFactura C-771\nSubtotal   $1,000.00\nIEPS 8%   $80.00\nIVA 16%   $172.80\nTotal   $1,252.80"
	const ke = "Hotel Jacaranda Ltd\nTax Invoice 5531\nSub Total   10,000.00\nVAT 16%   1,600.00\nCatering Levy 2%   200.00\n" +
		"Total KES   11,800.00"
	const in = "Bharat Motors Pvt Ltd\nTax Invoice BM/2026/0042\nTaxable Value   20,00,000.00\nIGST @ 28%   5,60,000.00\n" +
		"Compensation Cess @ 15%   3,00,000.00\nTotal   28,60,000.00"
	const fed = "Lone Star Telecom\nBill 88213\nMonthly charges   $90.00\nFederal Excise Tax   $2.70\nState Sales Tax   $5.85\n" +
		"Total   $98.55"
	const insame = "Anand Textiles\nTax Invoice AT-2026-311\nTaxable Value   10,000.00\nCGST @ 9%   900.00\nSGST @ 9%   900.00\n" +
		"Total   11,800.00"
	const th = "The Riverside Bangkok\nReceipt 00412\nFood & Beverage   1,000.00\nService Charge 10%   100.00\nVAT 7%   77.00\n" +
		"Total   1,177.00"
	const hst = "Maple Leaf Print\nInvoice 1120\nSubtotal   $100.00\nHST 13%   $13.00\nTotal   $113.00"
	runClassCases(t, []classCase{
		{"QC TPS alone", qc, money(1000, 50, 1149.75), "tax", "TVQ"},
		{"QC TPS alone, no subtotal", qc, money(-1, 50, 1149.75), "tax", "TVQ"},
		{"QC TVQ alone", qc, money(1000, 99.75, 1149.75), "tax", "TPS"},
		{"QC both", qc, money(1000, 149.75, 1149.75), "", ""},
		{"BC GST alone", bc, money(-1, 20, 448), "tax", "PST"},
		{"BC both", bc, money(400, 48, 448), "", ""},
		{"US state tax alone", us, money(250, 15.63, 268.13), "tax", "line 5"},
		{"US state and county", us, money(250, 18.13, 268.13), "", ""},
		{"MX IVA on a price that holds IEPS", mx, money(-1, 172.8, 1252.8), "", ""},
		{"KE VAT alone", ke, money(-1, 1600, 11800), "tax", "Catering Levy"},
		{"IN IGST alone", in, money(2000000, 560000, 2860000), "tax", "Cess"},
		{"IN IGST and cess", in, money(2000000, 860000, 2860000), "", ""},
		{"US federal excise alone", fed, money(-1, 2.7, 98.55), "tax", "SALES TAX, line 5"},
		{"US state alone", fed, money(90, 5.85, 98.55), "tax", "TAX, line 4"},
		{"IN CGST alone", insame, money(-1, 900, 11800), "tax", "SGST"},
		{"IN CGST and SGST", insame, money(10000, 1800, 11800), "", ""},
		{"TH VAT without the service charge", th, money(-1, 77, 1177), "", ""},
		{"HST alone is the tax", hst, money(100, 13, 113), "", ""},
	})
}

// A number printed beside a tax, net or total word is not always that
// amount: a rate, the base a tax is computed on, a count of items or a
// weight. The amount the line ends on is the labelled one, and the true
// record is not flagged for it.
func TestANumberBesideAMoneyWordIsNotAlwaysThatAmount(t *testing.T) {
	runClassCases(t, []classCase{
		{"VAT on a base", "Kestrel Studio Ltd\nInvoice 311\nDesign work   £1,500.00\nVAT 20% on £1,500.00   £300.00\nTotal   £1,800.00",
			money(1500, 300, 1800), "", ""},
		{"GST at a rate on a base", "Vyas Consultancy\nInvoice VC-77\nFees   5,000.00\nGST @ 18% on 5,000.00 = 900.00\nTotal   5,900.00",
			money(5000, 900, 5900), "", ""},
		{"IVA sobre base", "Talleres Ruiz\nFactura 2026-41\nBase   1.200,00\nIVA 21% s/ 1.200,00   252,00\nTotal   1.452,00",
			money(1200, 252, 1452), "", ""},
		{"MwSt von", "Kanzlei Hoffmann\nRechnung 2026-88\nHonorar   1.000,00 €\nMwSt. 19 % von 1.000,00 € = 190,00 €\nGesamt   1.190,00 €",
			money(1000, 190, 1190), "", ""},
		{"TVA rate with a comma", "Librairie Dumas\nFacture 2026-15\nLivres   200,00 €\nTVA 5,5 %   11,00 €\nTotal TTC   211,00 €",
			money(200, 11, 211), "", ""},
		{"total items beside total", "Corner Deli\nReceipt 4471\nTotal items 4   Total $96.00", money(-1, -1, 96), "", ""},
		{"subtotal with a count", "Corner Deli\nReceipt 4472\nSubtotal (3 items)   45.00\nTax 8%   3.60\nTotal   48.60",
			money(45, 3.6, 48.6), "", ""},
		{"total weight", "Granja Soler\nAlbarán-factura 2026-9\nTotal peso 12,50 kg\nBase   80,00\nIVA 10%   8,00\nTotal   88,00",
			money(80, 8, 88), "", ""},
	})
}
