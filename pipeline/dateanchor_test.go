package pipeline

import "testing"

// A letter dates itself after its place ("Casablanca, le 20 novembre 2026",
// "München, 20.11.2026", "Київ, 10 листопада 2026 р.") and Taiwan heads a
// document with its era date (中華民國115年11月10日): with no label, that date
// is still the document's own, so another date the record gives (an item
// line's visit, the day the work was done, a supply) is flagged against it,
// and the heading's date passes.
func TestDateHeadingALetterIsTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	ma := "Cabinet Médical Dr Benali\nCasablanca, le 20 novembre 2026\nNote d'honoraires n° 4471\n" +
		"Actes :\n05/11/2026  Consultation    300,00\n12/11/2026  Contrôle        200,00\nTotal 500,00 MAD"
	de := "Elektro Huber GmbH\nMünchen, 20.11.2026\nRechnung 4471\nArbeiten ausgeführt 14.11.2026\nGesamt 214,20 EUR"
	ua := "ТОВ «Сонячний край»\nКиїв, 10 листопада 2026 р.\nРахунок № 4471\nПоставка 05.11.2026\nРазом 12 000,00 грн"
	es := "Hotel Mirador S.L.\nFactura 4471\nMálaga, 13 de noviembre de 2026\nEstancia 10/11/2026 - 13/11/2026\n" +
		"10/11/2026 Habitación 120,00\nTotal 360,00 €"
	ch := "Atelier Rochat Sàrl\nGenève, le 14.11.2026\nFacture 4471\nTravaux du 03.11.2026\nTotal CHF 1 200.00"
	tw := "大同電器股份有限公司\n中華民國115年11月10日\n發票號碼 AB-12345678\n115/11/05 出貨 電視\n總計 NT$5,250"
	runDateCases(t, []classCase{
		{"MA heading date", ma, d("2026-11-20"), "", ""},
		{"MA visit on an item line", ma, d("2026-11-05"), "invoice_date", "document labels (2026-11-20)"},
		{"DE heading date", de, d("2026-11-20"), "", ""},
		{"DE day of the work", de, d("2026-11-14"), "invoice_date", "document labels (2026-11-20)"},
		{"UA heading date", ua, d("2026-11-10"), "", ""},
		{"UA supply date", ua, d("2026-11-05"), "invoice_date", "document labels (2026-11-10)"},
		{"ES heading date", es, d("2026-11-13"), "", ""},
		{"ES arrival", es, d("2026-11-10"), "invoice_date", "document labels (2026-11-13)"},
		{"CH heading date", ch, d("2026-11-14"), "", ""},
		{"CH works date", ch, d("2026-11-03"), "invoice_date", "document labels (2026-11-14)"},
		{"TW era heading", tw, d("2026-11-10"), "", ""},
		{"TW shipment on an item line", tw, d("2026-11-05"), "invoice_date", "document labels (2026-11-10)"},
	})
}

// Dates in other calendars and in the month names of more languages: the
// Republic of China's year (民國115年 and 115/11/10 are 2026), Japan's Reiwa
// year written out or abbreviated (令和8年, R8.11.10), Ukrainian and
// Portuguese month names. The Gregorian date is grounded on the printed one;
// a Hijri year copied as printed (1448-05-20) is never an invoice date.
func TestEraHijriAndMonthNameDates(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	tw := "大同電器股份有限公司\n發票號碼: AB-12345678\n中華民國115年11月10日\n付款期限: 115年11月30日\n總計 NT$5,250"
	twNum := "大同電器股份有限公司\n發票號碼: AB-12345678\n日期: 115/11/10\n出貨日期: 115/11/12\n總計 NT$5,250"
	jp := "株式会社さくら商事\n請求書番号: 4471\n令和8年11月10日\n合計 ¥55,000"
	jpAbbr := "株式会社さくら商事\n請求書番号: 4471\n発行日: R8.11.10\n合計 ¥55,000"
	sa := "مؤسسة النور للتجارة\nفاتورة ضريبية رقم 4471\nالتاريخ: 2026-11-10 م الموافق 1448-05-20 هـ\nالإجمالي 1,150.00 ر.س"
	saEN := "Al Noor Trading Est.\nTax Invoice 4471\n10-11-2026\n20-05-1448H\nTotal SAR 1,150.00"
	ua := "ТОВ «Сонячний край»\nРахунок № 4471 від 10 листопада 2026 р.\nТермін оплати: 24 листопада 2026 р.\nРазом 12 000,00 грн"
	pt := "Hotel Sol Lda\nFatura 4471\nLisboa, 14 de novembro de 2026\nCheck-out: 14/11/2026\nTotal 400,00 €"
	runDateCases(t, []classCase{
		{"TW ROC heading", tw, d("2026-11-10"), "", ""},
		{"TW ROC due date", tw, d("2026-11-30"), "invoice_date", "付款期限"},
		{"TW ROC year as printed", tw, d("0115-11-10"), "invoice_date", "before 1970"},
		{"TW ROC numeric", twNum, d("2026-11-10"), "", ""},
		{"TW ROC numeric shipment", twNum, d("2026-11-12"), "invoice_date", "出貨日期"},
		{"TW ROC year read as 2015", twNum, d("2015-11-10"), "invoice_date", "not found"},
		{"JP Reiwa", jp, d("2026-11-10"), "", ""},
		{"JP Reiwa abbreviated", jpAbbr, d("2026-11-10"), "", ""},
		{"SA Gregorian", sa, d("2026-11-10"), "", ""},
		{"SA Hijri as printed", sa, d("1448-05-20"), "invoice_date", "Hijri"},
		{"SA Gregorian, English", saEN, d("2026-11-10"), "", ""},
		{"SA Hijri as printed, English", saEN, d("1448-05-20"), "invoice_date", "Hijri"},
		{"UA від", ua, d("2026-11-10"), "", ""},
		{"UA due date", ua, d("2026-11-24"), "invoice_date", "Термін оплати"},
		{"PT novembro heading, same day as check-out", pt, d("2026-11-14"), "", ""},
	})
}

// A stay's first day and the next appointment are never the issue date, even
// where a folio's item lines print the first night's date again: one
// printing under such a label names the date, unless another printing stands
// alone (a day-use room billed the day it is let).
func TestArrivalRepeatedOnItemLinesIsNotTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	au := "Harbour View Hotel\nTax Invoice HV-88213\n14/11/2026\nArrival      Departure     Room\n10/11/2026   14/11/2026    101\n" +
		"10/11/2026 Room charge 220.00\n11/11/2026 Room charge 220.00\nTotal AUD 880.00"
	pt := "Hotel Sol Lda\nFatura 4471\nLisboa, 14 de novembro de 2026\nCheck-in: 10/11/2026\nCheck-out: 14/11/2026\n" +
		"10/11/2026 Alojamento 100,00\n11/11/2026 Alojamento 100,00\nTotal 400,00 €"
	us := "Harbour View Hotel\nINVOICE HV-88213\n14 Nov 2026\nArr: 10 Nov 2026  Dep: 14 Nov 2026\n10 Nov 2026 Room 220.00\nTotal USD 880.00"
	dayUse := "Airport Rest Hotel\nINVOICE 4471\n14/11/2026\nArrival: 14/11/2026\nDay use 60.00\nTotal GBP 60.00"
	runDateCases(t, []classCase{
		{"AU issue date", au, d("2026-11-14"), "", ""},
		{"AU arrival column, repeated on item lines", au, d("2026-11-10"), "invoice_date", "Arrival"},
		{"PT issue date", pt, d("2026-11-14"), "", ""},
		{"PT check-in, repeated on item lines", pt, d("2026-11-10"), "invoice_date", "Check-in"},
		{"US issue date", us, d("2026-11-14"), "", ""},
		{"US Arr:", us, d("2026-11-10"), "invoice_date", "Arr"},
		{"day use: the arrival day printed alone too", dayUse, d("2026-11-14"), "", ""},
	})
}

// A Vietnamese invoice prints its issue date under its title in words,
// "Ngày 10 tháng 11 năm 2026": another date the record gives (a delivery
// or an order printed with a label the lists do not know) is flagged
// against it, and the heading's date passes.
func TestVietnameseHeadingDateIsTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	vn := "Công ty TNHH Minh Long\nHÓA ĐƠN GIÁ TRỊ GIA TĂNG\nNgày 10 tháng 11 năm 2026\nKý hiệu: 1C26TML  Số: 0004471\n" +
		"Đơn đặt hàng 25/10/2026\nTổng cộng 1.100.000 VND"
	runDateCases(t, []classCase{
		{"VN heading date", vn, d("2026-11-10"), "", ""},
		{"VN order date", vn, d("2026-10-25"), "invoice_date", "document labels (2026-11-10)"},
	})
}
