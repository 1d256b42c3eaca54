//go:build unix

package pipeline

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
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

// cpuTime is the process's CPU time: on a machine shared with other work,
// waiting for a core must not read as growth.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timeHeuristics is the least CPU time of five runs.
func timeHeuristics(text string) time.Duration {
	s := Invoice()
	best := time.Duration(1 << 62)
	for range 5 {
		start := cpuTime()
		RunHeuristics(text, s, growthRecord)
		best = min(best, cpuTime()-start)
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

// A megabyte document under a 100 ms deadline returns promptly with the
// context's error, whatever its shape.
func TestHeuristicsHonourDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("deadline test")
	}
	for name, shape := range growthShapes {
		text := sized(shape, 1<<20)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := RunHeuristicsContext(ctx, text, Invoice(), growthRecord)
		took := time.Since(start)
		cancel()
		if err == nil {
			t.Logf("%s: finished within the deadline (%v)", name, took)
			continue
		}
		if took > time.Second {
			t.Errorf("%s: returned %v after the 100 ms deadline", name, took-100*time.Millisecond)
		}
	}
}

// The same through the pipeline: validate of a 1 MB document under a
// deadline fails with the context's error instead of running to the end.
func TestValidateHonoursDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("deadline test")
	}
	p, err := New(Config{Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	text := sized(growthShapes["one long line"], 1<<20-64)
	// Promptly, judged against the same work without a deadline on the
	// same machine rather than a wall-clock bound (a loaded 2-core machine
	// made a fixed 1 s bound flake, and a fixed 100 ms deadline is most of
	// the run once verify is fast): the deadline falls at half the run, and
	// a validate that ignored it would return a half run late. A second
	// measurement before failing: another process's burst is not lateness.
	var whole, late time.Duration
	for try := 0; try < 2 && (try == 0 || late > whole/4); try++ {
		start := time.Now()
		if _, err := p.Validate(context.Background(), Document{Text: text}, map[string]any(growthRecord)); err != nil {
			t.Fatal(err)
		}
		whole = time.Since(start)
		ctx, cancel := context.WithTimeout(context.Background(), whole/2)
		start = time.Now()
		res, err := p.Validate(ctx, Document{Text: text}, map[string]any(growthRecord))
		late = time.Since(start) - whole/2
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || res.Status != StatusError {
			t.Fatalf("err = %v, status %s; want the deadline's error", err, res.Status)
		}
	}
	t.Logf("1 MB document: returned %v after a deadline at half its %v run", late, whole)
	if late > whole/4 {
		t.Errorf("validate returned %v after a deadline at half its %v run: the deadline was not honoured promptly", late, whole)
	}
}
