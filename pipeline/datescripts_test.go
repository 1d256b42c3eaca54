package pipeline

import "testing"

// Class "a shape the checks do not read": a date written with a Russian
// month name ("26 ноября 2026 г.") or a Thai month and Buddhist-era year
// ("12 มีนาคม 2569", "12 มี.ค. 2569") is the document's date: the right
// value is grounded on it, a wrong one is not, and another labelled date
// taken instead is told from it.
func TestMonthNamesInMoreScripts(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	ru := "ООО «Северный ветер»\nИНН 7701234567\nСчёт № 318 от 26 ноября 2026 г.\nДата заказа: 20.11.2026\n" +
		"Итого к оплате: 14 400,00 руб."
	ruMay := "ИП Смирнова А.В.\nТоварный чек № 41\nДата: 3 мая 2026 г.\nИтого: 1 250,00 ₽"
	th := "บริษัท สยามเทรดดิ้ง จำกัด\nใบกำกับภาษี เลขที่ IV6911-0042\nวันที่ 12 มีนาคม 2569\nยอดสุทธิ 1,070.00 บาท"
	thAbbr := "ร้านกาแฟบ้านสวน\nใบเสร็จรับเงิน เลขที่ 0188\nวันที่ 5 พ.ย. 2569\nยอดสุทธิ 205.00 บาท"
	el := "ΗΛΕΚΤΡΟΝΙΚΑ ΠΑΠΑΔΟΠΟΥΛΟΣ Α.Ε.\nΤΙΜΟΛΟΓΙΟ Αρ. 4471\nΗμερομηνία: 14 Νοεμβρίου 2026\nΣΥΝΟΛΟ 49,90 €"
	runDateCases(t, []classCase{
		{"russian month name right", ru, d("2026-11-26"), "", ""},
		{"russian month name, another day", ru, d("2026-11-27"), "invoice_date", "not found"},
		{"russian order date beside it", ru, d("2026-11-20"), "invoice_date", "Дата заказа"},
		{"russian may right", ruMay, d("2026-05-03"), "", ""},
		{"thai month, buddhist year, converted", th, d("2026-03-12"), "", ""},
		{"thai month, buddhist year left", th, d("2569-03-12"), "invoice_date", "Buddhist-era"},
		{"thai month, another day", th, d("2026-03-13"), "invoice_date", "not found"},
		{"thai abbreviated month right", thAbbr, d("2026-11-05"), "", ""},
		{"thai abbreviated month, another month", thAbbr, d("2026-05-11"), "invoice_date", "not found"},
		{"greek month right", el, d("2026-11-14"), "", ""},
		{"greek month, another day", el, d("2026-11-15"), "invoice_date", "not found"},
	})
}

// A Russian document dates itself after its number ("Счёт № 318 от 26
// ноября 2026 г.") and dates the contract it cites the same way ("Договор
// № 12 от 15.01.2025"): "от" after the document's own number is its issue
// date, after another document's number that document's date.
func TestRussianDatedAfterTheNumber(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	ru := "ООО «Ромашка»\nДоговор № 12 от 15.01.2025\nЗаказ получен 20.11.2026\n" +
		"Счёт № 318 от 26 ноября 2026 г.\nИтого: 14 400,00 руб."
	runDateCases(t, []classCase{
		{"issue date right", ru, d("2026-11-26"), "", ""},
		{"an unlabelled date", ru, d("2026-11-20"), "invoice_date", "2026-11-26"},
		{"contract date", ru, d("2025-01-15"), "invoice_date", "Договор"},
	})
}
