package pipeline

import "testing"

// A dollar sign with a prefix ("FJ$", "NT$", "RD$") names its own dollar, and
// the local sign or abbreviation of a less common currency (₾, ден, KM, лв,
// GH₵, S/) grounds it: the right currency passes, a wrong one (USD above all)
// is flagged.
func TestPrefixedDollarsAndLocalSigns(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct{ name, text, right, wrong string }{
		{"fiji", "Suva Hardware Ltd\nSuva, Fiji\nTotal FJ$ 120.00", "FJD", "USD"},
		{"jamaica", "Kingston Office Supplies\nTotal J$ 12,800.00", "JMD", "USD"},
		{"eastern caribbean", "Castries Marine Ltd\nTotal EC$ 310.50", "XCD", "USD"},
		{"taiwan", "Taipei Stationery Co., Ltd.\nTotal NT$ 1,250.00", "TWD", "USD"},
		{"namibia", "Windhoek Auto Parts (Pty) Ltd\nTotal N$ 2,340.00", "NAD", "USD"},
		{"guyana", "Georgetown Supplies Inc\nTotal G$ 18,000.00", "GYD", "USD"},
		{"cayman", "Grand Cayman Marine Ltd\nBalance due CI$ 845.00", "KYD", "USD"},
		{"barbados", "Bridgetown Bakery Ltd\nTotal Bds$ 64.00", "BBD", "USD"},
		{"macau", "Loja Estrela Lda\nTotal MOP$ 388.00", "MOP", "HKD"},
		{"georgia", "შპს თბილისი მარკეტი\nTotal 45.00 ₾", "GEL", "USD"},
		{"azerbaijan", "Baku Ofis MMC\nCəmi 120.00 ₼", "AZN", "EUR"},
		{"armenia", "Yerevan Market LLC\nTotal 12,500 ֏", "AMD", "USD"},
		{"kazakhstan", "ТОО Алматы Маркет\nИтого 8 400 ₸", "KZT", "RUB"},
		{"north macedonia", "Скопје Маркет ДООЕЛ\nВкупно 1.250,00 ден", "MKD", "EUR"},
		{"bulgaria", "Софийски пазар ЕООД\nОбщо 48,00 лв", "BGN", "EUR"},
		{"romania", "Magazin Central SRL\nTotal 150,00 Lei", "RON", "EUR"},
		{"ghana", "Accra Traders Ltd\nTotal GH₵ 320.00", "GHS", "USD"},
		{"peru", "Librería Lima S.A.C.\nTotal S/ 85.00", "PEN", "USD"},
		{"costa rica", "Soda San José S.A.\nTotal ₡ 12.500", "CRC", "USD"},
		{"laos", "Vientiane Shop\nTotal 85,000 ₭", "LAK", "USD"},
		{"cambodia", "Phnom Penh Mart\nTotal 40,000 ៛", "KHR", "USD"},
		{"mongolia", "Улаанбаатар Маркет ХХК\nНийт 25,000 ₮", "MNT", "USD"},
		{"tanzania", "Dar es Salaam Stores Ltd\nTotal TSh 45,000.00", "TZS", "KES"},
		{"uganda", "Kampala Supplies Ltd\nTotal USh 120,000", "UGX", "KES"},
		{"nepal", "Kathmandu Traders Pvt Ltd\nTotal रु 2,400.00", "NPR", "INR"},
		{"paraguay", "Comercial Asunción S.A.\nTotal ₲ 150.000", "PYG", "USD"},
		{"myanmar", "Yangon Mart Co., Ltd\nTotal 12,000 Ks", "MMK", "USD"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases,
			classCase{d.name + " right", d.text, c(d.right), "", ""},
			classCase{d.name + " as " + d.wrong, d.text, c(d.wrong), "currency", ""})
	}
	// Abbreviations that are also words or units (KM, KD, BD, DT) ground
	// their own currency without deciding another document's.
	for _, w := range []struct{ name, text, code string }{
		{"bosnia", "Sarajevo Market d.o.o.\nUkupno KM 58,00", "BAM"},
		{"kuwait", "Kuwait Trading Co. W.L.L.\nTotal KD 12.500", "KWD"},
		{"bahrain", "Manama Stores W.L.L.\nTotal BD 8.250", "BHD"},
		{"tunisia", "Société Tunis Commerce SARL\nTotal 45,500 DT", "TND"},
	} {
		cases = append(cases, classCase{w.name + " right", w.text, c(w.code), "", ""},
			classCase{w.name + " as usd", w.text, c("USD"), "currency", ""})
	}
	cases = append(cases,
		// "B$" is Brunei's dollar and the Bahamas': a wrong USD is flagged.
		classCase{"brunei as usd", "Bandar Seri Begawan Mart\nTotal B$ 42.00", c("USD"), "currency", ""},
		// The prefix says it is no USD (TestLocalCurrencyPrintingPasses
		// passes their own DOP and TTD).
		classCase{"dominican as usd", "Ferretería Caribe SRL\nTotal RD$ 4,500.00", c("USD"), "currency", ""},
		classCase{"trinidad as usd", "Port of Spain Traders Ltd\nAmount due TT$ 950.00", c("USD"), "currency", ""},
		// A bare "$" still reads by the issuer's country, and a distance in
		// km decides nothing about a ringgit receipt.
		classCase{"bare dollar", "Sydney Cafe Pty Ltd\nTotal $ 12.00", c("AUD"), "", ""},
		classCase{"km is a distance", "KEDAI TEKSI SDN BHD\nJARAK 12.50 KM\nTOTAL RM 30.00", c("MYR"), "", ""},
	)
	runClassCases(t, cases)
}
