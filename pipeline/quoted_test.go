package pipeline

import "testing"

// Every line that opens a quoted reply passes the cheap test findQuoted
// runs first.
func TestMayOpenQuoteKeepsEveryQuoteLine(t *testing.T) {
	lines := []string{"> Invoice No: OK-77", "___________", "-----Original Message-----", "----- Ursprüngliche Nachricht -----"}
	for _, w := range wroteWords {
		lines = append(lines, "On Tue, 3 Feb 2026, Oak Ltd "+w, "Am 3. Februar 2026 SCHRIEB "+w)
	}
	for _, l := range lines {
		if !mayOpenQuote([]rune(l)) {
			t.Errorf("%q opens a quote, but mayOpenQuote says no", l)
		}
	}
	for _, l := range []string{"Total: 12.00", "Thanks, paid.", "---- 4 dashes ----", "__ two"} {
		if mayOpenQuote([]rune(l)) {
			t.Errorf("%q cannot open a quote, but mayOpenQuote says it may", l)
		}
	}
}
