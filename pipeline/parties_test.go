package pipeline

import "testing"

// A name the document introduces as the other party (buyer, addressee,
// guest, factoring payee) is flagged as the vendor, in any language, with
// the label before it on its line, on the line above, or a Japanese suffix.
func TestCustomerNamedAsVendor(t *testing.T) {
	v := func(name string) map[string]any { return map[string]any{"vendor_name": name} }
	const why = "not the issuer"
	runClassCases(t, []classCase{
		{"label line above", "Müller & Söhne GmbH\nRechnung\nAn\nBäckerei Schmidt KG\nHauptstr. 3\nSumme 9,00 €", v("Bäckerei Schmidt KG"), "vendor_name", why},
		{"two label columns above", "ACME SUPPLY INC\nINVOICE\nSold To:                 Ship To:\nPacific Builders LLC     Jobsite 17\nTotal 9.00", v("Pacific Builders LLC"), "vendor_name", why},
		{"label with parenthesis above", "Deccan Tools Pvt Ltd\nTAX INVOICE\nBuyer (Bill to):\nKulkarni Traders\nTotal 9.00", v("Kulkarni Traders"), "vendor_name", why},
		{"factoring payee", "ACME INC\nINVOICE 55810\nThis account has been assigned. REMIT PAYMENT ONLY TO:\n  Liberty Capital LLC\nTotal 9.00", v("Liberty Capital LLC"), "vendor_name", why},
		{"to on the line", "Cedar Landscaping Ltd\nTo: M. Thibodeaux, 12 Birch Cres\nTotal 9.00", v("M. Thibodeaux"), "vendor_name", why},
		{"invoice to", "Harbour Print Ltd\nInvoice to: Thornbury Estates Ltd, 2 Park Row\nTotal £9.00", v("Thornbury Estates Ltd"), "vendor_name", why},
		{"consignee", "Deccan Tools Pvt Ltd\nConsignee: Sri Venkateswara Builders, Chennai\nTotal 9.00", v("Sri Venkateswara Builders"), "vendor_name", why},
		{"swedish kund", "NORDIC OFFICE AB\nKund: Lindqvist Arkitekter AB\nSumma 9,00 kr", v("Lindqvist Arkitekter AB"), "vendor_name", why},
		{"malay kepada", "Syarikat Maju\nKepada     : Bengkel Ah Seng, Ipoh\nJumlah RM 9.00", v("Bengkel Ah Seng"), "vendor_name", why},
		{"prepared for", "Brew Gear Co\nQUOTE\nPrepared for: Lone Star Coffee Co.\nTotal 9.00", v("Lone Star Coffee Co."), "vendor_name", why},
		{"guest with honorific", "Hotel Adler\nGast: Mr. Daniel Okafor\nSumme 9,00 €", v("Daniel Okafor"), "vendor_name", why},
		{"german salutation", "Schreinerei Holzwurm e.K.\nSehr geehrte Frau Becker,\nSumme 9,00 €", v("Frau Becker"), "vendor_name", why},
		{"italian spettabile", "TIPOGRAFIA ROSSI S.R.L.\nFATTURA N. 45/2026\nSpett.le Libreria Centrale S.a.s., Corso Vittorio 8, Milano\nTotale 9,00 €", v("Libreria Centrale S.a.s."), "vendor_name", why},
		{"dutch aan", "Van der Berg Installatietechniek B.V.\nFactuur 2026-118\nAan: Gemeente Houten, afd. Facilitair\nTotaal € 9,00", v("Gemeente Houten"), "vendor_name", why},
		{"salutation", "Pixel Studio\nHey Sam,\nTotal 9.00", v("Sam"), "vendor_name", why},
		{"japanese onchu", "株式会社山田商事 御中\n請求書\n東京デザイン株式会社\n合計 ¥9,000", v("株式会社山田商事"), "vendor_name", why},
		{"chinese buyer", "上海华东办公用品有限公司\n购买方：杭州西湖科技有限公司\n合计 ¥9.00", v("杭州西湖科技有限公司"), "vendor_name", why},
		// The issuer itself stays unflagged, and "to"/"an" inside a sentence is no label.
		{"issuer right", "ACME SUPPLY INC\nINVOICE\nSold To:                 Ship To:\nPacific Builders LLC     Jobsite 17\nTotal 9.00", v("ACME SUPPLY INC"), "", ""},
		{"seller chinese", "上海华东办公用品有限公司\n销售方：上海华东办公用品有限公司\n购买方：杭州西湖科技有限公司\n合计 ¥9.00", v("上海华东办公用品有限公司"), "", ""},
		{"to in a sentence", "Welcome to Kim Lee Hardware\nTotal 9.00", v("Kim Lee Hardware"), "", ""},
		{"japanese issuer", "株式会社山田商事 御中\n請求書\n東京デザイン株式会社\n合計 ¥9,000", v("東京デザイン株式会社"), "", ""},
	})
}
