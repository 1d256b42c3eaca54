package pipeline

import "testing"

// A person the document names in a role of its issuer (the owner, the
// manager, the cashier or waiter who served, the doctor or pharmacist, a
// contact person, the one who signs) is not the vendor when the document's
// head names the business itself: the value is flagged, naming the role's
// label and the business. A sole trader whose own name heads the document,
// or is followed by the issuer's registration, is the vendor. The documents
// are our own, from many countries.
func TestPersonInARoleIsNotTheVendor(t *testing.T) {
	v := vendorOnly
	// flagged: by whichever issuer rule reads the value first (a company's
	// head, a practitioner's title); role: by this one, where the head
	// prints no legal form.
	const flagged, role = " ", "a person the document names"
	hrOwner := "Pekara Zlatno Zrno d.o.o.\nIlica 112, Zagreb\nVlasnik: Ivan Horvat\nOIB 12345678901\nRAČUN br. 441/1/1   20.11.2026\nKruh 2   3,20\nUkupno   3,20 EUR"
	krCashier := "행복마트 주식회사\n서울시 강남구 테헤란로 12\n계산원: 김민수\n사업자번호 123-45-67890\n영수증   2026-11-20\n우유 1   2,500\n합계   2,500원"
	arManager := "مطعم الواحة ذ.م.م\nشارع الملك فهد، الرياض\nالمدير: أحمد العتيبي\nفاتورة ضريبية رقم 8812   2026-11-20\nمشويات مشكلة   85.00\nالإجمالي   85.00 ر.س"
	esWaiter := "Restaurante El Faro S.L.\nPaseo Marítimo 4, Málaga\nLe atendió: María López\nCIF B12345678\nTicket 0042   20/11/2026\nMenú del día 2   28,00\nTotal   28,00 €"
	fiContact := "Kahvila Aamutähti Oy\nKauppakatu 5, Tampere\nYhteyshenkilö: Matti Virtanen\nY-tunnus 1234567-8\nLasku 2026-114   20.11.2026\nPitopalvelu   240,00\nYhteensä   240,00 €"
	deManager := "Autohaus Brenner GmbH\nIndustriestraße 8, 80331 München\nGeschäftsführer: Dr. Klaus Weber\nRechnung 2026-0412   20.11.2026\nInspektion   320,00 €\nGesamt   320,00 €"
	inPharm := "Shree Ganesh Medical Stores\nMG Road, Pune 411001\nफार्मासिस्ट: राजेश शर्मा\nGSTIN 27ABCDE1234F1Z5\nBill No 7781   20/11/2026\nParacetamol 10   ₹30.00\nTotal   ₹30.00"
	enServed := "The Crown & Anchor Pub Ltd\n12 High St, Bath\nServed by: Tom Barker\nReceipt 3312   20/11/2026\nAle 2   £9.00\nTotal   £9.00"
	enDoctor := "Greenwood Family Clinic Pty Ltd\n40 Park Rd, Perth WA\nDr. Sarah Mitchell\nTax invoice 9912   20/11/2026\nConsultation   A$85.00\nTotal   A$85.00"
	frSigned := "Boulangerie Dupont SARL\n8 rue Victor Hugo, Lyon\nSignature : Jean Martin\nFacture 2026-311   20/11/2026\nPains 20   24,00 €\nTotal TTC   24,00 €"
	itCashier := "Supermercato Sole S.r.l.\nVia Roma 10, Napoli\nCassiere: Luca Bianchi\nP.IVA 01234567890\nScontrino 0412   20/11/2026\nPasta 2   2,40\nTotale   2,40 €"
	ptAttendant := "Farmácia Central Lda\nRua Augusta 20, Lisboa\nAtendido por: Ana Costa\nNIF 501234567\nFatura FS 2026/441   20/11/2026\nIbuprofeno   4,50 €\nTotal   4,50 €"
	ieOwner := "Blue Door Café\n12 Harbour St, Galway\nOwner: Siobhan Kelly\nReceipt 0412   20/11/2026\nScone 2   €7.00\nTotal   €7.00"
	krStaff := "하늘빵집\n부산시 해운대구 12\n담당자: 이지은\n영수증   2026-11-20\n식빵 1   4,000\n합계   4,000원"
	// Stay quiet: a sole trader's own name heads the document, or its
	// registration follows the name.
	soleHead := "Ivan Horvat\nObrt za popravke\nIlica 5, Zagreb\nOIB 98765432109\nRAČUN br. 12/1/1   20.11.2026\nPopravak   50,00\nUkupno   50,00 EUR"
	soleReg := "Plumbing work invoice\nFrom: Tom Barker\nABN 12 345 678 901\nInvoice 14   20/11/2026\nLabour 3 h   A$270.00\nTotal   A$270.00"
	runClassCases(t, []classCase{
		{"croatian owner", hrOwner, v("Ivan Horvat"), "vendor_name", flagged},
		{"croatian bakery passes", hrOwner, v("Pekara Zlatno Zrno d.o.o."), "", ""},
		{"korean cashier", krCashier, v("김민수"), "vendor_name", flagged},
		{"korean mart passes", krCashier, v("행복마트 주식회사"), "", ""},
		{"arabic manager", arManager, v("أحمد العتيبي"), "vendor_name", role},
		{"arabic restaurant passes", arManager, v("مطعم الواحة ذ.م.م"), "", ""},
		{"spanish waiter", esWaiter, v("María López"), "vendor_name", flagged},
		{"spanish restaurant passes", esWaiter, v("Restaurante El Faro S.L."), "", ""},
		{"finnish contact person", fiContact, v("Matti Virtanen"), "vendor_name", flagged},
		{"finnish cafe passes", fiContact, v("Kahvila Aamutähti Oy"), "", ""},
		{"german managing director", deManager, v("Dr. Klaus Weber"), "vendor_name", flagged},
		{"german dealer passes", deManager, v("Autohaus Brenner GmbH"), "", ""},
		{"hindi pharmacist", inPharm, v("राजेश शर्मा"), "vendor_name", role},
		{"indian pharmacy passes", inPharm, v("Shree Ganesh Medical Stores"), "", ""},
		{"english served by", enServed, v("Tom Barker"), "vendor_name", flagged},
		{"english pub passes", enServed, v("The Crown & Anchor Pub Ltd"), "", ""},
		{"australian doctor", enDoctor, v("Dr. Sarah Mitchell"), "vendor_name", flagged},
		{"australian clinic passes", enDoctor, v("Greenwood Family Clinic Pty Ltd"), "", ""},
		{"french signatory", frSigned, v("Jean Martin"), "vendor_name", flagged},
		{"french bakery passes", frSigned, v("Boulangerie Dupont SARL"), "", ""},
		{"italian cashier", itCashier, v("Luca Bianchi"), "vendor_name", flagged},
		{"italian supermarket passes", itCashier, v("Supermercato Sole S.r.l."), "", ""},
		{"portuguese attendant", ptAttendant, v("Ana Costa"), "vendor_name", flagged},
		{"portuguese pharmacy passes", ptAttendant, v("Farmácia Central Lda"), "", ""},
		{"irish owner under a cafe with no legal form", ieOwner, v("Siobhan Kelly"), "vendor_name", role},
		{"irish cafe passes", ieOwner, v("Blue Door Café"), "", ""},
		{"korean staff under a bakery with no legal form", krStaff, v("이지은"), "vendor_name", role},
		{"korean bakery passes", krStaff, v("하늘빵집"), "", ""},
		{"sole trader heading passes", soleHead, v("Ivan Horvat"), "", ""},
		{"sole trader with registration passes", soleReg, v("Tom Barker"), "", ""},
	})
}
