package pipeline

import "testing"

// The same roles in other layouts: a bank's name over or under its account
// line, a bank named in one word (Swedbank) or in a script without spaces,
// an assignment stated on the line above the factor's name or after it
// (Turkish), a booking channel, a carrier by its shipping
// method, a doctor by a plain role label, a hotel's brand owner in its
// footer, the guest's company on a folio, a marketplace seller in more
// languages, a ride or platform invoice issued in a driver's name.
func TestOtherRolesInMoreLayouts(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	bankBlock := "Kestrel Joinery Ltd\nINVOICE KJ-2026-311     Date 20/11/2026\nFitted wardrobes   NZ$3,200.00\nGST 15%   NZ$480.00\n" +
		"Total   NZ$3,680.00\n\nPayment details\nWestpac New Zealand Bank Ltd\nAccount 03-0123-0456789-00\nReference KJ-2026-311"
	seBank := "Takläggare Nyström AB\nFaktura 7781     Fakturadatum 2026-11-20\nTakarbete   40 000,00\nMoms 25 %   10 000,00\n" +
		"Att betala   50 000,00 kr\nBetala till konto 8327-9 123 456 789-0 i Swedbank"
	thBank := "บริษัท สยามก่อสร้าง จำกัด\nใบแจ้งหนี้ เลขที่ INV-2026-118\nค่าก่อสร้าง 100,000.00\nภาษีมูลค่าเพิ่ม 7% 7,000.00\n" +
		"รวมทั้งสิ้น 107,000.00 บาท\nโอนเงินเข้าบัญชี ธนาคารกสิกรไทย เลขที่บัญชี 123-4-56789-0"
	ddFrom := "Aqua Vale Water Ltd\nBill 2026-11-0412   20 Nov 2026\nWater charges   £48.00\nTotal   £48.00\n" +
		"This amount will be taken by Direct Debit from HSBC UK on or after 1 December 2026."
	factorAbove := "Halvorsen Elektro AS\nFaktura 2026-0877   20.11.2026\nElektroarbeid   8 000,00\nMVA 25 %   2 000,00\nÅ betale   10 000,00\n" +
		"Fakturaen er overdratt til og skal betales til:\nSparebank Factoring Nord AS\nKonto 1503.45.67890"
	trTemlik := "Ege Tekstil Sanayi A.Ş.\nFATURA No: ETS2026000118   Tarih: 20.11.2026\nKumaş 500 m   50.000,00\nKDV %20   10.000,00\n" +
		"Genel Toplam   60.000,00 TL\nBu fatura alacağı Anadolu Faktoring A.Ş.'ye temlik edilmiştir."
	hotelChannel := "Pousada Vila Rica Ltda\nCNPJ 12.345.678/0001-90\nNota de hospedagem 2026/411   20/11/2026\n" +
		"Canal de venda: Decolar.com Ltda\nDiárias 2   R$ 600,00\nTotal   R$ 600,00"
	shipVia := "Cascade Outdoor Supply Inc.\nINVOICE 55412     11/20/2026\nShip via: United Parcel Service Inc\nTents x 4   $1,200.00\nTotal   $1,200.00"
	deVersand := "Bürobedarf Lenz GmbH\nRechnung 2026-5512   20.11.2026\nVersandart: DHL Paket GmbH\nDruckerpapier 20 Pakete   90,00 €\nGesamt   107,10 €"
	dentist := "Sunrise Dental Clinic Sdn Bhd\nInvoice SD-2026-0412   20/11/2026\nDentist: Dr Farah Aziz\nRoot canal treatment   RM 900.00\nTotal   RM 900.00"
	seenBy := "Kowhai Medical Centre Ltd\nInvoice 88120   20/11/2026\nSeen by: Dr Mere Parata\nConsultation   NZ$65.00\nTotal   NZ$65.00"
	labEinsender := "Labor Dr. Fischer MVZ GmbH\nRechnung 2026-44812   20.11.2026\nEinsender: Praxis Dr. med. Jana Kühn\nBlutbild   12,50 €\nGesamt   12,50 €"
	hotelBrand := "Kingsgate Hospitality Pty Ltd\nABN 12 345 678 901\nTAX INVOICE 55120   20/11/2026\nAccommodation   A$420.00\nTotal incl. GST   A$420.00\n" +
		"Rydal Suites Sydney is franchised by Harbourline Hotels Group Pty Ltd"
	folioCompany := "Hotel Sant Jordi S.L.\nFactura 2026/8812   20/11/2026\nHabitación 214   Llegada 18/11/2026   Salida 20/11/2026\n" +
		"Empresa: Tecnologías Albor S.A.\nAlojamiento   240,00\nIVA 10%   24,00\nTotal   264,00 €"
	ride := "Invoice RD-2026-99120   20 Nov 2026\nIssued by Swiftride Technologies B.V. in the name and on behalf of: Kwame Mensah Transport\n" +
		"Trip fare   GH₵ 85.00\nTotal   GH₵ 85.00"
	seMarket := "Handlaplatsen\nOrderbekräftelse 55-1120\n1 x Kaffebryggare   899,00\nSäljs av: Köksgrejer i Norr AB\nTotalt   899,00 kr"
	runClassCases(t, []classCase{
		{"bank over its account line", bankBlock, v("Westpac New Zealand Bank Ltd"), "vendor_name", why},
		{"joinery passes", bankBlock, v("Kestrel Joinery Ltd"), "", ""},
		{"swedish one-word bank", seBank, v("Swedbank"), "vendor_name", why},
		{"swedish roofer passes", seBank, v("Takläggare Nyström AB"), "", ""},
		{"thai bank in a transfer line", thBank, v("ธนาคารกสิกรไทย"), "vendor_name", why},
		{"thai builder passes", thBank, v("บริษัท สยามก่อสร้าง จำกัด"), "", ""},
		{"direct debit from a bank", ddFrom, v("HSBC UK"), "vendor_name", why},
		{"water company passes", ddFrom, v("Aqua Vale Water Ltd"), "", ""},
		{"factor under the assignment line", factorAbove, v("Sparebank Factoring Nord AS"), "vendor_name", why},
		{"norwegian electrician passes", factorAbove, v("Halvorsen Elektro AS"), "", ""},
		{"turkish temlik", trTemlik, v("Anadolu Faktoring A.Ş."), "vendor_name", why},
		{"turkish textile firm passes", trTemlik, v("Ege Tekstil Sanayi A.Ş."), "", ""},
		{"booking channel", hotelChannel, v("Decolar.com Ltda"), "vendor_name", why},
		{"pousada passes", hotelChannel, v("Pousada Vila Rica Ltda"), "", ""},
		{"ship via", shipVia, v("United Parcel Service Inc"), "vendor_name", why},
		{"outdoor supplier passes", shipVia, v("Cascade Outdoor Supply Inc."), "", ""},
		{"versandart", deVersand, v("DHL Paket GmbH"), "vendor_name", why},
		{"office supplier passes", deVersand, v("Bürobedarf Lenz GmbH"), "", ""},
		{"dentist label", dentist, v("Dr Farah Aziz"), "vendor_name", why},
		{"dental clinic passes", dentist, v("Sunrise Dental Clinic Sdn Bhd"), "", ""},
		{"seen by", seenBy, v("Dr Mere Parata"), "vendor_name", why},
		{"medical centre passes", seenBy, v("Kowhai Medical Centre Ltd"), "", ""},
		{"lab's sending practice", labEinsender, v("Praxis Dr. med. Jana Kühn"), "vendor_name", why},
		{"lab passes", labEinsender, v("Labor Dr. Fischer MVZ GmbH"), "", ""},
		{"hotel franchisor in the footer", hotelBrand, v("Harbourline Hotels Group Pty Ltd"), "vendor_name", why},
		{"hotel operator passes", hotelBrand, v("Kingsgate Hospitality Pty Ltd"), "", ""},
		{"folio guest company", folioCompany, v("Tecnologías Albor S.A."), "vendor_name", why},
		{"spanish hotel passes", folioCompany, v("Hotel Sant Jordi S.L."), "", ""},
		{"ride platform issuing for a driver", ride, v("Swiftride Technologies B.V."), "vendor_name", "Kwame Mensah Transport"},
		{"ride driver passes", ride, v("Kwame Mensah Transport"), "", ""},
		{"swedish marketplace seller", seMarket, v("Handlaplatsen"), "vendor_name", "Köksgrejer i Norr AB"},
		{"swedish seller passes", seMarket, v("Köksgrejer i Norr AB"), "", ""},
	})
}
