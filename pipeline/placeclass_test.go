package pipeline

import "testing"

// With no currency printed and no date proving the day/month order, the
// issuer's printed numbers place the document: a Malaysian twelve-digit GST
// number, a telephone country code, a company register number, an address
// written postcode first. The
// month-first reading is then flagged; the day-first one passes; a document
// nothing places keeps its note only.
func TestDateOrderFromIssuerNumbers(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	my := "BEYOND HARDWARE\nLOT 1-0-2 DIAMOND SQUARE\nGST ID : 001921974272\nDOC NO. : CS00059502 DATE: 10/11/2017\nTOTAL 12.00"
	de := "Müller Werkzeuge\nTel. +49 30 1234567\nRechnung 4711 vom 03/04/2026\nGesamt 119,00"
	reg := "CHEF HENRY RIBS HOUSE\n( JM0828301-X )\nINVOICE NO: 001853\n21:07:08 05/06/2018\nTOTAL 104.00"
	runClassCases(t, []classCase{
		{"GST number month-first", my, d("2017-10-11"), "invoice_date", "Malaysian GST registration number"},
		{"GST number day-first", my, d("2017-11-10"), "", ""},
		{"telephone code month-first", de, d("2026-03-04"), "invoice_date", "German telephone code"},
		{"telephone code day-first", de, d("2026-04-03"), "", ""},
		{"company register month-first", reg, d("2018-05-06"), "invoice_date", "company register number"},
		{"company register day-first", reg, d("2018-06-05"), "", ""},
		{"nothing places it", "Acme\nTel. 555 1234\nDate: 12/10/2026\nTotal 9.00", d("2026-12-10"), "", ""},
		{"postcode first month-first", "YONG CEN ENTERPRISE\n40150 SHAH ALAM\nRECEIPT #: CS00027489 DATE: 11/02/2017\nTOTAL 19.10",
			d("2017-11-02"), "invoice_date", "postcode first"},
		{"postcode first day-first", "Boulangerie Paul\n75001 Paris\nFacture 118 du 11/02/2026\nTotal 9,00", d("2026-02-11"), "", ""},
		{"US house number", "Acme Hardware\n12345 Main St\nSpringfield, IL 62701\nDate: 12/10/2026\nTotal 9.00", d("2026-12-10"), "", ""},
		{"item code below amounts", "Acme\nDate: 12/10/2026\nWIDGET 9.00\n12345 BOLTS\nTotal 9.00", d("2026-12-10"), "", ""},
	})
}

// A currency no amount carries is still implied by the issuer's GST number
// format: MYR passes with a note, another code is flagged.
func TestCurrencyImpliedByIssuerNumber(t *testing.T) {
	my := "YONG CEN ENTERPRISE\n40150 SHAH ALAM\nGST NO: 001147981824\nRECEIPT #: CS00668595\nTOTAL 61.99"
	runClassCases(t, []classCase{
		{"implied MYR", my, map[string]any{"currency": "MYR"}, "", ""},
		{"other code", my, map[string]any{"currency": "SGD"}, "currency", "implies MYR"},
	})
}

// A date whose every printing is a bound of a period is not the document's
// date when the document prints another; a date later than the issue moment
// (a date printed with its time) and printed without a time is a due,
// expiry or validity date.
func TestDatePeriodsAndLaterDates(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	de := "Müller Werkzeuge GmbH\nRechnungsdatum: 05.04.2026\nLeistungszeitraum: 01.03.2026 - 31.03.2026\nGesamt 119,00 €"
	promo := "THE STORE SDN BHD\n14-01-2018 (SUN) 16:02\nTOTAL 35.80\nMARBLE COATING COOKWARE\n24 NOVEMBER 2017 - 4 MARCH 2018"
	points := "BHPETROL SUBANG\n18-01-2018 15:44:46 CASHIER: 888\nTOTAL RM 41.95\nEPOINTS EXPIRY 24 31/10/2020"
	jp := "株式会社サンプル\n発行日 2026年4月5日 10:12\n合計 1,100円\n有効期限 2026年5月31日"
	runClassCases(t, []classCase{
		{"period start", de, d("2026-03-01"), "invoice_date", "bound of the period"},
		{"period end", de, d("2026-03-31"), "invoice_date", "bound of the period"},
		{"invoice date", de, d("2026-04-05"), "", ""},
		{"promotion start", promo, d("2017-11-24"), "invoice_date", "bound of the period"},
		{"promotion end", promo, d("2018-03-04"), "invoice_date", "bound of the period"},
		{"receipt date", promo, d("2018-01-14"), "", ""},
		{"points expiry", points, d("2020-10-31"), "invoice_date", "later than"},
		{"fuel receipt date", points, d("2018-01-18"), "", ""},
		{"japanese validity", jp, d("2026-05-31"), "invoice_date", "later than"},
		{"japanese issue date", jp, d("2026-04-05"), "", ""},
		{"only a period", "Acme\nService 01.03.2026 - 31.03.2026\nTotal 9,00 €", d("2026-03-31"), "", ""},
	})
}

// When every figure sits under its own label but the relation fails, a
// figure the document also labels for one field that balances it convicts
// that field's value: a zero-rate row's "0.00" given as the tax while the
// standard-rate tax is printed.
func TestMoneyPrintedFigureBalances(t *testing.T) {
	my := "F&P PHARMACY\nTOTAL SALES (EXCLUDING GST) 30.68\nTOTAL GST 1.22\nTOTAL 31.90\nGST SUMMARY AMOUNT TAX\nSR 6% 20.38 1.22\nZRL 0% 10.30 0.00\n"
	de := "Müller GmbH\nNetto 100,00\nMwSt 19% 19,00\nMwSt 0% 0,00\nGesamt 119,00\n"
	runMoneyCases(t, []moneyCase{
		{name: "zero-rate row as tax", text: my, rec: Record{"subtotal": 30.68, "tax": 0.0, "total": 31.9}, field: "tax", wrong: true, want: "labels 1.22 as tax"},
		{name: "standard-rate tax", text: my, rec: Record{"subtotal": 30.68, "tax": 1.22, "total": 31.9}, field: "tax"},
		{name: "total kept", text: my, rec: Record{"subtotal": 30.68, "tax": 0.0, "total": 31.9}, field: "total"},
		{name: "german zero row", text: de, rec: Record{"subtotal": 100.0, "tax": 0.0, "total": 119.0}, field: "tax", wrong: true, want: "19.00"},
		{name: "german right", text: de, rec: Record{"subtotal": 100.0, "tax": 19.0, "total": 119.0}, field: "tax"},
	})
}

// "<amount> incl. <tax word>" names the amount that holds the tax, not the
// tax: that figure given as the tax is flagged, the tax printed on its own
// line passes; "including GST 0.00" alone stays the tax.
func TestGrossAmountInclTax(t *testing.T) {
	my := "DION REALTIES SDN BHD\nTAX INVOICE NO. 7698/0601/00601\nPAY PARKING TICKET 5.00 RM\nAMOUNT INCL. GST 5.00 RM\nCASH 10.00 RM\nCHANGE 5.00 RM\nGST 6% 0.28 RM\n"
	de := "Müller GmbH\nRechnung 4711\nBetrag inkl. MwSt. 119,00\nMwSt 19% 19,00\n"
	zero := "RAPID RAIL SDN BHD\nTOTAL RM 30.00\nINCLUDING GST RM 0.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "gross as tax", text: my, rec: Record{"tax": 5.0, "total": 5.0}, field: "tax", wrong: true, want: "0.28"},
		{name: "tax", text: my, rec: Record{"tax": 0.28, "total": 5.0}, field: "tax"},
		{name: "gross is the total", text: my, rec: Record{"tax": 0.28, "total": 5.0}, field: "total"},
		{name: "german gross as tax", text: de, rec: Record{"tax": 119.0, "total": 119.0}, field: "tax", wrong: true, want: "19.00"},
		{name: "german tax", text: de, rec: Record{"tax": 19.0, "total": 119.0}, field: "tax"},
		{name: "including gst alone", text: zero, rec: Record{"tax": 0.0, "total": 30.0}, field: "tax"},
	})
}

// When the relation fails, two tax rows with their rates that add up to the
// missing tax convict a value that is one of them: one rate's tax of two,
// CGST without SGST.
func TestMoneyTwoRatesTax(t *testing.T) {
	jp := "請求書\n株式会社さくらデザイン\n小計 170,000\n消費税（10%対象 150,000） 15,000\n消費税（8%対象 20,000） 1,600\n合計金額 ¥186,600\n"
	fr := "CARREFOUR MARKET\nTOTAL A PAYER 13,74 EUR\nTVA TAUX HT TVA\n A 5,50% 7,35 0,40\n B 20,00% 4,99 1,00\n"
	in := "Shree Textiles Pvt. Ltd.\nTaxable Value 1,23,000.00\nCGST @ 2.5% 3,075.00\nSGST @ 2.5% 3,075.00\nGrand Total 1,29,150.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "one rate of two", text: jp, rec: Record{"subtotal": 170000.0, "tax": 15000.0, "total": 186600.0}, field: "tax", wrong: true, want: "15,000 and 1,600"},
		{name: "both rates", text: jp, rec: Record{"subtotal": 170000.0, "tax": 16600.0, "total": 186600.0}, field: "total"},
		{name: "TVA B only", text: fr, rec: Record{"subtotal": 12.34, "tax": 1.0, "total": 13.74}, field: "tax", wrong: true, want: "0,40 and 1,00"},
		{name: "CGST only", text: in, rec: Record{"subtotal": 123000.0, "tax": 3075.0, "total": 129150.0}, field: "tax", wrong: true, want: "balances it"},
	})
}

// A bracketed aside between a label and its amount does not hide the label:
// a deposit printed "Less deposit paid (inv WEH-3288, 20 Jan) -1,000.00" is
// a payment, so the balance after it is not the total and the invoice total
// before it is.
func TestLabelBeforeAnAside(t *testing.T) {
	uk := "Westbrook Event Hire Ltd\nINVOICE WEH-3310\nSubtotal 3,060.00\nVAT 20% 612.00\nInvoice total 3,672.00\n" +
		"Less deposit paid (inv WEH-3288, 20 Jan) -1,000.00\nBalance due by 7 March 2026 2,672.00\n"
	de := "Müller GmbH\nNetto 1.000,00\nMwSt 19% 190,00\nGesamtbetrag 1.190,00\nAnzahlung (Rg. 4711 vom 01.02.2026) -500,00\nZu zahlen 690,00\n"
	rec := func(total float64) Record { return Record{"subtotal": 3060.0, "tax": 612.0, "total": total} }
	runMoneyCases(t, []moneyCase{
		{name: "balance as total", text: uk, rec: rec(2672), field: "total", wrong: true, want: "3672.00"},
		{name: "invoice total", text: uk, rec: rec(3672), field: "total"},
		{name: "german balance as total", text: de, rec: Record{"subtotal": 1000.0, "tax": 190.0, "total": 690.0}, field: "total", wrong: true, want: "1190.00"},
		{name: "german total", text: de, rec: Record{"subtotal": 1000.0, "tax": 190.0, "total": 1190.0}, field: "total"},
	})
}

// A US address (state code and ZIP) settles month-first order; a Mexican
// legal form ("S.A. de C.V.") day-first.
func TestDateOrderUSAndMexico(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	us := "Bluewater Marine Supply, Inc.\nPO Box 4410, Tampa FL 33601\nInvoice Date: 03/11/2026\nTOTAL $1,172.63"
	mx := "FARMACIAS DEL BIENESTAR S.A. DE C.V.\nTICKET: 0231-0087712   FECHA: 09/03/2026 13:27\nTOTAL $194.50"
	runClassCases(t, []classCase{
		{"US day-first reading", us, d("2026-11-03"), "invoice_date", "US address"},
		{"US month-first", us, d("2026-03-11"), "", ""},
		{"Mexican month-first reading", mx, d("2026-09-03"), "invoice_date", "S.A. DE C.V."},
		{"Mexican day-first", mx, d("2026-03-09"), "", ""},
	})
}

// A shared sign is read with what the document says about it: "¥" on a
// document with kana is the yen, on one in Han characters only the yuan;
// "$" with "dollars canadiens" or "PESOS … M.N." is not USD.
func TestSharedSignByScriptAndWords(t *testing.T) {
	c := func(v string) map[string]any { return map[string]any{"currency": v} }
	jp := "請求書\n株式会社さくらデザイン\n合計金額 ¥186,600\n"
	cn := "上海市徐汇区漕溪北路88号店\n合计 ¥128.00\n"
	ca := "Boutique Laurier inc.\nTotal 1 207,24 $\nMontants en dollars canadiens\n"
	mx := "FARMACIAS DEL BIENESTAR S.A. DE C.V.\nTOTAL $194.50\n(CIENTO NOVENTA Y CUATRO PESOS 50/100 M.N.)\n"
	runClassCases(t, []classCase{
		{"yuan on a Japanese invoice", jp, c("CNY"), "currency", "kana"},
		{"yen on a Japanese invoice", jp, c("JPY"), "", ""},
		{"yen on a Chinese receipt", cn, c("JPY"), "currency", "Han"},
		{"yuan on a Chinese receipt", cn, c("CNY"), "", ""},
		{"USD on a Canadian invoice", ca, c("USD"), "currency", "dollars canadiens"},
		{"CAD", ca, c("CAD"), "", ""},
		{"USD for pesos", mx, c("USD"), "currency", "MXN"},
		{"MXN", mx, c("MXN"), "", ""},
	})
}

// A number after a provision word ("Art. 196", "§ 13b") is a reference,
// not an amount; amounts written with 원 are amounts in won.
func TestProvisionNumbersAndWon(t *testing.T) {
	eu := "Lena Vogel — Freelance UX Research\nInvoice number: 2026-014\nUser interviews 3.800,00 €\n" +
		"VAT 0% — reverse charge (Art. 196 Directive 2006/112/EC)   0,00 €\nTotal 3.800,00 €\n"
	de := "Müller GmbH\nNetto 500,00 €\nMwSt. 0 % (Steuerschuldnerschaft des Leistungsempfängers, § 13 UStG) 0,00 €\nGesamt 500,00 €\n"
	kr := "[카드매출전표]\n가맹점명: 스타벅스 강남역점\n판매금액: 11,364원\n부가세: 1,136원\n합계: 12,500원"
	runMoneyCases(t, []moneyCase{
		{name: "reverse charge tax", text: eu, rec: Record{"subtotal": 3800.0, "tax": 0.0, "total": 3800.0}, field: "tax"},
		{name: "reverse charge subtotal", text: eu, rec: Record{"subtotal": 3800.0, "tax": 0.0, "total": 3800.0}, field: "subtotal"},
		{name: "article as tax", text: eu, rec: Record{"subtotal": 3800.0, "tax": 196.0, "total": 3800.0}, field: "tax", wrong: true, want: "196"},
		{name: "paragraph", text: de, rec: Record{"subtotal": 500.0, "tax": 0.0, "total": 500.0}, field: "tax"},
		{name: "won total", text: kr, rec: Record{"subtotal": 11364.0, "tax": 1136.0, "total": 12500.0}, field: "total"},
		{name: "won tax", text: kr, rec: Record{"subtotal": 11364.0, "tax": 1136.0, "total": 12500.0}, field: "tax"},
	})
	runClassCases(t, []classCase{
		{"won", kr, map[string]any{"currency": "KRW"}, "", ""},
	})
}

// A currency no amount states, or states only with a shared sign, is read
// from the issuer: a Swedish VAT number makes "kr" the krona, a US address
// makes a document without a sign USD, "(Pty) Ltd" places it in South Africa.
func TestCurrencyFromIssuerPlace(t *testing.T) {
	c := func(v string) map[string]any { return map[string]any{"currency": v} }
	se := "Nordljus Elektriska AB\nMomsreg.nr SE556123456701\nSumma exkl. moms 8 595,00\nAtt betala 10 744,00 kr\n"
	us := "MIKE'S AUTO & TIRE\n1820 W Main St, Mesa AZ 85201\nSubtotal 608.90\nTotal 632.67\n"
	za := "Karoo Solar Installations (Pty) Ltd\nSubtotal (excl. VAT) 32 500,00\nTOTAL DUE 37 375,00\n"
	runClassCases(t, []classCase{
		{"krona", se, c("SEK"), "", ""},
		{"krone for krona", se, c("NOK"), "currency", "Swedish VAT number"},
		{"implied USD", us, c("USD"), "", ""},
		{"implied ZAR", za, c("ZAR"), "", ""},
		{"not AUD", za, c("AUD"), "currency", "implies ZAR"},
	})
}

// The tax of two rates printed on rate rows and never added up on the page
// is grounded by its two rows; a currency stated only in a column header
// makes a null currency an omission.
func TestTwoRateTaxGroundedAndHeaderCurrency(t *testing.T) {
	nl := "De Groene Tuinman B.V.\nSubtotaal excl. btw 955,00\nBtw 21% 134,40\nBtw 9% 28,35\nTotaal te betalen € 1.117,75\n"
	runMoneyCases(t, []moneyCase{
		{name: "sum of two rates", text: nl, rec: Record{"subtotal": 955.0, "tax": 162.75, "total": 1117.75}, field: "tax"},
		{name: "one rate", text: nl, rec: Record{"subtotal": 955.0, "tax": 134.4, "total": 1117.75}, field: "tax", wrong: true, want: "134,40 and 28,35"},
	})
	ae := "Al Noor Facility Services LLC\nDescription                Amount (AED)\nDeep cleaning   8,400.00\nTotal incl. VAT 9,502.50\n"
	de := "Hydro-Tec Pumpen GmbH\nArtikel   Menge   Betrag (EUR)\nTauchpumpe 2 3.180,00\nEndbetrag 5.259,80\n"
	runClassCases(t, []classCase{
		{"AED header", ae, map[string]any{"currency": nil, "total": 9502.5}, "currency", "Amount (AED)"},
		{"EUR header", de, map[string]any{"currency": nil, "total": 5259.8}, "currency", "Betrag (EUR)"},
		{"AED stated", ae, map[string]any{"currency": "AED", "total": 9502.5}, "", ""},
	})
}

// A deposit received or a retainer applied after the total makes the
// figure after it a balance: the total before it is not "non-final".
func TestTotalBeforeDepositOrCredit(t *testing.T) {
	sg := "Lion City IT Solutions Pte. Ltd.\nSub-total S$ 5,980.00\nGST 9% S$ 538.20\nTotal S$ 6,518.20\n" +
		"Less: Deposit received S$ 1,000.00\nBalance due S$ 5,518.20\n"
	us := "Calloway & Burke LLP\nFees (18.4 hrs) $8,280.00\nCosts advanced $412.50\nTotal current charges $8,692.50\n" +
		"Applied from trust retainer -$5,000.00\nPrior balance $1,150.00\nTotal amount due $4,842.50\n"
	runMoneyCases(t, []moneyCase{
		{name: "total before deposit", text: sg, rec: Record{"subtotal": 5980.0, "tax": 538.2, "total": 6518.2}, field: "total"},
		{name: "balance after deposit", text: sg, rec: Record{"subtotal": 5980.0, "tax": 538.2, "total": 5518.2}, field: "total", wrong: true, want: "6518.20"},
		{name: "charges before retainer", text: us, rec: Record{"total": 8692.5}, field: "total"},
	})
}

// Labels read as meant in other languages: 内消費税等 is the tax a Japanese
// receipt includes; an IVA or ISR withholding is not the tax charged; "Zu
// bezahlen" after a rounding is the payable total.
func TestWithholdingAndPayableWords(t *testing.T) {
	jp := "領収書\n2026年3月7日\n金額 ￥3,960-（税込）\n内消費税等（10%） ￥360\n和食処 さくら亭\n"
	mx := "CFDI 4.0 — Factura\nSubtotal 12,500.00\nIVA Trasladado 16% 2,000.00\nISR Retenido 10% -1,250.00\nIVA Retenido -1,333.33\nTotal 11,916.67 MXN\n"
	ch := "Schreinerei Amstutz AG\nTotal exkl. MWST CHF 3'657.50\nMWST 8.1% CHF 296.26\nTotal inkl. MWST CHF 3'953.76\nRundung CHF -0.01\nZu bezahlen CHF 3'953.75\n"
	runMoneyCases(t, []moneyCase{
		{name: "内消費税等", text: jp, rec: Record{"tax": 360.0, "total": 3960.0}, field: "tax"},
		{name: "IVA charged", text: mx, rec: Record{"subtotal": 12500.0, "tax": 2000.0, "total": 11916.67}, field: "tax"},
		{name: "payable after rounding", text: ch, rec: Record{"tax": 296.26, "total": 3953.75}, field: "total"},
		{name: "total before rounding", text: ch, rec: Record{"tax": 296.26, "total": 3953.76}, field: "total", wrong: true, want: "3953.75"},
	})
}

// A tax summary with two rates: one row's tax is not the document's tax
// (a service charge row is not a rate); a null subtotal is no omission when
// only the rows' nets are printed, and is one when their sum is.
func TestTaxSummaryRatesAndRows(t *testing.T) {
	hotel := "Hotel Alpenrose\nGUEST FOLIO / RECHNUNG Nr. 2026-03-4471\n08.03. Logis 495,00\n10.03. Restaurant 72,40\nTotal EUR 567,40\n" +
		"incl. MwSt 10% (Logis 495,00) 45,00\nincl. MwSt 20% (Restaurant 72,40) 12,07\n"
	uk := "FRESHMART SUPERMARKET\nTOTAL £15.24\nVISA DEBIT £15.24\nVAT A 20%  NET 10.41  VAT 2.08\nVAT Z  0%  NET  2.75  VAT 0.00\n"
	de := "REWE Markt GmbH\nSUMME EUR 23,48\nSteuer  %    Netto    Steuer   Brutto\nA=      7,0%  19,85    1,39    21,24\n" +
		"B=     19,0%   1,88    0,36     2,24\nGesamtbetrag  21,73    1,75    23,48\n"
	runMoneyCases(t, []moneyCase{
		{name: "one rate's tax", text: hotel, rec: Record{"tax": 45.0, "total": 567.4}, field: "tax", wrong: true, want: "tax summary"},
		{name: "both rates", text: hotel, rec: Record{"tax": 57.07, "total": 567.4}, field: "tax"},
	})
	runClassCases(t, []classCase{
		{"rows only", uk, map[string]any{"subtotal": nil, "tax": 2.08, "total": 15.24}, "", ""},
		{"rows and their sum", de, map[string]any{"subtotal": nil, "tax": 1.75, "total": 23.48}, "subtotal", "21,73"},
	})
	credit := "CREDIT NOTE\nCredit note no: CN-00287\nNet credit -£800.00\nVAT @ 20% -£160.00\nTotal credit -£960.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "credit note net without its minus", text: credit, rec: Record{"subtotal": 800.0, "tax": -160.0, "total": -960.0}, field: "subtotal", wrong: true, want: "opposite sign"},
		{name: "credit note net", text: credit, rec: Record{"subtotal": -800.0, "tax": -160.0, "total": -960.0}, field: "subtotal"},
	})
}

// A statement of account: its balance column is not a line amount the
// total must exceed, and "Amount now due" is its total.
func TestStatementBalanceColumn(t *testing.T) {
	st := "STATEMENT OF ACCOUNT\nRedwood Timber Merchants Ltd\nDate Ref Description Debit Credit Balance\n" +
		"01/03/2026 Balance b/f 1,250.00\n04/03/2026 INV-7781 Invoice 2,340.00 3,590.00\n" +
		"12/03/2026 PAY-1120 Payment received 1,250.00 2,340.00\n26/03/2026 CN-0091 Credit note 120.00 2,220.00\n" +
		"Amount now due: £2,220.00\n"
	runMoneyCases(t, []moneyCase{
		{name: "amount now due", text: st, rec: Record{"total": 2220.0}, field: "total"},
		{name: "one invoice as total", text: st, rec: Record{"total": 2340.0}, field: "total", wrong: true, want: "2220.00"},
		{name: "opening balance as total", text: st, rec: Record{"total": 1250.0}, field: "total", wrong: true, want: "2220.00"},
	})
}

// A Brazilian NF-e: the products' total is not the note's total, and the
// base a tax is computed on is not a second tax.
func TestNFeProductsAndTaxBase(t *testing.T) {
	nfe := "DANFE - Documento Auxiliar da Nota Fiscal Eletrônica\nEMITENTE: Distribuidora Vale Verde Ltda.\nCÁLCULO DO IMPOSTO\n" +
		"BASE DE CÁLC. ICMS  4.250,00   VALOR DO ICMS  765,00\nVALOR TOTAL DOS PRODUTOS  4.250,00\nVALOR DO FRETE  120,00\n" +
		"VALOR TOTAL DA NOTA  R$ 4.370,00\n"
	rec := func(total float64) Record { return Record{"subtotal": 4250.0, "tax": 765.0, "total": total} }
	runMoneyCases(t, []moneyCase{
		{name: "tax", text: nfe, rec: rec(4370), field: "tax"},
		{name: "products total as total", text: nfe, rec: rec(4250), field: "total", wrong: true, want: "4370.00"},
	})
	// The ICMS is inside the products' price and the freight is added, so
	// subtotal + tax != total stays a note, not a flag.
	runClassCases(t, []classCase{
		{"note total", nfe, map[string]any{"subtotal": 4250.0, "tax": 765.0, "total": 4370.0}, "", ""},
	})
}
