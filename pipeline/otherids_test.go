package pipeline

import "testing"

// When the document labels the invoice number, a value printed after a label
// naming another identifier (the customer's reference, a tax or
// registration number, an authorisation code, the original invoice) is
// flagged, in any language; the labelled number itself is not.
func TestOtherIdentifierLabels(t *testing.T) {
	n := func(v string) map[string]any { return map[string]any{"invoice_number": v} }
	uk := "Harrow & Finch Ltd\nInvoice No.   HF-10293\nYour ref      PO 55-0192\nTotal £9.00"
	de := "Müller GmbH\nRechnungsnr.:      RE-2026-0412\nKundennr.:         K-10087\nUSt-IdNr.: DE812345678\nSumme 9,00 €"
	runClassCases(t, []classCase{
		{"your ref", uk, n("PO 55-0192"), "invoice_number", `labelled "Your ref"`},
		{"your ref right", uk, n("HF-10293"), "", ""},
		{"kundennr", de, n("K-10087"), "invoice_number", `labelled "Kundennr"`},
		{"ust-idnr", de, n("DE812345678"), "invoice_number", "RE-2026-0412"},
		{"rechnungsnr right", de, n("RE-2026-0412"), "", ""},
		{"shipper's ref", "Pacific Freight Pte Ltd\nInvoice No.: PFS/EXP/2026/0193\nShipper's Ref: SR-88120\nTotal 9.00", n("SR-88120"), "invoice_number", `labelled "Shipper's Ref"`},
		{"nif", "Bar Tapas SL\nNIF B37123456\nFACTURA SIMPLIFICADA T-2026/08812\nTotal 9,00 €", n("B37123456"), "invoice_number", "T-2026/08812"},
		{"auth code", "Luigi's Trattoria\nCheck #2041\nVISA XXXX1234   AUTH 08812\nTotal 9.00", n("08812"), "invoice_number", `labelled "AUTH"`},
		{"rfc", "Ferretería México SA\nRFC: FEM850101AB1\nFACTURA  Serie A  Folio 8821\nTotal 9.00", n("FEM850101AB1"), "invoice_number", "8821"},
		{"uuid", "Ferretería México SA\nUUID: 6F1C2A3B-4D5E-6789-ABCD-0123456789EF\nFolio 8821\nTotal 9.00", n("6F1C2A3B-4D5E-6789-ABCD-0123456789EF"), "invoice_number", "8821"},
		{"folio right", "Ferretería México SA\nRFC: FEM850101AB1\nFACTURA  Serie A  Folio 8821\nTotal 9.00", n("8821"), "", ""},
		{"malay invois", "Syarikat Maju Sdn Bhd (002345678-K)\nNo. Invois : MJ/2026/1102\nJumlah RM 9.00", n("002345678-K"), "invoice_number", "MJ/2026/1102"},
		{"abn", "Woolies Metro\nABN 88 000 014 675\nDate 25/11/2026  Time 08:02  Rcpt 3301\nTotal $9.00", n("88 000 014 675"), "invoice_number", `labelled "ABN"`},
		{"markt", "REWE Markt GmbH\n23.11.2026   17:45   Bon-Nr.: 4411   Markt: 5521\nSumme 9,00 €", n("5521"), "invoice_number", `labelled "Markt"`},
		{"bon-nr right", "REWE Markt GmbH\n23.11.2026   17:45   Bon-Nr.: 4411   Markt: 5521\nSumme 9,00 €", n("4411"), "", ""},
		{"account number", "City Water\nAccount number: 44-1923-07\nBill number: 2026-10-55123\nTotal $9.00", n("44-1923-07"), "invoice_number", `labelled "Account number"`},
		{"room", "Hotel Adler\nGastrechnung Nr. 66120\nZimmer 214\nSumme 9,00 €", n("214"), "invoice_number", `labelled "Zimmer"`},
		{"original invoice", "Acme Inc\nCredit Memo #: CM-00419\nOriginal Invoice #: 100873\nTotal (9.00)", n("100873"), "invoice_number", "CM-00419"},
	})
}
