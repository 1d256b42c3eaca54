package pipeline

import (
	"regexp"
	"unicode/utf8"
)

// Where the issuer is, read from the numbers it prints about itself when it
// names no country: a tax registration number in one country's format, a
// telephone number with its country code, a company register number. A
// document that prints no currency and no date proving its day/month order
// is still placed by them, as a reader places it.

// issuerNumber is one printed form that places its issuer. code is the
// currency the place implies, "" when the form is shared by countries with
// different currencies (it still settles the date order when dayFirst).
type issuerNumber struct {
	re       *regexp.Regexp
	code     string
	dayFirst bool
	what     string
}

var issuerNumbers = []issuerNumber{
	// Malaysia's GST registration numbers are twelve digits (Singapore's
	// mix letters, India's GSTIN is fifteen characters, Canada's ends RT0001).
	{regexp.MustCompile(`(?i)\bGST\b[^\n\d]{0,24}?(\d{4} ?\d{4} ?\d{4})(?:[^\d]|$)`), "MYR", true, "a Malaysian GST registration number"},
	// Germany's VAT ID after its label; Japan's qualified-invoice number.
	{regexp.MustCompile(`(?i)\bUSt[-. ]?Id(?:Nr)?\.?[^\n\w]{0,6}(DE ?\d{9})\b`), "EUR", true, "a German VAT ID"},
	{regexp.MustCompile(`登録番号[^\n\d]{0,6}(T\d{13})`), "JPY", false, "a Japanese invoice registration number"},
	// A telephone number written with its country code.
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?60)[ \-(]*1?\d[\d \-()]{6,}`), "MYR", true, "the Malaysian telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?65)[ \-()]*[689]\d[\d \-()]{5,}`), "SGD", true, "the Singapore telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?49)[ \-()]*\d[\d \-()/]{5,}`), "EUR", true, "the German telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?43)[ \-()]*\d[\d \-()/]{5,}`), "EUR", true, "the Austrian telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?33)[ \-()]*\d[\d \-().]{5,}`), "EUR", true, "the French telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?44)[ \-()]*\d[\d \-()]{5,}`), "GBP", true, "the UK telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?61)[ \-()]*\d[\d \-()]{5,}`), "AUD", true, "the Australian telephone code"},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?81)[ \-()]*\d[\d \-()]{5,}`), "JPY", false, "the Japanese telephone code"},
	// Malaysia's company and business register numbers: digits and a check
	// letter ("(872981-V)", "JM0828301-X"), in brackets or alone on a line.
	// Spain's NIF shares the shape; both write dates day first.
	{regexp.MustCompile(`(?m)(?:^|[(<]|\bCO\.? ?NO\.? ?)\s*((?:[A-Z]{2})?\d{6,12} ?- ?[A-Z])\s*(?:$|[)>])`), "", true, "a company register number"},
}

// issuerPlace reads the issuer's place from its printed numbers: the
// currency that place implies ("" when the form does not fix one), whether
// its dates are day first, a hint naming the evidence for reasons, and where
// it is printed.
func (d *doc) issuerPlace(wantCurrency bool) (code string, dayFirst bool, hint string, sp Span, ok bool) {
	text := string(d.rs)
	for _, n := range issuerNumbers {
		if wantCurrency && n.code == "" {
			continue
		}
		m := n.re.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		s := utf8.RuneCountInString(text[:m[2]])
		sp := Span{Start: s, End: s + utf8.RuneCountInString(text[m[2]:m[3]])}
		return n.code, n.dayFirst, n.what + " (" + text[m[2]:m[3]] + ")", sp, true
	}
	return "", false, "", Span{}, false
}
