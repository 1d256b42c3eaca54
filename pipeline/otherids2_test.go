package pipeline

import "testing"

// Another identifier taken as the invoice number: a party's tax or company
// registration id in any script (IČ, ΑΦΜ, ע.מ., R.U.T.), an e-invoice's
// series code (Ký hiệu), a booking reference or a terminal is labelled as
// what it is and flagged; a parking ticket number is flagged against the
// receipt number a "Quittung Nr." labels. The document's own number passes.
func TestOtherIdentifierRolesAnyScript(t *testing.T) {
	cz := "FAKTURA - DAŇOVÝ DOKLAD č. 2026010045\nDodavatel: Novák stavby s.r.o., IČ 12345678\nCelkem k úhradě  58 685,00 Kč"
	gr := "ΠΑΠΑΔΟΠΟΥΛΟΣ ΣΥΜΒΟΥΛΟΙ Ι.Κ.Ε.\nΑΦΜ 098765432\nΑρ. Τιμολογίου: Α-1207\nΣύνολο τιμολογίου  1.240,00 €"
	he := "אופק מחשבים בע\"מ\nע.מ. 514123456\nחשבונית מס' 30112\nסה\"כ לתשלום  ₪ 4,956.00"
	cl := "FACTURA ELECTRONICA\nN° 18.433\nR.U.T.: 96.555.444-3\nTOTAL  $ 1.785.000"
	vn := "HÓA ĐƠN GIÁ TRỊ GIA TĂNG\nKý hiệu: 1C26TMA  Số: 0000871\nTổng cộng: 16.200.000 VND"
	air := "SkyWays Airlines Ltd\nBooking ref: QX7P2L   Ticket number: 157-2401938847\nTotal  NGN 742,150.00"
	park := "PARKHAUS ZENTRUM GmbH\nTicket-Nr. 000482913\nBezahlt  EUR 18,00\nQuittung Nr. Q-77120"
	card := "BEAN & LEAF CAFE\nOrder 5521   Receipt R-0091837\nTotal  £ 6.30\nAuth 062291   Terminal 8812"
	id := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	runClassCases(t, []classCase{
		{"IČ", cz, id("12345678"), "invoice_number", "IČ"},
		{"ΑΦΜ", gr, id("098765432"), "invoice_number", "ΑΦΜ"},
		{"Αρ. Τιμολογίου right", gr, id("Α-1207"), "", ""},
		{"ע.מ.", he, id("514123456"), "invoice_number", "never the invoice number"},
		{"R.U.T.", cl, id("96.555.444-3"), "invoice_number", "R.U.T."},
		{"Ký hiệu series", vn, id("1C26TMA"), "invoice_number", "Ký hiệu"},
		{"booking ref", air, id("QX7P2L"), "invoice_number", "Booking ref"},
		{"ticket number right", air, id("157-2401938847"), "", ""},
		{"parking ticket", park, id("000482913"), "invoice_number", "Q-77120"},
		{"Quittung Nr. right", park, id("Q-77120"), "", ""},
		{"terminal", card, id("8812"), "invoice_number", "Terminal"},
		{"receipt right", card, id("R-0091837"), "", ""},
	})
}
