package pipeline

import "testing"

// Class "another identifier taken as the invoice number": a party's tax or
// personal number under its national label or spelling (R.U.C., 法人番号,
// Kennitala, DNI, CUI, BIN), an insurer's claim number, the certificate of
// the invoicing software, a delivery note's number and the identifiers an
// e-invoice system prints beside the document's own number (a UUID, an
// internal or submission ID, Vietnam's lookup code, Hungary's NAV
// transaction). Each is flagged, naming its label, whether the document's
// own number is labelled or not; the own number passes.
func TestTaxClaimAndSystemNumbersAreNotTheInvoiceNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	pe := "Comercial Andina S.A.C.\nR.U.C. 20512345678\nFACTURA ELECTRÓNICA\nF001-00004471\nFecha: 20/11/2026\nTotal S/ 118.00"
	ec := "Almacén Quito Cía. Ltda.\nR.U.C.: 1790012345001\nFACTURA No. 001-002-000004471\nFecha: 20/11/2026\nTotal $ 11,20"
	jp := "株式会社さくら商事\n法人番号 1234567890123\n請求書\nNo. 4471\n2026年11月20日\n合計 ¥55,000"
	is := "Hlíð ehf.\nKennitala: 540269-6459\nReikningur nr. 4471\nSamtals 12.400 kr."
	es := "Juan Pérez Fontanería\nDNI: 12345678Z\nFactura 4471\nTotal 120,00 €"
	ro := "Firma Exemplu SRL\nCUI: RO12345678\nFactura seria EX nr. 4471\nTotal 119,00 lei"
	bd := "Dhaka Traders Ltd\nBIN: 000123456-0101\nMushak 6.3\nTotal Tk 1,150.00"
	au := "Kelly Motor Repairs\nTAX INVOICE 4471\nDate: 20/11/2026\nClaim number: CLM-778812\nTotal $1,100.00"
	de := "Autohaus Berger GmbH\nRechnung 4471\nDatum: 20.11.2026\nSchadennummer: 77-881234\nGesamt 1.190,00 EUR"
	fr := "Garage Martin SARL\nN° de sinistre : 778812\nTotal TTC 1 200,00 €"
	esClaim := "Taller Pérez S.L.\nNº de siniestro: 778812\nTotal 1.210,00 €"
	it := "Carrozzeria Rossi\nNumero sinistro: 778812\nTotale € 1.220,00"
	runClassCases(t, []classCase{
		{"PE own number", pe, n("F001-00004471"), "", ""},
		{"PE R.U.C.", pe, n("20512345678"), "invoice_number", "R.U.C."},
		{"EC own number", ec, n("001-002-000004471"), "", ""},
		{"EC R.U.C.", ec, n("1790012345001"), "invoice_number", "R.U.C."},
		{"JP own number", jp, n("4471"), "", ""},
		{"JP 法人番号", jp, n("1234567890123"), "invoice_number", "法人番号"},
		{"IS own number", is, n("4471"), "", ""},
		{"IS kennitala", is, n("540269-6459"), "invoice_number", "Kennitala"},
		{"ES own number", es, n("4471"), "", ""},
		{"ES DNI", es, n("12345678Z"), "invoice_number", "DNI"},
		{"RO CUI", ro, n("RO12345678"), "invoice_number", "CUI"},
		{"BD BIN", bd, n("000123456-0101"), "invoice_number", "BIN"},
		{"AU own number", au, n("4471"), "", ""},
		{"AU claim number", au, n("CLM-778812"), "invoice_number", "Claim number"},
		{"DE own number", de, n("4471"), "", ""},
		{"DE Schadennummer", de, n("77-881234"), "invoice_number", "Schadennummer"},
		{"FR sinistre", fr, n("778812"), "invoice_number", "sinistre"},
		{"ES siniestro", esClaim, n("778812"), "invoice_number", "siniestro"},
		{"IT sinistro", it, n("778812"), "invoice_number", "sinistro"},
	})
}

// The certificate number of the invoicing program a tax authority
// certified (Portugal's "Processado por programa certificado nº 1234/AT",
// Angola's AGT, Spain's "Software cert."), a delivery note's or dispatch
// guide's number (remito, Lieferschein-Nr., guía de despacho) and an
// e-invoice system's identifiers are never the invoice number.
func TestCertificateDeliveryAndEInvoiceIDsAreNotTheInvoiceNumber(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	pt := "Padaria Lusitana Lda\nNIF 501234567\nFatura Simplificada FS 2026/4471\nData: 20-11-2026\nTotal 12,40 €\n" +
		"Processado por programa certificado nº 1234/AT"
	pt2 := "Padaria Lusitana Lda\nFS A/4471\n20-11-2026\nTotal 12,40 €\nCertificado n.º 2231/AT"
	ao := "Supermercado Kero\nFactura FT 2026/4471\nData: 20/11/2026\nTotal 12.400,00 Kz\nCertificado nº 123/AGT/2020"
	es := "Bar El Rincón\nTicket 4471\n20/11/2026\nTotal 12,40 €\nSoftware cert. 0012-AB"
	ar := "Distribuidora Río SRL\nFactura A 0003-00004471\nFecha: 20/11/2026\nRemito Nº 0001-00008812\nTotal $ 12.100,00"
	de := "Baustoffe Meyer GmbH\nRechnung 4471\n20.11.2026\nLieferschein-Nr.: 8812\nGesamt 47,60 EUR"
	cl := "Ferretería Los Andes SpA\nFACTURA ELECTRÓNICA Nº 4471\nFecha: 20/11/2026\nGuía de despacho: 8812\nTotal $48.000"
	vn := "Công ty TNHH Minh Long\nHÓA ĐƠN GIÁ TRỊ GIA TĂNG\nKý hiệu: 1C26TML\nSố: 0004471\nNgày 10 tháng 11 năm 2026\n" +
		"Mã tra cứu: X7K2P9Q4R1\nMã CQT: 00A1B2C3D4E5F6\nTổng cộng 1.100.000 VND"
	my := "Kedai Maju Sdn Bhd\nINVOICE No: INV-4471\nDate: 20/11/2026\nUUID: F9D1BX2RTA8K3M7C1Q5W\nInternal ID: 88213-A\nTotal RM 110.00"
	my2 := "Kedai Maju Sdn Bhd\nSubmission UUID: 4KM2RPQX7Z8WY1TJ\nTotal RM 110.00"
	hu := "Kovács Kft.\nSzámla sorszáma: KV-2026/4471\nKelt: 2026.11.20\nNAV azonosító: 4471A8Z21B\nFizetendő 12 700 Ft"
	hu2 := "Kovács Kft.\nNAV tranzakció azonosító: 3F9K2L1M0Q7P\nÖsszesen 12 700 Ft"
	runClassCases(t, []classCase{
		{"PT own number", pt, n("FS 2026/4471"), "", ""},
		{"PT program certificate", pt, n("1234/AT"), "invoice_number", "programa certificado"},
		{"PT own number, no label", pt2, n("FS A/4471"), "", ""},
		{"PT certificate n.º", pt2, n("2231/AT"), "invoice_number", "Certificado n.º"},
		{"AO own number", ao, n("FT 2026/4471"), "", ""},
		{"AO certificate", ao, n("123/AGT/2020"), "invoice_number", "Certificado"},
		{"ES own number", es, n("4471"), "", ""},
		{"ES software certificate", es, n("0012-AB"), "invoice_number", "Software cert"},
		{"AR own number", ar, n("A 0003-00004471"), "", ""},
		{"AR remito", ar, n("0001-00008812"), "invoice_number", "Remito"},
		{"DE own number", de, n("4471"), "", ""},
		{"DE Lieferschein-Nr.", de, n("8812"), "invoice_number", "Lieferschein-Nr"},
		{"CL own number", cl, n("4471"), "", ""},
		{"CL guía de despacho", cl, n("8812"), "invoice_number", "Guía de despacho"},
		{"VN own number", vn, n("0004471"), "", ""},
		{"VN series", vn, n("1C26TML"), "invoice_number", "Ký hiệu"},
		{"VN lookup code", vn, n("X7K2P9Q4R1"), "invoice_number", "Mã tra cứu"},
		{"VN tax office code", vn, n("00A1B2C3D4E5F6"), "invoice_number", "Mã CQT"},
		{"MY own number", my, n("INV-4471"), "", ""},
		{"MY UUID", my, n("F9D1BX2RTA8K3M7C1Q5W"), "invoice_number", "UUID"},
		{"MY internal ID", my, n("88213-A"), "invoice_number", "Internal ID"},
		{"MY submission UUID, no own number", my2, n("4KM2RPQX7Z8WY1TJ"), "invoice_number", "Submission UUID"},
		{"HU own number", hu, n("KV-2026/4471"), "", ""},
		{"HU NAV id", hu, n("4471A8Z21B"), "invoice_number", "NAV azonosító"},
		{"HU NAV transaction, no own number", hu2, n("3F9K2L1M0Q7P"), "invoice_number", "NAV tranzakció"},
	})
}

// More of the same class: a gloss in another language between a label and
// its value ("Ký hiệu (Serial): 1C26TML") still lets the label name the
// value; Hungary's NAV transaction under its longer names and Argentina's
// remito under "N° de Remito" or "Remitos asociados" are never the number.
func TestGlossedAndLongerSystemLabels(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	vn := "Công ty TNHH Minh Long\nHÓA ĐƠN\nKý hiệu (Serial): 1C26TML\nSố (No.): 4471\nTổng cộng 1.100.000 VND"
	hu := "Kovács Kft.\nSzámla sorszáma: KV-2026/4471\nNAV Online Számla tranzakció-azonosító: 3F9K2L1M0Q7P\nFizetendő 12 700 Ft"
	hu2 := "Kovács Kft.\nSzámlaszám: KV-2026/4471\nNAV beküldési azonosító: 3F9K2L1M0Q7P\nFizetendő 12 700 Ft"
	ar := "Distribuidora Río SRL\nFactura B 0003-00004471\nN° de Remito: 0001-00008812\nTotal $ 12.100,00"
	ar2 := "Distribuidora Río SRL\nFactura B 0003-00004471\nRemitos asociados: 0001-00008812\nTotal $ 12.100,00"
	runClassCases(t, []classCase{
		{"VN own number", vn, n("4471"), "", ""},
		{"VN series with a gloss", vn, n("1C26TML"), "invoice_number", "Ký hiệu"},
		{"HU own number", hu, n("KV-2026/4471"), "", ""},
		{"HU NAV Online Számla transaction", hu, n("3F9K2L1M0Q7P"), "invoice_number", "tranzakció-azonosító"},
		{"HU NAV submission id", hu2, n("3F9K2L1M0Q7P"), "invoice_number", "beküldési azonosító"},
		{"AR own number", ar, n("0003-00004471"), "", ""},
		{"AR N° de Remito", ar, n("0001-00008812"), "invoice_number", "Remito"},
		{"AR remitos asociados", ar2, n("0001-00008812"), "invoice_number", "Remitos asociados"},
	})
}
