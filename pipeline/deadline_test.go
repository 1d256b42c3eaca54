//go:build unix

package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/internal/testclock"
)

// watchedCtx records the process's CPU time at every look at Err: the
// longest stretch between two looks is how long a deadline that fell in it
// goes unnoticed, whatever the machine's speed.
type watchedCtx struct {
	context.Context
	looks []time.Duration
}

func (c *watchedCtx) Err() error {
	c.looks = append(c.looks, testclock.CPUTime())
	return c.Context.Err()
}

// longItemInvoice is a long invoice of about n bytes: item lines between a
// header and the totals, the shape of a long supplier invoice, whose fields
// are grounded so every per-field check runs.
func longItemInvoice(n int) string {
	var b strings.Builder
	b.WriteString("ACME SUPPLIES SDN BHD\nTAX INVOICE\nInvoice No: A-1\nDate: 01/02/2018\nDESCRIPTION QTY PRICE AMOUNT\n")
	for i := 0; b.Len() < n-100; i++ {
		fmt.Fprintf(&b, "%06d BALL PEN BLUE %d x 1.50 %d.%02d SR\n", 100000+i, i%9+1, (i%9+1)*150/100, (i%9+1)*150%100)
	}
	b.WriteString("SUBTOTAL: 1.00\nGST 6%: 0.06\nTOTAL: RM 1.00\n")
	return b.String()
}

// Verify looks at its context all along, not only while it scans the text:
// no stretch of a long document's run goes unwatched for more than a third
// of the run, so a deadline anywhere in it is noticed promptly. (The 100 ms
// deadline tests pass when the deadline falls inside the scans and say
// nothing of the per-field checks after them, which on a long invoice are
// half the run.)
func TestVerifyWatchesItsContextThroughout(t *testing.T) {
	if testing.Short() {
		t.Skip("deadline test")
	}
	p, err := New(Config{Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"item lines":    longItemInvoice(1 << 19),
		"one long line": sized(growthShapes["one long line"], 1<<19),
	} {
		// The least of three runs: another process's burst on a shared
		// machine is not an unwatched stretch.
		worst := 1.0
		var whole, gap time.Duration
		for range 3 {
			ctx := &watchedCtx{Context: context.Background()}
			start := testclock.CPUTime()
			if _, err := p.Validate(ctx, Document{Text: text}, map[string]any(growthRecord)); err != nil {
				t.Fatal(err)
			}
			end := testclock.CPUTime()
			g, last := time.Duration(0), start
			for _, at := range append(ctx.looks, end) {
				g, last = max(g, at-last), at
			}
			if f := float64(g) / float64(max(end-start, time.Microsecond)); f < worst {
				worst, whole, gap = f, end-start, g
			}
		}
		t.Logf("%s: the longest stretch without a look at the context is %v of a %v run (%.0f%%)", name, gap, whole, 100*worst)
		if worst > 1.0/3 {
			t.Errorf("%s: verify went %v of its %v run without looking at its context: a deadline there is noticed late", name, gap, whole)
		}
	}
}
