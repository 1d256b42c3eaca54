package pipeline

import "testing"

// Two-column PDF text interleaves the seller's block (left) with the
// buyer's (right) line by line. The buyer's name, under its column's
// heading ("Rechnungsempfänger:", "Invoice To", "Client", "DESTINATÁRIO"),
// a line or two of the block between, is never the vendor; the seller on
// the left of the same lines passes.
func TestVendorInTheBuyersColumn(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	const de = "ACME Maschinenbau GmbH                 Rechnungsempfänger:\n" +
		"Hauptstraße 12                         z. Hd. Herrn Klaus Müller\n" +
		"80331 München                          Beta Handels AG\n" +
		"USt-IdNr.: DE123456789                 Industriestr. 5, 70173 Stuttgart\n\n" +
		"RECHNUNG Nr. 2026-0412\nRechnungsdatum: 14.11.2026\nGesamtbetrag EUR                  1.071,00"
	const en = "Northwind Supplies Ltd                    Invoice To\n" +
		"12 King Street                            Harbour Foods plc\n" +
		"Leeds LS1 2AB                             7 Quay Road\n" +
		"VAT Reg No. GB 123 4567 89                Bristol BS1 4DJ\n\n" +
		"INVOICE INV-88213          Date: 03/11/2026\nTotal GBP                                  1,500.00"
	const fr = "Boulangerie Industrielle Dupont SARL       Client\n" +
		"14 rue des Lilas                           Hôtel Le Régent SA\n" +
		"69003 Lyon                                 2 place Bellecour\n" +
		"SIRET 512 345 678 00021                    69002 Lyon\n\n" +
		"FACTURE N° F-2026-1187   Date : 05/11/2026\nTotal TTC                                    844,00 €"
	const pt = "Tecnoluz Comércio de Materiais Ltda       DESTINATÁRIO\n" +
		"Rua Augusta 100                           Construtora Horizonte S.A.\n" +
		"São Paulo - SP                            Av. Brasil 2000\n" +
		"CNPJ 12.345.678/0001-90                   Rio de Janeiro - RJ\n" +
		"NOTA FISCAL Nº 000.123   Emissão: 12/11/2026\nValor total da nota R$ 3.450,00"
	// The mirror: the buyer's block on the left, under its heading, and the
	// seller's registration on the right.
	const nl = "Factuuradres                              Bakkerij Van Dijk B.V.\n" +
		"t.a.v. de administratie                   Dorpsstraat 8, 3511 AB Utrecht\n" +
		"Hotel De Zwaan B.V.                       KvK 12345678\n" +
		"Kade 3, 1011 AA Amsterdam                 BTW NL123456789B01\n\n" +
		"FACTUUR 2026-311   Datum: 06-11-2026\nTotaal EUR 968,00"
	runClassCases(t, []classCase{
		{"german recipient two lines under its column heading", de, v("Beta Handels AG"), "vendor_name", why},
		{"german seller on the left passes", de, v("ACME Maschinenbau GmbH"), "", ""},
		{"english invoice-to column heading without colon", en, v("Harbour Foods plc"), "vendor_name", why},
		{"english seller on the left passes", en, v("Northwind Supplies Ltd"), "", ""},
		{"french client column", fr, v("Hôtel Le Régent SA"), "vendor_name", why},
		{"french seller on the left passes", fr, v("Boulangerie Industrielle Dupont SARL"), "", ""},
		{"brazilian destinatário column", pt, v("Construtora Horizonte S.A."), "vendor_name", why},
		{"brazilian seller on the left passes", pt, v("Tecnoluz Comércio de Materiais Ltda"), "", ""},
		{"dutch invoice address in the left column", nl, v("Hotel De Zwaan B.V."), "vendor_name", why},
		{"dutch seller on the right passes", nl, v("Bakkerij Van Dijk B.V."), "", ""},
	})
}

// A customer heading alone on its line ("BILL TO", "Datos del Cliente")
// may stand one blank line above its block: the name under it, or after
// a field label in it ("Nombre:"), is the customer's.
func TestVendorUnderAHeadingOverABlankLine(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	const en = "BRIGHTSPARK ELECTRICAL LTD\nUnit 4, Mill Lane, Derby DE1 1AA\nInvoice No: BS-2291   Date: 12 Nov 2026\n\n" +
		"BILL TO\n\nGreenfield Primary School\nSchool Road, Derby\nTotal due £ 640.00"
	const mx = "Ferretería La Esperanza S.A. de C.V.\nRFC: FES010101AB1\nFACTURA  Serie A Folio 3321\n\n" +
		"Datos del Cliente\n\nNombre: Constructora Valle Verde S.A. de C.V.\nRFC: CVV020202CD2\nTotal $11,600.00 MXN"
	const de = "Elektro Schulz GmbH\nBahnhofstr. 3, 01067 Dresden\nRechnung Nr. 4471 vom 11.11.2026\n\n" +
		"Rechnungsempfänger:\n\nPeter Lange\nAhornweg 7, 01099 Dresden\nRechnungsbetrag 595,00 EUR"
	const fr = "Plomberie Martin & Fils\n12 avenue Foch, 75016 Paris\nFacture n° 2026-311 du 09/11/2026\n\n" +
		"Facturé à\n\nSCI Les Tilleuls\n4 rue Verte, 75015 Paris\nTotal TTC 1 200,00 €"
	runClassCases(t, []classCase{
		{"english bill to over a blank line", en, v("Greenfield Primary School"), "vendor_name", why},
		{"english issuer at the head passes", en, v("BRIGHTSPARK ELECTRICAL LTD"), "", ""},
		{"mexican datos del cliente over a blank line, then a field", mx, v("Constructora Valle Verde S.A. de C.V."), "vendor_name", why},
		{"mexican issuer at the head passes", mx, v("Ferretería La Esperanza S.A. de C.V."), "", ""},
		{"german rechnungsempfänger over a blank line", de, v("Peter Lange"), "vendor_name", why},
		{"german issuer at the head passes", de, v("Elektro Schulz GmbH"), "", ""},
		{"french facturé à over a blank line", fr, v("SCI Les Tilleuls"), "vendor_name", why},
		{"french issuer at the head passes", fr, v("Plomberie Martin & Fils"), "", ""},
		// Two blank lines part a heading from what follows: a new block.
		{"a name two blank lines under a heading is not in its block",
			"Harbor Electric Co\nBILL TO\n\n\nHarbor Electric Co\nInvoice 17\nTotal $90.00", v("Harbor Electric Co"), "", ""},
	})
}

// The software, e-invoicing or certification provider a footer names
// ("Generated by", "Erstellt mit", a CFDI's PAC, a Peruvian "Proveedor de
// servicios electrónicos"), a property manager and the party in whose care
// a letter goes ("c/o") act for the issuer without being it.
func TestVendorIsAProviderOrAgent(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	const us = "Oakridge Landscaping LLC\nInvoice 1045   Date 11/03/2026\nLawn care November 180.00\nTotal $180.00\nGenerated by QuickInvoice Software Inc."
	const mx = "Servicios Integrales del Norte S.A. de C.V.\nRFC SIN990101AAA\nFactura A-551  Fecha 2026-11-05\nTotal $5,800.00 MXN\n" +
		"Este documento es una representación impresa de un CFDI\nPAC: Facturación Moderna S.A. de C.V.  RFC FMO0808088A1"
	const pe = "Inversiones Lima Norte S.A.C.\nRUC 20512345678\nFactura Electrónica F001-000231   Fecha: 05/11/2026\nTotal S/ 1,180.00\n" +
		"Representación impresa de la Factura Electrónica\nProveedor de servicios electrónicos: Nubefact S.A."
	const de = "Malerbetrieb Hoffmann e.K.\nRechnung 2026-118 vom 12.11.2026\nSumme brutto 1.190,00 EUR\nErstellt mit lexoffice – Lexware GmbH"
	const fr = "Menuiserie Leclerc SARL\nFacture F-0921 du 03/11/2026\nTotal TTC 2 400,00 €\nFacture générée par Sellsy SAS"
	const co = "Maple Leaf Holdings LLC\nc/o Summit Property Management\n400 Main St, Boise ID 83702\nRENT INVOICE #R-1102   Date: 11/01/2026\nTotal due $3,200.00"
	const au = "Harbour View Owners Corporation SP 4412\nLevy notice 2026-Q4-017\nProperty manager: Strata Plus Pty Ltd\nTotal due $450.00"
	const es = "Comunidad de Propietarios Edificio Sol\nRecibo 2026/11\nAdministrado por Fincas Levante S.L.\nTotal 85,00 €"
	runClassCases(t, []classCase{
		{"us generated by", us, v("QuickInvoice Software Inc."), "vendor_name", why},
		{"us issuer passes", us, v("Oakridge Landscaping LLC"), "", ""},
		{"mexican pac", mx, v("Facturación Moderna S.A. de C.V."), "vendor_name", why},
		{"mexican issuer passes", mx, v("Servicios Integrales del Norte S.A. de C.V."), "", ""},
		{"peruvian electronic services provider", pe, v("Nubefact S.A."), "vendor_name", why},
		{"peruvian issuer passes", pe, v("Inversiones Lima Norte S.A.C."), "", ""},
		{"german erstellt mit", de, v("Lexware GmbH"), "vendor_name", why},
		{"german issuer passes", de, v("Malerbetrieb Hoffmann e.K."), "", ""},
		{"french facture générée par", fr, v("Sellsy SAS"), "vendor_name", why},
		{"french issuer passes", fr, v("Menuiserie Leclerc SARL"), "", ""},
		{"us care of", co, v("Summit Property Management"), "vendor_name", why},
		{"us landlord passes", co, v("Maple Leaf Holdings LLC"), "", ""},
		{"australian property manager", au, v("Strata Plus Pty Ltd"), "vendor_name", why},
		{"australian owners corporation passes", au, v("Harbour View Owners Corporation SP 4412"), "", ""},
		{"spanish administrado por", es, v("Fincas Levante S.L."), "vendor_name", why},
		{"spanish community passes", es, v("Comunidad de Propietarios Edificio Sol"), "", ""},
	})
}

// On a rent or service-charge invoice the landlord ("Landlord:",
// "Vermieter:", "Arrendador:") issues it: a building's name at the head is
// not the vendor, and the landlord passes.
func TestBuildingNameIsNotTheLandlord(t *testing.T) {
	v := vendorOnly
	const za = "KENSINGTON GARDENS TOWER\nService Charge Invoice INV-7781   Date: 2026-11-01\n" +
		"Landlord: Harbor Estates Ltd, Reg. 2011/004455/07\nTenant: Unit 1204, J. Mokoena\nTotal ZAR 2,400.00"
	const de = "Wohnanlage Sonnenhof\nNebenkostenabrechnung 2026   Datum: 05.11.2026\n" +
		"Vermieter: Immobilien Weber GmbH, Lindenstr. 4, 04109 Leipzig\nMieter: Familie Krause, Whg. 12\nNachzahlung 312,40 EUR"
	const co = "Edificio Torre Mar\nFactura N° 2026-0311   Fecha: 04/11/2026\nArrendador: Inversiones Costa S.A.\n" +
		"Arrendatario: Café Luna SAS\nTotal $ 4.500.000"
	runClassCases(t, []classCase{
		{"south african building name", za, v("KENSINGTON GARDENS TOWER"), "vendor_name", "Harbor Estates Ltd"},
		{"south african landlord passes", za, v("Harbor Estates Ltd"), "", ""},
		{"german residential complex", de, v("Wohnanlage Sonnenhof"), "vendor_name", "Immobilien Weber GmbH"},
		{"german vermieter passes", de, v("Immobilien Weber GmbH"), "", ""},
		{"colombian building", co, v("Edificio Torre Mar"), "vendor_name", "Inversiones Costa S.A."},
		{"colombian arrendador passes", co, v("Inversiones Costa S.A."), "", ""},
	})
}

// More two-column headings (three columns, one-word "Kundendaten",
// Swedish "Faktureringsadress", "Spett.le") and invoicing software named
// with its maker in a footer.
func TestMoreColumnHeadingsAndSoftwareMakers(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	const pk = "Seller                        Buyer                         Ship to\n" +
		"Orion Textiles Ltd            Pacific Garments Inc          Pacific Garments Warehouse\n" +
		"Plot 7, EPZ Karachi           88 Harbor Blvd, Oakland CA    Dock 4, Oakland CA\n" +
		"COMMERCIAL INVOICE OT-5512   Date 2026-11-03\nTotal USD 48,200.00"
	const at = "Schreinerei Vogt GmbH                     Kundendaten\n" +
		"Werkstraße 8                              Hotel Alpenrose KG\n" +
		"6020 Innsbruck                            Dorfplatz 1, 6100 Seefeld\n" +
		"RECHNUNG 2026/218 vom 13.11.2026\nGesamtbetrag EUR 3.600,00"
	const se = "Svensk Verktyg AB                        Faktureringsadress\n" +
		"Industrigatan 4                          Nordic Bygg AB\n" +
		"411 04 Göteborg                          Box 220, 111 20 Stockholm\n" +
		"Faktura 55120   Fakturadatum 2026-11-12\nAtt betala SEK 5 000,00"
	const pt = "Padaria Estrela Lda\nNIF 501234567\nFatura FT A/1123  Data 2026-11-08\nTotal 23,40 €\n" +
		"Processado por programa certificado n.º 1234/AT - Moloni Software Lda"
	const co = "Distribuidora Andina S.A.S.\nNIT 900.123.456-7\nFactura electrónica de venta FE-8812  Fecha 2026-11-09\n" +
		"Total $ 238.000,00\nSoftware de facturación: Siigo S.A.S. NIT 830.048.145-8"
	const in = "Sharma Electricals\nGSTIN 27ABCDE1234F1Z5\nTax Invoice 2026-311  Date 08/11/2026\nTotal Rs. 11,800.00\n" +
		"Invoice generated using Zoho Invoice by Zoho Corporation Pvt Ltd"
	runClassCases(t, []classCase{
		{"pakistani buyer in the middle column", pk, v("Pacific Garments Inc"), "vendor_name", why},
		{"pakistani seller passes", pk, v("Orion Textiles Ltd"), "", ""},
		{"austrian kundendaten column", at, v("Hotel Alpenrose KG"), "vendor_name", why},
		{"austrian seller passes", at, v("Schreinerei Vogt GmbH"), "", ""},
		{"swedish faktureringsadress column", se, v("Nordic Bygg AB"), "vendor_name", why},
		{"swedish seller passes", se, v("Svensk Verktyg AB"), "", ""},
		{"portuguese certified program's maker", pt, v("Moloni Software Lda"), "vendor_name", why},
		{"portuguese issuer passes", pt, v("Padaria Estrela Lda"), "", ""},
		{"colombian invoicing software", co, v("Siigo S.A.S."), "vendor_name", why},
		{"colombian issuer passes", co, v("Distribuidora Andina S.A.S."), "", ""},
		{"indian generated using", in, v("Zoho Corporation Pvt Ltd"), "vendor_name", why},
		{"indian issuer passes", in, v("Sharma Electricals"), "", ""},
	})
}
