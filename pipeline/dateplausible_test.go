package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Class "a date no invoice bears": a generator copies a date printed in
// another calendar as if Gregorian (Nepal's Bikram Sambat 2082, Ethiopia's
// month 13, a Japanese era year) or mistypes the year (2206). A date more than
// a year after the verifying moment, or before 1970, is flagged with a reason
// that names the likely calendar; a pre-dated invoice (next year, within a
// year) stays silent. The verifying moment is Config.Now, fixed here so the
// verdicts do not age.
func TestImplausibleDateYears(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC) }
	p, err := New(Config{Gate: DefaultGate(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	d := func(v string) map[string]any { return map[string]any{"invoice_date": v} }
	np := "भाटभटेनी सुपरमार्केट\nBhatbhateni Supermarket, Kathmandu\nPAN: 300045678\nबिल नं: 4471\n" +
		"मिति: २०८३/०८/१५\nDate: 2083-08-15\nजम्मा रु 1,250.00"
	et := "ሸዋ ሱፐርማርኬት / Shoa Supermarket\nAddis Ababa\nTIN 0001234567\nቀን: 05/13/2018 ዓ.ም\nደረሰኝ ቁጥር 4471\nጠቅላላ 1,150.00 ብር"
	typo := "Northwind Traders Ltd\nInvoice No. INV-4471\nInvoice Date: 2206-11-14\nTotal due USD 1,200.00"
	honest := "Northwind Traders Ltd\nInvoice No. INV-4472\nInvoice Date: 2027-02-01\nTotal due USD 1,200.00"
	past := "Northwind Traders Ltd\nInvoice No. INV-4473\nInvoice Date: 1962-11-14\nTotal due USD 1,200.00"
	jp := "株式会社さくら商事\n請求書番号: 4471\n発行日: R8.11.10\n合計 ¥55,000"
	cases := []classCase{
		{"BS year copied as Gregorian", np, d("2083-08-15"), "invoice_date", "57 years after today (2026)"},
		{"BS reason names the calendar", np, d("2083-08-15"), "invoice_date", "Bikram Sambat"},
		{"Ethiopian month 13", et, d("2018-13-05"), "invoice_date", "invalid date"},
		{"typo'd year, printed so", typo, d("2206-11-14"), "invoice_date", "180 years after today"},
		{"pre-dated invoice next year", honest, d("2027-02-01"), "", ""},
		{"before 1970, printed so", past, d("1962-11-14"), "invoice_date", "before 1970"},
		{"Japanese era year as printed", jp, d("0008-11-10"), "invoice_date", "Reiwa 8"},
		{"Japanese era converted", jp, d("2026-11-10"), "", ""},
	}
	for _, c := range cases {
		res, err := p.Validate(context.Background(), Document{Text: c.text}, c.rec)
		if err != nil {
			t.Fatal(err)
		}
		reason, ok := flagReason(res, "invoice_date")
		switch {
		case c.field == "" && ok:
			t.Errorf("%s: want invoice_date unflagged, got %q", c.name, reason)
		case c.field != "" && !ok:
			t.Errorf("%s: invoice_date not flagged", c.name)
		case c.field != "" && !strings.Contains(reason, c.reason):
			t.Errorf("%s: reason %q, want it to contain %q", c.name, reason, c.reason)
		}
	}
}

// The bound moves with the clock: the same pre-dated invoice is silent a
// month before its year and flagged when verified two years earlier.
func TestImplausibleDateFollowsTheClock(t *testing.T) {
	text := "Northwind Traders Ltd\nInvoice No. INV-4472\nInvoice Date: 2027-02-01\nTotal due USD 1,200.00"
	for _, c := range []struct {
		year    int
		flagged bool
	}{{2026, false}, {2025, true}} {
		p, err := New(Config{Gate: DefaultGate(), Now: func() time.Time { return time.Date(c.year, 6, 1, 0, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Validate(context.Background(), Document{Text: text}, map[string]any{"invoice_date": "2027-02-01"})
		if err != nil {
			t.Fatal(err)
		}
		if reason, ok := flagReason(res, "invoice_date"); ok != c.flagged {
			t.Errorf("verified in %d: flagged %v (%q), want %v", c.year, ok, reason, c.flagged)
		}
	}
}
