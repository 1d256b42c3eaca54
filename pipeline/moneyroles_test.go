package pipeline

import "testing"

// Documents whose payable total is printed below the figure a model is
// tempted to take: an auction's hammer prices before the buyer's premium and
// its tax, a delivery order before its coupon and tip. The amount the
// document asks to be paid is the total; the earlier sum is flagged.
func TestTotalIsTheAmountAskedFor(t *testing.T) {
	const ukAuction = "Hartley & Finch Auctioneers Ltd\nBUYER'S INVOICE No. HF-26-1187\nDate: 14/10/2026\n" +
		"Lot 12  Victorian writing desk   1,800.00\nLot 47  Pair of brass candlesticks   1,250.00\n" +
		"Hammer total   3,050.00\nBuyer's premium 25%   762.50\nVAT on premium 20%   152.50\nAmount due   GBP 3,965.00"
	const deAuction = "Kunsthaus Lempertz-Süd GmbH\nRechnung Nr. A-2026-0412\nDatum: 03.11.2026\n" +
		"Los 8  Ölgemälde, Landschaft   Zuschlag 2.200,00\nLos 19  Silberschale   Zuschlag 850,00\n" +
		"Summe Zuschläge   3.050,00\nAufgeld 25 %   762,50\nMwSt 19 % auf Aufgeld   144,88\nZu zahlen   3.957,38 EUR"
	const krDelivery = "배달의민족 주문내역\n가게: 한솥도시락 역삼점\n주문번호 B1N2-0098\n주문일시 2026.11.20 19:42\n" +
		"주문금액 48,500원\n쿠폰 할인 -5,000원\n배달팁 3,000원\n결제금액 46,500원"
	const ukDelivery = "Deliveroo\nOrder #4471 from Dishoom Kensington\n27 Nov 2026\n2x Chicken Ruby   £25.00\n" +
		"Subtotal   £25.00\nPromo   -£5.00\nDelivery fee   £2.99\nRider tip   £2.00\nTotal paid   £24.99"
	const frAuction = "Hôtel des Ventes de Loire SAS\nBordereau acheteur n° HV-2026-0815\nDate : 21/11/2026\n" +
		"Lot 3  Commode Louis XV   1 800,00\nLot 9  Miroir doré   1 250,00\nTotal des adjudications   3 050,00\n" +
		"Frais acheteur 25 % HT   762,50\nTVA 20 % sur frais   152,50\nNet à payer   3 965,00 €"
	const cnDelivery = "美团外卖 订单详情\n商家: 老王面馆\n订单号 2026112019420098\n下单时间 2026-11-20 19:42\n" +
		"商品总额 ¥48.50\n优惠券 -¥5.00\n配送费 ¥3.00\n实付金额 ¥46.50"
	const jpDelivery = "出前館 ご注文明細\n店舗: 銀座カレー亭\n注文番号 DM-55120\n注文日 2026年11月20日\n" +
		"商品合計 ¥4,850\nクーポン -¥500\n配達料 ¥300\nお支払い金額 ¥4,650"
	rec := func(vendor string, no, date any, cur string, sub, tax, total any) map[string]any {
		return map[string]any{"vendor_name": vendor, "invoice_number": no, "invoice_date": date, "currency": cur,
			"subtotal": sub, "tax": tax, "total": total}
	}
	frRight := rec("Hôtel des Ventes de Loire SAS", "HV-2026-0815", "2026-11-21", "EUR", nil, 152.5, 3965.0)
	cnRight := rec("老王面馆", nil, "2026-11-20", "CNY", nil, nil, 46.5)
	jpRight := rec("銀座カレー亭", nil, nil, "JPY", nil, nil, 4650.0)
	ukRight := rec("Hartley & Finch Auctioneers Ltd", "HF-26-1187", "2026-10-14", "GBP", nil, 152.5, 3965.0)
	deRight := rec("Kunsthaus Lempertz-Süd GmbH", "A-2026-0412", "2026-11-03", "EUR", nil, 144.88, 3957.38)
	krRight := rec("한솥도시락 역삼점", "B1N2-0098", "2026-11-20", "KRW", nil, nil, 46500.0)
	ukdRight := rec("Dishoom Kensington", "4471", "2026-11-27", "GBP", 25.0, nil, 24.99)
	runClassCases(t, []classCase{
		{"uk auction right", ukAuction, ukRight, "", ""},
		{"uk auction hammer total as total", ukAuction, with(ukRight, "total", 3050.0), "total", "final total is 3965.00"},
		{"de auction right", deAuction, deRight, "", ""},
		{"de auction Zuschläge as total", deAuction, with(deRight, "total", 3050.0), "total", "final total is 3957.38"},
		{"fr auction right", frAuction, frRight, "", ""},
		{"fr auction adjudications as total", frAuction, with(frRight, "total", 3050.0), "total", "final total is 3965.00"},
		{"cn delivery right", cnDelivery, cnRight, "", ""},
		{"cn delivery goods amount as total", cnDelivery, with(cnRight, "total", 48.5), "total", "final total is 46.50"},
		{"jp delivery right", jpDelivery, jpRight, "", ""},
		{"jp delivery goods amount as total", jpDelivery, with(jpRight, "total", 4850.0), "total", "final total is 4650.00"},
		// an existing final label in CJK script: "价税合计" (price and tax together) after the pre-tax "合计"
		{"cn fapiao pre-tax sum as total", "上海明远科技有限公司\n增值税普通发票\n服务费 ¥1,000.00\n合计 ¥1,000.00\n税额 ¥130.00\n价税合计 ¥1,130.00",
			map[string]any{"total": 1000.0}, "total", "final total is 1130.00"},
		{"kr delivery right", krDelivery, krRight, "", ""},
		{"kr delivery order amount as total", krDelivery, with(krRight, "total", 48500.0), "total", "final total is 46500.00"},
		{"uk delivery right", ukDelivery, ukdRight, "", ""},
		{"uk delivery subtotal as total", ukDelivery, with(ukdRight, "total", 25.0), "total", "24.99"},
	})
}

// A surcharge or fee is no tax when the document prints its tax line: an
// airline's fuel surcharge beside "VAT 11%", a hotel's city fee beside GST.
func TestSurchargeIsNotTheTax(t *testing.T) {
	const idTicket = "PT Garuda Nusantara Airlines\nE-TICKET RECEIPT No. 126-2401887731\nIssued 05 Nov 2026\n" +
		"Fare   IDR 2,840,000\nFuel surcharge   IDR 360,000\nVAT 11%   IDR 312,400\nAirport tax (PSC)   IDR 130,000\n" +
		"Total   IDR 3,642,400"
	const idTiket = "PT Lintas Nusa Air\nTanda Terima E-Tiket No. 990-7781200453\nTanggal 05/11/2026\n" +
		"Tarif dasar   IDR 2,840,000\nBiaya bahan bakar (fuel surcharge)   IDR 360,000\nPPN 11%   IDR 312,400\n" +
		"Iuran wajib Jasa Raharja   IDR 5,000\nPSC   IDR 130,000\nTotal bayar   IDR 3,647,400"
	const grouped = "SkyLanka Airways PLC\nE-TICKET RECEIPT 603-2219904471\nDate of issue 05 Nov 2026\nFare   USD 420.00\n" +
		"Taxes, fees and surcharges\nFuel surcharge (YQ)   USD 55.00\nVAT 8%   USD 33.60\nEmbarkation levy   USD 60.00\nTotal   USD 568.60"
	const auHotel = "Harbourview Suites Pty Ltd\nTax Invoice INV-88213\nDate 02/12/2026\nRoom 2 nights   AUD 400.00\n" +
		"Credit card surcharge 1.5%   AUD 6.60\nGST   AUD 40.00\nTotal   AUD 446.60"
	rec := func(vendor string, no, date any, cur string, sub, tax, total any) map[string]any {
		return map[string]any{"vendor_name": vendor, "invoice_number": no, "invoice_date": date, "currency": cur,
			"subtotal": sub, "tax": tax, "total": total}
	}
	idRight := rec("PT Garuda Nusantara Airlines", "126-2401887731", "2026-11-05", "IDR", nil, 312400.0, 3642400.0)
	auRight := rec("Harbourview Suites Pty Ltd", "INV-88213", "2026-12-02", "AUD", nil, 40.0, 446.6)
	tiketRight := rec("PT Lintas Nusa Air", "990-7781200453", "2026-11-05", "IDR", nil, 312400.0, 3647400.0)
	groupedRight := rec("SkyLanka Airways PLC", "603-2219904471", "2026-11-05", "USD", nil, 33.6, 568.6)
	runClassCases(t, []classCase{
		{"id tiket right", idTiket, tiketRight, "", ""},
		{"id tiket fuel surcharge as tax", idTiket, with(tiketRight, "tax", 360000.0), "tax", "312400.00"},
		{"grouped surcharges right", grouped, groupedRight, "", ""},
		{"grouped fuel surcharge as tax", grouped, with(groupedRight, "tax", 55.0), "tax", "33.60"},
		{"id ticket right", idTicket, idRight, "", ""},
		{"id ticket fuel surcharge as tax", idTicket, with(idRight, "tax", 360000.0), "tax", "312400.00"},
		{"au hotel right", auHotel, auRight, "", ""},
		{"au hotel card surcharge as tax", auHotel, with(auRight, "tax", 6.6), "tax", "40.00"},
	})
}

// Insurance premium tax is a tax: a premium notice that prints it has a tax,
// and a null one is an omission, in each language's name for it (the
// Swiss federal stamp duty and the Portuguese imposto do selo are theirs).
func TestInsurancePremiumTaxIsATax(t *testing.T) {
	docs := map[string]struct {
		text string
		rec  map[string]any
	}{
		"de": {"Rheinland Versicherung AG\nBeitragsrechnung Nr. BR-2026-55120\nDatum: 01.12.2026\n" +
			"Nettobeitrag Hausrat   700,00 EUR\nVersicherungsteuer 19 %   133,00 EUR\nZu zahlender Beitrag   833,00 EUR",
			map[string]any{"vendor_name": "Rheinland Versicherung AG", "invoice_number": "BR-2026-55120", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 700.0, "tax": 133.0, "total": 833.0}},
		"uk": {"Thames Mutual Insurance plc\nPremium notice PN-772019\nDate 01/12/2026\n" +
			"Annual premium   £480.00\nInsurance Premium Tax (IPT) 12%   £57.60\nTotal payable   £537.60",
			map[string]any{"vendor_name": "Thames Mutual Insurance plc", "invoice_number": "PN-772019", "invoice_date": "2026-12-01",
				"currency": "GBP", "subtotal": 480.0, "tax": 57.6, "total": 537.6}},
		"fr": {"Mutuelle Garonne Assurances\nAvis d'échéance n° AE-2026-3391\nDate : 01/12/2026\n" +
			"Prime nette   500,00 €\nTaxe sur les conventions d'assurance 9 %   45,00 €\nMontant total à payer   545,00 €",
			map[string]any{"vendor_name": "Mutuelle Garonne Assurances", "invoice_number": "AE-2026-3391", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 500.0, "tax": 45.0, "total": 545.0}},
		"it": {"Assicurazioni Lagunari S.p.A.\nQuietanza n. Q-2026-7781\nData 01/12/2026\n" +
			"Premio imponibile   400,00 €\nImposta sulle assicurazioni 22,25%   89,00 €\nTotale da pagare   489,00 €",
			map[string]any{"vendor_name": "Assicurazioni Lagunari S.p.A.", "invoice_number": "Q-2026-7781", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 400.0, "tax": 89.0, "total": 489.0}},
		"ch": {"Helvetia Alpina Versicherungen AG\nPrämienrechnung Nr. PR-2026-4410\nDatum 01.12.2026\n" +
			"Nettoprämie   CHF 600.00\nEidg. Stempelabgabe 5 %   CHF 30.00\nTotal Prämie   CHF 630.00",
			map[string]any{"vendor_name": "Helvetia Alpina Versicherungen AG", "invoice_number": "PR-2026-4410", "invoice_date": "2026-12-01",
				"currency": "CHF", "subtotal": 600.0, "tax": 30.0, "total": 630.0}},
		"es": {"Seguros Meseta S.A.\nRecibo n.º R-2026-0091\nFecha 01/12/2026\n" +
			"Prima neta   400,00 €\nImpuesto sobre las primas de seguros (IPS) 8 %   32,00 €\nTotal recibo   432,00 €",
			map[string]any{"vendor_name": "Seguros Meseta S.A.", "invoice_number": "R-2026-0091", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 400.0, "tax": 32.0, "total": 432.0}},
		"pt": {"Seguradora Atlântica S.A.\nAviso de pagamento n.º AP-2026-551\nData 01/12/2026\n" +
			"Prémio comercial   300,00 €\nImposto do selo 9 %   27,00 €\nTotal a pagar   327,00 €",
			map[string]any{"vendor_name": "Seguradora Atlântica S.A.", "invoice_number": "AP-2026-551", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 300.0, "tax": 27.0, "total": 327.0}},
		"nl": {"Noord Verzekeringen N.V.\nPremienota PN-2026-1180\nDatum 01-12-2026\n" +
			"Premie   500,00\nAssurantiebelasting 21%   105,00\nTe betalen   605,00 EUR",
			map[string]any{"vendor_name": "Noord Verzekeringen N.V.", "invoice_number": "PN-2026-1180", "invoice_date": "2026-12-01",
				"currency": "EUR", "subtotal": 500.0, "tax": 105.0, "total": 605.0}},
	}
	var cases []classCase
	for name, d := range docs {
		cases = append(cases,
			classCase{name + " right", d.text, d.rec, "", ""},
			classCase{name + " tax null", d.text, with(d.rec, "tax", nil), "tax", ""})
	}
	runClassCases(t, cases)
}

// A fuel receipt's fuel line is one item, not the total, when the receipt
// sums it with another item: the Polish "SUMA PLN" and "PTU" (the receipt's
// VAT) are labels like the German "Summe" and "MwSt".
func TestFuelLineIsNotTheTotal(t *testing.T) {
	const pl = "PKN Paliwa Sp. z o.o.\nStacja Paliw nr 4417\n2026-11-28 14:02\nPARAGON FISKALNY\n" +
		"ON Verva 45,20 l x 7,19   324,99 A\nMyjnia program 2   30,00 A\nSPRZEDAŻ OPODATKOWANA A   354,99\n" +
		"PTU A 23,00%   66,38\nSUMA PTU   66,38\nSUMA PLN   354,99\nKarta płatnicza   354,99"
	const de = "Tankstelle Müller GmbH\n28.11.2026 14:02\nSuper E10 38,50 l x 1,799 EUR   69,26 A\nWaschanlage Premium   12,00 A\n" +
		"Summe EUR   81,26\nMwSt A 19 %   12,97\nNetto   68,29\nGegeben EC-Karte   81,26"
	plRight := map[string]any{"vendor_name": "PKN Paliwa Sp. z o.o.", "invoice_date": "2026-11-28", "currency": "PLN", "tax": 66.38, "total": 354.99}
	deRight := map[string]any{"vendor_name": "Tankstelle Müller GmbH", "invoice_date": "2026-11-28", "currency": "EUR", "tax": 12.97, "total": 81.26}
	runClassCases(t, []classCase{
		{"pl right", pl, plRight, "", ""},
		{"pl fuel line as total", pl, with(plRight, "total", 324.99), "total", "354.99"},
		{"pl PTU as total", pl, with(plRight, "total", 66.38), "total", "PTU"},
		{"pl tax null", pl, with(plRight, "tax", nil), "tax", ""},
		{"de right", de, deRight, "", ""},
		{"de fuel line as total", de, with(deRight, "total", 69.26), "total", "81.26"},
	})
}

// The labels of the amount asked for ("Zahlbetrag", "Rechnungsbetrag", "Zu
// zahlender Beitrag", "Montant à payer", "Total à payer", "Amount to pay")
// are final: a sum printed above them under a plain total label is not the
// document's total when they print another figure.
func TestPayableLabelsAreFinal(t *testing.T) {
	const lines = "Los 8 Gemälde   2.200,00\nLos 19 Schale   850,00\nSumme Zuschläge   3.050,00\nAufgeld 25 %   762,50\nMwSt 19 % auf Aufgeld   144,88\n"
	const frLines = "Total adjudications   3 050,00\nFrais 25 % HT   762,50\nTVA 20 % sur frais   152,50\n"
	cases := []struct {
		name, text string
		right, sum float64
	}{
		{"zahlbetrag", "Kunsthaus Süd GmbH\n" + lines + "Zahlbetrag   3.957,38 EUR", 3957.38, 3050},
		{"rechnungsbetrag", "Kunsthaus Süd GmbH\n" + lines + "Rechnungsbetrag   3.957,38 EUR", 3957.38, 3050},
		{"montant à payer", "Hôtel des Ventes SAS\n" + frLines + "Montant à payer   3 965,00 €", 3965, 3050},
		{"total à payer", "Hôtel des Ventes SAS\n" + frLines + "Total à payer   3 965,00 €", 3965, 3050},
		{"zu zahlender beitrag", "Rheinland Versicherung AG\nBeitrag gesamt   700,00 EUR\nVersicherungsteuer 19 %   133,00 EUR\nZu zahlender Beitrag   833,00 EUR", 833, 700},
		{"amount to pay", "Harbour Auctions Ltd\nLots total   3,050.00\nBuyer's premium 25%   762.50\nGST on premium 10%   76.25\nAmount to pay   NZD 3,888.75", 3888.75, 3050},
	}
	var cc []classCase
	for _, c := range cases {
		cc = append(cc,
			classCase{c.name + " right", c.text, map[string]any{"total": c.right}, "", ""},
			classCase{c.name + " earlier sum as total", c.text, map[string]any{"total": c.sum}, "total", "but the document's final total is"})
	}
	runClassCases(t, cc)
}
