package pipeline

import "testing"

// Class "a space groups the thousands" where no currency stands beside the
// amount (South Africa, France: "83 382.61"): where three such amounts add
// up (subtotal, tax, total; or two of them with an amount below a
// thousand), each is one amount, and the true record
// passes while a piece of one ("890.00", "95") is flagged against the
// whole. A receipt's quantity before a price ("TOTAL QTY: 20 599.43") stays
// two numbers: nothing adds up with it.
func TestSpaceGroupedThousands(t *testing.T) {
	za := "Protea Building Supplies (Pty) Ltd\nVAT No: 4123456789\nTax Invoice INV-20931\nDate: 12/11/2026\n" +
		"Cement 50kg x 200   83 382.61\nSubtotal   83 382.61\nVAT 15%   12 507.39\nTotal Due   95 890.00"
	rec := map[string]any{"subtotal": 83382.61, "tax": 12507.39, "total": 95890.00}
	big := "Karoo Mining Equipment (Pty) Ltd\nTax Invoice 7731\nExcavator hire 1 043 478.26\nVAT 15% 156 521.74\nTotal 1 200 000.00"
	qty := "HARDWARE SDN BHD\nTAX INVOICE 1030765\nPIPE WRENCH 3 12.00 36.00\nTOTAL QTY: 20 599.43\nTOTAL SALES (EXCLUDING GST) : 565.50\nGST 6% : 33.93\nTOTAL : 599.43"
	two := "Le Comptoir Lyonnais SARL\nFacture F-2291\nTotal HT 4 160.00\nTVA 20% 832.00\nTotal TTC 4 992.00"
	runClassCases(t, []classCase{
		{"FR two groups and a tax below a thousand", two, map[string]any{"subtotal": 4160.0, "tax": 832.0, "total": 4992.0}, "", ""},
		{"FR a piece as the total", two, map[string]any{"subtotal": 4160.0, "tax": 832.0, "total": 992.0}, "total", "4992.00"},
		{"ZA true record", za, rec, "", ""},
		{"ZA a piece as the total", za, with(rec, "total", 890.0), "total", "95890.00"},
		{"ZA the thousands as the total", za, with(rec, "total", 95.0), "total", "95890.00"},
		{"ZA two groups", big, map[string]any{"subtotal": 1043478.26, "tax": 156521.74, "total": 1200000.0}, "", ""},
		{"quantity and total stay apart", qty, map[string]any{"subtotal": 565.50, "tax": 33.93, "total": 599.43}, "", ""},
	})
}

// Class "a space groups the thousands before a decimal comma" (dinars with
// three decimals, French, Polish and Swedish invoices, with a plain,
// no-break or narrow no-break space): the amount is one number, so the true
// record passes and a piece of it ("5", "234.56") is flagged against the
// whole. A quantity and a price on an item line stay two numbers.
func TestSpaceGroupedDecimalComma(t *testing.T) {
	tn := "Société Tunisienne de Distribution SARL\nFacture N° 2026-118\nTotal HT 4 254,622\nTimbre fiscal 1,000\nTotal TTC 5 062,000"
	pl := "Hurtownia Kowalski Sp. z o.o.\nFaktura VAT 17/2026\nRazem netto 1\u00a0003,71\nVAT 23% 230,85\nDo zapłaty 1\u00a0234,56"
	se := "Kontorsmaterial AB\nFaktura 8812\nNetto 987,65\nMoms 25% 246,91\nAtt betala 1\u202f234,56"
	fr := "Papeterie du Centre\nFacture 2291\nRamette A4 12 500\nTotal HT 500,00\nTVA 20% 100,00\nTotal TTC 600,00"
	runClassCases(t, []classCase{
		{"TN three decimals", tn, map[string]any{"subtotal": 4254.622, "total": 5062.0}, "", ""},
		{"TN the thousands as the total", tn, map[string]any{"total": 5.0}, "total", "5062"},
		{"TN the millimes as the total", tn, map[string]any{"total": 62.0}, "total", "5062"},
		{"PL no-break space", pl, map[string]any{"subtotal": 1003.71, "tax": 230.85, "total": 1234.56}, "", ""},
		{"PL a piece as the total", pl, map[string]any{"total": 234.56}, "total", "1234.56"},
		{"SE narrow no-break space", se, map[string]any{"subtotal": 987.65, "tax": 246.91, "total": 1234.56}, "", ""},
		{"SE a piece as the total", se, map[string]any{"total": 1.0}, "total", "1234.56"},
		{"FR a quantity and a price stay apart", fr, map[string]any{"subtotal": 500.0, "tax": 100.0, "total": 600.0}, "", ""},
	})
}
