package pipeline

import "testing"

// Parties a document names that never issued it, though their names look
// like an issuer's: the company that collects or processes the payment for
// the seller, the tax office printed beside the seller's tax number, the
// payer of a payment slip, the insurer on a medical bill, the buyer under a
// Turkish "Alıcı" or "Sayın". Offered as the vendor, each is flagged; the
// seller the document is from passes.
func TestPartiesThatDoNotIssue(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	ukDD := "Northfield Water Ltd\nDirect Debit Advance Notice\nAccount ref NW-448120\n" +
		"Your next payment of £38.50 will be collected by Paylink Collections Ltd on behalf of Northfield Water Ltd on 01/12/2026.\nAmount £38.50"
	usCard := "Blue Heron Yoga Studio\nReceipt #20411\nMonthly membership   $89.00\nTotal   $89.00\n" +
		"Payment processed by Clearpay Payments Inc.\nVisa ending 4471"
	deSEPA := "Stadtwerke Lindenau GmbH\nAbschlagsrechnung Nr. 2026-11-0087\nAbschlag Strom   64,00 €\n" +
		"Der Betrag wird per SEPA-Lastschrift eingezogen von Zahlwerk Inkasso GmbH im Auftrag der Stadtwerke Lindenau GmbH.\nZahlbetrag   64,00 €"
	frPSP := "Atelier Céramique Morel SARL\nFacture n° F-2026-311\nCours de tournage   120,00 €\nTotal TTC   120,00 €\n" +
		"Paiement traité par Payplug Services SAS"
	esPSP := "Librería El Faro S.L.\nFactura simplificada T-0912\nLibros   45,00 €\nTotal   45,00 €\nPago procesado por Redpago Servicios S.A."
	grTax := "ΑΦΟΙ ΠΑΠΑΔΟΠΟΥΛΟΙ Ο.Ε.\nΕΜΠΟΡΙΟ ΗΛΕΚΤΡΙΚΩΝ ΕΙΔΩΝ\nΑΦΜ: 094512378   ΔΟΥ: ΚΑΛΑΜΑΡΙΑΣ\nΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ Α-1187\nΣΥΝΟΛΟ 9,00 €"
	deTax := "Malerbetrieb Kuhn GmbH\nRechnung Nr. 2026-0412\nAnstricharbeiten   900,00 €\nGesamtbetrag   1.071,00 €\n" +
		"Steuernummer 143/221/40571, Finanzamt München-Nord"
	ukTax := "Okoro & Daughters Catering Ltd\nINVOICE 5531\nEvent catering   £900.00\nTotal   £900.00\nUTR 8812345670   Tax office: Leeds Central"
	trAlici := "ANADOLU KIRTASİYE LTD. ŞTİ.\nVergi Dairesi: Kadıköy  VKN: 0681234567\ne-Arşiv Fatura No: GIB2026000000412\n" +
		"ALICI: YILDIZ MİMARLIK A.Ş.\nToplam 9,00 TL"
	trSayin := "EGE GIDA SANAYİ A.Ş.\ne-Fatura\nSAYIN\nDENİZ LOKANTACILIK LTD. ŞTİ.\nİzmir\nÖdenecek Tutar 9,00 TL"
	chQR := "Schreinerei Baumgartner AG\nRechnung 2026-0931\nTotal CHF 9.00\nEmpfangsschein\nKonto / Zahlbar an\n" +
		"CH44 3199 9123 0008 8901 2\nSchreinerei Baumgartner AG\nZahlbar durch\nPia Rutschmann\nGrosse Marktgasse 28\n9400 Rorschach\nWährung Betrag\nCHF 9.00"
	ukPaidBy := "Harbour Lights Guest House\nReceipt 0771\nRoom, 2 nights   £180.00\nTotal   £180.00\nPaid by: Fenwick Engineering Ltd"
	usHospital := "St. Agnes Regional Medical Center\nPATIENT STATEMENT\nPatient: Laura Benton\nPrimary insurance: Blue Ridge Health Plan\n" +
		"Total charges   $1,240.00\nAmount due   $240.00"
	usDental := "Maple Grove Family Dentistry\nStatement date 11/20/2026\nInsurance Information\nCarrier: Summit Dental Insurance Co\n" +
		"Group no. 55812\nAmount due $95.00"
	deArzt := "Zahnarztpraxis Dr. Anna Weber\nRechnung Nr. 2026-338\nPatient: Max Lehmann\nKrankenkasse: Barmer Ersatzkasse\nRechnungsbetrag 95,00 €"
	usIns := "City Dental Care\nStatement\nInsurance: Delta Shield Dental Inc\nTotal charges $900.00\nAmount due $100.00"
	frMut := "Cabinet Médical Dr Roux\nFacture 2026-88\nMutuelle : Harmonie Santé Mutuelle\nTotal 60,00 €"
	chVers := "Physio Zentrum Basel AG\nRechnung 2026-88\nVersicherung: Helsana Versicherungen AG\nTotal CHF 160.00"
	runClassCases(t, []classCase{
		{"insurance field", usIns, v("Delta Shield Dental Inc"), "vendor_name", why},
		{"mutuelle field", frMut, v("Harmonie Santé Mutuelle"), "vendor_name", why},
		{"versicherung field", chVers, v("Helsana Versicherungen AG"), "vendor_name", why},
		{"physio passes", chVers, v("Physio Zentrum Basel AG"), "", ""},
		{"an insurer's own name passes", "Evergreen Mutual Insurance\nPremium notice\nTotal premium 9.00", v("Evergreen Mutual Insurance"), "", ""},
		{"uk direct debit collector", ukDD, v("Paylink Collections Ltd"), "vendor_name", why},
		{"uk direct debit creditor passes", ukDD, v("Northfield Water Ltd"), "", ""},
		{"us card processor", usCard, v("Clearpay Payments Inc."), "vendor_name", why},
		{"us studio passes", usCard, v("Blue Heron Yoga Studio"), "", ""},
		{"de sepa collector", deSEPA, v("Zahlwerk Inkasso GmbH"), "vendor_name", why},
		{"de stadtwerke passes", deSEPA, v("Stadtwerke Lindenau GmbH"), "", ""},
		{"fr payment processor", frPSP, v("Payplug Services SAS"), "vendor_name", why},
		{"es payment processor", esPSP, v("Redpago Servicios S.A."), "vendor_name", why},
		{"es bookshop passes", esPSP, v("Librería El Faro S.L."), "", ""},
		{"greek tax office", grTax, v("ΚΑΛΑΜΑΡΙΑΣ"), "vendor_name", "tax office"},
		{"greek tax office with its label", grTax, v("ΔΟΥ ΚΑΛΑΜΑΡΙΑΣ"), "vendor_name", "tax office"},
		{"greek seller passes", grTax, v("ΑΦΟΙ ΠΑΠΑΔΟΠΟΥΛΟΙ Ο.Ε."), "", ""},
		{"german finanzamt", deTax, v("Finanzamt München-Nord"), "vendor_name", "tax office"},
		{"german painter passes", deTax, v("Malerbetrieb Kuhn GmbH"), "", ""},
		{"uk tax office", ukTax, v("Leeds Central"), "vendor_name", "tax office"},
		{"turkish tax office", trAlici, v("Kadıköy"), "vendor_name", "tax office"},
		{"turkish alıcı", trAlici, v("YILDIZ MİMARLIK A.Ş."), "vendor_name", why},
		{"turkish seller passes", trAlici, v("ANADOLU KIRTASİYE LTD. ŞTİ."), "", ""},
		{"turkish sayın block", trSayin, v("DENİZ LOKANTACILIK LTD. ŞTİ."), "vendor_name", why},
		{"turkish e-fatura seller passes", trSayin, v("EGE GIDA SANAYİ A.Ş."), "", ""},
		{"swiss qr-bill payer", chQR, v("Pia Rutschmann"), "vendor_name", why},
		{"swiss qr-bill creditor passes", chQR, v("Schreinerei Baumgartner AG"), "", ""},
		{"paid by a company", ukPaidBy, v("Fenwick Engineering Ltd"), "vendor_name", why},
		{"guest house passes", ukPaidBy, v("Harbour Lights Guest House"), "", ""},
		{"us hospital insurer", usHospital, v("Blue Ridge Health Plan"), "vendor_name", why},
		{"us hospital passes", usHospital, v("St. Agnes Regional Medical Center"), "", ""},
		{"us dental carrier", usDental, v("Summit Dental Insurance Co"), "vendor_name", why},
		{"us dentist passes", usDental, v("Maple Grove Family Dentistry"), "", ""},
		{"german krankenkasse", deArzt, v("Barmer Ersatzkasse"), "vendor_name", why},
		{"german dentist passes", deArzt, v("Zahnarztpraxis Dr. Anna Weber"), "", ""},
	})
}

// On a marketplace or platform receipt the seller is the vendor: the
// platform only hosts the sale ("Sold by", "Verkauf durch", "Vendu par",
// "販売元"). On a self-billing invoice the buyer writes the invoice for its
// supplier, and the supplier is still the vendor: the buyer at the head is
// flagged, the party under the supplier label passes.
func TestSellerOnPlatformsAndSelfBilling(t *testing.T) {
	v := vendorOnly
	ukMarket := "Marketgo\nOrder confirmation #204-5581120\nOrder placed 12 Nov 2026\nItems ordered\n" +
		"1 x Cast iron skillet 26 cm   £34.99\nSold by: Kettle & Hearth Supplies Ltd\nDispatched from the UK\nOrder total   £34.99"
	deMarket := "Kaufhafen.de\nBestellbestätigung 771-20412\nBestellt am 12.11.2026\n1 x Wasserkocher   39,90 €\n" +
		"Verkauf und Versand durch: Elektro Brandl e.K.\nGesamtsumme   39,90 €"
	frMarket := "PlaceVente\nRécapitulatif de commande n° 55-18820\n1 x Lampe de bureau   29,00 €\nVendu par : Lumières Dupuis SARL\nTotal TTC   29,00 €"
	jpMarket := "ラクマート\nご注文内容の確認\n注文番号 771-5520\n電気ケトル 1点 ¥4,980\n販売元：株式会社ミドリ家電\nご請求金額 ¥4,980"
	ukSelf := "Greenvale Dairies Ltd\nSELF-BILLING INVOICE SB-2026-0117\nSupplier: Hollins Farm Partnership\n" +
		"Supplier VAT no GB 123 4567 89\nMilk supplied, November   £4,120.00\nTotal   £4,120.00"
	deSelf := "Holzhandel Berger GmbH\nGutschrift im Gutschriftverfahren Nr. G-2026-044\nLieferant: Forstbetrieb Maier\nFichte Stammholz   3.200,00 €\nGutschriftsbetrag   3.200,00 €"
	// Further down an order, the seller printed with each item, with or
	// without a colon; an order from several sellers has no one vendor.
	longOrder := "ShopHarbor\nOrder #88-1120-4471\nPlaced 20 Nov 2026\nShip to: Dana Whitfield\n14 Elm Row\nLeeds LS2 7QT\n" +
		"Payment: Visa ending 1881\nDelivery: Standard\nItems\n1 x Ceramic teapot   £24.00\n  Sold by Potter's Wheel Studio Ltd\n" +
		"Order total   £24.00"
	twoSellers := "ShopHarbor\nOrder #88-1120-4472\n1 x Teapot   £24.00   Sold by: Potter's Wheel Studio Ltd\n" +
		"1 x Tea towel   £6.00   Sold by: Linen Loft UK Ltd\nOrder total   £30.00"
	bestseller := "Potter's Wheel Studio Ltd\nInvoice PW-2026-118\nCeramic teapot (our best seller!)   £24.00\nTotal   £24.00"
	itMarket := "MercatoPiù\nRiepilogo ordine 55-3310\n1 x Moka 6 tazze   34,90 €\nVenduto e spedito da Casalinghi Ferri S.r.l.\nTotale ordine   34,90 €"
	// The supplier under its label's line, or named as the party the
	// invoice is issued on behalf of.
	ukBlock := "Greenvale Dairies Ltd\nSELF-BILLED INVOICE SB-2026-0118\nSupplier:\nHollins Farm Partnership\nLow Road, Skipton\n" +
		"Milk supplied, November   £4,120.00\nTotal   £4,120.00"
	ukBehalf := "Greenvale Dairies Ltd\nSelf-billing invoice SB-2026-0119\nMilk supplied, November   £4,120.00\nTotal   £4,120.00\n" +
		"This invoice is issued by Greenvale Dairies Ltd on behalf of Hollins Farm Partnership under a self-billing agreement."
	frBehalf := "Coopérative Laitière du Jura\nAutofacturation n° AF-2026-044\nLait livré, novembre   3 200,00 €\nTotal TTC   3 200,00 €\n" +
		"Facture émise par le client au nom et pour le compte de GAEC des Trois Sapins"
	runClassCases(t, []classCase{
		{"self-billing supplier block: buyer as vendor", ukBlock, v("Greenvale Dairies Ltd"), "vendor_name", "Hollins Farm Partnership"},
		{"self-billing supplier block passes", ukBlock, v("Hollins Farm Partnership"), "", ""},
		{"self-billing on behalf of: buyer as vendor", ukBehalf, v("Greenvale Dairies Ltd"), "vendor_name", "Hollins Farm Partnership"},
		{"self-billing on behalf of passes", ukBehalf, v("Hollins Farm Partnership"), "", ""},
		{"autofacturation au nom de: buyer as vendor", frBehalf, v("Coopérative Laitière du Jura"), "vendor_name", "GAEC des Trois Sapins"},
		{"autofacturation supplier passes", frBehalf, v("GAEC des Trois Sapins"), "", ""},
		{"seller below the head", longOrder, v("ShopHarbor"), "vendor_name", "Potter's Wheel Studio Ltd"},
		{"seller below the head passes", longOrder, v("Potter's Wheel Studio Ltd"), "", ""},
		{"one of two sellers", twoSellers, v("Potter's Wheel Studio Ltd"), "vendor_name", "several sellers"},
		{"best seller is no label", bestseller, v("Potter's Wheel Studio Ltd"), "", ""},
		{"it platform as vendor", itMarket, v("MercatoPiù"), "vendor_name", "Casalinghi Ferri S.r.l."},
		{"it seller passes", itMarket, v("Casalinghi Ferri S.r.l."), "", ""},
		{"uk platform as vendor", ukMarket, v("Marketgo"), "vendor_name", "Kettle & Hearth Supplies Ltd"},
		{"uk seller passes", ukMarket, v("Kettle & Hearth Supplies Ltd"), "", ""},
		{"de platform as vendor", deMarket, v("Kaufhafen.de"), "vendor_name", "Elektro Brandl e.K."},
		{"de seller passes", deMarket, v("Elektro Brandl e.K."), "", ""},
		{"fr platform as vendor", frMarket, v("PlaceVente"), "vendor_name", "Lumières Dupuis SARL"},
		{"fr seller passes", frMarket, v("Lumières Dupuis SARL"), "", ""},
		{"jp platform as vendor", jpMarket, v("ラクマート"), "vendor_name", "株式会社ミドリ家電"},
		{"jp seller passes", jpMarket, v("株式会社ミドリ家電"), "", ""},
		{"uk self-billing buyer as vendor", ukSelf, v("Greenvale Dairies Ltd"), "vendor_name", "Hollins Farm Partnership"},
		{"uk self-billing supplier passes", ukSelf, v("Hollins Farm Partnership"), "", ""},
		{"de gutschrift buyer as vendor", deSelf, v("Holzhandel Berger GmbH"), "vendor_name", "Forstbetrieb Maier"},
		{"de gutschrift supplier passes", deSelf, v("Forstbetrieb Maier"), "", ""},
	})
}
