package pipeline

import "testing"

// The other roles a project or service document names: the employer or
// client of a construction payment certificate, the quantity surveyor,
// architect or engineer who certifies it, the doctor or dentist who
// treated the patient of a clinic's bill, a place of supply or building
// site, the brand a hotel is operated under licence from. None of them
// issued the document.
func TestProjectAndServiceRolesAreNotTheVendor(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	ukCert := "Harrow & Finch Construction Ltd\nINTERIM PAYMENT APPLICATION No. 7      Date: 20/11/2026\n" +
		"Project: Riverside Primary School extension\nEmployer: Halden County Council\n" +
		"Certified by: Hargreaves Lowe Quantity Surveyors LLP\nGross valuation   £184,000.00\nLess retention 5%   £9,200.00\n" +
		"Amount due this application   £28,400.00\nVAT 20%   £5,680.00\nTotal   £34,080.00"
	deBau := "Hochbau Schäfer GmbH\n3. Abschlagsrechnung Nr. 2026-0412     Datum: 20.11.2026\nBauvorhaben: Kita Sonnenweg, Erfurt\n" +
		"Bauherr: Stadt Erfurt, Amt für Bildung\nBauleitung: Architekturbüro Lange + Partner mbB\n" +
		"Leistungsstand netto   120.000,00 €\nUSt. 19 %   22.800,00 €\nAbschlagsbetrag   142.800,00 €"
	frOuvrage := "Maçonnerie Roux et Fils SARL\nSituation de travaux n° 4     Date : 20/11/2026\nChantier : Groupe scolaire Jean Moulin\n" +
		"Maître d'ouvrage : Commune de Villeurbanne\nMaître d'œuvre : Atelier Delorme Architectes\n" +
		"Montant HT   48 000,00 €\nTVA 20 %   9 600,00 €\nMontant TTC   57 600,00 €"
	itSAL := "Edil Costruzioni Marino S.r.l.\nStato avanzamento lavori n. 3 - Fattura 118/2026 del 20/11/2026\n" +
		"Comitente: Comune di Bergamo\nDirettore dei lavori: Ing. Paolo Ferri\nImponibile   50.000,00 €\nIVA 10%   5.000,00 €\nTotale   55.000,00 €"
	sgDental := "Orchid Dental Centre Pte Ltd\nTax Invoice INV-2026-11-0418     20 Nov 2026\nTreating dentist: Dr Marcus Lim\n" +
		"Patient: Tan Wei Ling\nScaling and polishing   S$120.00\nGST 9%   S$10.80\nTotal   S$130.80"
	deArzt := "MVZ Gesundheitszentrum Nord GmbH\nPrivatliquidation Nr. 2026-3381     Datum: 20.11.2026\nPatientin: Erika Vogel\n" +
		"Behandelnder Arzt: Dr. med. Stefan Brandt\nGOÄ 1 Beratung   10,72 €\nRechnungsbetrag   10,72 €"
	clMedico := "Clínica Los Andes SpA\nBoleta electrónica N° 4412     Fecha: 20/11/2026\nMédico tratante: Dra. Valentina Soto\n" +
		"Paciente: Ignacio Rojas\nConsulta traumatología   $45.000\nTotal   $45.000"
	inPlace := "Shree Balaji Electricals\nGSTIN 27AABCS1234F1Z9\nTax Invoice SBE/2026/311     20/11/2026\n" +
		"Place of supply: Pune Municipal Corporation\nWiring works   ₹40,000.00\nIGST 18%   ₹7,200.00\nTotal   ₹47,200.00"
	hotel := "Westmoor Hotels Ltd\nHilton Garden Inn Leeds City Centre\nVAT Reg No GB 301 2231 44\nINVOICE 55120     Date 20/11/2026\n" +
		"Room 2 nights   £220.00\nVAT 20%   £44.00\nTotal   £264.00\n" +
		"Operated by Westmoor Hotels Ltd under licence from Hilton Worldwide Holdings Inc."
	runClassCases(t, []classCase{
		{"employer on a payment application", ukCert, v("Halden County Council"), "vendor_name", why},
		{"quantity surveyor certifying", ukCert, v("Hargreaves Lowe Quantity Surveyors LLP"), "vendor_name", why},
		{"uk contractor passes", ukCert, v("Harrow & Finch Construction Ltd"), "", ""},
		{"german bauherr", deBau, v("Stadt Erfurt"), "vendor_name", why},
		{"german bauleitung", deBau, v("Architekturbüro Lange + Partner mbB"), "vendor_name", why},
		{"german builder passes", deBau, v("Hochbau Schäfer GmbH"), "", ""},
		{"french maître d'ouvrage", frOuvrage, v("Commune de Villeurbanne"), "vendor_name", why},
		{"french maître d'œuvre", frOuvrage, v("Atelier Delorme Architectes"), "vendor_name", why},
		{"french mason passes", frOuvrage, v("Maçonnerie Roux et Fils SARL"), "", ""},
		{"italian comitente", itSAL, v("Comune di Bergamo"), "vendor_name", why},
		{"italian direttore dei lavori", itSAL, v("Ing. Paolo Ferri"), "vendor_name", why},
		{"italian builder passes", itSAL, v("Edil Costruzioni Marino S.r.l."), "", ""},
		{"treating dentist", sgDental, v("Dr Marcus Lim"), "vendor_name", why},
		{"dental centre passes", sgDental, v("Orchid Dental Centre Pte Ltd"), "", ""},
		{"behandelnder arzt", deArzt, v("Dr. med. Stefan Brandt"), "vendor_name", why},
		{"mvz passes", deArzt, v("MVZ Gesundheitszentrum Nord GmbH"), "", ""},
		{"médico tratante", clMedico, v("Dra. Valentina Soto"), "vendor_name", why},
		{"chilean clinic passes", clMedico, v("Clínica Los Andes SpA"), "", ""},
		{"place of supply", inPlace, v("Pune Municipal Corporation"), "vendor_name", why},
		{"indian electrician passes", inPlace, v("Shree Balaji Electricals"), "", ""},
		{"hotel franchisor", hotel, v("Hilton Worldwide Holdings Inc."), "vendor_name", why},
		{"hotel operator passes", hotel, v("Westmoor Hotels Ltd"), "", ""},
	})
}

// Buyer labels of Chinese, Taiwanese, Japanese and Korean invoices: 買方,
// 購買方, 買受人 (with its 統一編號), 購入者, 구매자, and the Korean tax
// invoice's 공급받는자 (공급자 is the supplier), spaced or not, beside or
// over its block.
func TestCJKBuyerLabels(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	twInvoice := "台灣精密工業股份有限公司\n統一編號：24567890\n電子發票證明聯\n發票號碼：AB-12345678\n" +
		"買受人：台北科技股份有限公司  統一編號：12345678\n品名 數量 單價 金額\n螺絲 100 10 1,000\n總計：1,050"
	twBuyer := "高雄五金行\n統一發票\n買方：南港資訊有限公司\n買方統一編號：87654321\n總計 NT$2,100"
	hkBuyer := "九龍燈飾有限公司\n發票編號 KL-2026-118\n購買方：新界建築工程有限公司\n合計 HK$8,800.00"
	jpBuyer := "株式会社ミドリ工房\n納品書兼請求書 No. 1120\n購入者：佐藤 健一\n合計 ¥12,100"
	krTax := "세금계산서\n공급자 등록번호 214-86-12345 상호 (주)한빛커피\n" +
		"공 급 받 는 자 등록번호 105-81-54321 상호 서울식품(주)\n공급가액 1,000,000 세액 100,000\n합계금액 1,100,000"
	krBuyer := "(주)대한전자\n거래명세서 No. 2026-118\n구매자: (주)미래유통\n합계 550,000원"
	runClassCases(t, []classCase{
		{"taiwan 買受人 with its tax number", twInvoice, v("台北科技股份有限公司"), "vendor_name", why},
		{"taiwan seller passes", twInvoice, v("台灣精密工業股份有限公司"), "", ""},
		{"taiwan 買方", twBuyer, v("南港資訊有限公司"), "vendor_name", why},
		{"taiwan hardware shop passes", twBuyer, v("高雄五金行"), "", ""},
		{"hong kong 購買方", hkBuyer, v("新界建築工程有限公司"), "vendor_name", why},
		{"hong kong seller passes", hkBuyer, v("九龍燈飾有限公司"), "", ""},
		{"japanese 購入者", jpBuyer, v("佐藤 健一"), "vendor_name", why},
		{"japanese workshop passes", jpBuyer, v("株式会社ミドリ工房"), "", ""},
		{"korean spaced 공급받는자", krTax, v("서울식품(주)"), "vendor_name", why},
		{"korean supplier passes", krTax, v("(주)한빛커피"), "", ""},
		{"korean 구매자", krBuyer, v("(주)미래유통"), "vendor_name", why},
		{"korean electronics passes", krBuyer, v("(주)대한전자"), "", ""},
	})
}
