package pipeline

import "testing"

// Class "another date taken as the invoice date" where the date is named by
// what happened on it: a stay's arrival or check-in (a folio is issued when
// the guest leaves), a visit, a consultation or an installation, and the
// next appointment a clinic prints under the bill. Each, offered as the
// invoice date, is flagged with a reason that names its label, also where
// the issue date is printed with no label at all (after the place, in a
// heading); the issue date passes.
func TestStayVisitAndAppointmentDatesAreNotTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	chFolio := "Hôtel du Lac SA\nRue du Rhône 12, 1204 Genève\nGenève, le 14 novembre 2026\nFacture N° 2026-4471\n" +
		"Client: M. Jean Dupont\nDate d'arrivée: 10.11.2026\nNuitée 4 x 220,00  880,00\nTotal CHF 880,00"
	cnFolio := "上海外滩酒店\n发票号码: 44012288\n2026年11月13日\n入住日: 2026年11月10日\n离店日期: 2026年11月13日\n" +
		"房费 3晚 ¥1,800.00\n合计 ¥1,800.00"
	krFolio := "서울 그랜드 호텔\n영수증 번호: 2026-4471\n발행: 2026-11-13\n체크인: 2026-11-10\n객실료 3박 450,000원\n합계 450,000원"
	jpFolio := "ホテル京都\n領収書番号: 4471\n2026年11月13日\nチェックイン 2026年11月10日\n宿泊料 ¥45,000\n合計 ¥45,000"
	esFolio := "Hotel Mirador S.L.\nFactura 2026/4471\nMálaga, 13 de noviembre de 2026\nFecha de llegada: 10/11/2026\n" +
		"Alojamiento 3 noches 360,00\nTotal 396,00 €"
	install := "Solar Bright Pty Ltd\nTax Invoice 4471\n20/11/2026\nInstallation date: 05/11/2026\nPanels 4,000.00\nTotal $4,400.00"
	installedOn := "Solar Bright Pty Ltd\nTax Invoice 4471\nIssued 20/11/2026\nInstalled on 05/11/2026\nTotal $4,400.00"
	firstVisit := "Dr. Patel Family Clinic\nInvoice 4471\nDate: 20/11/2026\nFirst visit: 05/11/2026\nConsultation 80.00\nTotal £80.00"
	nextEN := "Smile Dental Care\nInvoice 4471\nDate: 20/11/2026\nCheck-up 80.00\nTotal £80.00\nNext appointment: 04/12/2026 10:30"
	nextDE := "Zahnarztpraxis Dr. Klein\nRechnung 4471\nRechnungsdatum: 20.11.2026\nKontrolle 80,00\nGesamt 80,00 EUR\nNächster Termin: 04.12.2026"
	nextHK := "仁心牙科診所\n收據號碼: 4471\n2026年11月20日\n洗牙 HK$800.00\n合計 HK$800.00\n下次覆診: 2026年12月4日"
	nextFR := "Cabinet dentaire Morel\nNote d'honoraires n° 4471\nLyon, le 20 novembre 2026\nDétartrage 60,00\nTotal 60,00 €\n" +
		"Prochain rendez-vous : 04/12/2026"
	nextES := "Clínica Dental Sonrisa\nFactura A-4471\nMadrid, 20 de noviembre de 2026\nLimpieza 60,00\nTotal 60,00 €\nPróxima cita: 04/12/2026"
	runDateCases(t, []classCase{
		{"CH folio issue date", chFolio, d("2026-11-14"), "", ""},
		{"CH folio arrival", chFolio, d("2026-11-10"), "invoice_date", "Date d'arrivée"},
		{"CN folio issue date", cnFolio, d("2026-11-13"), "", ""},
		{"CN folio check-in", cnFolio, d("2026-11-10"), "invoice_date", "入住日"},
		{"KR folio issue date", krFolio, d("2026-11-13"), "", ""},
		{"KR folio check-in", krFolio, d("2026-11-10"), "invoice_date", "체크인"},
		{"JP folio issue date", jpFolio, d("2026-11-13"), "", ""},
		{"JP folio check-in", jpFolio, d("2026-11-10"), "invoice_date", "チェックイン"},
		{"ES folio issue date", esFolio, d("2026-11-13"), "", ""},
		{"ES folio arrival", esFolio, d("2026-11-10"), "invoice_date", "Fecha de llegada"},
		{"AU installation issue date", install, d("2026-11-20"), "", ""},
		{"AU installation date", install, d("2026-11-05"), "invoice_date", "Installation date"},
		{"AU installed on issue date", installedOn, d("2026-11-20"), "", ""},
		{"AU installed on", installedOn, d("2026-11-05"), "invoice_date", "Installed on"},
		{"UK first visit issue date", firstVisit, d("2026-11-20"), "", ""},
		{"UK first visit", firstVisit, d("2026-11-05"), "invoice_date", "First visit"},
		{"UK next appointment issue date", nextEN, d("2026-11-20"), "", ""},
		{"UK next appointment", nextEN, d("2026-12-04"), "invoice_date", "Next appointment"},
		{"DE next appointment issue date", nextDE, d("2026-11-20"), "", ""},
		{"DE next appointment", nextDE, d("2026-12-04"), "invoice_date", "Nächster Termin"},
		{"HK next appointment issue date", nextHK, d("2026-11-20"), "", ""},
		{"HK next appointment", nextHK, d("2026-12-04"), "invoice_date", "下次覆診"},
		{"FR next appointment issue date", nextFR, d("2026-11-20"), "", ""},
		{"FR next appointment", nextFR, d("2026-12-04"), "invoice_date", "Prochain rendez-vous"},
		{"ES next appointment issue date", nextES, d("2026-11-20"), "", ""},
		{"ES next appointment", nextES, d("2026-12-04"), "invoice_date", "Próxima cita"},
	})
}

// An order or a delivery note the invoice answers is dated in a phrase
// before its date ("Ihre Bestellung vom 12.11.2026", "your order of …",
// "su pedido del …", "votre commande du …", "Lieferschein vom …", "Guía de
// despacho Nº 8812 del …"): that date is the order's or the delivery's, not
// the invoice's, while the issue date heads the letter after its place.
func TestOrderAndDeliveryNoteDatesAreNotTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	de := "Bürobedarf Schulz GmbH\nRechnung Nr. 88213\nHamburg, 20.11.2026\nIhre Bestellung vom 12.11.2026\nPapier 40,00\nGesamt 47,60 EUR"
	en := "Office Supplies Ltd\nInvoice 88213\n20 November 2026\nThank you for your order of 12 November 2026.\nTotal £48.00"
	es := "Suministros Pérez S.A.\nFactura 88213\nSevilla, 20 de noviembre de 2026\nSegún su pedido del 12/11/2026\nTotal 48,40 €"
	fr := "Fournitures Martin SARL\nFacture 88213\nLyon, le 20 novembre 2026\nSuite à votre commande du 12/11/2026\nTotal TTC 48,00 €"
	it := "Forniture Rossi S.r.l.\nFattura 88213\nMilano, 20/11/2026\nVostro ordine del 12/11/2026\nTotale € 48,80"
	cl := "Ferretería Los Andes SpA\nFactura Electrónica Nº 4471\nSantiago, 20 de noviembre de 2026\n" +
		"Guía de despacho Nº 8812 del 12/11/2026\nTotal $48.000"
	deLS := "Baustoffe Meyer GmbH\nRechnung 4471\nBremen, 20.11.2026\nLieferschein vom 12.11.2026\nZement 40,00\nGesamt 47,60 EUR"
	frBL := "Matériaux Dubois SA\nFacture 4471\nNantes, le 20 novembre 2026\nSelon bon de livraison du 12/11/2026\nTotal TTC 48,00 €"
	runDateCases(t, []classCase{
		{"DE order issue date", de, d("2026-11-20"), "", ""},
		{"DE order date", de, d("2026-11-12"), "invoice_date", "Ihre Bestellung vom"},
		{"UK order issue date", en, d("2026-11-20"), "", ""},
		{"UK order date", en, d("2026-11-12"), "invoice_date", "your order of"},
		{"ES order issue date", es, d("2026-11-20"), "", ""},
		{"ES order date", es, d("2026-11-12"), "invoice_date", "su pedido del"},
		{"FR order issue date", fr, d("2026-11-20"), "", ""},
		{"FR order date", fr, d("2026-11-12"), "invoice_date", "votre commande du"},
		{"IT order issue date", it, d("2026-11-20"), "", ""},
		{"IT order date", it, d("2026-11-12"), "invoice_date", "ordine del"},
		{"CL dispatch guide issue date", cl, d("2026-11-20"), "", ""},
		{"CL dispatch guide date", cl, d("2026-11-12"), "invoice_date", "Guía de despacho"},
		{"DE delivery note issue date", deLS, d("2026-11-20"), "", ""},
		{"DE delivery note date", deLS, d("2026-11-12"), "invoice_date", "Lieferschein vom"},
		{"FR delivery note issue date", frBL, d("2026-11-20"), "", ""},
		{"FR delivery note date", frBL, d("2026-11-12"), "invoice_date", "bon de livraison du"},
	})
}

// Korean, Japanese and Chinese bills print the payment deadline under
// labels of their own (납부기한, 납기일, お支払期限, 支払期日, 缴费期限,
// 繳費期限); the issue date is often printed with no label.
func TestEastAsianDueDatesAreNotTheIssueDate(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	kr := "(주)한빛통신\n청구서 번호: 2026-4471\n2026-11-20\n납부기한: 2026-12-05\n합계 55,000원"
	kr2 := "(주)한빛통신\n청구서 번호: 2026-4471\n2026년 11월 20일\n납기일: 2026년 12월 5일\n합계 55,000원"
	jp := "株式会社さくら商事\n請求書番号: 4471\n2026年11月20日\n支払期日 2026年12月31日\n合計 ¥55,000"
	cn := "北京电力公司\n账单号: 4471\n2026年11月20日\n缴费期限: 2026年12月5日\n合计 ¥550.00"
	tw := "台北自來水事業處\n帳單號碼: 4471\n2026年11月20日\n繳費期限: 2026年12月5日\n合計 NT$550"
	runDateCases(t, []classCase{
		{"KR issue date", kr, d("2026-11-20"), "", ""},
		{"KR 납부기한", kr, d("2026-12-05"), "invoice_date", "납부기한"},
		{"KR issue date in words", kr2, d("2026-11-20"), "", ""},
		{"KR 납기일", kr2, d("2026-12-05"), "invoice_date", "납기일"},
		{"JP issue date", jp, d("2026-11-20"), "", ""},
		{"JP 支払期日", jp, d("2026-12-31"), "invoice_date", "支払期日"},
		{"CN issue date", cn, d("2026-11-20"), "", ""},
		{"CN 缴费期限", cn, d("2026-12-05"), "invoice_date", "缴费期限"},
		{"TW issue date", tw, d("2026-11-20"), "", ""},
		{"TW 繳費期限", tw, d("2026-12-05"), "invoice_date", "繳費期限"},
	})
}

// A delivery note dated after its number ("Delivery Note DN-8812 dated 12
// Nov 2026", "Lieferschein Nr. 8812 vom 12.11.2026"), an Icelandic due date
// (Eindagi, Gjalddagi), a first consultation and the day work was completed
// are other dates.
func TestDatedDeliveryNotesDueAndCompletionDates(t *testing.T) {
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	uk := "Northern Paper\nInvoice 4471\n20 Nov 2026\nDelivery Note DN-8812 dated 12 Nov 2026\nTotal £48.00"
	de := "Baustoffe Meyer GmbH\nRechnung 4471\nBremen, 20.11.2026\nLieferschein Nr. 8812 vom 12.11.2026\nGesamt 47,60 EUR"
	is := "Hlíð ehf.\nReikningur 4471\n20.11.2026\nGjalddagi: 05.12.2026\nSamtals 12.400 kr."
	is2 := "Hlíð ehf.\nReikningur 4471\nDags. 20.11.2026\nEindagi: 05.12.2026\nSamtals 12.400 kr."
	nz := "Physio Plus\nInvoice 4471\nAuckland, 20 November 2026\nInitial consultation: 05/11/2026\nTotal NZ$120.00"
	au := "Kelly Plumbing\nInvoice 4471\n20/11/2026\nCompletion date: 14/11/2026\nTotal $180.00"
	runDateCases(t, []classCase{
		{"UK issue date", uk, d("2026-11-20"), "", ""},
		{"UK delivery note dated", uk, d("2026-11-12"), "invoice_date", "Delivery Note"},
		{"DE issue date", de, d("2026-11-20"), "", ""},
		{"DE Lieferschein Nr. … vom", de, d("2026-11-12"), "invoice_date", ""},
		{"IS issue date", is, d("2026-11-20"), "", ""},
		{"IS Gjalddagi", is, d("2026-12-05"), "invoice_date", "Gjalddagi"},
		{"IS Eindagi", is2, d("2026-12-05"), "invoice_date", "Eindagi"},
		{"NZ issue date", nz, d("2026-11-20"), "", ""},
		{"NZ initial consultation", nz, d("2026-11-05"), "invoice_date", "Initial consultation"},
		{"AU issue date", au, d("2026-11-20"), "", ""},
		{"AU completion date", au, d("2026-11-14"), "invoice_date", "Completion date"},
	})
}
