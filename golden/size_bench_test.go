package golden_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/internal/benchfig"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

// Issue 9's speed aims: a 1 MB document under 2 s, and 10x the text costing
// at most 15x the time, for extract (the keyless local extractor, as
// `reflect extract --provider local`) and for verify (heuristics + gate, as
// `reflect validate --heuristics-only`).
const (
	aim1MB       = 2 * time.Second
	aimGrowth10x = 15.0
	// giveUp bounds one call: a stage that is still super-linear would
	// otherwise hold the benchmark for hours. Larger sizes are then skipped.
	giveUp = 30 * time.Second
)

var benchSizes = []struct {
	name  string
	bytes int
}{{"1KB", 1_000}, {"10KB", 10_000}, {"100KB", 100_000}, {"1MB", 1_000_000}}

var products = []string{"A4 PAPER 80GSM", "BALL PEN BLUE", "STAPLER HD-10", "TONER CARTRIDGE 85A", "FILE FOLDER",
	"WHITEBOARD MARKER", "CABLE TIE 200MM", "PVC PIPE 1/2\"", "MASKING TAPE 24MM", "LED BULB 9W", "HAND SOAP 500ML",
	"MINERAL WATER 1.5L", "COFFEE 3IN1", "SCREW M6 x 20", "SAFETY GLOVES L"}

// invoiceText is a long invoice of about size bytes: a letterhead, item lines
// (codes, quantities, unit prices, amounts, tax codes), page headers and
// notes every few dozen lines, then the totals block and a tax summary, the
// way a long supplier invoice prints. It returns the text and the record a
// correct extraction holds.
func invoiceText(size int) (string, map[string]any) {
	r := rand.New(rand.NewPCG(9, uint64(size)))
	var b strings.Builder
	b.WriteString("ACME SUPPLIES SDN BHD\n(CO. NO. 123456-X)\nNO. 12, JALAN PERDANA 3, 40150 SHAH ALAM\n" +
		"TEL: 03-5555 1234 GST ID: 000123456789\nTAX INVOICE\nINVOICE NO: INV-2026-004417\n" +
		"DATE: 14/03/2026 10:42\nCASHIER: AMINAH\nDESCRIPTION QTY PRICE AMOUNT\n")
	const footerRoom = 330
	subCents, page := 0, 1
	for i := 1; b.Len() < size-footerRoom; i++ {
		if i%40 == 0 {
			page++
			fmt.Fprintf(&b, "PAGE %d\nNOTE: DELIVERY TO BAY %d, GOODS RECEIVED IN GOOD ORDER\nDESCRIPTION QTY PRICE AMOUNT\n", page, r.IntN(9)+1)
			continue
		}
		qty, unit := r.IntN(9)+1, r.IntN(9900)+100
		subCents += qty * unit
		fmt.Fprintf(&b, "%06d %s %d x %d.%02d %d.%02d SR\n", 100000+i, products[r.IntN(len(products))], qty, unit/100, unit%100,
			qty*unit/100, qty*unit%100)
	}
	taxCents := (subCents*6 + 50) / 100
	totalCents := subCents + taxCents
	cashCents := (totalCents/1000 + 1) * 1000
	money := func(c int) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }
	fmt.Fprintf(&b, "SUB TOTAL (EXCL GST): %s\nGST 6%%: %s\nTOTAL (INCL GST): RM %s\nCASH: RM %s\nCHANGE: RM %s\n"+
		"GST SUMMARY AMOUNT(RM) TAX(RM)\nSR @ 6%% %s %s\nGOODS SOLD ARE NOT RETURNABLE. THANK YOU.\n",
		money(subCents), money(taxCents), money(totalCents), money(cashCents), money(cashCents-totalCents), money(subCents), money(taxCents))
	rec := map[string]any{"vendor_name": "ACME SUPPLIES SDN BHD", "invoice_number": "INV-2026-004417", "invoice_date": "2026-03-14",
		"subtotal": float64(subCents) / 100, "tax": float64(taxCents) / 100, "total": float64(totalCents) / 100, "currency": "MYR"}
	return b.String(), rec
}

// BenchmarkSize prints extract and verify time per document at 1 KB, 10 KB,
// 100 KB and 1 MB, each size's time as a multiple of the size ten times
// smaller, and a line per size against the aims (`make bench`).
func BenchmarkSize(b *testing.B) {
	s := pipeline.Invoice()
	extractP, err := pipeline.New(pipeline.Config{Schema: s, Generator: local.New(), Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	verifyP, err := pipeline.New(pipeline.Config{Schema: s, Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	stages := []struct {
		name string
		run  func(ctx context.Context, doc pipeline.Document, rec map[string]any) error
	}{
		// Verify first: an extractor call abandoned after giveUp keeps a core
		// busy until the process ends and would skew what follows it.
		{"verify", func(ctx context.Context, doc pipeline.Document, rec map[string]any) error {
			_, err := verifyP.Validate(ctx, doc, rec)
			return err
		}},
		{"extract", func(ctx context.Context, doc pipeline.Document, _ map[string]any) error {
			_, err := extractP.Extract(ctx, doc)
			return err
		}},
	}
	for _, st := range stages {
		var prev, last time.Duration
		gaveUp := false
		for _, sz := range benchSizes {
			text, rec := invoiceText(sz.bytes)
			doc := pipeline.Document{ID: "bench", Text: text}
			b.Run(st.name+"/"+sz.name, func(b *testing.B) {
				if gaveUp {
					b.Skipf("skipped: a smaller document took longer than %s", giveUp)
				}
				var total time.Duration
				for range b.N {
					d, err, returned := timeCall(func(ctx context.Context) error { return st.run(ctx, doc, rec) })
					if !returned || errors.Is(err, context.DeadlineExceeded) {
						gaveUp = true
						b.Logf("%s %s: did not return within %s (aim: 1MB < %s)", st.name, sz.name, giveUp, aim1MB)
						b.SkipNow()
					}
					total += d
				}
				per := total / time.Duration(b.N)
				b.ReportMetric(per.Seconds(), "s/doc")
				b.ReportMetric(float64(len(text))/per.Seconds()/1e6, "MB/s")
				line := fmt.Sprintf("%s %s (%d bytes): %s per document", st.name, sz.name, len(text), per.Round(time.Microsecond))
				if prev > 0 {
					growth := float64(per) / float64(prev)
					b.ReportMetric(growth, "x-time-vs-10x-smaller")
					line += fmt.Sprintf("; %.1fx the 10x smaller document's time (aim <= %.0fx: %s)", growth, aimGrowth10x, verdict(growth <= aimGrowth10x))
				}
				if sz.bytes == 1_000_000 {
					line += fmt.Sprintf("; aim 1MB < %s: %s", aim1MB, verdict(per < aim1MB))
				}
				b.Log(line)
				last = per
			})
			// b.Run calls its function once per b.N it tries: only the final
			// figure is the size's.
			prev = last
		}
		if gaveUp {
			benchfig.Print(st.name+" of a 1 MB document", "> "+giveUp.String(), "< "+aim1MB.String(), false)
		} else {
			benchfig.Print(st.name+" of a 1 MB document", last.Round(time.Millisecond).String(), "< "+aim1MB.String(), last < aim1MB)
		}
	}
}

// BenchmarkSizeDeadline prints how long extract and verify of a 1 MB
// document take to return under a 100 ms deadline, and how long past a
// deadline at half their whole run: a stage that checks its context returns
// within a few ms of it, one that does not holds an MCP call for the whole
// run. The fixed 100 ms deadline falls in the text scans on a loaded machine
// and after them on a quiet one; half the run falls after them on any
// machine, so that figure does not depend on the load.
func BenchmarkSizeDeadline(b *testing.B) {
	s := pipeline.Invoice()
	extractP, err := pipeline.New(pipeline.Config{Schema: s, Generator: local.New(), Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	verifyP, err := pipeline.New(pipeline.Config{Schema: s, Gate: pipeline.DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	text, rec := invoiceText(1_000_000)
	doc := pipeline.Document{ID: "bench", Text: text}
	const deadline = 100 * time.Millisecond
	for _, st := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"verify", func(ctx context.Context) error { _, err := verifyP.Validate(ctx, doc, rec); return err }},
		{"extract", func(ctx context.Context) error { _, err := extractP.Extract(ctx, doc); return err }},
	} {
		b.Run(st.name+"/1MB", func(b *testing.B) {
			per := returnAfter(b, st.name, st.run, func() time.Duration { return deadline })
			b.ReportMetric(per.Seconds(), "s-to-return")
			b.Logf("%s 1MB under a %s deadline: returned after %s (aim: promptly, within ~%s: %s)", st.name, deadline,
				per.Round(time.Millisecond), 2*deadline, verdict(per <= 2*deadline))
		})
		b.Run(st.name+"/1MB/half-run", func(b *testing.B) {
			var whole, past time.Duration
			per := returnAfter(b, st.name, st.run, func() time.Duration {
				whole, _, _ = timeCall(st.run)
				past -= whole / 2
				return whole / 2
			})
			past = past/time.Duration(b.N) + per
			b.ReportMetric(past.Seconds(), "s-past-deadline")
			b.Logf("%s 1MB under a deadline at half its %s run: returned %s past it (aim: within a quarter of the run: %s)",
				st.name, whole.Round(time.Millisecond), past.Round(time.Millisecond), verdict(past <= whole/4))
		})
	}
}

// returnAfter is the mean time run takes to return under the deadline
// deadline() gives before each call.
func returnAfter(b *testing.B, name string, run func(ctx context.Context) error, deadline func() time.Duration) time.Duration {
	var total time.Duration
	for range b.N {
		dl := deadline()
		d, _, returned := timeCall(func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, dl)
			defer cancel()
			return run(ctx)
		})
		if !returned {
			b.Logf("%s 1MB under a %s deadline: did not return within %s (aim: promptly)", name, dl, giveUp)
			b.SkipNow()
		}
		total += d
	}
	return total / time.Duration(b.N)
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// timeCall runs f under a giveUp deadline and reports how long it took and
// its error. A call that ignores the deadline is abandoned (returned=false)
// instead of stalling the benchmark.
func timeCall(f func(ctx context.Context) error) (d time.Duration, err error, returned bool) {
	ctx, cancel := context.WithTimeout(context.Background(), giveUp)
	defer cancel()
	start := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- f(ctx) }()
	select {
	case err := <-errc:
		return time.Since(start), err, true
	case <-time.After(giveUp + time.Second):
		return 0, nil, false
	}
}

// The generated invoice is what the benchmark claims: the requested size,
// and a record the gate accepts, so verify times a realistic pass.
func TestInvoiceTextIsRealistic(t *testing.T) {
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Gate: pipeline.DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range benchSizes[:3] {
		text, rec := invoiceText(sz.bytes)
		if len(text) > sz.bytes || len(text) < sz.bytes*8/10 {
			t.Errorf("%s: %d bytes", sz.name, len(text))
		}
		res, err := p.Validate(context.Background(), pipeline.Document{Text: text}, rec)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != pipeline.StatusOK {
			t.Errorf("%s: the right record is not ok: %+v", sz.name, res.FlaggedFields)
		}
	}
}
