package pipeline

import "testing"

// currencyCases turns documents into a case that passes their printed
// currency and one that flags a plausible wrong one.
func currencyCases(docs []struct{ name, text, right, wrong, reason string }) []classCase {
	var cases []classCase
	for _, d := range docs {
		if d.right != "" {
			cases = append(cases, classCase{d.name + " right", d.text, map[string]any{"currency": d.right}, "", ""})
		}
		cases = append(cases, classCase{d.name + " as " + d.wrong, d.text, map[string]any{"currency": d.wrong}, "currency", d.reason})
	}
	return cases
}

// The ordinary currency printing of less common countries passes: a local
// sign or abbreviation (Gs., Lps., Lekë, Nu., RD$, TT$, FCFA) grounds the
// country's own currency, and a plausible wrong one (the dollar, a
// neighbour's currency) is still flagged.
func TestLocalCurrencyPrintingPasses(t *testing.T) {
	docs := []struct{ name, text, right, wrong, reason string }{
		{"paraguay", "Ferretería Asunción S.A.\nRUC 80012345-6\nAv. Mariscal López 1234, Asunción\nFactura N° 001-001-0004567\nFecha: 20/11/2026\nSubtotal Gs. 1.363.636\nIVA 10% Gs. 136.364\nTotal Gs. 1.500.000", "PYG", "USD", ""},
		{"mongolia", "Номин Трейд ХХК\nУлаанбаатар хот\nНэхэмжлэх № 2026/118\nОгноо: 2026.11.20\nДүн 100,000.00₮\nНӨАТ 10,000.00₮\nНийт 110,000.00₮", "MNT", "USD", "₮"},
		{"kazakhstan", "ТОО «Алматы Канцтовары»\nБИН 123456789012\nСчет на оплату № 452 от 20.11.2026\nСумма без НДС 100 000,00 тенге\nНДС 12% 12 000,00 тенге\nИтого к оплате 112 000,00 тенге", "KZT", "RUB", ""},
		{"georgia", "შპს ვაკე სერვისი\nს/კ 204567890\nInvoice No. 2026-311\nDate: 20.11.2026\nNet amount 500.00 GEL\nVAT 18% 90.00 GEL\nTotal 590.00 GEL", "GEL", "USD", ""},
		{"ghana", "Kumasi Office Supplies Ltd\nTIN C0012345678\nInvoice No: KOS-2291\nDate: 20/11/2026\nSubtotal GH₵ 1,000.00\nVAT 15% GH₵ 150.00\nTotal GH₵ 1,150.00", "GHS", "USD", "GH₵"},
		{"bolivia", "Librería La Paz S.R.L.\nNIT 1023456021\nLa Paz - Bolivia\nFactura N° 1187\nFecha: 20/11/2026\nSubtotal Bs 870,00\nTotal Bs 1.000,00", "BOB", "USD", ""},
		{"jordan", "Amman Trading Co.\nTax No. 12345678\nAmman, Jordan\nInvoice No. 5521\nDate: 20/11/2026\nSubtotal JD 100.000\nSales Tax 16% JD 16.000\nTotal JD 116.000", "JOD", "USD", ""},
		{"uzbekistan", "«Toshkent Savdo» MChJ\nSTIR 301234567\nHisob-faktura № 77\nSana: 20.11.2026\nJami: 1 120 000 сўм\nQQS 12%: 120 000 сўм", "UZS", "RUB", "сўм"},
		{"cambodia", "Phnom Penh Stationery Co., Ltd.\nVATTIN K001-901234567\nInvoice No. PP-3321\nDate: 20/11/2026\nSubtotal 400,000 ៛\nVAT 10% 40,000 ៛\nTotal 440,000 ៛", "KHR", "USD", "៛"},
		{"albania", "Tirana Print sh.p.k.\nNIPT L12345678A\nFaturë nr. 118/2026\nData: 20.11.2026\nVlera pa TVSH 10.000 Lekë\nTVSH 20% 2.000 Lekë\nTotali 12.000 Lekë", "ALL", "EUR", ""},
		{"honduras", "Ferretería San Pedro S. de R.L.\nRTN 05019012345678\nSan Pedro Sula, Honduras\nFactura No. 000-001-01-00004521\nFecha: 20/11/2026\nSubtotal Lps. 1,000.00\nISV 15% Lps. 150.00\nTotal Lps. 1,150.00", "HNL", "USD", ""},
		{"senegal", "Dakar Bureautique SARL\nNINEA 004567890 2G3\nDakar, Sénégal\nFacture N° 2026-414\nDate : 20/11/2026\nTotal HT 100 000 FCFA\nTVA 18% 18 000 FCFA\nTotal TTC 118 000 FCFA", "XOF", "XAF", "means XOF, not XAF"},
		{"fiji", "Nadi Hardware Ltd\nTIN 50-12345-0-1\nNadi, Fiji\nTax Invoice No. 7781\nDate: 20/11/2026\nVEP FJ$ 200.00\nVAT 15% FJ$ 30.00\nTotal FJ$ 230.00", "FJD", "USD", "FJ$"},
		{"bhutan", "Thimphu Traders\nTPN: TAC12345\nThimphu, Bhutan\nBill No. 3321\nDate: 20/11/2026\nTotal Nu. 2,500.00", "BTN", "INR", ""},
		{"dominican republic", "Ferretería Caribe SRL\nRNC 1-01-12345-6\nSanto Domingo, República Dominicana\nFactura No. B0100004521\nFecha: 20/11/2026\nSubtotal RD$ 3,813.56\nITBIS 18% RD$ 686.44\nTotal RD$ 4,500.00", "DOP", "USD", "RD$"},
		{"trinidad", "Port of Spain Traders Ltd\nVAT Reg. No. 123456\nInvoice No. 4410\nDate: 20/11/2026\nSubtotal TT$ 826.09\nVAT 12.5% TT$ 103.26\nAmount due TT$ 929.35", "TTD", "USD", "TT$"},
		{"zimbabwe", "Harare Supplies (Pvt) Ltd\nHarare, Zimbabwe\nInvoice 2231\nTotal Z$ 12,500.00", "ZWL", "USD", "Z$"},
	}
	runClassCases(t, currencyCases(docs))
}

// "FCFA" is the West African franc (XOF) in Senegal, Côte d'Ivoire, Mali,
// Burkina Faso, Niger, Togo, Benin and Guinea-Bissau, and the Central
// African franc (XAF) in Cameroon, Gabon, the Congo, Chad, the Central
// African Republic and Equatorial Guinea. The issuer's country (its name,
// capital, telephone code, tax identifier) decides; with none, either code
// is flagged for a reader to confirm.
func TestCFAFrancByIssuerCountry(t *testing.T) {
	docs := []struct{ name, text, right, wrong, reason string }{
		{"côte d'ivoire by phone and city", "Abidjan Fournitures SARL\nRCCM CI-ABJ-2019-B-12345\nTél. +225 27 20 30 40 50\nFacture N° 881\nTotal TTC 236 000 F CFA", "XOF", "XAF", `"Abidjan" places the issuer where it means XOF`},
		{"cameroon by NIU", "Douala Équipements SARL\nNIU M012345678901A\nTél. +237 6 99 12 34 56\nFacture N° 552\nTotal TTC 119 250 FCFA", "XAF", "XOF", "means XAF"},
		{"gabon by name", "Libreville Services SA\nBP 1234 Libreville, Gabon\nFacture N° 91\nMontant total : 50 000 FCFA", "XAF", "XOF", "means XAF"},
		{"benin by IFU", "Cotonou Bureautique SARL\nIFU 3201234567890\nCotonou, Bénin\nFacture N° 77\nTotal 45 000 CFA", "XOF", "XAF", "means XOF"},
		{"mali by phone only", "Société Sahel Matériaux SA\nTél. +223 20 22 33 44\nFacture N° 310\nNet à payer 612 500 FCFA", "XOF", "XAF", `"+223"`},
		{"chad by name", "Entreprise Chari Services\nN'Djamena, Tchad\nFacture N° 18\nTotal 90 000 FCFA", "XAF", "XOF", "means XAF"},
		{"togo by domain", "Lomé Imprim SARL\ncontact@lomeimprim.tg\nFacture N° 203\nTotal TTC 70 800 FCFA", "XOF", "XAF", "means XOF"},
		// A franc is no euro, however closely it is pegged.
		{"senegal as euro", "Dakar Bureautique SARL\nDakar, Sénégal\nFacture N° 415\nTotal TTC 118 000 FCFA", "", "EUR", ""},
		// No place: neither franc passes unread.
		{"no place, west", "Société Générale de Fournitures\nFacture N° 77\nTotal 45 000 FCFA", "", "XOF", "XOF, XAF"},
		{"no place, central", "Société Générale de Fournitures\nFacture N° 77\nTotal 45 000 FCFA", "", "XAF", "names no place"},
		// Places of both zones (a Cameroonian buyer of a Senegalese
		// seller): the document does not settle it alone.
		{"both zones", "Dakar Bureautique SARL\nDakar, Sénégal\nClient : Douala Équipements, Cameroun\nFacture N° 416\nTotal TTC 118 000 FCFA", "", "XOF", "more than one"},
	}
	runClassCases(t, currencyCases(docs))
}

// Signs several countries print: a one-letter sign ("L", "Q", "K") or
// Panama's "B/." is its currency only where the document places its
// issuer; "C$" is Canada's dollar unless the issuer is in Nicaragua (the
// córdoba), "lei" Romania's unless it is in Moldova, and "Rs" India's
// rupee unless the issuer is in Sri Lanka, Pakistan, Nepal, Mauritius or
// the Seychelles, which flags an INR (their own rupees are not yet
// grounded by "Rs": see placedSign).
func TestSignsTheIssuersPlaceDecides(t *testing.T) {
	docs := []struct{ name, text, right, wrong, reason string }{
		{"honduras L", "Comercial Tegucigalpa S. de R.L.\nRTN 08019012345678\nTegucigalpa, Honduras\nFactura 221\nTotal L 1,150.00", "HNL", "USD", ""},
		{"albania L", "Tirana Market sh.p.k.\nNIPT K12345678B\nTiranë, Shqipëri\nFaturë 221\nTotali L 12,000.00", "ALL", "HNL", "means ALL, not HNL"},
		{"guatemala Q", "Librería Guatemala S.A.\nNIT 1234567-8\nCiudad de Guatemala\nFactura 221\nTotal Q 1,120.00", "GTQ", "USD", ""},
		{"papua new guinea K", "Port Moresby Hardware Ltd\nPort Moresby, Papua New Guinea\nInvoice 221\nTotal K 1,100.00", "PGK", "ZMW", "means PGK"},
		{"zambia K", "Lusaka Office Ltd\nTPIN 1001234567\nLusaka, Zambia\nInvoice 221\nTotal K 1,160.00", "ZMW", "PGK", "means ZMW"},
		{"panama B/.", "Ferretería Panamá S.A.\nRUC 155612345-2-2015 DV 45\nCiudad de Panamá\nFactura 221\nTotal B/. 1,070.00", "PAB", "USD", ""},
		{"nicaragua C$", "Ferretería Managua S.A.\nRUC J0310000012345\nManagua, Nicaragua\nFactura No. 1122\nTotal C$ 3,680.00", "NIO", "CAD", `"Nicaragua" places the issuer where it means NIO`},
		{"canada C$", "Maple Office Supplies Inc.\nToronto, Ontario\nInvoice 1122\nTotal C$ 368.00", "CAD", "NIO", "means CAD"},
		{"moldova lei", "Chișinău Comerț SRL\nIDNO 1003600123456\nChișinău, Republica Moldova\nFactura 221\nTotal 1 200,00 lei", "MDL", "RON", "means MDL"},
		{"romania lei", "Magazin Central SRL\nCUI RO12345678\nBucurești, România\nFactura 221\nTotal 150,00 lei", "RON", "MDL", "means RON"},
		{"india Rs", "Sharma Traders Pvt Ltd\nGSTIN 27ABCDE1234F1Z5\nMumbai, India\nInvoice 221\nTotal Rs. 1,180.00", "INR", "LKR", ""},
		{"sri lanka Rs as INR", "Colombo Hardware (Pvt) Ltd\nNo. 45, Galle Road, Colombo 03, Sri Lanka\nInvoice No: CH/2026/884\nTotal Rs. 11,800.00", "", "INR", `"Sri Lanka" places the issuer where it means LKR`},
		{"pakistan Rs as INR", "Lahore Traders (Pvt.) Ltd.\nNTN 1234567-8\nLahore, Pakistan\nSales Tax Invoice 884\nTotal Rs 11,800", "", "INR", "means PKR"},
		// A letter alone with no place is a size or a unit as often.
		{"L with no place", "Comercial Central\nFactura 221\nTotal L 1,150.00", "", "HNL", "names no place"},
		{"Q with no place", "Comercial Central\nFactura 221\nTotal Q 1,120.00", "", "GTQ", "names no place"},
	}
	cases := currencyCases(docs)
	// With no place, a sign's conventional reading still passes.
	cases = append(cases,
		classCase{"bare C$ is canadian", "Office Supplies Inc.\nInvoice 1122\nTotal C$ 368.00", map[string]any{"currency": "CAD"}, "", ""},
		classCase{"bare Rs is indian", "Sharma Traders\nInvoice 221\nTotal Rs. 1,180.00", map[string]any{"currency": "INR"}, "", ""},
		classCase{"bare lei is romanian", "Magazin Central SRL\nTotal 150,00 lei", map[string]any{"currency": "RON"}, "", ""})
	runClassCases(t, cases)
}
