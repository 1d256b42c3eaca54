package pipeline

import "testing"

// A factoring company or collecting agent the invoice was assigned to
// ("this invoice has been assigned to …", "overdratt til", "Forderung
// abgetreten an", "cedida a"), and a billing agent that prints the bill on
// behalf of the one who sold ("billed on behalf of X by Y"): the money goes
// to them, the sale was the issuer's. Offered as the vendor they are
// flagged; the seller passes.
func TestFactoringAndBillingAgentsAreNotTheVendor(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	ukAssigned := "Redline Steel Fabrications Ltd\nUnit 4, Canal Works, Sheffield S9 2RX\nINVOICE RS-2026-0877     Date: 16/11/2026\n" +
		"Invoice to: Haworth Construction Ltd\nSteel beams, 12 off              £4,800.00\nVAT 20%                           £960.00\n" +
		"Total                             £5,760.00\n" +
		"This invoice has been assigned to Northstar Invoice Finance Ltd, to whom payment must be made.\n" +
		"Sort code 20-00-00  Account 55512345"
	noFactoring := "Tromsø Rørlegger AS\nOrg.nr. 987 654 321 MVA\nFAKTURA 2026-1120     Fakturadato 20.11.2026\n" +
		"Kunde: Ishavsbyen Eiendom AS\nRørarbeid                      10 000,00\nMVA 25 %                        2 500,00\nÅ betale                       12 500,00\n" +
		"Denne faktura er overdratt til Nordic Factoring Finans AS og kan kun betales til konto 1503.12.34567."
	seFactoring := "Målarfirma Ek & Son AB\nFaktura 5512      Fakturadatum 2026-11-20\nMålning fasad    20 000,00\nMoms 25 %    5 000,00\nAtt betala    25 000,00 kr\n" +
		"Fordran är överlåten till Svea Finans AB. Betalning kan endast ske med befriande verkan till bankgiro 5050-1055."
	deAbgetreten := "Metallbau Krüger GmbH\nRechnung Nr. 2026-0771        Datum: 20.11.2026\nGeländer Treppenhaus    4.000,00 €\nUSt. 19 %    760,00 €\n" +
		"Gesamtbetrag    4.760,00 €\nDie Forderung aus dieser Rechnung ist abgetreten an die Crefo Factoring Nord GmbH.\n" +
		"Zahlungen mit schuldbefreiender Wirkung nur an diese."
	esCedida := "Transportes Olivares S.L.\nFactura 2026/1120        Fecha: 20/11/2026\nPortes noviembre    2.000,00 €\nIVA 21%    420,00 €\nTotal    2.420,00 €\n" +
		"Este crédito ha sido cedido a Bankinter Factoring, S.A.; el pago deberá realizarse únicamente a dicha entidad."
	frCedee := "Imprimerie Gauthier SAS\nFacture n° 2026-1120    du 20/11/2026\nImpression catalogues    3 000,00 €\nTVA 20 %    600,00 €\nTotal TTC    3 600,00 €\n" +
		"Créance cédée à Eurofactor SA : règlement à effectuer exclusivement à Eurofactor SA."
	usBillingAgent := "MedBill Solutions LLC\nPO Box 4410, Tampa FL 33601\nSTATEMENT     Statement date 11/20/2026\n" +
		"Billed on behalf of Bayside Orthopedic Associates PA\nPatient: John Carter\nOffice visit   $180.00\nAmount due   $180.00"
	usCollection := "Summit Roofing Inc.\nINVOICE 30912     11/20/2026\nRoof repair   $1,200.00\nTotal   $1,200.00\n" +
		"Past due accounts are referred to our collection agent: Keystone Recovery Services LLC"
	runClassCases(t, []classCase{
		{"uk assigned to a factor", ukAssigned, v("Northstar Invoice Finance Ltd"), "vendor_name", why},
		{"uk fabricator passes", ukAssigned, v("Redline Steel Fabrications Ltd"), "", ""},
		{"norwegian overdratt til", noFactoring, v("Nordic Factoring Finans AS"), "vendor_name", why},
		{"norwegian plumber passes", noFactoring, v("Tromsø Rørlegger AS"), "", ""},
		{"swedish överlåten till", seFactoring, v("Svea Finans AB"), "vendor_name", why},
		{"swedish painter passes", seFactoring, v("Målarfirma Ek & Son AB"), "", ""},
		{"german abgetreten an", deAbgetreten, v("Crefo Factoring Nord GmbH"), "vendor_name", why},
		{"german metalworker passes", deAbgetreten, v("Metallbau Krüger GmbH"), "", ""},
		{"spanish cedido a", esCedida, v("Bankinter Factoring, S.A."), "vendor_name", why},
		{"spanish haulier passes", esCedida, v("Transportes Olivares S.L."), "", ""},
		{"french cédée à", frCedee, v("Eurofactor SA"), "vendor_name", why},
		{"french printer passes", frCedee, v("Imprimerie Gauthier SAS"), "", ""},
		{"us billing agent at the head", usBillingAgent, v("MedBill Solutions LLC"), "vendor_name", "Bayside Orthopedic Associates PA"},
		{"us practice billed for passes", usBillingAgent, v("Bayside Orthopedic Associates PA"), "", ""},
		{"us collection agent", usCollection, v("Keystone Recovery Services LLC"), "vendor_name", why},
		{"us roofer passes", usCollection, v("Summit Roofing Inc."), "", ""},
	})
}

// A platform, booking site or carrier that issues or carries the document
// for the seller ("issued on behalf of the seller by …", "namens de
// verkoper", "im Namen und für Rechnung von", "sold by X, fulfilled by
// Y", "booked via", "Carrier:"), and a self-billing invoice the buyer
// writes for its supplier: the seller or supplier is the vendor.
func TestPlatformsCarriersAndSelfBillingBuyers(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	nlPlatform := "Marktplaza Retail B.V.\nFactuur 2026-55120       Datum: 20-11-2026\n" +
		"Deze factuur is namens Tuincentrum De Linde B.V. opgesteld door Marktplaza Retail B.V.\n" +
		"1 x Tuinbank hardhout     249,00\nBTW 21%     43,21\nTotaal     € 249,00"
	deNamens := "FeWo-Portal GmbH\nRechnung Nr. FP-2026-1120\nRechnung im Namen und für Rechnung von Ferienwohnung Alpenblick Huber\n" +
		"Aufenthalt 3 Nächte     360,00 €\nGesamt     360,00 €"
	ukIssuedBy := "Invoice 88-22051\nDate 20 Nov 2026\nSeller: Oakridge Home Goods Ltd\nThis invoice is issued on behalf of the seller by Shopwell Marketplace Ltd\n" +
		"1 x Oak shelf   £60.00\nTotal   £60.00"
	usFulfilled := "ShopHarbor\nOrder #88-1120-4480\n1 x Desk lamp   $39.00\nSold by Brightline Gadgets LLC and Fulfilled by ShopHarbor Logistics Inc\nOrder total   $39.00"
	ptBooked := "Casa do Largo Alojamento Local, Lda\nNIF 514 123 987\nFatura FT 2026/411      Data 20/11/2026\n" +
		"Reserva efetuada através de Booking.com B.V.\nAlojamento 2 noites     160,00\nIVA 6%     9,60\nTotal     169,60 €"
	freightCarrier := "Meridian Freight Forwarding Ltd\nFREIGHT INVOICE MF-2026-1120       Date 20/11/2026\n" +
		"Carrier: Maersk Line A/S\nVessel: Maersk Kowloon  Voyage 447W\nOcean freight 1 x 40HC   $2,400.00\nTotal   $2,400.00"
	esSelf := "Cooperativa Agrícola San Isidro\nAUTOFACTURA AF-2026-118     Fecha: 20/11/2026\n" +
		"Emitida por el destinatario en nombre y por cuenta de Hermanos García Olivares S.C.\n" +
		"Aceituna 10.000 kg    5.000,00 €\nIVA 10%    500,00 €\nTotal    5.500,00 €"
	runClassCases(t, []classCase{
		{"dutch platform opgesteld namens", nlPlatform, v("Marktplaza Retail B.V."), "vendor_name", "Tuincentrum De Linde B.V."},
		{"dutch seller passes", nlPlatform, v("Tuincentrum De Linde B.V."), "", ""},
		{"german portal im Namen von", deNamens, v("FeWo-Portal GmbH"), "vendor_name", "Ferienwohnung Alpenblick Huber"},
		{"german host passes", deNamens, v("Ferienwohnung Alpenblick Huber"), "", ""},
		{"uk marketplace issued on behalf", ukIssuedBy, v("Shopwell Marketplace Ltd"), "vendor_name", ""},
		{"uk seller passes", ukIssuedBy, v("Oakridge Home Goods Ltd"), "", ""},
		{"us fulfilled by", usFulfilled, v("ShopHarbor Logistics Inc"), "vendor_name", `names "Brightline Gadgets LLC" as the seller`},
		{"us seller of a fulfilled order passes", usFulfilled, v("Brightline Gadgets LLC"), "", ""},
		{"portuguese booked through", ptBooked, v("Booking.com B.V."), "vendor_name", why},
		{"portuguese guesthouse passes", ptBooked, v("Casa do Largo Alojamento Local, Lda"), "", ""},
		{"freight carrier", freightCarrier, v("Maersk Line A/S"), "vendor_name", why},
		{"forwarder passes", freightCarrier, v("Meridian Freight Forwarding Ltd"), "", ""},
		{"spanish autofactura buyer", esSelf, v("Cooperativa Agrícola San Isidro"), "vendor_name", "Hermanos García Olivares S.C."},
		{"spanish autofactura supplier passes", esSelf, v("Hermanos García Olivares S.C."), "", ""},
	})
}

// A payer named with no buyer label: the Swiss QR-bill's payer section
// ("Zahlbar durch", "Payable by", "Payable par", "Pagabile da"), the account
// holder a direct debit is drawn from, a debtor.
func TestPayersWithoutABuyerLabel(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	chEN := "Alpine Heating Services AG\nInvoice 2026-0931\nTotal CHF 540.00\nReceipt\nAccount / Payable to\n" +
		"CH44 3199 9123 0008 8901 2\nAlpine Heating Services AG\nPayable by\nMarkus Zimmermann\nSeestrasse 12\n8800 Thalwil\nCurrency Amount\nCHF 540.00"
	chFR := "Menuiserie Favre SA\nFacture 2026-0412\nTotal CHF 860.00\nRécépissé\nCompte / Payable à\nCH44 3199 9123 0008 8901 2\n" +
		"Menuiserie Favre SA\nPayable par\nClaire Morel\nRue du Lac 4\n1800 Vevey\nMonnaie Montant\nCHF 860.00"
	chIT := "Elettro Ticino SA\nFattura 2026-0118\nTotale CHF 320.00\nRicevuta\nConto / Pagabile a\nCH44 3199 9123 0008 8901 2\n" +
		"Elettro Ticino SA\nPagabile da\nLuca Bernasconi\nVia Nassa 3\n6900 Lugano\nValuta Importo\nCHF 320.00"
	ukDebit := "Northfield Water Ltd\nBill 2026-11-0087     Date 20/11/2026\nWater and sewerage   £54.20\nTotal to pay   £54.20\n" +
		"Direct Debit: account holder Fenwick Engineering Ltd, account ending 4471"
	debtor := "Keller Treuhand AG\nMahnung / Reminder 2026-118\nDebtor: Bernhard Immobilien GmbH\nOutstanding   CHF 1,200.00"
	runClassCases(t, []classCase{
		{"qr-bill payable by", chEN, v("Markus Zimmermann"), "vendor_name", why},
		{"qr-bill creditor passes", chEN, v("Alpine Heating Services AG"), "", ""},
		{"qr-bill payable par", chFR, v("Claire Morel"), "vendor_name", why},
		{"qr-bill french creditor passes", chFR, v("Menuiserie Favre SA"), "", ""},
		{"qr-bill pagabile da", chIT, v("Luca Bernasconi"), "vendor_name", why},
		{"qr-bill italian creditor passes", chIT, v("Elettro Ticino SA"), "", ""},
		{"direct debit account holder", ukDebit, v("Fenwick Engineering Ltd"), "vendor_name", why},
		{"water company passes", ukDebit, v("Northfield Water Ltd"), "", ""},
		{"debtor", debtor, v("Bernhard Immobilien GmbH"), "vendor_name", why},
		{"trustee passes", debtor, v("Keller Treuhand AG"), "", ""},
	})
}
