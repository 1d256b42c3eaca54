package local_test

import "testing"

// "INVOICE : 581355" and "Rechnung: 2024-017": the document's word with a
// colon and one whole token is a label; a bare word, or a number continued
// after a space, stays a guess.
func TestWordWithColonLabelsTheNumber(t *testing.T) {
	for _, tc := range []struct {
		text, id string
		high     bool
	}{
		{"SHOP\nINVOICE : 581355\nTOTAL 5.00", "581355", true},
		{"Firma GmbH\nRechnung: 2024-017\nSumme 5,00", "2024-017", true},
		{"SHOP\nTAX INVOICE : SJP03201705170016 17/05/17\nTOTAL 5.00", "SJP03201705170016", true},
		{"SHOP\nBILL 18550 - 389 - 4768\nTOTAL 5.00", "18550", false},
		{"SHOP\nINVOICE: 18550 - 389\nTOTAL 5.00", "18550", false},
	} {
		ext := generate(t, tc.text)
		want(t, ext, "invoice_number", tc.id)
		if got := conf(ext, "invoice_number") >= 0.7; got != tc.high {
			t.Errorf("%q: invoice number at %.2f (%s), want above the gate: %v", tc.text, conf(ext, "invoice_number"), ext.Evidence["invoice_number"].Tier, tc.high)
		}
	}
}
