//go:build unix

package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/internal/testclock"
)

// Adversarial shapes for the growth tests: each is repeated to size, so a
// stage that rescans the text per number, date or label shows up as
// super-linear growth.
var growthShapes = map[string]string{
	"numbers without words": "12.50 7 300.00 0.5 1,250.00 42\n",
	"one long line":         "TOTAL 12.50 CASH 20.00 ITEM 3.00 GST 6% 0.18, ",
	"many dates":            "01/02/2018 2018-03-04 5 Mar 2019 ",
	"many labels":           "total subtotal tax gst cash change rounding invoice no date bill to ",
	"many amounts":          "TOTAL 1.00\nSUBTOTAL 1.00\nGST 6% 1.00 0.06\n",
}

var growthRecord = Record{"vendor_name": "ACME", "invoice_number": "A-1", "invoice_date": "2018-02-01",
	"subtotal": 1.0, "tax": 0.06, "total": 1.0, "currency": "MYR"}

func sized(shape string, n int) string {
	return "ACME\nInvoice No: A-1\n" + strings.Repeat(shape, n/len(shape)+1)[:n]
}

// Verify is at most n log n in the text: 8x the text costs at most 12x the
// time, on every adversarial shape. testclock.Growth times eight runs of
// the small text against one of the large in the same window, so load from
// other test packages falls on both sides alike.
func TestHeuristicsGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("growth test")
	}
	const n = 32 << 10
	s := Invoice()
	for name, shape := range growthShapes {
		small, big := sized(shape, n), sized(shape, 8*n)
		ratio, ts, tb := testclock.Growth(8, 5, 12,
			func() { RunHeuristics(small, s, growthRecord) },
			func() { RunHeuristics(big, s, growthRecord) })
		t.Logf("%-22s %6d B %8v  %6d B %8v  x%.1f", name, n, ts, 8*n, tb, ratio)
		if ratio > 12 {
			t.Errorf("%s: 8x the text took %.1fx the time (%v -> %v)", name, ratio, ts, tb)
		}
	}
}

// A megabyte document under a deadline returns promptly with the context's
// error, whatever its shape (testclock.Prompt says what promptly means).
func TestHeuristicsHonourDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("deadline test")
	}
	for name, shape := range growthShapes {
		text := sized(shape, 1<<20)
		testclock.Prompt(t, name, func(ctx context.Context) error {
			_, err := RunHeuristicsContext(ctx, text, Invoice(), growthRecord)
			return err
		})
	}
}

// The same through the pipeline: validate of a 1 MB document under a
// deadline fails with the context's error and an error status instead of
// running to the end.
func TestValidateHonoursDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("deadline test")
	}
	p, err := New(Config{Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	text := sized(growthShapes["one long line"], 1<<20-64)
	testclock.Prompt(t, "validate, 1 MB", func(ctx context.Context) error {
		res, err := p.Validate(ctx, Document{Text: text}, map[string]any(growthRecord))
		if err != nil && res.Status != StatusError {
			t.Errorf("err = %v with status %s; want status %s", err, res.Status, StatusError)
		}
		return err
	})
}
