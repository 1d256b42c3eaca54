package pipeline

import "testing"

// Class "the total before a discount": the document prints what the goods
// cost, then a discount (Discount, Знижка, Скидка, Rabatt, Descuento,
// Remise, Sconto, الخصم), then what is left to pay. The amount before the
// discount is not the total, whether its label is known or not, and the
// amount after it passes (a line amount above the total is no contradiction
// where a discount in any of those languages is printed). A discount for
// paying early (Skonto, "if paid within") leaves the invoice total standing.
func TestTotalBeforeADiscount(t *testing.T) {
	tot := func(v float64) map[string]any { return map[string]any{"total": v} }
	in := "Sharma Traders\nTax Invoice No: ST-412\nGross Amount 1,200.00\nDiscount 100.00\nNet Amount 1,100.00"
	ua := "ТОВ «Світанок»\nРахунок № 412\nСума 1 200,00\nЗнижка 100,00\nДо сплати 1 100,00 грн"
	ru := "ООО «Рассвет»\nСчёт № 412\nСумма 1 200,00\nСкидка 100,00\nИтого к оплате 1 100,00 руб."
	de := "Müller GmbH\nRechnung 412\nSumme 1.200,00\nRabatt 100,00\nGesamtbetrag 1.100,00 EUR"
	es := "Ferretería López\nFactura 412\nImporte 1.200,00\nDescuento 100,00\nTotal a pagar 1.100,00 €"
	fr := "Boulangerie Martin\nFacture 412\nMontant 1 200,00\nRemise 100,00\nNet à payer 1 100,00 €"
	it := "Ferramenta Rossi\nFattura 412\nImporto 1.200,00\nSconto 100,00\nTotale da pagare 1.100,00 €"
	eg := "شركة النيل للتجارة\nرقم الفاتورة: ٤١٢\nالإجمالي قبل الخصم: ١٬٢٠٠٫٠٠\nالخصم: ١٠٠٫٠٠\nالإجمالي: ١٬١٠٠٫٠٠ ج.م"
	pct := "Sharma Traders\nInvoice No: ST-412\nTotal 1,200.00\nDiscount (10%) -120.00\nAmount Payable 1,080.00"
	skonto := "Müller GmbH\nRechnung 412\nGesamtbetrag 1.200,00 EUR\nBei Zahlung innerhalb 10 Tagen 2% Skonto 24,00 EUR"
	early := "Hill Supplies Ltd\nInvoice 412\nTotal £1,200.00\nLess 2% discount if paid within 10 days: £24.00 (£1,176.00)"
	runClassCases(t, []classCase{
		{"IN before discount", in, tot(1200), "total", "before the discount"},
		{"IN after discount", in, tot(1100), "", ""},
		{"UA before знижка", ua, tot(1200), "total", "Знижка"},
		{"UA after знижка", ua, tot(1100), "", ""},
		{"RU before скидка", ru, tot(1200), "total", "Скидка"},
		{"RU after скидка", ru, tot(1100), "", ""},
		{"DE before rabatt", de, tot(1200), "total", "Rabatt"},
		{"DE after rabatt", de, tot(1100), "", ""},
		{"ES before descuento", es, tot(1200), "total", "Descuento"},
		{"ES after descuento", es, tot(1100), "", ""},
		{"FR before remise", fr, tot(1200), "total", "Remise"},
		{"FR after remise", fr, tot(1100), "", ""},
		{"IT before sconto", it, tot(1200), "total", "Sconto"},
		{"IT after sconto", it, tot(1100), "", ""},
		{"EG before الخصم", eg, tot(1200), "total", "الخصم"},
		{"EG after الخصم", eg, tot(1100), "", ""},
		{"percent discount, before", pct, tot(1200), "total", "the amount after it is 1080.00"},
		{"percent discount, after", pct, tot(1080), "", ""},
		{"skonto leaves the total", skonto, tot(1200), "", ""},
		{"early payment leaves the total", early, tot(1200), "", ""},
	})
}
