package pipeline

import "testing"

// The issue date written in a form the numeric checks do not anchor (native
// digits, a month in words, "Place, le 20 novembre 2026" heading a letter)
// still dates the document: a record giving the delivery, service,
// tax-event or due date printed beside it is flagged, and the issue date
// itself passes.
func TestIssueDateInWordsOrNativeDigitsAnchors(t *testing.T) {
	fr := "SÉNÉGAL SERVICES SARL\nDakar, le 20 novembre 2026\nFACTURE N° 2026-118\nPrestation réalisée le 17/11/2026\nTotal TTC  1 180 000 FCFA"
	es := "TALLERES MENDOZA S.A.\nMendoza, 20 de noviembre de 2026\nFactura B 0003-00001234\nFecha de entrega: 18/11/2026\nTotal  $ 84.700,00"
	pl := "BUDMAT Sp. z o.o.\nKraków, 5 listopada 2026 r.\nFaktura VAT nr FV/118/2026\nData dostawy: 02.11.2026\nRazem  1 230,00 zł"
	lv := "SIA Baltijas Serviss\nRēķins Nr. BS-2026/118\n2026. gada 5. novembrī\nPiegādes datums: 03.11.2026\nKopā apmaksai  484,00 EUR"
	my := "ရွှေမြန်မာ ကုမ္ပဏီ\nငွေတောင်းခံလွှာ အမှတ် ၁၁၈\nရက်စွဲ - ၂၀/၁၁/၂၀၂၆\nပို့ဆောင်သည့်ရက် - ၁၇/၁၁/၂၀၂၆\nစုစုပေါင်း ၁၂၀,၀၀၀ ကျပ်"
	eg := "شركة النيل للتوريدات\nفاتورة رقم ١١٨\nالتاريخ: ٢٠/١١/٢٠٢٦\nتاريخ التوريد: ١٦/١١/٢٠٢٦\nالإجمالي ١٢٬٥٠٠٫٠٠ ج.م"
	in := "शर्मा ट्रेडर्स\nबीजक संख्या: ११८\nदिनांक: २०/११/२०२६\nडिलीवरी तिथि: १७/११/२०२६\nकुल ₹ ४,७२०.००"
	cz := "STAVBY NOVÁK s.r.o.\nPraha, dne 5. listopadu 2026\nFaktura č. 2026010045\nPráce provedeny 2. 11. 2026\nCelkem k úhradě  58 685,00 Kč"
	ru := "ООО «Север»\nМосква, 20 ноября 2026 г.\nСчёт № 418\nУслуги оказаны 17.11.2026\nИтого  84 000,00 руб."
	cols := "ACME TRADING LLC                      BILL TO: Gulf Foods FZE\nInvoice Date:                         Delivery Date:\n20/11/2026                            17/11/2026\nInvoice No. AT-2026-118\nTotal  AED 4,200.00"
	date := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	runClassCases(t, []classCase{
		{"CZ place, dne …", cz, date("2026-11-02"), "invoice_date", "2026-11-05"},
		{"CZ issue date right", cz, date("2026-11-05"), "", ""},
		{"RU place, … г.", ru, date("2026-11-17"), "invoice_date", "2026-11-20"},
		{"RU issue date right", ru, date("2026-11-20"), "", ""},
		{"two columns: delivery under its heading", cols, date("2026-11-17"), "invoice_date", ""},
		{"two columns: issue date right", cols, date("2026-11-20"), "", ""},
		{"FR place, le … heading", fr, date("2026-11-17"), "invoice_date", "2026-11-20"},
		{"FR issue date right", fr, date("2026-11-20"), "", ""},
		{"ES place, de … de", es, date("2026-11-18"), "invoice_date", "2026-11-20"},
		{"ES issue date right", es, date("2026-11-20"), "", ""},
		{"PL place, genitive month", pl, date("2026-11-02"), "invoice_date", "2026-11-05"},
		{"PL issue date right", pl, date("2026-11-05"), "", ""},
		{"LV word date under the number", lv, date("2026-11-03"), "invoice_date", "Piegādes datums"},
		{"LV issue date right", lv, date("2026-11-05"), "", ""},
		{"MY Burmese digits", my, date("2026-11-17"), "invoice_date", "2026-11-20"},
		{"MY issue date right", my, date("2026-11-20"), "", ""},
		{"EG Arabic-Indic digits", eg, date("2026-11-16"), "invoice_date", ""},
		{"EG issue date right", eg, date("2026-11-20"), "", ""},
		{"IN Devanagari digits", in, date("2026-11-17"), "invoice_date", "2026-11-20"},
		{"IN issue date right", in, date("2026-11-20"), "", ""},
	})
}
