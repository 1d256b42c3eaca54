package local_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/internal/testclock"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

// shapes are adversarial documents of about n bytes: each repeats one unit
// that stresses a stage whose cost once grew faster than the text.
var shapes = map[string]func(n int) string{
	// Every amount labelled with a role: the subtotal x tax x amount search.
	"many-amounts": func(n int) string {
		return repeatTo(n, func(i int) string {
			return fmt.Sprintf("SUB TOTAL %d.%02d\nGST 6%% %d.%02d\nTOTAL %d.%02d\nCASH %d.00\nCHANGE 0.%02d\n", i%500, i%100, i%50, i%97, i%700, i%100, i%800, i%90)
		})
	},
	// One line of dates: each date's label is read from the line before it.
	"many-dates-one-line": func(n int) string {
		return "Invoice date " + repeatTo(n, func(i int) string { return fmt.Sprintf("%02d/%02d/20%02d ", i%28+1, i%12+1, i%30) })
	},
	// One long line of labels and amounts, no line breaks at all.
	"one-long-line": func(n int) string {
		return repeatTo(n, func(i int) string {
			return fmt.Sprintf("total incl gst excl tax sub total %d.%02d item total qty ", i%900, i%100)
		})
	},
	// A CSV-like table: numbers without words.
	"numbers-without-words": func(n int) string {
		return repeatTo(n, func(i int) string { return fmt.Sprintf("%d.%02d,%d,%d.5\n", i%1000, i%100, i%37, i%9) })
	},
	// Label words with no numbers: every word start is a label candidate.
	"many-labels": func(n int) string {
		return repeatTo(n, func(int) string { return "total tax subtotal gst incl excl rounding cash change date invoice no " }) + " 5.00"
	},
}

func repeatTo(n int, unit func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(unit(i))
	}
	return b.String()
}

// TestExtractGrowth: eight times the text costs at most twelve times the
// time on every adversarial shape, so no stage is quadratic or worse.
// testclock.Growth times eight runs of the small text against one of the
// large in the same window, so load from other test packages falls on both
// sides alike.
func TestExtractGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("growth test")
	}
	const n = 16 << 10
	e, s := local.New(), pipeline.Invoice()
	for name, shape := range shapes {
		t.Run(name, func(t *testing.T) {
			small, large := shape(n), shape(8*n)
			extract := func(text string) func() {
				return func() {
					if _, err := e.Generate(context.Background(), pipeline.Document{Text: text}, s); err != nil {
						t.Fatal(err)
					}
				}
			}
			ratio, ts, tl := testclock.Growth(8, 5, 12, extract(small), extract(large))
			t.Logf("%s: %d bytes %v, %d bytes %v, ratio %.1f", name, len(small), ts, len(large), tl, ratio)
			if ratio > 12 {
				t.Errorf("8x the text took %.1fx the time (%v vs %v): super-linear", ratio, tl, ts)
			}
		})
	}
}

// TestDeadlineOnLargeDocument: a 1 MB document under a deadline
// stops promptly with the context's error instead of running on.
func TestDeadlineOnLargeDocument(t *testing.T) {
	text := shapes["many-amounts"](1 << 20)
	e := local.New()
	testclock.Prompt(t, "extract, 1 MB of amounts", func(ctx context.Context) error {
		_, err := e.Generate(ctx, pipeline.Document{Text: text}, pipeline.Invoice())
		return err
	})
}

// BenchmarkExtractSize times one extraction of a receipt-like document at
// 1 KB, 10 KB, 100 KB and 1 MB.
func BenchmarkExtractSize(b *testing.B) {
	unit := "KEDAI MAJU SDN BHD\nDate: 03/04/2026\nINVOICE NO: INV-%d\nITEM A 2 x 4.50 9.00\nSUB TOTAL 9.00\nGST 6%% 0.54\nTOTAL 9.54\nCASH 10.00\nCHANGE 0.46\n"
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10, 1 << 20} {
		text := repeatTo(size, func(i int) string { return fmt.Sprintf(unit, i) })
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			e, s := local.New(), pipeline.Invoice()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := e.Generate(context.Background(), pipeline.Document{Text: text}, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
