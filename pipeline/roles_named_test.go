package pipeline

import "testing"

// Parties whose own name or title says what they are, named in the body
// of a document whose head names its issuer: a factoring company ("…
// Factoring Ltd", "… Faktoring A.Ş."), a practitioner ("Dr. Sarah Lim,
// DMD") under a label the checks read as an issuer's ("Provider:"), a
// bank after the account number it holds, a shipper under a
// "Shipper / Exporter" label on a forwarder's bill whose head prints a
// brand without a legal form. And more labels of the same roles: a claim
// transferred, a place or municipality of supply, a fleet or card
// holder, a brand owner, a self-billing invoice's other titles (buyer- or
// recipient-created tax invoice, autofaturação) and supplier labels.
func TestRolesByNameAndMoreLabels(t *testing.T) {
	v := vendorOnly
	const why = "not the issuer"
	factorPay := "Kilimanjaro Coffee Exporters Ltd\nP.O. Box 1120, Moshi\nINVOICE KCE-2026-118   Date 20/11/2026\n" +
		"Arabica AA 60 bags   USD 18,000.00\nTotal   USD 18,000.00\n" +
		"Please pay Tanzanite Trade Factoring Ltd, account 0150123456"
	peTransfer := "Textiles Andinos S.A.C.\nFactura Electrónica F001-00412   Fecha: 20/11/2026\nTela de alpaca   S/ 8.000,00\nIGV 18%   S/ 1.440,00\n" +
		"Importe total   S/ 9.440,00\nEsta factura ha sido transferida a Andes Capital S.A.C. mediante factoring."
	usDental := "Bayview Family Dental PC\n1200 Harbor Blvd, Oakland CA 94607\nSTATEMENT   11/20/2026\nAccount 55120\n" +
		"Provider: Dr. Sarah Lim, DMD\nPatient: Owen Brooks\nD1110 Prophylaxis   $120.00\nAmount due   $120.00"
	mtIBAN := "Melita Marine Services Ltd\nVAT MT 1234 5678\nINVOICE MMS-2026-0412   20/11/2026\nHull cleaning   € 1,500.00\nVAT 18%   € 270.00\n" +
		"Total   € 1,770.00\nIBAN: MT84 MALT 0110 0001 2345 MTLC AST0 01S (HSBC Malta)"
	airFreight := "SWIFTLINE CARGO\nAir Freight Invoice AF-2026-0412   Date 20/11/2026\nShipper / Exporter: Accra Cocoa Processing Co\n" +
		"Consignee: Hamburg Kakao Import GmbH\nAir freight 1,200 kg   USD 3,600.00\nTotal   USD 3,600.00"
	brPlace := "Alfa Consultoria em TI Ltda\nNota Fiscal de Serviço Eletrônica Nº 000412   Emissão: 20/11/2026\n" +
		"Local da prestação do serviço: Município de Campinas\nSuporte técnico mensal   R$ 5.000,00\nValor total   R$ 5.000,00"
	ugPlace := "Pearl Civil Works Ltd\nTAX INVOICE PCW-2026-118   20/11/2026\nDelivery location: Kampala Capital City Authority\n" +
		"Road marking works   UGX 12,000,000\nTotal   UGX 12,000,000"
	fuel := "Savanna Petroleum Ltd\nStation 114, Lusaka Road\nReceipt 88120   20/11/2026 14:02\nFleet account: Zambezi Haulage Ltd\n" +
		"Diesel 120 L   ZMW 3,000.00\nTotal   ZMW 3,000.00"
	cardholder := "Harbour Bistro Ltd\nReceipt 4412   20/11/2026\nMains x2   £38.00\nTotal   £38.00\nVISA ****1881\nCardholder: Fenwick Engineering Ltd"
	hotelBrand := "Lakeside Resorts Uganda Ltd\nTAX INVOICE 55120   20/11/2026\nAccommodation 2 nights   USD 300.00\nTotal   USD 300.00\n" +
		"Lakeside Kampala is a brand of Equator Hotels International Ltd"
	nzBCTI := "Southern Dairy Co-operative Ltd\nBUYER-CREATED TAX INVOICE   No. BCTI-2026-0118\nDate: 20/11/2026\n" +
		"Supplier: Te Awa Farms Limited   GST No: 123-456-789\nMilk solids November   NZ$12,000.00\nGST 15%   NZ$1,800.00\nTotal   NZ$13,800.00"
	ptSelf := "Cooperativa Agrícola do Douro, CRL\nAutofaturação n.º AF 2026/118   Data: 20/11/2026\nFornecedor: Quinta do Vale Escuro, Lda\n" +
		"Uvas 5.000 kg   4.000,00 €\nIVA 6%   240,00 €\nTotal   4.240,00 €"
	runClassCases(t, []classCase{
		{"factoring company by its name", factorPay, v("Tanzanite Trade Factoring Ltd"), "vendor_name", "factoring"},
		{"coffee exporter passes", factorPay, v("Kilimanjaro Coffee Exporters Ltd"), "", ""},
		{"peruvian claim transferred", peTransfer, v("Andes Capital S.A.C."), "vendor_name", why},
		{"peruvian textile firm passes", peTransfer, v("Textiles Andinos S.A.C."), "", ""},
		{"dentist under a provider label", usDental, v("Dr. Sarah Lim, DMD"), "vendor_name", "practitioner"},
		{"dental practice passes", usDental, v("Bayview Family Dental PC"), "", ""},
		{"bank after the iban", mtIBAN, v("HSBC Malta"), "vendor_name", why},
		{"maltese marine firm passes", mtIBAN, v("Melita Marine Services Ltd"), "", ""},
		{"shipper exporter on a forwarder's bill", airFreight, v("Accra Cocoa Processing Co"), "vendor_name", "SWIFTLINE CARGO"},
		{"forwarder passes", airFreight, v("SWIFTLINE CARGO"), "", ""},
		{"brazilian place of supply", brPlace, v("Município de Campinas"), "vendor_name", why},
		{"brazilian consultancy passes", brPlace, v("Alfa Consultoria em TI Ltda"), "", ""},
		{"ugandan delivery location", ugPlace, v("Kampala Capital City Authority"), "vendor_name", why},
		{"ugandan contractor passes", ugPlace, v("Pearl Civil Works Ltd"), "", ""},
		{"fleet account", fuel, v("Zambezi Haulage Ltd"), "vendor_name", why},
		{"fuel station passes", fuel, v("Savanna Petroleum Ltd"), "", ""},
		{"cardholder", cardholder, v("Fenwick Engineering Ltd"), "vendor_name", why},
		{"bistro passes", cardholder, v("Harbour Bistro Ltd"), "", ""},
		{"hotel brand owner", hotelBrand, v("Equator Hotels International Ltd"), "vendor_name", why},
		{"hotel operator passes", hotelBrand, v("Lakeside Resorts Uganda Ltd"), "", ""},
		{"nz buyer-created tax invoice: buyer", nzBCTI, v("Southern Dairy Co-operative Ltd"), "vendor_name", "Te Awa Farms Limited"},
		{"nz buyer-created tax invoice: supplier passes", nzBCTI, v("Te Awa Farms Limited"), "", ""},
		{"portuguese autofaturação: buyer", ptSelf, v("Cooperativa Agrícola do Douro, CRL"), "vendor_name", "self-billing"},
		{"portuguese autofaturação: supplier passes", ptSelf, v("Quinta do Vale Escuro, Lda"), "", ""},
	})
}
