package pipeline

import (
	"strings"
	"testing"
)

// A name the document introduces as the other party (buyer, addressee,
// guest, factoring payee) is flagged as the vendor, in any language, with
// the label before it on its line, on the line above, or a Japanese suffix.
func TestCustomerNamedAsVendor(t *testing.T) {
	v := vendorOnly
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
		{"polish nabywca", "Drukarnia Nowak Sp. z o.o.\nFaktura VAT 12/2026\nNabywca: Kowalski Budownictwo Sp. z o.o.\nRazem 9,00 zł", v("Kowalski Budownictwo Sp. z o.o."), "vendor_name", why},
		{"portuguese destinatário", "PADARIA PÃO DOURADO LTDA\nDestinatário: Mercado Central Ltda\nTotal R$ 9,00", v("Mercado Central Ltda"), "vendor_name", why},
		{"brazilian tomador", "Consultoria Alfa Ltda\nNFS-e 2026/55\nTomador de Serviços: Beta Engenharia S.A.\nValor R$ 9,00", v("Beta Engenharia S.A."), "vendor_name", why},
		{"mexican receptor", "FERRETERÍA EL MARTILLO\nCFDI 4.0\nReceptor: Constructora del Norte SA de CV\nTotal $9.00", v("Constructora del Norte SA de CV"), "vendor_name", why},
		{"korean buyer", "(주)한빛커피\n세금계산서\n공급받는자: 서울식품(주)\n합계 9,000", v("서울식품(주)"), "vendor_name", why},
		{"german käufer", "Autohaus Weber GmbH\nKaufvertrag\nKäufer: Jonas Richter\nSumme 9,00 €", v("Jonas Richter"), "vendor_name", why},
		{"french acheteur", "GARAGE MARTIN SARL\nAcheteur : Sophie Laurent\nTotal 9,00 €", v("Sophie Laurent"), "vendor_name", why},
		{"japanese kainushi", "東京デザイン株式会社\n買主：株式会社山田商事\n合計 ¥9,000", v("株式会社山田商事"), "vendor_name", why},
		{"patient", "Riverside Dental Clinic\nPatient: Maria Gonzalez\nTotal $9.00", v("Maria Gonzalez"), "vendor_name", why},
		{"sold to on a marketplace", "Amazon.com\nSold by: Brightline Gadgets LLC\nSold to: Peter Hale\nTotal $9.00", v("Peter Hale"), "vendor_name", why},
		{"japanese onchu", "株式会社山田商事 御中\n請求書\n東京デザイン株式会社\n合計 ¥9,000", v("株式会社山田商事"), "vendor_name", why},
		{"chinese buyer", "上海华东办公用品有限公司\n购买方：杭州西湖科技有限公司\n合计 ¥9.00", v("杭州西湖科技有限公司"), "vendor_name", why},
		{"czech odběratel", "FAKTURA č. 2026010045\nDodavatel: Novák stavby s.r.o.\nOdběratel: Horák a syn, a.s.\nCelkem 9,00 Kč", v("Horák a syn, a.s."), "vendor_name", why},
		{"hungarian vevő", "SZÁMLA\nEladó: Kovács és Társa Kft.\nVevő: Szabó Péter\nVégösszeg: 9 000 Ft", v("Szabó Péter"), "vendor_name", why},
		{"arabic customer", "شركة النيل للتجارة\nNile Trading Co. S.A.E.\nالعميل: مؤسسة الأمل\nالإجمالي: 9.00", v("مؤسسة الأمل"), "vendor_name", why},
		{"chilean señores", "FACTURA ELECTRONICA\nCOMERCIAL ANDES LIMITADA\nSeñor(es): Constructora Pacífico SpA\nTOTAL $ 9.000", v("Constructora Pacífico SpA"), "vendor_name", why},
		{"czech issuer right", "FAKTURA č. 2026010045\nDodavatel: Novák stavby s.r.o.\nOdběratel: Horák a syn, a.s.\nCelkem 9,00 Kč", v("Novák stavby s.r.o."), "", ""},
		{"passenger", "E-TICKET RECEIPT\nSkyWays Airlines Ltd\nPassenger: OKAFOR/CHIAMAKA MS\nTotal NGN 9.00", v("OKAFOR/CHIAMAKA MS"), "vendor_name", why},
		// A letter's dateline names the place it was written, not a party.
		{"dateline place", "Rechnung Nr. 2026-3317\nZürich, 10. Februar 2026\nTreuhand Keller & Co.\nTotal CHF 9.00", v("Zürich"), "vendor_name", "place of the dateline"},
		{"dateline place french", "Atelier Dubois SARL\nParis, le 3 mars 2026\nTotal 9,00 €", v("Paris"), "vendor_name", "place of the dateline"},
		{"issuer under a dateline", "Rechnung Nr. 2026-3317\nZürich, 10. Februar 2026\nTreuhand Keller & Co.\nTotal CHF 9.00", v("Treuhand Keller & Co."), "", ""},
		// The issuer itself stays unflagged, and "to"/"an" inside a sentence is no label.
		{"issuer right", "ACME SUPPLY INC\nINVOICE\nSold To:                 Ship To:\nPacific Builders LLC     Jobsite 17\nTotal 9.00", v("ACME SUPPLY INC"), "", ""},
		{"seller chinese", "上海华东办公用品有限公司\n销售方：上海华东办公用品有限公司\n购买方：杭州西湖科技有限公司\n合计 ¥9.00", v("上海华东办公用品有限公司"), "", ""},
		{"to in a sentence", "Welcome to Kim Lee Hardware\nTotal 9.00", v("Kim Lee Hardware"), "", ""},
		// "Sold by" names the seller on a marketplace's document: not a
		// customer label.
		{"sold by is the seller", "Amazon.com\nSold by: Brightline Gadgets LLC\nSold to: Peter Hale\nTotal $9.00", v("Brightline Gadgets LLC"), "", ""},
		{"japanese issuer", "株式会社山田商事 御中\n請求書\n東京デザイン株式会社\n合計 ¥9,000", v("東京デザイン株式会社"), "", ""},
	})
}

// A null issuer is flagged when the document names one: after an issuer
// label, or at its head (a line ending in a legal form, or the first
// name-like line); a customer, a title, an addressee or a document with no
// name at its head leaves the null alone (issue 9 class 7).
func TestIssuerOmission(t *testing.T) {
	null := map[string]any{"vendor_name": nil, "total": 9.0}
	for _, tc := range []struct {
		name, text string
		flag       bool
		reason     string
	}{
		{"company at the head", "Müller Druck GmbH\nHauptstraße 5, 10115 Berlin\nRechnung Nr. 2024-17\nSumme 9,00", true, `"Müller Druck GmbH" at its head`},
		{"company before a title column", "ORBITAL COMPONENTS SDN BHD        INVOICE OC-26-1190\nLot 12, Penang\nTotal 9.00", true, `"ORBITAL COMPONENTS SDN BHD"`},
		{"shop name on the first line", "GRAND CENTRAL DELI\nInvoice #GC-5521\nTotal 9.00", true, `"GRAND CENTRAL DELI"`},
		{"polish seller label", "Faktura VAT 12/2026\nSprzedawca: Drukarnia Nowak Sp. z o.o.\nNabywca: Kowalski Sp. z o.o.\nRazem 9,00", true, `"Drukarnia Nowak Sp. z o.o." as the issuer`},
		{"contractor label", "TIMESHEET & INVOICE\nContractor: Okonkwo Data Consulting Ltd\nClient: Riverside NHS Trust\nTotal 9.00", true, `"Okonkwo Data Consulting Ltd" as the issuer`},
		{"issuer below the addressee", "請求書\n\n株式会社みどり工業　御中\n\n株式会社サクラ商事\n合計 ¥9,000", true, `"株式会社サクラ商事"`},
		{"a bracket holding a word is part of the name", "HOME'S HARMONY @ 1 UTAMA SHOPPING CENTRE\nMONSIEUR ( M ) SDN. BHD. ( 121889-W )\nLOT S319A\nTotal 9.00", true, `"MONSIEUR ( M ) SDN. BHD."`},
		{"only the customer", "BILL TO:\nHorizon Dental Group LLC\n55 Elm Street\nTotal 9.00", false, ""},
		{"only a title", "TAX INVOICE\nTotal 9.00", false, ""},
		{"a sentence", "Hey Sam,\nhere is my invoice for October.\nTotal 9.00", false, ""},
		{"amounts only", "Total 9.00\nCash 10.00\nChange 1.00", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := validateHO(t, tc.text, null)
			reason, ok := flagReason(res, "vendor_name")
			switch {
			case ok != tc.flag:
				t.Errorf("vendor_name flagged %v (%q), want %v", ok, reason, tc.flag)
			case ok && !strings.Contains(reason, tc.reason):
				t.Errorf("reason %q, want it to contain %q", reason, tc.reason)
			}
		})
	}
}

// Other parties under headings, columns and address blocks, a labelled
// issuer that contradicts the name, and values that are no name at all
// (black-box round 1, class V1–V3). The issuer itself stays unflagged.
func TestOtherPartiesAndNonNames(t *testing.T) {
	v := vendorOnly
	runClassCases(t, []classCase{
		{"customer heading above", "Reformas Ortega, S.L.\nFACTURA\n\nDatos del cliente\nClínica Dental Sonrisa, S.L.P. — NIF B-12398765\nTOTAL 9,00 €", v("Clínica Dental Sonrisa, S.L.P."), "vendor_name", "not the issuer"},
		{"italian committente", "Cedente/prestatore: Tipografia Ferraris S.r.l.\nCessionario/committente: Studio Legale Bianchi\nTotale 9,00", v("Studio Legale Bianchi"), "vendor_name", "not the issuer"},
		{"right column under the buyer label", "FAKTURA VAT nr 1\n\nSprzedawca:                   Nabywca:\nKowalski Serwis Sp. z o.o.    Biuro Nowak s.c.\nRazem 9,00", v("Biuro Nowak s.c."), "vendor_name", "not"},
		{"left column under the seller label", "FAKTURA VAT nr 1\n\nSprzedawca:                   Nabywca:\nKowalski Serwis Sp. z o.o.    Biuro Nowak s.c.\nRazem 9,00", v("Kowalski Serwis Sp. z o.o."), "", ""},
		{"heading naming two roles", "DANFE\nEMITENTE: Distribuidora Vale Verde Ltda.\n\nDESTINATÁRIO/REMETENTE\nMercadinho Bom Preço ME   CNPJ: 98.765.432/0001-10\nVALOR TOTAL R$ 9,00", v("Mercadinho Bom Preço ME"), "vendor_name", "not"},
		{"window-envelope address block", "Müller Haustechnik GmbH · Gewerbestraße 12 · 70565 Stuttgart\nHerrn\nJonas Becker\nBecker Immobilien KG\nLindenallee 4\n\nRECHNUNG\nSumme 9,00 €", v("Becker Immobilien KG"), "vendor_name", "not the issuer"},
		{"marketplace operator", "Order #114-88\nSold by: Oakridge Home Goods   Fulfilled by Amazon\nInvoice number: DE-1\nTotal EUR 9.00", v("Amazon"), "vendor_name", `names "Oakridge Home Goods" as the issuer`},
		{"the seller on a marketplace order", "Order #114-88\nSold by: Oakridge Home Goods   Fulfilled by Amazon\nInvoice number: DE-1\nTotal EUR 9.00", v("Oakridge Home Goods"), "", ""},
		{"insurer on a payment line", "St. Catherine Medical Center\nTotal charges   $1,760.00\nInsurance payment (Blue Shield)   -$1,188.00\nPatient responsibility   $220.00", v("Blue Shield"), "vendor_name", "not the issuer"},
		{"card scheme on a card slip", "[카드매출전표]\n가맹점명: 스타벅스 강남역점\n카드종류: 신한카드  5105-****-****-1234\n합계: 12,500원", v("신한카드"), "vendor_name", "not the issuer"},
		{"buyer's accounts payable signing", "From: purchasing@kestrel.example\nHello DynaFlex team,\nwe will pay your invoice of EUR 14,756.00.\nRegards,\nAccounts Payable, Kestrel Aerospace GmbH", v("Kestrel Aerospace GmbH"), "vendor_name", "not the issuer"},
		{"placeholder addressee", "領収書\n上様\n金額 ￥3,960-\n和食処 さくら亭", v("上様"), "vendor_name", "the addressee"},
		{"an address line", "全家便利店 FamilyMart\n上海市徐汇区漕溪北路88号店\n合计 ¥27.40", v("上海市徐汇区漕溪北路88号店"), "vendor_name", "an address"},
		// An e-mail says whose document it is: "our invoice" makes the
		// To: address's company the customer, "your invoice" the From:'s.
		{"recipient's domain under 'our invoice'", "From: billing@brightpath-consulting.com\nTo: ap@harborfoods.com\nSubject: Invoice BPC-31\n\nPlease find our invoice BPC-31, USD 7,200.00.\nBrightPath Consulting LLC", v("Harbor Foods"), "vendor_name", "e-mail domain of the to address"},
		{"recipient's domain under 'your invoice'", "From: purchasing@kestrel-aero.com\nTo: sales@dynaflex-seals.com\nSubject: Payment\n\nWe have scheduled payment of your invoice DFS-77120 of EUR 14,756.00.", v("DynaFlex Seals"), "", ""},
		// A brand above the company line: the company is what the
		// document registers; the brand is a reader's call.
		{"brand above the company line", "GEOVENTURE\nTASTE OF THE WORLD SDN BHD\n965857-A\nTOTAL 9.00", v("GEOVENTURE"), "vendor_name", "has no legal form"},
		{"company line itself", "GEOVENTURE\nTASTE OF THE WORLD SDN BHD\n965857-A\nTOTAL 9.00", v("TASTE OF THE WORLD SDN BHD"), "", ""},
		{"trade name of its owner", "BAR PASTICCERIA DORIA\ndi Doria Marco & C. s.n.c.\nTOTALE 3,90", v("BAR PASTICCERIA DORIA"), "", ""},
		{"customer copy title", "*** CUSTOMER COPY ***\nOJC MARKETING SDN BHD\nTOTAL 9.00", v("OJC MARKETING SDN BHD"), "", ""},
	})
}
