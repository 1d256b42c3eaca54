package pipeline

import "testing"

// A date read against the order the document's locale implies is flagged
// with the locale's evidence written out in full, whichever evidence it is:
// the amounts' currency, an address, the issuer's legal form or printed
// number, or the record's own currency when the document says nothing.
func TestLocaleOrderReasonsAreWrittenOut(t *testing.T) {
	cases := []struct {
		name, text string
		rec        map[string]any
		reason     string
	}{
		{"amounts' currency", "NAIVAS SUPERMARKET\nDate: 06/03/2026 Time: 19:22\nMilk  KSh 195.00\nTOTAL  KSh 384.00",
			map[string]any{"invoice_date": "2026-06-03", "currency": "KES"},
			`2026-06-03 reads "06/03/2026" month-first, but amounts in KSh (KES) are written where dates are day-first`},
		{"Australian address", "CORNER CAFE\n12 George St, Sydney NSW 2000\nDate 05/04/2026\nTotal 12.00",
			map[string]any{"invoice_date": "2026-05-04"},
			`2026-05-04 reads "05/04/2026" month-first, but the Australian address "NSW 2000" is day-first`},
		{"legal form", "KEDAI RUNCIT ABC SDN BHD\nDate 05/04/2019\nTotal 12.00",
			map[string]any{"invoice_date": "2019-05-04"},
			`2019-05-04 reads "05/04/2019" month-first, but the issuer's "SDN BHD" places it where dates are day-first`},
		{"register number", "KEDAI RUNCIT ABC\n(872981-V)\nDate 05/04/2019\nTotal 12.00",
			map[string]any{"invoice_date": "2019-05-04"},
			`2019-05-04 reads "05/04/2019" month-first, but a company register number (872981-V) places the issuer where dates are day-first`},
		{"record's currency", "TRATTORIA DA MARCO\nConto n. 2219\nData 05/04/2026  21:17\nTOTALE PAGATO  102,00",
			map[string]any{"invoice_date": "2026-05-04", "currency": "EUR"},
			`2026-05-04 reads "05/04/2026" month-first, but the record's currency EUR is used where dates are day-first`},
	}
	for _, c := range cases {
		reason, ok := flagReason(validateHO(t, c.text, c.rec), "invoice_date")
		if !ok || reason != c.reason {
			t.Errorf("%s: invoice_date reason %q (flagged %v), want %q", c.name, reason, ok, c.reason)
		}
	}
}
