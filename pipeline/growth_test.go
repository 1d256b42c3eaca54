//go:build unix

package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

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

// timeHeuristics is the least CPU time of five runs.
func timeHeuristics(text string) time.Duration {
	s := Invoice()
	best := time.Duration(1 << 62)
	for range 5 {
		start := testclock.CPUTime()
		RunHeuristics(text, s, growthRecord)
		best = min(best, testclock.CPUTime()-start)
	}
	return best
}

// Verify is at most n log n in the text: 8x the text costs at most 12x the
// time, on every adversarial shape.
func TestHeuristicsGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("growth test")
	}
	const n = 32 << 10
	for name, shape := range growthShapes {
		var small, big time.Duration
		var ratio float64
		// A second measurement before failing: another process's burst on a
		// shared machine is not growth.
		for try := 0; try < 2 && (try == 0 || ratio > 12); try++ {
			small, big = timeHeuristics(sized(shape, n)), timeHeuristics(sized(shape, 8*n))
			ratio = float64(big) / float64(max(small, time.Microsecond))
		}
		t.Logf("%-22s %6d B %8v  %6d B %8v  x%.1f", name, n, small, 8*n, big, ratio)
		if ratio > 12 {
			t.Errorf("%s: 8x the text took %.1fx the time (%v -> %v)", name, ratio, small, big)
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
