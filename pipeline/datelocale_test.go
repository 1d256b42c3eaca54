package pipeline

import (
	"strings"
	"testing"
)

// runDateCases is runClassCases for the invoice date alone: the records
// carry a currency the document does not print, which is flagged on its own.
func runDateCases(t *testing.T, cases []classCase) {
	t.Helper()
	for _, c := range cases {
		reason, ok := flagReason(validateHO(t, c.text, c.rec), "invoice_date")
		switch {
		case c.field == "" && ok:
			t.Errorf("%s: want invoice_date unflagged, got %q", c.name, reason)
		case c.field != "" && !ok:
			t.Errorf("%s: invoice_date not flagged", c.name)
		case c.field != "" && !strings.Contains(reason, c.reason):
			t.Errorf("%s: reason %q, want it to contain %q", c.name, reason, c.reason)
		}
	}
}

// Day/month swaps where both readings are valid: a document that prints no
// currency of its own is held to the record's currency, and a day-first
// currency (EUR, GBP, KES, EGP, THB …) makes a month-first reading of
// "05/04/2026" a swap. A Buddhist-era year (2569) written back unconverted
// is flagged; the converted Gregorian date is grounded on the printed one.
func TestDayFirstLocaleAndBuddhistEra(t *testing.T) {
	it := "TRATTORIA DA MARCO\nVia Roma 22, Milano\nConto n. 2219\nData 05/04/2026  21:17\nPizza  44,00\nTOTALE PAGATO  102,00"
	ke := "NAIVAS SUPERMARKET\nDate: 06/03/2026 Time: 19:22\nMilk  KSh 195.00\nTOTAL  KSh 384.00"
	th := "ร้านกาแฟบ้านสวน\nเลขที่ RC6903-0188\nวันที่ 12/03/2569\nรวมเงิน  205.00\nยอดสุทธิ 205.00 บาท"
	runDateCases(t, []classCase{
		{"EUR record, day first right", it, map[string]any{"invoice_date": "2026-04-05", "currency": "EUR"}, "", ""},
		{"EUR record, swapped", it, map[string]any{"invoice_date": "2026-05-04", "currency": "EUR"}, "invoice_date", "day-first"},
		{"KES, swapped", ke, map[string]any{"invoice_date": "2026-06-03", "currency": "KES"}, "invoice_date", "day-first"},
		{"KES, right", ke, map[string]any{"invoice_date": "2026-03-06", "currency": "KES"}, "", ""},
		{"Buddhist year left unconverted", th, map[string]any{"invoice_date": "2569-03-12"}, "invoice_date", "Buddhist-era"},
		{"Buddhist year converted", th, map[string]any{"invoice_date": "2026-03-12"}, "", ""},
	})
}

// A specific label outranks a bare "Date": the date an "Invoice date" or
// "Bill date" names is not contradicted by a "Travel date:" or an e-mail
// header's "Date:", but a date under the bare label is still flagged when a
// specific label names another.
func TestSpecificDateLabelOutranksBareDate(t *testing.T) {
	train := "Great Western Rail - Ticket receipt\nInvoice number: GWR-88213-44\nInvoice date: 18 March 2026\nTravel date: 02 April 2026  London -> Bristol\nTotal paid  £30.40"
	mail := "From: Orbit Telecom <noreply@orbit.example>\nDate: 2 Mar 2026\nBill number OT-55190-03  Bill date 01/03/2026\nTotal to pay  £38.50"
	runClassCases(t, []classCase{
		{"invoice date right", train, map[string]any{"invoice_date": "2026-03-18"}, "", ""},
		{"travel date taken", train, map[string]any{"invoice_date": "2026-04-02"}, "invoice_date", "2026-03-18"},
		{"bill date right", mail, map[string]any{"invoice_date": "2026-03-01", "currency": "GBP"}, "", ""},
		{"mail header date taken", mail, map[string]any{"invoice_date": "2026-03-02"}, "invoice_date", "01/03/2026"},
	})
}

// Another date taken as the invoice date: a journey's date ("Fahrt am",
// "Travel date") and a purchase order's delivery deadline ("Delivery by")
// name another event than the issue.
func TestTravelAndDeliveryByDates(t *testing.T) {
	db := "DEUTSCHE BAHN  Online-Ticket\nRechnungsnummer: 2026-0318-55412\nBuchungsdatum: 18. März 2026\nFahrt am 02.04.2026  Berlin Hbf -> München Hbf\nSumme  104,92 €"
	po := "PURCHASE ORDER\nPO Number: 4500218834\nPO TOTAL  KES 493,000.00\nDelivery by 28/02/2026"
	runDateCases(t, []classCase{
		{"Fahrt am", db, map[string]any{"invoice_date": "2026-04-02"}, "invoice_date", "Fahrt am"},
		{"delivery by", po, map[string]any{"invoice_date": "2026-02-28"}, "invoice_date", "Delivery by"},
	})
}

// National date shapes ground the date the document prints: Czech
// "5. 3. 2026", Hungarian "2026. március 4.", Vietnamese "Ngày 12 tháng 03
// năm 2026", Spanish "25 de febrero del 2026", Arabic-Indic digits; another
// date is still not found.
func TestNationalDateShapes(t *testing.T) {
	runDateCases(t, []classCase{
		{"Czech", "FAKTURA č. 2026010045\nDatum vystavení: 5. 3. 2026\nCelkem 58 685,00 Kč", map[string]any{"invoice_date": "2026-03-05"}, "", ""},
		{"Czech other", "FAKTURA č. 2026010045\nDatum vystavení: 5. 3. 2026\nCelkem 58 685,00 Kč", map[string]any{"invoice_date": "2026-05-03"}, "invoice_date", "not found"},
		{"Czech due date", "FAKTURA č. 2026010045\nDatum vystavení: 5. 3. 2026\nDatum splatnosti: 19. 3. 2026\nCelkem 58 685,00 Kč", map[string]any{"invoice_date": "2026-03-19"}, "invoice_date", "Datum splatnosti"},
		{"Hungarian", "SZÁMLA\nKelt: 2026. március 4.\nÖsszesen 152 400 Ft", map[string]any{"invoice_date": "2026-03-04"}, "", ""},
		{"Vietnamese", "HÓA ĐƠN\nNgày 12 tháng 03 năm 2026\nTổng cộng 16.200.000 VND", map[string]any{"invoice_date": "2026-03-12"}, "", ""},
		{"Spanish del", "FACTURA\nFecha Emision: 25 de febrero del 2026\nTOTAL $ 1.785.000", map[string]any{"invoice_date": "2026-02-25"}, "", ""},
		{"Arabic-Indic", "فاتورة رقم ٤٥٢١\nالتاريخ ١٥/٠٢/٢٠٢٦\nالإجمالي ٩٬٢٠٠٫٠٠ ر.س", map[string]any{"invoice_date": "2026-02-15"}, "", ""},
		{"Arabic-Indic other", "فاتورة رقم ٤٥٢١\nالتاريخ ١٥/٠٢/٢٠٢٦\nالإجمالي ٩٬٢٠٠٫٠٠ ر.س", map[string]any{"invoice_date": "2026-02-16"}, "invoice_date", "not found"},
	})
}
