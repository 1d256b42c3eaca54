package pipeline

import (
	"strings"
	"testing"
)

// Documents written for the class "a currency printed beside CONVERTED
// amounts": a receipt or invoice that prints its amounts in two currencies
// (a total and its equivalent, a dual-currency till, a folio charged in one
// currency and shown in the guest's). The billed currency is the one its
// tax and the sum of its lines are in, or the one its total is labelled in
// without a conversion cue; the other is what the amounts were converted
// into, and a record that names it is flagged.

const convEURUSD = `Atelier Lumière SARL
12 rue des Carmes, 75005 Paris
Facture F-2026-0311                  Date : 14/11/2026
Conception graphique                  1 000,00 EUR
TVA 20 %                                200,00 EUR
Total TTC                             1 200,00 EUR (≈ 1 302,00 USD at 1.085)`

const convEquivalentLine = `Gulf Horizon Trading LLC
Dubai, United Arab Emirates  TRN 100234567800003
Tax Invoice TI-5521                 Date: 03/11/2026
Office chairs 10 x 450.00            AED 4,500.00
VAT 5%                                 AED 225.00
Total                                AED 4,725.00
Equivalent in USD: 1,286.52`

const convHRKDual = `Konoba Maslina d.o.o.
OIB 12345678901, Split, Hrvatska
Račun br. 118/1/1                    12.11.2026.
Riblja plata             2 x 28,00   56,00 EUR
PDV 13%                               6,44 EUR
UKUPNO                               62,44 EUR
UKUPNO HRK (tečaj 7,53450)          470,45 HRK`

const convBGNDual = `Кафе Витоша ЕООД
ЕИК 204567891, София
Фактура № 0000004512          Дата: 09.11.2026
Кафе и десерт                          10,23 EUR
ДДС 20%                                 2,05 EUR
Общо                                   12,28 EUR
Общо в лева по курс 1,95583             24,02 лв.`

const convKHRRate = `Phnom Penh Coffee House
Street 240, Phnom Penh, Cambodia  VATTIN K001-901234567
Receipt #A-20931                    15/11/2026
Iced latte x2                          USD 5.00
Croissant                              USD 2.50
VAT 10%                                USD 0.75
Total                                  USD 8.25
Exchange rate 4,100 riel/USD      Total KHR 33,825`

const convLBPRate = `Café Hamra s.a.r.l.
Beirut, Lebanon
Facture 7712                         10/11/2026
Espresso                               USD 3.00
Manakish                               USD 4.00
VAT 11%                                USD 0.77
Total                                  USD 7.77
Total LBP @ 89,500                 LBP 695,415`

const convMXTasa = `Servicios Técnicos del Norte S.A. de C.V.
RFC STN020304AB1, Monterrey, N.L.
Factura A-2211                       Fecha: 12/11/2026
Mantenimiento preventivo          MXN 10,000.00
IVA 16%                            MXN 1,600.00
Total                             MXN 11,600.00
Total USD (tasa 18.45)              USD 628.73`

const convRUKurs = `ООО «Северный Ветер»
ИНН 7701234567, Москва
Счёт № 4417 от 11.11.2026
Консультационные услуги          50 000,00 RUB
НДС 20%                          10 000,00 RUB
Итого к оплате                   60 000,00 RUB
Итого в USD по курсу 92,10            651,47 USD`

const convFolio = `Hotel Miramar
Av. Atlântica 1500, Rio de Janeiro
Folio 88213                          Checkout 08/11/2026
Diárias 3 x R$ 600,00                R$ 1.800,00
ISS 5%                                  R$ 90,00
Total                                R$ 1.890,00
Guest currency: approx. EUR 310.12 (converted at 0.1641)`

const convTwoTotalsTaxDecides = `Kigali Hardware Ltd
TIN 101234567, Kigali, Rwanda
Invoice INV-3302                     05/11/2026
Cement 10 bags                       RWF 150,000
VAT 18%                               RWF 27,000
Total RWF                            RWF 177,000
Total USD                             USD 122.15`

const convTRYDual = `Boğaziçi Kırtasiye Ltd. Şti.
VKN 1234567890, İstanbul
Fatura No: BKZ2026000123             Tarih: 13.11.2026
Kağıt A4 10 paket                     2.500,00 TL
KDV %20                                 500,00 TL
Genel Toplam                          3.000,00 TL
Döviz karşılığı (kur 34,20)              87,72 USD`

const convCHFSoit = `Boulangerie du Lac SA
Quai du Mont-Blanc 4, 1201 Genève
Quittance 5590                       07.11.2026
Pains et viennoiseries                 CHF 24.50
TVA 2.6%                                CHF 0.62
Total                                  CHF 25.12
Total en EUR au cours du jour          EUR 26.70`

const convUSDFirst = `Lusaka Agro Supplies Ltd
TPIN 1001234567, Lusaka, Zambia
Invoice 2026/441                     06/11/2026
Total USD                              USD 96.55
Fertiliser 5 bags                    ZMW 2,300.00
VAT 16%                                ZMW 368.00
Total ZMW                            ZMW 2,668.00`

const convSumDecides = `Tbilisi Print Studio LLC
ID 404123456, Tbilisi
Invoice 77/2026                      10/11/2026
Business cards 500 pcs                 GEL 120.00
Flyers 1000 pcs                        GEL 230.00
Total                                  GEL 350.00
Total                                  USD 129.63`

const convEURKnownBoth = `Taverna Odysseas
Plaka, Athens, Greece  ΑΦΜ 098765432
Απόδειξη 5531                        12/11/2026
Moussaka 2 x 14,00                    28,00 EUR
Wine 0.5 l                             9,00 EUR
ΦΠΑ 13%                                4,26 EUR
ΣΥΝΟΛΟ                                37,00 EUR
TOTAL                                 40,15 USD`

func TestCurrencyBesideConvertedAmounts(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct {
		name, text, billed, converted string
	}{
		{"approximate in brackets after the total", convEURUSD, "EUR", "USD"},
		{"equivalent line", convEquivalentLine, "AED", "USD"},
		{"dual display at the fixed rate", convHRKDual, "EUR", "HRK"},
		{"dual display in leva", convBGNDual, "EUR", "BGN"},
		{"riel total at the rate", convKHRRate, "USD", "KHR"},
		{"lira total at the rate", convLBPRate, "USD", "LBP"},
		{"tasa", convMXTasa, "MXN", "USD"},
		{"kurs", convRUKurs, "RUB", "USD"},
		{"guest currency on a folio", convFolio, "BRL", "EUR"},
		{"the tax's currency decides two totals", convTwoTotalsTaxDecides, "RWF", "USD"},
		{"döviz karşılığı", convTRYDual, "TRY", "USD"},
		{"au cours du jour", convCHFSoit, "CHF", "EUR"},
		{"converted total printed first", convUSDFirst, "ZMW", "USD"},
		{"the lines' sum decides two totals", convSumDecides, "GEL", "USD"},
		{"a second total for tourists", convEURKnownBoth, "EUR", "USD"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases,
			classCase{d.name + ": billed " + d.billed, d.text, c(d.billed), "", ""},
			classCase{d.name + ": converted " + d.converted, d.text, c(d.converted), "currency", ""})
	}
	runClassCases(t, cases)
}

// A sign several currencies share, printed with no code: the document's
// country cues (its address, telephone code, tax number, web domain,
// language) say which, a record naming another of the sign's currencies
// is flagged, and with no cue the sign decides nothing.
func TestSharedSignReadByTheCountry(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct{ name, text, right, wrong string }{
		{"icelandic kr.", "Kaffi Hljómalind ehf.\nLaugavegur 23, 101 Reykjavík\nKt. 540312-0190  VSK nr. 112233\nKvittun 4471   12.11.2026\nKaffi latte        2 x 790 kr.\nSnúður                 650 kr.\nVSK 11%                220 kr.\nSamtals              2.230 kr.", "ISK", "DKK"},
		{"norwegian kr", "Fjordkafé AS\nStrandgata 5, 5013 Bergen\nOrg.nr. 912 345 678 MVA\nKvittering 2281   10.11.2026\nKaffe              2 x 45,00 kr\nSkillingsbolle          39,00 kr\nMVA 15%                 16,95 kr\nTotalt                 129,00 kr", "NOK", "SEK"},
		{"swedish kr", "Kafé Solsidan AB\nStorgatan 12, 111 51 Stockholm\nOrg.nr 556677-8899\nKvitto 7731   09.11.2026\nKaffe              2 x 42,00 kr\nKanelbulle              35,00 kr\nvarav moms 12%          12,75 kr\nTotalt                 119,00 kr", "SEK", "NOK"},
		{"faroese kr. is the danish krone", "Bókahandil Tórshavnar\nNiels Finsensgøta 7, 100 Tórshavn, Føroyar\nV-tal 123456\nKvittan 3381   11.11.2026\nBók                    249,00 kr.\nKaffi                   35,00 kr.\nTils.                  284,00 kr.\nMVG 25%                 56,80 kr.", "DKK", "ISK"},
		{"danish kr.", "Café Havnen ApS\nNyhavn 17, 1051 København K\nCVR 12345678\nBon 5512   08.11.2026\nKaffe              2 x 40,00 kr.\nWienerbrød              30,00 kr.\nI alt                  110,00 kr.\nheraf moms 25%          22,00 kr.", "DKK", "ISK"},
		{"mexican $", "Taquería El Güero S.A. de C.V.\nRFC TGU010101AB2\nAv. Juárez 45, Guadalajara, Jal.\nTicket 8812   11/11/2026\nTacos al pastor 4     $ 120.00\nAgua fresca           $ 35.00\nIVA 16%               $ 21.38\nTotal                 $ 155.00", "MXN", "USD"},
		{"chilean $", "Café Bellavista SpA\nR.U.T. 76.123.456-7\nProvidencia, Santiago\nBoleta 55123   07/11/2026\nCafé cortado        $ 2.900\nEmpanada            $ 3.200\nTotal               $ 6.100\nIVA incluido        $ 974", "CLP", "USD"},
		{"singapore $", "Kopi Corner Pte Ltd\nUEN 201912345K  GST Reg No. 201912345K\nBlk 123 Bedok North, Singapore 460123\nTel +65 6123 4567\nReceipt R-2231   05/11/2026\nKopi C x2            $ 3.60\nKaya toast            $ 2.80\nTotal                 $ 6.40", "SGD", "USD"},
		{"hong kong $", "Lucky Dragon Restaurant Ltd\nNathan Road 88, Kowloon\nTel: +852 2345 6789\nBill 7761   06/11/2026\nDim sum set          $ 168.00\nTea                   $ 24.00\nService charge 10%    $ 19.20\nTotal                 $ 211.20", "HKD", "USD"},
		{"south african R", "Cape Coffee Roasters (Pty) Ltd\nBree Street 80, Cape Town\nVAT No. 4123456789\nTax Invoice 6612   02/11/2026\nFlat white x2        R 64.00\nMuffin               R 32.00\nVAT 15% incl.        R 12.52\nTotal                R 96.00", "ZAR", "BRL"},
		{"brazilian R$", "Padaria Pão Quente Ltda\nCNPJ 12.345.678/0001-90\nRua Augusta 1200, São Paulo - SP\nCupom 4412   01/11/2026\nPão de queijo       R$ 12,00\nCafé                 R$ 8,50\nTotal               R$ 20,50", "BRL", "ZAR"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases,
			classCase{d.name + " right", d.text, c(d.right), "", ""},
			classCase{d.name + " as " + d.wrong, d.text, c(d.wrong), "currency", ""})
	}
	// "Rs" in Colombo or Lahore is no INR. Their own LKR and PKR are not
	// yet grounded by it (currencysigns.go says why), so only the wrong
	// reading is asserted.
	for _, d := range []struct{ name, text, wrong string }{
		{"sri lankan Rs", "Colombo Book Centre (Pvt) Ltd\nGalle Road, Colombo 03, Sri Lanka\nTel +94 11 234 5678\nInvoice 3391   04/11/2026\nNovels 3 x Rs. 1,250.00   Rs. 3,750.00\nVAT 18%                     Rs. 675.00\nTotal                     Rs. 4,425.00", "INR"},
		{"pakistani Rs", "Lahore Electronics\nMall Road, Lahore  NTN 1234567-8\nInvoice 1123   03/11/2026\nCable 2 x Rs 850    Rs 1,700\nGST 18%             Rs 306\nTotal               Rs 2,006", "INR"},
	} {
		cases = append(cases, classCase{d.name + " as " + d.wrong, d.text, c(d.wrong), "currency", ""})
	}
	// No country cue: the sign decides nothing, and no reading is flagged
	// as another currency's.
	const bareKr = "Kaffebaren\nKvittering 12\nKaffe 45,00 kr\nTotal 45,00 kr"
	cases = append(cases,
		classCase{"bare kr as NOK", bareKr, c("NOK"), "", ""},
		classCase{"bare kr as SEK", bareKr, c("SEK"), "", ""},
	)
	runClassCases(t, cases)
}

// A currency's local sign or word, in its own script, grounds it: a
// record naming that currency is not flagged for "not found", and one
// naming another is.
func TestLocalSignsAndWordsGround(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	docs := []struct{ name, text, right, wrong string }{
		{"saudi riyal in arabic", "مطعم النخيل\nالرياض، المملكة العربية السعودية\nالرقم الضريبي 300123456700003\nفاتورة ضريبية مبسطة 5512\nشاورما 2 × 18.00      36.00 ريال\nضريبة القيمة المضافة 15%   5.40 ريال\nالإجمالي                41.40 ريال", "SAR", "USD"},
		{"iranian rial in persian", "فروشگاه کتاب پارس\nتهران، خیابان انقلاب\nفاکتور فروش ۴۴۱۲\nکتاب ۲ عدد     1,200,000 ریال\nمالیات بر ارزش افزوده 10%   120,000 ریال\nجمع کل          1,320,000 ریال", "IRR", "SAR"},
		{"myanmar kyat in burmese", "ရွှေမြို့ စားသောက်ဆိုင်\nရန်ကုန်မြို့\nဘောက်ချာ 2231\nမုန့်ဟင်းခါး 2 ပွဲ     6,000 ကျပ်\nလက်ဖက်ရည်         2,500 ကျပ်\nစုစုပေါင်း          8,500 ကျပ်", "MMK", "USD"},
		{"indian rupees in words", "Sharma Stationers\nMG Road, Bengaluru 560001\nBill No 8812\nNotebooks 10 x 45.00   450.00\nPens 20 x 10.00        200.00\nTotal                  650.00\nRupees Six Hundred Fifty only", "INR", "USD"},
		{"bangladeshi taka", "Dhaka Book House\nNilkhet, Dhaka 1205\nCash Memo 3312\nBooks 3 x 350.00    1,050.00 Taka\nVAT 15%               157.50 Taka\nTotal               1,207.50 Taka", "BDT", "INR"},
		{"bangla taka sign word", "ঢাকা বুক হাউস\nনীলক্ষেত, ঢাকা\nক্যাশ মেমো ৩৩১২\nবই ৩টি     1,050.00 টাকা\nমোট        1,050.00 টাকা", "BDT", "INR"},
		{"armenian dram in words", "Yerevan Books LLC\nAbovyan 12, Yerevan\nReceipt 4471\nBooks 2 x 6,500 dram\nTotal 13,000 dram", "AMD", "RUB"},
		{"qatari riyal", "Doha Trading W.L.L.\nDoha, Qatar\nInvoice 8871\nOffice desk          QR 1,250.00\nTotal                QR 1,250.00", "QAR", "SAR"},
		{"uae dirham in arabic", "مقهى الخليج\nدبي، الإمارات العربية المتحدة\nفاتورة ضريبية 2231\nقهوة 2 × 15.00      30.00 درهم\nضريبة 5%              1.50 درهم\nالمجموع               31.50 درهم", "AED", "USD"},
	}
	var cases []classCase
	for _, d := range docs {
		cases = append(cases,
			classCase{d.name + " right", d.text, c(d.right), "", ""},
			classCase{d.name + " as " + d.wrong, d.text, c(d.wrong), "currency", ""})
	}
	runClassCases(t, cases)
}

// A null currency on a document that prints one beside its billed amounts
// is flagged, naming what it prints; where it prints none, or only a sign
// no country cue reads, the null is honest.
func TestNullCurrencyTheDocumentPrints(t *testing.T) {
	cases := []struct{ name, text, reason string }{
		{"a code the markers do not list", "Kigali Office Supplies Ltd\nInvoice 118\nPaper 5 reams   RWF 25,000\nTotal           RWF 25,000", `"RWF"`},
		{"the billed one of two totals", convTwoTotalsTaxDecides, "bills in RWF"},
		{"the converted total printed first", convUSDFirst, "bills in ZMW"},
		{"kr read by iceland", "Bakarí ehf.\nReykjavík\nKvittun 12\nBrauð 650 kr.\nSamtals 650 kr.", "ISK"},
		{"rupee sign read by sri lanka", "Colombo Tea Stores\nColombo 07, Sri Lanka\nBill 44\nTea 250g   Rs. 1,450.00\nTotal      Rs. 1,450.00", "LKR"},
		{"a euro sign", "Bäckerei Huber\nMünchen\nBon 3312\nBrezel 2 x 1,20 €\nSumme 2,40 €", "€"},
		{"a ringgit receipt", "KEDAI RUNCIT ABC\nTOTAL RM 12.50", "RM"},
		{"riyal read by saudi arabia", "مخبز الرياض\nالرياض، المملكة العربية السعودية\nخبز 2 × 3.00     6.00 ريال\nالإجمالي         6.00 ريال", "SAR"},
		// Honest nulls: a sign no cue reads, or no currency at all.
		{"a bare dollar with no cue", "Corner Deli\nReceipt 881\nSandwich $ 8.50\nTotal $ 8.50", ""},
		{"bare kr with no cue", "Kaffebaren\nKvittering 12\nKaffe 45,00 kr\nTotal 45,00 kr", ""},
		{"no currency printed", "Kedai Makan Sedap\nNasi lemak 5.00\nTotal 5.00", ""},
	}
	for _, c := range cases {
		res := validateHO(t, c.text, map[string]any{"currency": nil})
		reason, flagged := flagReason(res, "currency")
		switch {
		case c.reason == "" && flagged:
			t.Errorf("%s: an honest null flagged: %s", c.name, reason)
		case c.reason != "" && !flagged:
			t.Errorf("%s: null currency not flagged", c.name)
		case c.reason != "" && !strings.Contains(reason, c.reason):
			t.Errorf("%s: reason %q, want it to name %q", c.name, reason, c.reason)
		}
	}
}
