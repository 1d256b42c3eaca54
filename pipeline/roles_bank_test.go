package pipeline

import "testing"

// The bank a payment line names: where the seller keeps its account ("pay
// to our account at …", "Bankverbindung", "Banco:", "IBAN … <bank>"), or
// the buyer's bank a direct debit or standing order is drawn on ("자동이체
// 국민은행", "Lastschrift von Ihrem Konto bei …"). It holds or moves the
// money; it did not issue the document. Offered as the vendor it is
// flagged; the issuer at the head passes, and a bank's own statement,
// which names the bank at its head, passes too.
func TestBankInAPaymentLineIsNotTheVendor(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	ukTransfer := "Brightwater Plumbing Ltd\n12 Mill Lane, Leeds LS1 4AB\nINVOICE 2026-0412        Date: 14/11/2026\n" +
		"Bill to: Carter Homes Ltd\nBoiler service                      £180.00\nVAT 20%                              £36.00\n" +
		"Total                               £216.00\n" +
		"Payment within 14 days by transfer to our account with Lloyds Bank plc\nSort code 30-94-12   Account 12345678"
	deFooter := "Elektro Hofmann GmbH\nRingstraße 4, 50667 Köln\nRechnung Nr. 2026-1187        Datum: 12.11.2026\n" +
		"Kunde: Wohnbau Rhein eG\nInstallation Unterverteilung        1.000,00 €\nUSt. 19 %                             190,00 €\n" +
		"Gesamtbetrag                        1.190,00 €\nZahlbar innerhalb von 14 Tagen auf unser Konto bei der Volksbank Rhein-Ruhr eG\n" +
		"IBAN DE12 3706 0193 0001 2345 67 · BIC GENODED1PAX"
	deAbove := "Elektro Hofmann GmbH\nRechnung Nr. 2026-1188\nGesamtbetrag 1.190,00 €\nBankverbindung:\nSparkasse KölnBonn\n" +
		"IBAN DE12 3705 0198 0001 2345 67"
	krAuto := "(주)한결인테리어\n사업자등록번호 214-86-12345\n청구서  청구번호 HG-2026-118\n청구일자 2026-11-20\n" +
		"공사대금 2차분                    1,000,000\n부가세                              100,000\n합계금액                          1,100,000원\n" +
		"결제방법: 매월 25일 자동이체 국민은행 123-45-6789-012"
	jpFurikomi := "株式会社さくら設計\n東京都港区芝5-1-1\n請求書 No. 2026-1120\n請求日 2026年11月20日\n" +
		"設計業務委託料                  ¥500,000\n消費税(10%)                      ¥50,000\nご請求金額                     ¥550,000\n" +
		"お振込先：みずほ銀行 芝支店 普通 1234567"
	cnBank := "上海东方印务有限公司\n发票号码：26310000000123456789\n开票日期：2026年11月20日\n" +
		"印刷服务费                    ¥10,000.00\n税额                            ¥600.00\n价税合计                      ¥10,600.00\n" +
		"开户行：中国工商银行上海徐汇支行  账号：1001 2345 6789 0123 456"
	nlIBAN := "Schildersbedrijf De Vries B.V.\nFactuur 2026-0311          Datum: 18-11-2026\n" +
		"Schilderwerk kozijnen                 800,00\nBTW 21%                               168,00\nTotaal                           € 968,00\n" +
		"IBAN NL91 ABNA 0417 1643 00 (ABN AMRO Bank N.V.)"
	frDomic := "Menuiserie Lefèvre SARL\nFacture n° F-2026-221        Date : 19/11/2026\n" +
		"Pose de fenêtres                   2 000,00 €\nTVA 20 %                             400,00 €\nTotal TTC                          2 400,00 €\n" +
		"Règlement par virement sur notre compte ouvert auprès de BNP Paribas, IBAN FR76 3000 4000 0312 3456 7890 143"
	esDomic := "Instalaciones Ruiz S.L.\nFactura 2026/0418          Fecha: 20/11/2026\n" +
		"Mantenimiento caldera              150,00 €\nIVA 21%                              31,50 €\nTotal                              181,50 €\n" +
		"Forma de pago: domiciliación bancaria en CaixaBank, S.A."
	itBank := "Idraulica Bianchi S.r.l.\nFattura n. 418/2026 del 20/11/2026\n" +
		"Manutenzione impianto              300,00 €\nIVA 22%                              66,00 €\nTotale                             366,00 €\n" +
		"Coordinate bancarie: Intesa Sanpaolo S.p.A. - IBAN IT60 X054 2811 1010 0000 0123 456"
	inCheque := "Shree Ganesh Traders\nGSTIN 27ABCDE1234F1Z5\nTax Invoice No. SGT/2026/118   Date 20/11/2026\n" +
		"Cement 50 bags                 ₹18,000.00\nGST 28%                         ₹5,040.00\nTotal                          ₹23,040.00\n" +
		"Cheque / DD payable at State Bank of India, Fort Branch, Mumbai"
	usStanding := "Greenfield Lawn Care LLC\nINVOICE 7781        Nov 20, 2026\nSeasonal service   $240.00\nTotal   $240.00\n" +
		"Paid by standing order from your account at Chase Bank N.A."
	bankStatement := "Nordhavn Bank A/S\nKontoudskrift november 2026\nKonto 1234-5678901\nIBAN DK50 1234 5678 9012 34  Nordhavn Bank A/S\n" +
		"Gebyr   25,00 kr\nSaldo   1.025,00 kr"
	runClassCases(t, []classCase{
		{"uk account with a bank", ukTransfer, v("Lloyds Bank plc"), "vendor_name", why},
		{"uk plumber passes", ukTransfer, v("Brightwater Plumbing Ltd"), "", ""},
		{"german konto bei", deFooter, v("Volksbank Rhein-Ruhr eG"), "vendor_name", why},
		{"german electrician passes", deFooter, v("Elektro Hofmann GmbH"), "", ""},
		{"german bankverbindung above", deAbove, v("Sparkasse KölnBonn"), "vendor_name", why},
		{"korean auto transfer bank", krAuto, v("국민은행"), "vendor_name", why},
		{"korean interior firm passes", krAuto, v("(주)한결인테리어"), "", ""},
		{"japanese transfer bank", jpFurikomi, v("みずほ銀行"), "vendor_name", why},
		{"japanese design firm passes", jpFurikomi, v("株式会社さくら設計"), "", ""},
		{"chinese account bank", cnBank, v("中国工商银行上海徐汇支行"), "vendor_name", why},
		{"chinese printer passes", cnBank, v("上海东方印务有限公司"), "", ""},
		{"dutch bank after the iban", nlIBAN, v("ABN AMRO Bank N.V."), "vendor_name", why},
		{"dutch painter passes", nlIBAN, v("Schildersbedrijf De Vries B.V."), "", ""},
		{"french compte auprès de", frDomic, v("BNP Paribas"), "vendor_name", why},
		{"french joiner passes", frDomic, v("Menuiserie Lefèvre SARL"), "", ""},
		{"spanish domiciliación en", esDomic, v("CaixaBank, S.A."), "vendor_name", why},
		{"spanish installer passes", esDomic, v("Instalaciones Ruiz S.L."), "", ""},
		{"italian coordinate bancarie", itBank, v("Intesa Sanpaolo S.p.A."), "vendor_name", why},
		{"italian plumber passes", itBank, v("Idraulica Bianchi S.r.l."), "", ""},
		{"indian cheque payable at", inCheque, v("State Bank of India"), "vendor_name", why},
		{"indian trader passes", inCheque, v("Shree Ganesh Traders"), "", ""},
		{"us standing order bank", usStanding, v("Chase Bank N.A."), "vendor_name", why},
		{"us lawn care passes", usStanding, v("Greenfield Lawn Care LLC"), "", ""},
		{"a bank's own statement passes", bankStatement, v("Nordhavn Bank A/S"), "", ""},
	})
}
