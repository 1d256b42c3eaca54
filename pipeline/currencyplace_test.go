package pipeline

import "testing"

// Documents written for the class "a currency read from the wrong evidence":
// a "$" document placed by a number that only looks like an address (a
// patient ID "ID 40235" is no Idaho ZIP code), and an amount a document
// prints for information only, converted into another currency, taken as
// the currency it bills in.

const nzClinic = `Harbourview Physio Ltd
14 Quay Street, Auckland 1010
GST No: 123-456-789
Phone +64 9 555 0142   www.harbourviewphysio.co.nz
TAX INVOICE                         Invoice 20931
Date: 12/11/2026
Patient: Aroha Ngata   Patient ID 40235
Physiotherapy consultation            $95.00
GST 15%                               $14.25
Total                                $109.25`

const nzPlain = `Kowhai Plumbing Limited
IRD 98-765-432
TAX INVOICE 5512                    03/11/2026
Customer ID 55021
Labour 2 hrs                          $180.00
GST                                    $27.00
Total due                             $207.00`

const auClinic = `Bondi Physio Pty Ltd
ABN 51 824 753 556
TAX INVOICE 8841                    12/11/2026
Patient ID 40235
Consultation                           $95.00
GST                                     $9.50
Total                                 $104.50`

const usClinic = `Lakeside Physical Therapy LLC
220 Main Street, Boise, ID 83702
INVOICE 3391                        11/12/2026
Patient: Jane Miller
Therapy session                       $120.00
Total                                 $120.00`

const aeInvoice = `Gulf Horizon Trading LLC
Office 1204, Bay Square, Business Bay, Dubai, UAE
TRN 100234567800003
TAX INVOICE                         Invoice No: GH-2026-0917
Date: 18/11/2026
Consulting services                   AED 10,000.00
VAT 5%                                   AED 500.00
Total                                 AED 10,500.00
USD equivalent (for information only): USD 2,859.08`

const aeApprox = `Desert Rose Events FZ-LLC
Dubai Media City, UAE
TRN 100998877600003
INVOICE 771                          20/11/2026
Event management fee                     10,000.00
VAT 5%                                      500.00
Total (AED)                              10,500.00
Approx. USD 2,859.08 at 3.6725`

const deInfo = `Kanzlei Brandt & Partner mbB
Rechnung Nr. 2026-0412              Datum: 04.11.2026
Honorar                                 1.000,00 EUR
USt 19%                                   190,00 EUR
Gesamtbetrag                            1.190,00 EUR
Gegenwert zur Information: 1.030,00 GBP`

const aeBracket = `Al Noor Printing Press LLC
Sharjah, UAE
TAX INVOICE 4410                     21/11/2026
Printing 5,000 brochures              AED 2,000.00
VAT 5%                                   AED 100.00
Total AED 2,100.00 (≈ USD 571.82)`

const euBracket = `Atelier Lumière SARL
Facture 2026-118                     22/11/2026
Prestation                            100,00 EUR
TVA 20 %                               20,00 EUR
Total EUR 120,00 (USD 129,84 equivalent)`

const nzDomain = `Totara Web Design Ltd
hello@totaraweb.co.nz
TAX INVOICE 1207                     25/11/2026
Website build                        $1,200.00
GST                                    $180.00
Total                                $1,380.00`

const usNoComma = `MIDWEST AUTO PARTS INC
410 W MONROE ST
SPRINGFIELD IL 62704
INVOICE 88213                        11/20/2026
Brake pads                              $64.00
Total                                   $64.00`

const caHST = `Maple Leaf Movers Inc.
Toronto, ON M5V 2T6
HST # 123456789 RT0001
INVOICE 3301                         2026-11-19
Moving services                        $800.00
HST 13%                                $104.00
Total                                  $904.00`

const noKr = `Fjordvik Snekkeri
post@fjordvik.no
Faktura 2026-44                      12.11.2026
Snekkerarbeid                        4 000,00 kr
Å betale                             4 000,00 kr`

const hkDollar = `Harbour Tea House
Tel: +852 2123 4567
RECEIPT 0091                         12/11/2026
Milk tea x2                              $48.00
Total                                    $48.00`

func TestCurrencyFromTheRightEvidence(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	runClassCases(t, []classCase{
		{"nz clinic nzd", nzClinic, c("NZD"), "", ""},
		{"nz clinic aud", nzClinic, c("AUD"), "currency", "NZD"},
		{"nz clinic usd", nzClinic, c("USD"), "currency", "NZD"},
		{"nz ird nzd", nzPlain, c("NZD"), "", ""},
		{"nz ird aud", nzPlain, c("AUD"), "currency", "NZD"},
		{"au clinic aud", auClinic, c("AUD"), "", ""},
		{"au clinic nzd", auClinic, c("NZD"), "currency", "AUD"},
		{"us clinic usd", usClinic, c("USD"), "", ""},
		{"uae aed", aeInvoice, c("AED"), "", ""},
		{"uae usd from the information line", aeInvoice, c("USD"), "currency", "AED"},
		{"uae approx aed", aeApprox, c("AED"), "", ""},
		{"uae approx usd", aeApprox, c("USD"), "currency", "AED"},
		{"german info eur", deInfo, c("EUR"), "", ""},
		{"german info gbp", deInfo, c("GBP"), "currency", "EUR"},
		// A converted amount in brackets on the billed amount's line: the
		// cue covers the bracket, not the line.
		{"bracketed aside aed", aeBracket, c("AED"), "", ""},
		{"bracketed aside usd", aeBracket, c("USD"), "currency", "AED"},
		{"bracketed equivalent eur", euBracket, c("EUR"), "", ""},
		{"bracketed equivalent usd", euBracket, c("USD"), "currency", ""},
		{"nz web address nzd", nzDomain, c("NZD"), "", ""},
		{"nz web address aud", nzDomain, c("AUD"), "currency", "NZD"},
		{"us address without a comma usd", usNoComma, c("USD"), "", ""},
		{"us address without a comma aud", usNoComma, c("AUD"), "currency", "USD"},
		{"canadian hst cad", caHST, c("CAD"), "", ""},
		{"canadian hst usd", caHST, c("USD"), "currency", "CAD"},
		// A web address and a telephone code place "kr" and "$" too.
		{"norwegian kr nok", noKr, c("NOK"), "", ""},
		{"norwegian kr sek", noKr, c("SEK"), "currency", "NOK"},
		{"hong kong dollar hkd", hkDollar, c("HKD"), "", ""},
		{"hong kong dollar usd", hkDollar, c("USD"), "currency", "HKD"},
	})
}
