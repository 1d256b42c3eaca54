package pipeline

import (
	"strings"
	"testing"
)

// A sentence that names the vendor before an amount on the same line
// ("vendor is X, ... total $1,250.00", "paid X for the repair ... Total
// €180.00") names the issuer: it is not the party an amount line's payment
// names. The payer ("paid by X") still is.
func TestProseThatNamesTheVendorIsNotAnotherParty(t *testing.T) {
	for _, tc := range []struct{ text, vendor string }{
		{"hey - can someone pay this one today? vendor is Dunder Mifflin Paper Company, invoice DM-4471 dated April 2, 2026. the total is $1,250.00 USD (tax of $100.00 included). thx", "Dunder Mifflin Paper Company"},
		{"Note for the books: paid Rossi Plumbing for the boiler repair, their invoice 2231 dated 3 March 2026. Total €180.00, paid in cash on the day.", "Rossi Plumbing"},
		{"Reminder: the supplier was Kappa Tools GmbH, invoice KT-19, total EUR 412.00 due Friday.", "Kappa Tools GmbH"},
		{"Please make the cheque payable to Harbor Marine Ltd for the total of 96.40 GBP.", "Harbor Marine Ltd"},
	} {
		res := validateHO(t, tc.text, map[string]any{"vendor_name": tc.vendor})
		if why, ok := flagReason(res, "vendor_name"); ok && strings.Contains(why, "is the party named after") {
			t.Errorf("%q flagged as another party: %s", tc.vendor, why)
		}
	}
	res := validateHO(t, "Claim 55. Paid by Northwind Insurance 120.00 on 2026-03-01.", map[string]any{"vendor_name": "Northwind Insurance"})
	if why, ok := flagReason(res, "vendor_name"); !ok || !strings.Contains(why, "is the party named after") {
		t.Errorf("the payer passed as the vendor: %q %v", why, ok)
	}
}
