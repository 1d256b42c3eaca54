package local_test

import "testing"

// Corroborated tiers: each lifts a value above the gate only when a second,
// independent printed thing agrees with it, and each leaves the look-alike
// that lacks the second thing below the gate.
func TestCorroboratedTiers(t *testing.T) {
	for _, tc := range []struct {
		name, text, field string
		value             any
		tier              string
		pass              bool
	}{
		// The company line restates the short name above it: the name is
		// printed twice, so the line above is not a separate brand.
		{"short name restated", "LAVENDER\nLAVENDER CONFECTIONERY & BAKERY S/B\nCOMPANY NO: 499702-V\nDATE: 02/01/2018\nTOTAL 12.00",
			"vendor_name", "LAVENDER CONFECTIONERY & BAKERY S/B", "vendor:letterhead-suffix+restated", true},
		{"apostrophe dropped in the legal name", "BEN'S INDEPENDENT GROCER\nBENS INDEPENDENT GROCER SDN. BHD\n(913144-A)\nDATE: 02/01/2018\nTOTAL 12.00",
			"vendor_name", "BENS INDEPENDENT GROCER SDN. BHD", "vendor:letterhead-suffix+restated", true},
		{"german short name", "Sonnenschein\nSonnenschein Backwaren GmbH\nHauptstraße 5, 10115 Berlin\nDatum: 02.01.2024\nSumme 12,00",
			"vendor_name", "Sonnenschein Backwaren GmbH", "vendor:letterhead-suffix+restated", true},
		// No currency printed: two kinds of issuer evidence that agree
		// imply it; one kind alone leaves it null.
		{"legal form and GST number", "KEDAI MAJU SDN BHD\nGST ID: 000123456789\nTOTAL 12.00",
			"currency", "MYR", "currency:implied-issuer", true},
		{"place name and VAT ID", "Müller Druck GmbH\nBerlin, DEUTSCHLAND\nUSt-IdNr.: DE123456789\nSumme 12,00",
			"currency", "EUR", "currency:implied-issuer", true},
		{"legal form alone", "KEDAI MAJU SDN BHD\nTOTAL 12.00",
			"currency", nil, "", false},
		{"legal form and another country's number", "KEDAI MAJU SDN BHD\nTel +65 6123 4567\nTOTAL 12.00",
			"currency", nil, "", false},
		// The register's number after the suffix, unbracketed, ends the name.
		{"registration number after the suffix", "KING'S CONFECTIONERY S/B 273500-U (KSB)\nNO.41, JALAN SERI BINTANG 2\nDATE:11/03/18\nDUE 25.15",
			"vendor_name", "KING'S CONFECTIONERY S/B", "vendor:letterhead-suffix", true},
		// A brand with a word of its own could be part of the name.
		{"brand with its own word", "BECON STATIONER\nBECON ENTERPRISE SDN BHD (82256-V)\nDATE: 02/01/2018\nTOTAL 12.00",
			"vendor_name", "BECON ENTERPRISE SDN BHD", "vendor:letterhead-suffix-below-name", false},
		{"person above", "TAN CHAY YEE\nOJC MARKETING SDN BHD\nROC NO: 538358-H\nDATE: 02/01/2018\nTOTAL 12.00",
			"vendor_name", "OJC MARKETING SDN BHD", "vendor:letterhead-suffix-below-name", false},

		// The transaction number is the end of the barcode's number.
		{"barcode ends with the transaction number", "RECEIPT\nTRANS #: 255018\nTOTAL 5.00\n6605505001880000255018\n",
			"invoice_number", "255018", "id:transaction-label+barcode", true},
		{"barcode of something else", "RECEIPT\nTRANS #: 255018\nTOTAL 5.00\n6605505001880000255019\n",
			"invoice_number", "255018", "id:transaction-label", false},
		{"number inside a longer line is no barcode", "RECEIPT\nTRANS #: 255018\nTOTAL 5.00\nCARD 6605505001880000255018\n",
			"invoice_number", "255018", "id:transaction-label", false},

		// The tax summary as the checks read it: a row a printed rate
		// proves, with no header line, under a tax-inclusive subtotal.
		{"rate-proven summary row", "SUB TOTAL: 18.90\nTOTAL DUE (GST INC): 18.90\nPAID: CASH 50.00\nCHANGE: 31.10\nS:GST(6%) 17.83 1.07\n",
			"subtotal", 17.83, "subtotal:summary+arithmetic", true},
		{"rate-proven summary row, its tax", "SUB TOTAL: 18.90\nTOTAL DUE (GST INC): 18.90\nPAID: CASH 50.00\nCHANGE: 31.10\nS:GST(6%) 17.83 1.07\n",
			"tax", 1.07, "tax:summary+arithmetic", true},

		// A tax-included total: the printed rate gives the printed tax on it.
		{"tax included in the total", "TOTAL QTY : 2\nTOTAL AMOUNT 4.00\nGST @6% INCLUDED IN TOTAL 0.22\n",
			"total", 4.0, "total:labelled+rate", true},
		{"German MwSt included", "Summe 119,00\nenthaltene MwSt 19% 19,00\n",
			"total", 119.0, "total:labelled+rate", true},
		{"no total label, the included tax's rate gives it", "QTY 8 25.15\nROUNDING ADJ - 0.00\nDUE 25.15\nPAY 25.15\nCHANGE 0.00\n(TOTAL INCLUDED GST @ 6% : 1.42)\n",
			"total", 25.15, "total:tax-included+rate", true},
		// Two printed amounts the rate fits: the rate cannot choose.
		{"two amounts fit the rate", "QTY 8 25.15\nDUE 25.15\nPAY 25.10\n(TOTAL INCLUDED GST @ 6% : 1.42)\n",
			"total", nil, "", false},
		{"rate does not give the tax", "TOTAL AMOUNT 4.00\nGST @6% INCLUDED IN TOTAL 0.40\n",
			"total", 4.0, "total:labelled", false},
		// A rate fixes a total only to a few cents: a rounding line offers
		// a near alternative, so the rate confirms nothing there.
		{"rounding line", "TOTAL 3.98\nGST @6% INCLUDED IN TOTAL 0.22\nROUNDING ADJ 0.02\n",
			"total", 3.98, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ext := generate(t, tc.text)
			want(t, ext, tc.field, tc.value)
			ev := ext.Evidence[tc.field]
			if tc.tier != "" && ev.Tier != tc.tier {
				t.Errorf("tier %q (%s), want %q", ev.Tier, ev.Method, tc.tier)
			}
			if pass := ev.Confidence >= 0.7; pass != tc.pass {
				t.Errorf("confidence %.2f (%s): above the gate %v, want %v", ev.Confidence, ev.Tier, pass, tc.pass)
			}
		})
	}
}
