package pipeline

import "testing"

// The vendor is the party the document points to as its issuer. A name the
// document prints in another role is not: the buyer, customer, payer or
// account holder (a credit note or a letter that prints its addressee
// first, a utility's or telecom's bill addressed to its holder, a two-party
// table's buyer column); a person acting for the issuer (its owner,
// director, signatory, waiter, cashier, doctor) or named for the buyer (a
// patient, a guest, a parent); another organisation (the bank whose
// details are printed, the council a utility collects for, the airline an
// agent sells for, the platform that issues for a seller). Each wrong
// record is flagged with a reason that names the role the document gives
// the name (a label in any language, "Inh.", "Served by", a role line over
// it, ", CEO" after it); the issuer itself is not flagged. The documents
// are our own, from many countries.
func TestTheVendorIsTheIssuerNotAPartyInAnotherRole(t *testing.T) {
	v := vendorOnly
	const flagged = " "
	// Buyers, customers, payers and holders.
	deCreditBuyerFirst := "Bäckerei Sonnenschein GmbH\nLindenweg 4\n28203 Bremen\n\nGUTSCHRIFT Nr. G-2026-041   Datum: 20.11.2026\n" +
		"Rücknahme Backofen-Thermostat   -180,00 €\nMwSt 19 %   -34,20 €\nGutschriftbetrag   -214,20 €\n\n" +
		"Elektro Kraus GmbH · Hafenstr. 3 · 28195 Bremen\nUSt-IdNr. DE123456789 · IBAN DE44 2905 0101 0001 2345 67"
	esPowerHolder := "Titular del contrato: Javier Moreno Ruiz\nDirección de suministro: C/ Olmo 7, 2ºB, Valencia\n" +
		"FACTURA DE ELECTRICIDAD Nº FE26-0091822   Fecha: 20/11/2026\nComercializadora: Luz Levante Energía S.L.   CIF B98765432\n" +
		"Término de potencia   12,40 €\nTérmino de energía   48,10 €\nIVA 21%   13,39 €\nTotal factura   76,33 €"
	inMobileHolder := "Airwave Telecom Ltd\nGSTIN 29AABCA1234F1Z2\nBill for mobile number 98450 12345\nAccount holder: Meera Krishnan\n" +
		"Bill No. MB-2611-0042   Bill date 20-11-2026\nMonthly plan   ₹599.00\nGST 18%   ₹107.82\nAmount payable   ₹706.82"
	arLineHolder := "Telecom Pampa S.A.\nCUIT 30-71234567-8   IVA Responsable Inscripto\nFactura B 0004-00123456   Fecha 20/11/2026\n" +
		"Titular de la línea: Rosa Elena Gómez\nLínea 11 4455-6677\nAbono mensual   $ 12.000,00\nTotal a pagar   $ 12.000,00"
	jpMobileSama := "ご請求書\n山田 花子 様\nご利用番号 090-1234-5678\n請求番号 T-2611-8812   発行日 2026年11月20日\n基本料金   2,980円\n" +
		"消費税 10%   298円\nご請求金額   3,278円\n株式会社ミナトモバイル\n登録番号 T1234567890123"
	frWaterSubscriber := "Eau du Bassin Rennais\nRégie publique de l'eau\nFacture n° 2611-448812   du 20/11/2026\nAbonné : Mme Claire Lefèvre\n" +
		"12 rue des Lilas, 35000 Rennes\nConsommation 42 m3   98,70 €\nTVA 5,5 %   5,43 €\nMontant TTC   104,13 €"
	krTaxRows := "전자세금계산서\n공급자 등록번호 123-45-67890   상호 (주)한빛전자   성명 박지훈\n" +
		"공급받는자 등록번호 220-81-12345   상호 (주)푸른물산   성명 이서연\n작성일자 2026-11-20\n" +
		"모니터 2   공급가액 600,000   세액 60,000\n합계금액 660,000"
	krTaxColumns := "세금계산서 (공급자 보관용)\n" +
		"          공급자                          공급받는자\n" +
		"등록번호  123-45-67890              등록번호  220-81-12345\n" +
		"상호      (주)한빛전자               상호      (주)푸른물산\n" +
		"성명      박지훈                     성명      이서연\n" +
		"작성일자 2026-11-20\n모니터 2   600,000\n세액   60,000\n합계금액   660,000"
	jpOnchu := "請求書\n株式会社青葉商事 御中\n請求番号 2026-1188   請求日 2026年11月20日\n株式会社サクラ工業\n東京都港区芝1-2-3\n" +
		"登録番号 T9876543210987\n部品A 100個   50,000円\n消費税 10%   5,000円\n合計   55,000円"
	cnFapiao := "电子发票（增值税专用发票）\n发票号码 26442000000012345678   开票日期 2026年11月20日\n" +
		"购买方 名称：深圳市蓝海贸易有限公司   统一社会信用代码/纳税人识别号：91440300MA5F000001\n" +
		"销售方 名称：广州市恒达电子科技有限公司   统一社会信用代码/纳税人识别号：91440101MA5D000002\n" +
		"电子元件   金额 10,000.00   税率 13%   税额 1,300.00\n价税合计（小写） ¥11,300.00"
	plTwoCol := "FAKTURA VAT nr FV/2026/11/082   Data wystawienia: 20.11.2026\n" +
		"Sprzedawca:                          Nabywca:\n" +
		"Kowalski Serwis Sp. z o.o.           Dom i Ogród Nowak Sp. j.\n" +
		"ul. Długa 5, 00-238 Warszawa         ul. Polna 12, 30-001 Kraków\n" +
		"NIP 525-000-11-22                    NIP 676-000-33-44\n" +
		"Naprawa kotła   800,00\nVAT 23%   184,00\nRazem do zapłaty   984,00 zł"
	czBuyerLeft := "FAKTURA - DAŇOVÝ DOKLAD č. 2026-0412\n" +
		"Odběratel:                         Dodavatel:\n" +
		"Pekárna U Mlýna s.r.o.             Zámečnictví Dvořák s.r.o.\n" +
		"Mlýnská 4, Brno                    Kovářská 9, Brno\n" +
		"IČO 12345678                       IČO 87654321  DIČ CZ87654321\n" +
		"Datum vystavení: 20.11.2026\nOprava vrat   12 000,00 Kč\nDPH 21 %   2 520,00 Kč\nCelkem k úhradě   14 520,00 Kč"
	trSayin := "Sayın\nEge Tekstil A.Ş.\nİzmir\n\nFATURA No: ABC2026000000412   Tarih: 20.11.2026\nAnadolu Lojistik Ltd. Şti.\n" +
		"Vergi Dairesi: Kadıköy   VKN 1234567890\nNakliye hizmeti   10.000,00\nKDV %20   2.000,00\nGenel Toplam   12.000,00 TL"
	nlCreditAan := "CREDITNOTA CN-2026-017\nAan: Van Dijk Installaties B.V.\nIndustrieweg 12, Utrecht\nDatum: 20-11-2026\n" +
		"Van: Groen Hout Leveranciers B.V.\nKvK 12345678   BTW NL001234567B01\nRetour vloerdelen   -450,00\nBTW 21%   -94,50\nTotaal   -544,50 EUR"
	mkIssuer := "ФАКТУРА бр. 2026-0412   Датум: 20.11.2026\nИздавач: Вардар Трејд\nул. Партизанска 12, Скопје\nЕДБ 4030012345678\n" +
		"Примач: Охрид Маркет\nул. Македонска 4, Охрид\nБрашно 10 вреќи   6.000,00\nДДВ 18%   1.080,00\nВкупно   7.080,00 ден."
	brDanfe := "DANFE - Documento Auxiliar da Nota Fiscal Eletrônica\nNº 000.012.345   Série 1   Emissão: 20/11/2026\n" +
		"EMITENTE: Ferragens Paulista Ltda   CNPJ 12.345.678/0001-90\nDESTINATÁRIO/REMETENTE\n" +
		"NOME/RAZÃO SOCIAL: Construtora Horizonte S.A.   CNPJ 98.765.432/0001-10\nParafusos 1000   R$ 450,00\nValor total da nota   R$ 450,00"
	vnVat := "HÓA ĐƠN GIÁ TRỊ GIA TĂNG\nKý hiệu 1C26TAA   Số 0001234   Ngày 20 tháng 11 năm 2026\nĐơn vị bán hàng: Công ty TNHH An Phát\n" +
		"Mã số thuế: 0101234567\nHọ tên người mua hàng: Nguyễn Văn Nam\nTên đơn vị: Công ty Cổ phần Minh Long\nMã số thuế: 0309876543\n" +
		"Thép tấm 2 tấn   30.000.000\nThuế GTGT 10%   3.000.000\nTổng cộng   33.000.000 VND"
	saCustomer := "شركة النخبة للتجارة ذ.م.م\nالرقم الضريبي 300123456700003\nفاتورة ضريبية رقم 2026-118   التاريخ 2026-11-20\n" +
		"اسم العميل: مؤسسة الأفق للمقاولات\nأسمنت 50 كيس   1,000.00\nضريبة القيمة المضافة 15%   150.00\nالإجمالي   1,150.00 ر.س"
	chPayer := "Schreinerei Baumann AG\nDorfstrasse 4, 8400 Winterthur\nUID CHE-123.456.789 MWST\nRechnung 2026-0412   20.11.2026\n" +
		"Einbauschrank   3'200.00\nMWST 8.1%   259.20\nTotal CHF   3'459.20\n\nZahlbar durch\nFamilie Keller-Roth\nBergweg 9\n8405 Winterthur"
	inFeePayer := "St. Columba's School\nFee receipt No. FR-2026-1188   20/11/2026\nReceived from: Mr. Arjun Menon (parent of Kavya Menon, Class 5B)\n" +
		"Tuition fee term 2   ₹45,000.00\nTotal   ₹45,000.00"
	eeGuest := "Hotel Baltic Pearl\nPärnu mnt 12, Tallinn\nReg. kood 12345678   KMKR EE100123456\nARVE / INVOICE 2026-8812   20.11.2026\n" +
		"Guest: Ms. Laura Kask\nRoom 412   Arrival 18.11.2026   Departure 20.11.2026\nAccommodation 2 nights   180,00\nBreakfast 2   30,00\nTotal   210,00 EUR"
	// People acting for the issuer.
	deFooterDirector := "Müller Haustechnik GmbH\nBahnhofstr. 8, 70173 Stuttgart\nRechnung Nr. 2026-1184   Datum: 20.11.2026\n" +
		"Wartung Heizung   240,00 €\nMwSt 19%   45,60 €\nGesamtbetrag   285,60 €\n\n" +
		"Müller Haustechnik GmbH · Geschäftsführer: Thomas Wendt · Amtsgericht Stuttgart HRB 12345 · USt-IdNr. DE987654321"
	ukDirectors := "Harbour Lights Catering Ltd\n9 Dock St, Hull HU1 1AA\nINVOICE HLC-0412   20/11/2026\nWedding buffet 80 guests   £2,400.00\n" +
		"VAT 20%   £480.00\nTotal   £2,880.00\n\nDirectors: Susan Clarke, Peter Hughes   Registered in England No. 08123456"
	inSignatory := "Shakti Steel Traders\nGSTIN 24ABCDE5678F1Z3\nPlot 12, GIDC, Ahmedabad\nTAX INVOICE No. SST/26-27/0412   Date 20/11/2026\n" +
		"MS plates 2 t   ₹1,10,000.00\nIGST 18%   ₹19,800.00\nTotal   ₹1,29,800.00\nFor Shakti Steel Traders\nAuthorised Signatory\nRakesh Patel"
	deWaiter := "Gasthaus Zum Hirschen\nMarktplatz 3, 83022 Rosenheim\nTisch 7   Kellner: Jürgen Huber\nRechnung 0412   20.11.2026\n" +
		"Schweinsbraten 2   29,80\nWeißbier 2   9,60\nSumme   39,40 EUR"
	inClinic := "Sunrise Multispeciality Clinic\n12 Residency Road, Bengaluru\nConsultant: Dr. Anjali Rao, MBBS, MD\nPatient: Mr. Vikram Singh   Age 42\n" +
		"Bill No. CL-2611-088   Date 20/11/2026\nConsultation   ₹800.00\nBlood test   ₹650.00\nTotal   ₹1,450.00"
	jpDaihyo := "株式会社さくら不動産\n代表取締役 佐藤一郎\n東京都新宿区西新宿2-8-1\n領収書 No. 2611-044   2026年11月20日\n" +
		"仲介手数料   330,000円\nうち消費税   30,000円\n合計   330,000円"
	krOwnerRow := "김밥천국 강남점\n사업자 123-45-67890   대표 김영희\n서울 강남구 역삼동 12\n2026-11-20 12:31\n김밥 2   6,000\n합계   6,000원"
	idCashier := "Toko Roti Mawar\nJl. Merdeka 21, Bandung\n20/11/2026 08:14   Kasir: Dewi Lestari\nRoti tawar 1   18.000\nTotal   18.000"
	// Other organisations.
	ukWaterCouncil := "Thames Valley Water Services Ltd\nCompany reg. 04412345\nWater and sewerage bill   Bill no. WB-88120   20/11/2026\n" +
		"Customer: Mr D. Okafor, 4 Elm Close, Reading\nWater supply   £142.00\nSewerage   £98.00\nTotal due   £240.00\n" +
		"Sewerage charges collected on behalf of Reading Borough Council"
	dkBankBlock := "Nordic Design Studio ApS\nVesterbrogade 12, 1620 København V\nCVR 12345678\nFaktura 2026-118   Dato: 20.11.2026\n" +
		"Grafisk design 20 timer   16.000,00\nMoms 25%   4.000,00\nI alt   20.000,00 DKK\n\nBankoplysninger:\nDanske Bank A/S\nReg.nr. 1234   Kontonr. 0012345678"
	ngBankLine := "Eko Prints Limited\nRC 1234567\n12 Allen Avenue, Ikeja, Lagos\nINVOICE EP/2026/311   20/11/2026\nFlyers 5,000 pcs   ₦250,000.00\n" +
		"VAT 7.5%   ₦18,750.00\nTotal   ₦268,750.00\n\nPayment details\nBank: Zenith Bank Plc\nAccount name: Eko Prints Limited\nAccount no: 1012345678"
	usRemitBank := "Redgum Electrical LLC\n4 Station St, Savannah GA 31401\nInvoice 2611   11/20/2026\nPanel upgrade   $1,800.00\nSales tax   $126.00\n" +
		"Total   $1,926.00\nRemit to: First Coastal Bank, N.A.   ABA 061000104   Acct 1234 5678"
	coBankHead := "Casa Verde Arquitectura S.A.S.          Banco de Bogotá S.A.\nNIT 900.123.456-7                        Cuenta corriente 123-45678-9\n" +
		"Factura electrónica FE-2211   20/11/2026\nDiseño de planos   $ 4.000.000\nIVA 19%   $ 760.000\nTotal   $ 4.760.000 COP"
	inMarketplace := "Tax Invoice\nSold by: Lumen Home Goods Pvt Ltd\nGSTIN 27AAACL1234L1Z9\nInvoice issued by ShopKart Internet Pvt Ltd on behalf of the seller\n" +
		"Order ID OD4412-88   Invoice No. LHG-2611-09   Date 20.11.2026\nTable lamp   ₹1,499.00\nTotal   ₹1,499.00"
	// weak heads: no legal form, address under.
	ptBankOwnLine := "Estúdio Luz & Sombra\nRua da Prata 80, Lisboa\nNIF 123456789\nFatura FT 2026/412   20/11/2026\nSessão fotográfica   250,00 €\nIVA 23%   57,50 €\nTotal   307,50 €\n\nPagamento por transferência\nCaixa Geral de Depósitos\nIBAN PT50 0035 0000 1234 5678 9012 3"
	itBankWeak := "Trattoria Da Gino\nVia Garibaldi 14, Bologna\nRicevuta n. 412 del 20/11/2026\nCena 4 coperti   120,00\nTotale   120,00 €\nBanca di Bologna S.p.A.\nIBAN IT60 X054 2811 1010 0000 0123 456"
	ukBankSort := "Lotus Yoga Studio\n22 Mill Lane, Brighton BN1 1AA\nInvoice 0412   20/11/2026\nTerm membership   £180.00\nTotal   £180.00\n\nPlease pay by bank transfer to\nStarling Bank\nSort code 60-83-71   Account 12345678\nReference 0412"
	keBankMpesa := "Mama Njeri Catering\nP.O. Box 1200, Nairobi\nInvoice MNC-412   20/11/2026\nLunch 40 pax   KSh 24,000.00\nTotal   KSh 24,000.00\nBank: Equity Bank Kenya Limited, Account 0123456789012, Branch Westlands"
	deBankFooter := "Friseursalon Haarmonie\nKirchgasse 2, 79098 Freiburg\nRechnung 2026-412   20.11.2026\nDamenhaarschnitt   48,00 €\nGesamt   48,00 €\nBankverbindung: Volksbank Freiburg eG · IBAN DE12 6809 0000 0012 3456 78 · BIC GENODE61FR1"
	bankInHeadRight := "Kaveh Carpets                          Bank Mellat\n12 Ferdowsi Ave, Shiraz                Account 1234-5678-9012\nInvoice 412   20/11/2026\nRug 2x3 m   45,000,000\nTotal   45,000,000 IRR"
	// buyers printed first or under unknown labels, weak sellers.
	frLocataire := "Agence Immobilière du Port\n4 quai Duguay-Trouin, Saint-Malo\nAvis d'échéance n° 2611-412   20/11/2026\nLocataire : Julien Marchand\nLoyer novembre   750,00 €\nCharges   50,00 €\nTotal   800,00 €"
	telecomHolderFirst := "Priya Sharma\nFlat 12B, Lake View Apartments\nPune 411001\n\nSkyline Mobile\nYour bill for November 2026\nAccount no. 1-88412345   Bill date 20/11/2026\nPlan 599   ₹599.00\nGST 18%   ₹107.82\nTotal due   ₹706.82\nSkyline Mobile Ltd · GSTIN 27AAACS1234A1Z9"
	esAbonado := "Aguas del Valle\nPlaza Mayor 1, Segovia\nFactura 2026/88412   20/11/2026\nAbonado: Lucía Fernández Ortega\nConsumo 30 m3   45,00\nIVA 10%   4,50\nTotal   49,50 €"
	itIntestatario := "Gas Adriatico\nVia del Porto 3, Ancona\nBolletta n. 2611/0412   20/11/2026\nIntestatario: Marco Rinaldi\nConsumo gas   80,00\nIVA 22%   17,60\nTotale   97,60 €"
	deKundennr := "Blumen Lindner\nMarktstr. 4, Kassel\nRechnung 412   20.11.2026\nKundin: Frau Petra Vogel\nBrautstrauß   89,00 €\nGesamt   89,00 €"
	schoolParent := "Little Acorns Nursery\n14 Oak Rd, Bristol\nFee invoice 412   20/11/2026\nParent/Guardian: Mrs Emma Hughes\nChild: Oliver Hughes\nNovember fees   £950.00\nTotal   £950.00"
	// persons without colon labels.
	deInhaber := "Bäckerei Schmidt\nInh. Peter Krause\nHauptstr. 1, 34117 Kassel\nBeleg 412   20.11.2026\nBrötchen 6   2,40\nSumme   2,40 EUR"
	inProp := "Sri Balaji Sweets\nProp. Ramesh Gupta\nMG Road, Jaipur\nBill No 412   20/11/2026\nLaddu 1 kg   ₹480.00\nTotal   ₹480.00"
	enServedNoColon := "The Olive Branch\n8 Quay St, Cork\nTable 4   Served by Aoife\nReceipt 412   20/11/2026\nLamb 2   €44.00\nTotal   €44.00"
	enYourServer := "Blue Heron Diner\n412 Main St, Portland OR\nYour server today: Kyle M.\nCheck 412   11/20/2026\nBurger 2   $28.00\nTotal   $28.00"
	frSigneParGerant := "Garage des Alpes\n12 route de Grenoble, Annecy\nFacture 412   20/11/2026\nVidange   89,00 €\nTotal TTC   89,00 €\n\nLe gérant\nPascal Morel"
	clinicDoctorWeak := "Family Health Centre\n22 Queen St, Kingston\nAttending physician: Dr. Marcia Brown\nInvoice 412   20/11/2026\nConsultation   J$6,000.00\nTotal   J$6,000.00"
	ceoFooterWeak := "Nimbus Analytics\n400 Market St, San Francisco CA\nInvoice NA-412   11/20/2026\nDashboard setup   $4,000.00\nTotal   $4,000.00\n\nThank you for your business!\nDaniel Ortiz, CEO"
	nlBrandOwner := "Koffiehuis De Molen\nMolenstraat 3, Haarlem\nEigenaar: Sanne de Vries\nBon 412   20-11-2026\nCappuccino 2   7,00\nTotaal   7,00 EUR"
	// principals and agents.
	travelAgent := "Sunway Travel Agency\n5 Orchard Rd, Singapore\nInvoice SW-412   20/11/2026\nAs agent for Pacific Star Airlines\nFlight SIN-SYD 1 pax   S$820.00\nTotal   S$820.00"
	councilCollect := "Metro Waste Services\n1 Depot Rd, Durban\nAccount statement 412   20/11/2026\nRefuse removal   R 350.00\nTotal   R 350.00\nCharges levied for eThekwini Municipality"
	cases := []classCase{
		{"german credit note's addressee printed first", deCreditBuyerFirst, v("Bäckerei Sonnenschein GmbH"), "vendor_name", flagged},
		{"german electrician in the registered footer passes", deCreditBuyerFirst, v("Elektro Kraus GmbH"), "", ""},
		{"spanish retailer passes", esPowerHolder, v("Luz Levante Energía S.L."), "", ""},
		{"indian account holder", inMobileHolder, v("Meera Krishnan"), "vendor_name", flagged},
		{"indian telecom passes", inMobileHolder, v("Airwave Telecom Ltd"), "", ""},
		{"argentine line holder", arLineHolder, v("Rosa Elena Gómez"), "vendor_name", flagged},
		{"argentine telecom passes", arLineHolder, v("Telecom Pampa S.A."), "", ""},
		{"japanese subscriber with sama", jpMobileSama, v("山田 花子"), "vendor_name", flagged},
		{"japanese carrier passes", jpMobileSama, v("株式会社ミナトモバイル"), "", ""},
		{"french water subscriber", frWaterSubscriber, v("Claire Lefèvre"), "vendor_name", `named only as "Abonné"`},
		{"french water board passes", frWaterSubscriber, v("Eau du Bassin Rennais"), "", ""},
		{"korean buyer row", krTaxRows, v("(주)푸른물산"), "vendor_name", flagged},
		{"korean supplier's representative", krTaxRows, v("박지훈"), "vendor_name", `named only as "성명"`},
		{"korean supplier row passes", krTaxRows, v("(주)한빛전자"), "", ""},
		{"korean buyer column", krTaxColumns, v("(주)푸른물산"), "vendor_name", flagged},
		{"korean buyer's representative column", krTaxColumns, v("이서연"), "vendor_name", flagged},
		{"korean supplier column passes", krTaxColumns, v("(주)한빛전자"), "", ""},
		{"japanese onchu addressee", jpOnchu, v("株式会社青葉商事"), "vendor_name", flagged},
		{"japanese issuer passes", jpOnchu, v("株式会社サクラ工業"), "", ""},
		{"chinese buyer", cnFapiao, v("深圳市蓝海贸易有限公司"), "vendor_name", flagged},
		{"chinese seller passes", cnFapiao, v("广州市恒达电子科技有限公司"), "", ""},
		{"polish buyer column", plTwoCol, v("Dom i Ogród Nowak Sp. j."), "vendor_name", flagged},
		{"polish seller column passes", plTwoCol, v("Kowalski Serwis Sp. z o.o."), "", ""},
		{"czech buyer in the left column", czBuyerLeft, v("Pekárna U Mlýna s.r.o."), "vendor_name", flagged},
		{"czech supplier in the right column passes", czBuyerLeft, v("Zámečnictví Dvořák s.r.o."), "", ""},
		{"turkish addressee after Sayın", trSayin, v("Ege Tekstil A.Ş."), "vendor_name", flagged},
		{"turkish carrier passes", trSayin, v("Anadolu Lojistik Ltd. Şti."), "", ""},
		{"dutch supplier after Van passes", nlCreditAan, v("Groen Hout Leveranciers B.V."), "", ""},
		{"macedonian issuer under Издавач passes", mkIssuer, v("Вардар Трејд"), "", ""},
		{"macedonian buyer under Примач", mkIssuer, v("Охрид Маркет"), "vendor_name", `named only`},
		{"dutch credit note's addressee", nlCreditAan, v("Van Dijk Installaties B.V."), "vendor_name", flagged},
		{"brazilian recipient", brDanfe, v("Construtora Horizonte S.A."), "vendor_name", flagged},
		{"brazilian issuer passes", brDanfe, v("Ferragens Paulista Ltda"), "", ""},
		{"vietnamese buyer unit", vnVat, v("Công ty Cổ phần Minh Long"), "vendor_name", flagged},
		{"vietnamese buyer person", vnVat, v("Nguyễn Văn Nam"), "vendor_name", flagged},
		{"vietnamese seller passes", vnVat, v("Công ty TNHH An Phát"), "", ""},
		{"saudi customer", saCustomer, v("مؤسسة الأفق للمقاولات"), "vendor_name", flagged},
		{"saudi trader passes", saCustomer, v("شركة النخبة للتجارة ذ.م.م"), "", ""},
		{"swiss payer under Zahlbar durch", chPayer, v("Familie Keller-Roth"), "vendor_name", flagged},
		{"swiss joiner passes", chPayer, v("Schreinerei Baumann AG"), "", ""},
		{"indian fee payer", inFeePayer, v("Arjun Menon"), "vendor_name", flagged},
		{"indian school passes", inFeePayer, v("St. Columba's School"), "", ""},
		{"estonian hotel guest", eeGuest, v("Laura Kask"), "vendor_name", flagged},
		{"estonian hotel passes", eeGuest, v("Hotel Baltic Pearl"), "", ""},
		{"german managing director in the footer", deFooterDirector, v("Thomas Wendt"), "vendor_name", flagged},
		{"german heating firm passes", deFooterDirector, v("Müller Haustechnik GmbH"), "", ""},
		{"british director in the footer", ukDirectors, v("Susan Clarke"), "vendor_name", flagged},
		{"british caterer passes", ukDirectors, v("Harbour Lights Catering Ltd"), "", ""},
		{"indian signatory", inSignatory, v("Rakesh Patel"), "vendor_name", flagged},
		{"indian steel trader passes", inSignatory, v("Shakti Steel Traders"), "", ""},
		{"german waiter", deWaiter, v("Jürgen Huber"), "vendor_name", `named only as "Kellner"`},
		{"german inn passes", deWaiter, v("Gasthaus Zum Hirschen"), "", ""},
		{"indian consultant doctor", inClinic, v("Dr. Anjali Rao"), "vendor_name", flagged},
		{"indian patient", inClinic, v("Vikram Singh"), "vendor_name", flagged},
		{"indian clinic passes", inClinic, v("Sunrise Multispeciality Clinic"), "", ""},
		{"japanese representative director", jpDaihyo, v("佐藤一郎"), "vendor_name", flagged},
		{"japanese agency passes", jpDaihyo, v("株式会社さくら不動産"), "", ""},
		{"korean owner on the registration row", krOwnerRow, v("김영희"), "vendor_name", `named only as "대표"`},
		{"korean gimbap shop passes", krOwnerRow, v("김밥천국 강남점"), "", ""},
		{"indonesian cashier", idCashier, v("Dewi Lestari"), "vendor_name", `named only as "Kasir"`},
		{"indonesian bakery passes", idCashier, v("Toko Roti Mawar"), "", ""},
		{"british council a utility collects for", ukWaterCouncil, v("Reading Borough Council"), "vendor_name", flagged},
		{"british water customer", ukWaterCouncil, v("D. Okafor"), "vendor_name", flagged},
		{"british water company passes", ukWaterCouncil, v("Thames Valley Water Services Ltd"), "", ""},
		{"danish bank block", dkBankBlock, v("Danske Bank A/S"), "vendor_name", flagged},
		{"danish studio passes", dkBankBlock, v("Nordic Design Studio ApS"), "", ""},
		{"nigerian bank line", ngBankLine, v("Zenith Bank Plc"), "vendor_name", flagged},
		{"nigerian printer passes", ngBankLine, v("Eko Prints Limited"), "", ""},
		{"american remittance bank", usRemitBank, v("First Coastal Bank, N.A."), "vendor_name", flagged},
		{"american electrician passes", usRemitBank, v("Redgum Electrical LLC"), "", ""},
		{"colombian bank beside the letterhead", coBankHead, v("Banco de Bogotá S.A."), "vendor_name", flagged},
		{"colombian architects pass", coBankHead, v("Casa Verde Arquitectura S.A.S."), "", ""},
		{"indian marketplace issuing for a seller", inMarketplace, v("ShopKart Internet Pvt Ltd"), "vendor_name", flagged},
		{"indian seller passes", inMarketplace, v("Lumen Home Goods Pvt Ltd"), "", ""},
		{"portuguese bank on a line of its own", ptBankOwnLine, v("Caixa Geral de Depósitos"), "vendor_name", flagged},
		{"portuguese studio passes", ptBankOwnLine, v("Estúdio Luz & Sombra"), "", ""},
		{"italian bank under a trattoria", itBankWeak, v("Banca di Bologna S.p.A."), "vendor_name", flagged},
		{"italian trattoria passes", itBankWeak, v("Trattoria Da Gino"), "", ""},
		{"british bank over its sort code", ukBankSort, v("Starling Bank"), "vendor_name", flagged},
		{"british yoga studio passes", ukBankSort, v("Lotus Yoga Studio"), "", ""},
		{"kenyan bank on the payment line", keBankMpesa, v("Equity Bank Kenya Limited"), "vendor_name", flagged},
		{"kenyan caterer passes", keBankMpesa, v("Mama Njeri Catering"), "", ""},
		{"german bank in the footer's bank details", deBankFooter, v("Volksbank Freiburg eG"), "vendor_name", flagged},
		{"german salon passes", deBankFooter, v("Friseursalon Haarmonie"), "", ""},
		{"bank in the head's right column", bankInHeadRight, v("Bank Mellat"), "vendor_name", flagged},
		{"persian carpet seller passes", bankInHeadRight, v("Kaveh Carpets"), "", ""},
		{"french tenant", frLocataire, v("Julien Marchand"), "vendor_name", flagged},
		{"french letting agency passes", frLocataire, v("Agence Immobilière du Port"), "", ""},
		{"indian subscriber's address block printed first", telecomHolderFirst, v("Priya Sharma"), "vendor_name", flagged},
		{"indian mobile operator passes", telecomHolderFirst, v("Skyline Mobile Ltd"), "", ""},
		{"spanish water subscriber", esAbonado, v("Lucía Fernández Ortega"), "vendor_name", `named only as "Abonado"`},
		{"spanish water board passes", esAbonado, v("Aguas del Valle"), "", ""},
		{"italian gas account holder", itIntestatario, v("Marco Rinaldi"), "vendor_name", `named only as "Intestatario"`},
		{"italian gas supplier passes", itIntestatario, v("Gas Adriatico"), "", ""},
		{"german customer after Kundin and Frau", deKundennr, v("Petra Vogel"), "vendor_name", `named only as "Kundin"`},
		{"german florist passes", deKundennr, v("Blumen Lindner"), "", ""},
		{"british parent or guardian", schoolParent, v("Emma Hughes"), "vendor_name", `named only as "Parent/Guardian"`},
		{"british nursery passes", schoolParent, v("Little Acorns Nursery"), "", ""},
		{"german owner after Inh.", deInhaber, v("Peter Krause"), "vendor_name", `named only as "Inh."`},
		{"german bakery with its owner passes", deInhaber, v("Bäckerei Schmidt"), "", ""},
		{"indian proprietor after Prop.", inProp, v("Ramesh Gupta"), "vendor_name", `named only as "Prop."`},
		{"indian sweet shop passes", inProp, v("Sri Balaji Sweets"), "", ""},
		{"irish server after Served by", enServedNoColon, v("Aoife"), "vendor_name", `named only as "Served by"`},
		{"irish restaurant passes", enServedNoColon, v("The Olive Branch"), "", ""},
		{"american server", enYourServer, v("Kyle M."), "vendor_name", flagged},
		{"american diner passes", enYourServer, v("Blue Heron Diner"), "", ""},
		{"french manager under Le gérant", frSigneParGerant, v("Pascal Morel"), "vendor_name", `named only as "Le gérant"`},
		{"french garage passes", frSigneParGerant, v("Garage des Alpes"), "", ""},
		{"jamaican attending physician", clinicDoctorWeak, v("Dr. Marcia Brown"), "vendor_name", flagged},
		{"jamaican health centre passes", clinicDoctorWeak, v("Family Health Centre"), "", ""},
		{"american CEO signing the footer", ceoFooterWeak, v("Daniel Ortiz"), "vendor_name", `named only as "CEO"`},
		{"american analytics firm passes", ceoFooterWeak, v("Nimbus Analytics"), "", ""},
		{"dutch owner", nlBrandOwner, v("Sanne de Vries"), "vendor_name", `named only as "Eigenaar"`},
		{"dutch coffee house passes", nlBrandOwner, v("Koffiehuis De Molen"), "", ""},
		{"singaporean airline the agent sells for", travelAgent, v("Pacific Star Airlines"), "vendor_name", `named only as "As agent for"`},
		{"singaporean travel agency passes", travelAgent, v("Sunway Travel Agency"), "", ""},
		{"south african municipality charges are levied for", councilCollect, v("eThekwini Municipality"), "vendor_name", flagged},
		{"south african waste company passes", councilCollect, v("Metro Waste Services"), "", ""},
	}
	runClassCases(t, cases)
}
