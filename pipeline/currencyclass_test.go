package pipeline

import "testing"

// A bare "$" on a document from a peso country is that country's peso, not
// USD: the issuer's tax identifier (an Argentine CUIT, a Chilean R.U.T., a
// Colombian NIT) decides, as the script decides a "¥".
func TestPesoDollarSignByIssuerCountry(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	const ar = "AUTOPISTAS DEL SOL S.A.\nComprobante 0009-00481122\nImporte $ 2.350,00\nCUIT 30-12345678-9"
	const cl = "COMERCIAL ANDES LIMITADA\nR.U.T.: 96.555.444-3\nMONTO NETO $ 1.500.000\nTOTAL $ 1.785.000"
	const co = "ALMACENES ÉXITO S.A.\nNIT 890.900.608-9\nSubtotal $ 84.033\nTotal $ 100.000"
	runClassCases(t, []classCase{
		{"argentine cuit", ar, c("USD"), "currency", "points to ARS, not USD"},
		{"chilean rut", cl, c("USD"), "currency", "points to CLP, not USD"},
		{"colombian nit", co, c("USD"), "currency", "points to COP, not USD"},
		{"argentine peso right", ar, c("ARS"), "", ""},
		{"chilean peso right", cl, c("CLP"), "", ""},
		{"colombian peso right", co, c("COP"), "", ""},
		// A document that states USD is USD whatever its issuer's country.
		{"stated usd", "AUTOPISTAS DEL SOL S.A.\nCUIT 30-12345678-9\nImporte USD 2.350,00", c("USD"), "", ""},
	})
}

// A sign or local abbreviation printed next to the amounts (₪, ₦, TL, Kč,
// Ft, KSh, บาท, ر.س) grounds its currency and contradicts another one; a
// currency code on a line of its own states the currency of the amounts
// above it.
func TestLocalCurrencySignsAndCodeAlone(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct{ name, text, code string }{
		{"shekel", "אופק מחשבים בע\"מ\nסה\"כ לתשלום ₪ 4,956.00", "ILS"},
		{"naira", "Lagos Office Hub Ltd\nTotal: ₦1,343,750.00", "NGN"},
		{"lira", "ÖZDEMİR GIDA LTD. ŞTİ.\nÖdenecek Tutar 2.640,00 TL", "TRY"},
		{"koruna", "Novák stavby s.r.o.\nCelkem k úhradě 58 685,00 Kč", "CZK"},
		{"forint", "Kovács és Társa Kft.\nBruttó végösszeg: 152 400,00 Ft", "HUF"},
		{"shilling", "NAIVAS SUPERMARKET\nTOTAL KSh 384.00", "KES"},
		{"baht", "ร้านกาแฟบ้านสวน\nยอดสุทธิ 205.00 บาท", "THB"},
		{"riyal", "مؤسسة الريان\nالإجمالي 9,200.00 ر.س", "SAR"},
		{"code alone on the last line", "Brightwater Utilities Ltd\nTotal credit -144.00\nGBP", "GBP"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases, classCase{d.name + " right", d.text, c(d.code), "", ""})
		if d.code != "GBP" {
			cases = append(cases, classCase{d.name + " as usd", d.text, c("USD"), "currency", "USD"})
		}
	}
	// A code inside an address line is no statement of the currency.
	cases = append(cases, classCase{"code in an address", "Lot 5, SEK U2, Kuala Lumpur\nTotal RM 9.00", c("SEK"), "currency", ""})
	runClassCases(t, cases)
}

// Space-grouped whole amounts closed by their currency ("32 400 Ft",
// "120 000 Kč") are one amount, as "2 400 000,00" is; without the currency
// "1 193" stays a quantity and a price.
func TestSpaceGroupedWholeAmountWithCurrency(t *testing.T) {
	const hu = "Kovács és Társa Kft.\nNettó érték: 120 000 Ft\nÁFA 27%: 32 400 Ft\nBruttó végösszeg: 152 400 Ft"
	m := func(kv ...any) map[string]any {
		r := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			r[kv[i].(string)] = kv[i+1]
		}
		return r
	}
	runClassCases(t, []classCase{
		{"hungarian right", hu, m("currency", "HUF", "subtotal", 120000.0, "tax", 32400.0, "total", 152400.0), "", ""},
		{"hungarian tax read as its first group", hu, m("tax", 32.0), "tax", ""},
	})
	got := FindAmounts("Bruttó végösszeg: 152 400 Ft")
	if len(got) != 1 || got[0].Value != 152400 {
		t.Errorf("152 400 Ft: %+v", got)
	}
	if got := FindAmounts("1 193 pcs"); len(got) == 1 && got[0].Value == 1193 {
		t.Errorf("1 193 without a currency read as one amount: %+v", got)
	}
}
