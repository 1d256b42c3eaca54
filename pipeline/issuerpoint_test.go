package pipeline

import "testing"

// The vendor is the party the document points to as its issuer: the first
// party its head names, or a name with the issuer's own marks beside it (an
// issuer label, its registration). Another party the document names under
// wording no list holds (a buyer under a label in any language, a bank, a
// carrier, a platform, a payment provider, a licensor, a lender, a property
// manager, a printer or software maker in the footer) is flagged when the
// head names a company first; the documents are our own, in layouts of many
// countries.
func TestIssuerIsWhomTheDocumentPointsTo(t *testing.T) {
	v := vendorOnly
	const under, only = "is named only under", "is named only"
	// Albania: the seller's letterhead, then the buyer under "Blerësi:".
	alBuyer := "Drita Ndërtim sh.p.k.\nRruga e Kavajës 12, Tiranë\nFATURË Nr. 2026/118   Data: 20.11.2026\nBlerësi:\nAgro Vlora sh.p.k.\n" +
		"Rruga Skele 4, Vlorë\nÇimento 40 thasë   12 000,00\nTVSH 20%   2 400,00\nTotali   14 400,00 Lekë"
	// Serbia: the buyer on its label's line.
	rsBuyer := "Zlatibor Drvo d.o.o.\nKralja Petra 8, Užice\nRačun br. 331/2026   Datum: 20.11.2026\nPrimalac računa: Nova Gradnja d.o.o.\n" +
		"Daske 3 m3   90.000,00\nPDV 20%   18.000,00\nUkupno   108.000,00 RSD"
	// An English bill whose recipient line reads "I / To".
	iTo := "Maroon Harbour Services Ltd\n14 Wharf Road, Apia\nINVOICE 7781   20/11/2026\nI / To\nPacific Reef Resort Ltd\nBeach Road, Apia\n" +
		"Boat hire 2 days   WS$1,200.00\nTotal   WS$1,200.00"
	// Two columns: the seller on the left, the account holder on the right.
	twoCol := "Meridian Tools Ltd                    Account holder: Patel Joinery Ltd\n12 Forge Lane, Leeds               " +
		"8 Mill Street, Bradford\nInvoice MT-5512   20/11/2026\nCordless drill   £180.00\nVAT 20%   £36.00\nTotal   £216.00"
	// Third parties below the head, in wording no role list holds.
	transfer := "Kibo Office Supplies Ltd\nP.O. Box 4412, Dar es Salaam\nTAX INVOICE KOS-2026-0912   20/11/2026\nPrinter paper 20 reams   TSh 300,000.00\n" +
		"VAT 18%   TSh 54,000.00\nTotal   TSh 354,000.00\nRemittance to Tanganyika Trust Company Ltd, a/c 0150-2241-7788"
	viaPlatform := "Saffron Lane Caterers Ltd\nUnit 3, 40 Market St, Manchester\nInvoice SLC-0415   20/11/2026\nBuffet for 40   £800.00\nTotal   £800.00\n\n" +
		"Order arranged through Feastly Marketplace Ltd"
	payProvider := "Atelier Brume SARL\n12 rue des Tanneurs, Lyon\nFacture 2026-311   20/11/2026\nRetouches   120,00 €\nTotal TTC   120,00 €\n\n" +
		"Paiement en ligne opéré par Monéo Paiements SAS"
	licensor := "Kaffeebar Ost GmbH\nOstring 4, Leipzig\nRechnung 8812   20.11.2026\nCatering Kaffee 40 Pers.   320,00 €\nGesamt   320,00 €\n\n" +
		"Marke in Lizenz der Bohnenkult Franchise AG"
	lender := "Sol Naciente Motos S.A.C.\nAv. Arequipa 1200, Lima\nBoleta B001-4471   20/11/2026\nMotocicleta 150cc   S/ 6 500,00\nTotal   S/ 6 500,00\n\n" +
		"Financiado por Caja Andina de Crédito S.A."
	propertyMgr := "Harbour View Body Corporate 4471 Ltd\n22 Quay Street, Auckland\nLevy notice 2026-Q4   20/11/2026\nOperating levy   NZ$1,450.00\nTotal   NZ$1,450.00\n\n" +
		"Administered for the body corporate by Quayside Strata Management Ltd"
	printer := "Hotel Montaña Azul S.L.\nCalle Mayor 3, Jaca\nFactura A-2026/9912   20/11/2026\nHabitación 2 noches   180,00\nIVA 10%   18,00\nTotal   198,00 €\n\n" +
		"Impreso por Gráficas Pirineo S.L."
	software := "Brightwater Plumbing Pty Ltd\n7 Reef Rd, Cairns QLD 4870\nTax invoice 1182   20/11/2026\nHot water unit install   A$1,650.00\nTotal incl. GST   A$1,650.00\n\n" +
		"Document produced using Ledgerly Cloud Pty Ltd"
	// Stay silent: a title, then the letterhead.
	titleFirst := "TAX INVOICE\nKestrel Joinery Ltd\n22 Totara St, Hamilton\nInvoice KJ-311   20/11/2026\nWardrobe   NZ$3,200.00\nTotal   NZ$3,200.00"
	// A brand over its company's line.
	brand := "KOPI SUDUT\nTan Bersaudara Makanan Sdn Bhd (123456-X)\nNo 8 Jalan Pasar, Ipoh\nKopi O 2   RM 4.00\nTotal   RM 4.00"
	// The buyer's block printed first, the seller in the footer with its
	// registration.
	buyerFirst := "Lindqvist Fastigheter AB\nStorgatan 4\n111 22 Stockholm\n\nFaktura 2026-881   2026-11-20\nMålning trapphus   40 000,00\n" +
		"Moms 25 %   10 000,00\nAtt betala   50 000,00 kr\n\nMåleri Norrsken AB\nOrg.nr 556677-8899   Bankgiro 123-4567"
	// A receipt that prints its shop's name only at its foot.
	footOnly := "RECEIPT\n20/11/2026 14:02\nBread   2.50\nMilk   1.20\nTotal   3.70\nThank you for shopping at\nGreenleaf Market"
	// Both parties labelled in the head, the seller first.
	bothLabelled := "FATURË Nr. 2026/77   Data: 20.11.2026\nShitësi:\nDrita Ndërtim sh.p.k.\nRruga e Kavajës 12, Tiranë\nBlerësi:\nAgro Vlora sh.p.k.\n" +
		"Çimento 10 thasë   3 000,00\nTotali   3 000,00 Lekë"
	// A platform's head and the store it names below.
	platformStore := "Gojek Food Services Pte Ltd\nOrder 8812-KX   20/11/2026\nStore: Sari Rasa Kuliner Pte Ltd\nNasi campur 2   Rp 50.000\nTotal   Rp 50.000"
	// An issuer label with a word after it, below a buyer's block.
	sellerDetails := "Prepared for Ruiz Holdings Ltd\n\nInvoice 2026-14   20/11/2026\nConsulting 10 h   US$1,500.00\nTotal   US$1,500.00\n\n" +
		"Seller details:\nOrion Advisory LLC\n200 Bay St, Nassau"
	// Legal forms the shared lists miss mark the head's company: before
	// the name (ООО, PT) or after it (Kft.).
	ruSubscriber := "ООО «Северный ветер»\nг. Москва, ул. Лесная, д. 5\nСчёт № 118 от 20.11.2026\nАбонент:\nАО «Городские сети»\n" +
		"Услуги связи   12 000,00\nИтого   12 000,00 руб."
	idProvider := "PT Maju Jaya Abadi\nJl. Sudirman No. 5, Jakarta\nINVOICE 2026/11/118   20/11/2026\nJasa konsultasi   Rp 10.000.000,00\n" +
		"Total   Rp 10.000.000,00\nPembayaran diproses oleh Kilat Bayar Nusantara"
	huPrinter := "Duna Épületgépészet Kft.\nBudapest, Fő utca 12.\nSzámla 2026/0412   2026.11.20\nKazáncsere   100 000 Ft\nÁFA 27%   27 000 Ft\n" +
		"Összesen   127 000 Ft\n\nNyomda: Pannon Print Kft."
	// The issuer named under an issuer's word the issuer labels lack.
	emetteur := "Lafourche Marketplace SAS\nCommande 8812   20/11/2026\nÉmetteur : Fromagerie Vallée SARL\nComté 1 kg   24,00 €\nTotal   24,00 €"
	// The buyer named first under a recipient's label, the seller only in
	// its registered footer with its bank account; and the seller first
	// under a label the lists lack, over a buyer block with a VAT number.
	toFirst := "I / To\nKaimana Reef Resort Ltd\nAli'i Drive 12, Kailua-Kona\n\nINVOICE 2026-0412   20/11/2026\nLinen service   US$900.00\nTotal   US$900.00\n\n" +
		"Makai Laundry Services\nGST reg no 4412-88\nAccount number 0012-884412"
	sellerFirst := "Shitësi:\nDrita Ndërtim\nRruga e Kavajës 12, Tiranë\n\nBlerësi:\nAgro Vlora\nVAT no AL-K12345678\n\nÇimento 10 thasë   3 000,00\nTotali   3 000,00 Lekë"
	runClassCases(t, []classCase{
		{"buyer first under I / To", toFirst, v("Kaimana Reef Resort Ltd"), "vendor_name", "another party's registration"},
		{"registered laundry passes", toFirst, v("Makai Laundry Services"), "", ""},
		{"seller first under its own label passes", sellerFirst, v("Drita Ndërtim"), "", ""},
		{"french émetteur under a platform passes", emetteur, v("Fromagerie Vallée SARL"), "", ""},
		{"russian subscriber under its label", ruSubscriber, v("АО «Городские сети»"), "vendor_name", under},
		{"russian supplier passes", ruSubscriber, v("ООО «Северный ветер»"), "", ""},
		{"indonesian payment processor", idProvider, v("Kilat Bayar Nusantara"), "vendor_name", only},
		{"indonesian consultancy passes", idProvider, v("PT Maju Jaya Abadi"), "", ""},
		{"hungarian printer", huPrinter, v("Pannon Print Kft."), "vendor_name", only},
		{"hungarian installer passes", huPrinter, v("Duna Épületgépészet Kft."), "", ""},
		{"albanian buyer under its label", alBuyer, v("Agro Vlora sh.p.k."), "vendor_name", under},
		{"albanian seller passes", alBuyer, v("Drita Ndërtim sh.p.k."), "", ""},
		{"serbian buyer on its label's line", rsBuyer, v("Nova Gradnja d.o.o."), "vendor_name", under},
		{"serbian seller passes", rsBuyer, v("Zlatibor Drvo d.o.o."), "", ""},
		{"recipient after I / To", iTo, v("Pacific Reef Resort Ltd"), "vendor_name", under},
		{"samoan seller passes", iTo, v("Maroon Harbour Services Ltd"), "", ""},
		{"account holder in the right column", twoCol, v("Patel Joinery Ltd"), "vendor_name", under},
		{"left-column seller passes", twoCol, v("Meridian Tools Ltd"), "", ""},
		{"trust company in the remittance line", transfer, v("Tanganyika Trust Company Ltd"), "vendor_name", only},
		{"tanzanian supplier passes", transfer, v("Kibo Office Supplies Ltd"), "", ""},
		{"marketplace in a note", viaPlatform, v("Feastly Marketplace Ltd"), "vendor_name", "in the footer"},
		{"caterer passes", viaPlatform, v("Saffron Lane Caterers Ltd"), "", ""},
		{"payment provider in the footer", payProvider, v("Monéo Paiements SAS"), "vendor_name", only},
		{"french atelier passes", payProvider, v("Atelier Brume SARL"), "", ""},
		{"brand licensor in the footer", licensor, v("Bohnenkult Franchise AG"), "vendor_name", only},
		{"german coffee bar passes", licensor, v("Kaffeebar Ost GmbH"), "", ""},
		{"lender in the footer", lender, v("Caja Andina de Crédito S.A."), "vendor_name", only},
		{"peruvian dealer passes", lender, v("Sol Naciente Motos S.A.C."), "", ""},
		{"strata manager in the footer", propertyMgr, v("Quayside Strata Management Ltd"), "vendor_name", only},
		{"body corporate passes", propertyMgr, v("Harbour View Body Corporate 4471 Ltd"), "", ""},
		{"printer in the footer", printer, v("Gráficas Pirineo S.L."), "vendor_name", only},
		{"spanish hotel passes", printer, v("Hotel Montaña Azul S.L."), "", ""},
		{"invoicing software in the footer", software, v("Ledgerly Cloud Pty Ltd"), "vendor_name", only},
		{"plumber passes", software, v("Brightwater Plumbing Pty Ltd"), "", ""},
		{"letterhead under a title passes", titleFirst, v("Kestrel Joinery Ltd"), "", ""},
		{"company under its brand passes", brand, v("Tan Bersaudara Makanan Sdn Bhd"), "", ""},
		{"registered seller in the footer passes", buyerFirst, v("Måleri Norrsken AB"), "", ""},
		{"shop named only at the foot passes", footOnly, v("Greenleaf Market"), "", ""},
		{"seller labelled first passes", bothLabelled, v("Drita Ndërtim sh.p.k."), "", ""},
		{"buyer labelled second", bothLabelled, v("Agro Vlora sh.p.k."), "vendor_name", under},
		{"store under a platform's head passes", platformStore, v("Sari Rasa Kuliner Pte Ltd"), "", ""},
		{"seller details below a buyer passes", sellerDetails, v("Orion Advisory LLC"), "", ""},
	})
}
