package pipeline

import (
	"testing"
)

// Egyptian, Saudi and Iranian documents print their amounts, numbers and
// dates in Arabic-Indic (٠-٩) or Persian (۰-۹) digits, with ٫ as the
// decimal and ٬ as the thousands separator. A record that writes them in
// ASCII digits is read against them as against any other script: the true
// record passes, a wrong value is flagged for what it is, not as "not found".
func TestArabicIndicDigitsAreRead(t *testing.T) {
	eg := "شركة النيل للتجارة ش.م.م\nفاتورة ضريبية\nرقم الفاتورة: ٢٠٢٦/٠٤١٢\nالتاريخ: ١٥/١١/٢٠٢٦\n" +
		"تاريخ الاستحقاق: ٣٠/١١/٢٠٢٦\nالإجمالي قبل الضريبة: ١٬٠٠٠٫٠٠ ج.م\nضريبة القيمة المضافة ١٤٪: ١٤٠٫٠٠ ج.م\n" +
		"الإجمالي: ١٬١٤٠٫٠٠ ج.م"
	egRec := map[string]any{"vendor_name": "شركة النيل للتجارة ش.م.م", "invoice_number": "2026/0412",
		"invoice_date": "2026-11-15", "subtotal": 1000.0, "tax": 140.0, "total": 1140.0}
	sa := "مؤسسة الريان للمقاولات\nفاتورة ضريبية مبسطة\nالرقم الضريبي: ٣٠٠١٢٣٤٥٦٧٠٠٠٠٣\nرقم الفاتورة: ٨٨٢١\n" +
		"التاريخ: ٠٣/١١/٢٠٢٦\nالمجموع الفرعي ٥٠٠٫٠٠\nضريبة القيمة المضافة ١٥٪ ٧٥٫٠٠\nالإجمالي شامل الضريبة ٥٧٥٫٠٠ ر.س"
	saRec := map[string]any{"vendor_name": "مؤسسة الريان للمقاولات", "invoice_number": "8821",
		"invoice_date": "2026-11-03", "subtotal": 500.0, "tax": 75.0, "total": 575.0}
	ir := "فروشگاه کتاب پارسیان\nشماره فاکتور: ۴۵۲۱\nجمع کالاها: ۱۲٬۰۰۰٬۰۰۰ ریال\nمالیات بر ارزش افزوده ۱۰٪: ۱٬۲۰۰٬۰۰۰ ریال\n" +
		"مبلغ قابل پرداخت: ۱۳٬۲۰۰٬۰۰۰ ریال"
	irRec := map[string]any{"vendor_name": "فروشگاه کتاب پارسیان", "invoice_number": "4521",
		"subtotal": 12000000.0, "tax": 1200000.0, "total": 13200000.0}
	runClassCases(t, []classCase{
		{"EG true record", eg, egRec, "", ""},
		{"EG rate as tax", eg, with(egRec, "tax", 14.0), "tax", "140.00"},
		{"EG subtotal as total", eg, with(egRec, "total", 1000.0), "total", "الإجمالي قبل الضريبة"},
		{"EG another number", eg, with(egRec, "invoice_number", "2026/0413"), "invoice_number", "not found"},
		{"EG due date", eg, with(egRec, "invoice_date", "2026-11-30"), "invoice_date", "تاريخ الاستحقاق"},
		{"SA true record", sa, saRec, "", ""},
		{"SA tax number as the number", sa, with(saRec, "invoice_number", "300123456700003"), "invoice_number", "الرقم الضريبي"},
		{"SA commercial register as the number", sa + "\nسجل تجاري: ١٠١٠٢٣٤٥٦٧", with(saRec, "invoice_number", "1010234567"), "invoice_number", "سجل تجاري"},
		{"SA C.R. No. as the number", sa + "\nC.R. No. 1010234567", with(saRec, "invoice_number", "1010234567"), "invoice_number", "C.R. No."},
		{"SA subtotal as total", sa, with(saRec, "total", 500.0), "total", "المجموع الفرعي"},
		{"IR true record", ir, irRec, "", ""},
		{"IR tax as total", ir, with(irRec, "total", 1200000.0), "total", "مالیات"},
	})
	// Numeric dates in Arabic-Indic digits are day first, as in the
	// countries that print them.
	day := "فاتورة رقم ٤٥٢١\nالتاريخ ٠٥/٠٤/٢٠٢٦\nالإجمالي ٩٬٢٠٠٫٠٠"
	runDateCases(t, []classCase{
		{"day first right", day, map[string]any{"invoice_date": "2026-04-05"}, "", ""},
		{"day and month swapped", day, map[string]any{"invoice_date": "2026-05-04"}, "invoice_date", "Arabic-Indic digits"},
	})
}

// The spans of a value read from Arabic-Indic digits point at those digits
// in the text as given.
func TestArabicIndicSpansPointAtThePrintedDigits(t *testing.T) {
	text := "فاتورة رقم ٤٥٢١\nالتاريخ ١٥/٠٢/٢٠٢٦\nالإجمالي ٩٬٢٠٠٫٠٠ ر.س"
	res := validateHO(t, text, map[string]any{"invoice_number": "4521", "invoice_date": "2026-02-15", "total": 9200.0})
	want := map[string]string{"invoice_number": "٤٥٢١", "invoice_date": "١٥/٠٢/٢٠٢٦", "total": "٩٬٢٠٠٫٠٠"}
	rs := []rune(text)
	for field, printed := range want {
		spans := res.FieldProvenance[field]
		if len(spans) == 0 {
			t.Errorf("%s: no span", field)
			continue
		}
		if got := string(rs[spans[0].Start:spans[0].End]); got != printed {
			t.Errorf("%s: span reads %q, want %q", field, got, printed)
		}
	}
}
