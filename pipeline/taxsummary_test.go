package pipeline

import (
	"context"
	"strings"
	"testing"
)

// A tax summary's header ("GST SUMMARY AMOUNT TAX") proves the rows of the
// six lines below it, even rows that print no rate; a row it proves carries
// it two lines further.
func TestTaxHeaderReachesSixLines(t *testing.T) {
	const header = "GST SUMMARY AMOUNT TAX\n"
	filler := func(n int) string { return strings.Repeat("thank you\n", n) }
	for _, c := range []struct {
		name string
		text string
		rows int
	}{
		{"row right below", header + "S 10.00 0.60\n", 1},
		{"row on the sixth line below", header + filler(5) + "S 10.00 0.60\n", 1},
		{"row on the seventh line below", header + filler(6) + "S 10.00 0.60\n", 0},
		{"a line of one amount between", header + filler(2) + "TOTAL 10.60\n" + filler(2) + "S 10.00 0.60\n", 1},
		{"a proved row carries it on", header + filler(5) + "S 10.00 0.60\n" + filler(1) + "Z 5.00 0.00\n", 2},
		{"no header", filler(1) + "S 10.00 0.60\n", 0},
	} {
		got, _, err := FindTaxSummary(context.Background(), c.text, Invoice())
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Rows) != c.rows {
			t.Errorf("%s: %d rows (%+v), want %d", c.name, len(got.Rows), got.Rows, c.rows)
		}
	}
}
