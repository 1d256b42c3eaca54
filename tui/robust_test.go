package tui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Odd inputs the document screen must draw without panicking: source texts
// that are empty, wide, combining, tabbed or not UTF-8, and results whose
// spans, confidences and values no well-behaved pipeline would produce.
var oddTexts = map[string]string{
	"empty":     "",
	"newlines":  "\n\n\n",
	"tabs":      "Vendor\tACME\nTotal\t\t12.00\n\tTax\t1.00",
	"wide":      "発票番号 ＡＢ-１２３\n合計 ¥1,200\n東京都千代田区丸の内一丁目",
	"combining": "Cafe\u0301 Mu\u0308ller\nTotal 9.99 e\u0301\u0301\u0301",
	"emoji":     "🧾 Receipt 👍🏽\nTotal 5.00 🇩🇪",
	"controls":  "a\r\nb\x00c\x1b[31mred\x07\x7f\r\n",
	"longline":  strings.Repeat("x", 500) + " total 1.00",
	"invalid":   "\xff\xfe total \xc3",
}

func oddResults() map[string]pipeline.Result {
	spans := map[string][]pipeline.Span{
		"vendor_name":    {{Start: 1000, End: 1010}},
		"invoice_number": {{Start: -5, End: 3}},
		"invoice_date":   {{Start: 10, End: 2}},
		"total":          {{Start: 0, End: 1 << 40}},
		"tax":            {},
		"bogus":          {{Start: 0, End: 1}},
	}
	return map[string]pipeline.Result{
		"no data":    {Status: pipeline.StatusOK},
		"no status":  {Data: pipeline.Record{"total": 1.0}},
		"error":      pipeline.ErrorResult("odd", "", fmt.Errorf("line one\nline two\t%s", strings.Repeat("long ", 50))),
		"flags only": {Status: pipeline.StatusNeedsReview, FlaggedFields: []pipeline.FlaggedField{{Field: "total"}, {Field: "bogus", Reason: "not in the schema"}}},
		"odd spans": {Status: pipeline.StatusNeedsReview, Data: pipeline.Record{"vendor_name": "V", "total": 3.0},
			FieldProvenance: spans, FlaggedFields: []pipeline.FlaggedField{{Field: "total", Reason: strings.Repeat("why ", 60)}}},
		"odd numbers": {Status: pipeline.StatusNeedsReview, OverallConfidence: math.NaN(),
			Data:            pipeline.Record{"vendor_name": "V", "subtotal": math.Inf(1), "tax": math.NaN(), "total": -1e300},
			FieldConfidence: map[string]float64{"vendor_name": math.NaN(), "subtotal": math.Inf(1), "tax": math.Inf(-1), "total": 7},
			FlaggedFields:   []pipeline.FlaggedField{{Field: "tax"}, {Field: "tax"}}},
		"odd values": {Status: pipeline.StatusNeedsReview,
			Data: pipeline.Record{"vendor_name": strings.Repeat("東京\n", 40), "invoice_number": map[string]any{"a": []any{1, "b"}},
				"invoice_date": true, "currency": 42, "total": "not a number"},
			FlaggedFields: []pipeline.FlaggedField{{Field: "vendor_name", Reason: "line\nbreaks\tand\ttabs"}}},
	}
}

var oddSizes = [][2]int{{0, 0}, {1, 1}, {20, 5}, {33, 9}, {80, 24}, {200, 60}}

// checkScreen asserts what a terminal needs: no line wider than the window
// and, when the window can hold the chrome, exactly its height in lines.
func checkScreen(t *testing.T, m Model, w, h int, what string) {
	t.Helper()
	v := viewText(m)
	if w < 20 {
		return // below the layout's minimum only "no panic" is promised
	}
	lines := strings.Split(v, "\n")
	if !m.help.ShowAll && len(lines) != h {
		t.Errorf("%s: %d lines in a %dx%d window", what, len(lines), w, h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s: line %d is %d wide in a %dx%d window: %q", what, i, lw, w, h, l)
		}
	}
}

func TestDocumentViewOnOddDataDoesNotPanic(t *testing.T) {
	f := newFixture(t)
	base := loaded(t, f.config())
	keys := []string{"j", "n", "N", "pgdown", "k", "pgup", "e", "x", "esc", "a", "A", "r", "?", "?", "]"}
	for tname, text := range oddTexts {
		for rname, res := range oddResults() {
			for _, size := range oddSizes {
				what := fmt.Sprintf("%s text, %s result, %dx%d", tname, rname, size[0], size[1])
				t.Run(what, func(t *testing.T) {
					m := apply(t, base, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					m.page = pageDoc
					_ = m.doc.Open("odd")
					m = apply(t, m, DocLoadedMsg{DocID: "odd", Doc: store.Document{ID: "odd", Text: text},
						Result: res, HasResult: true, Spans: map[string][]pipeline.Span{"total": {{Start: 99, End: -1}}}})
					checkScreen(t, m, size[0], size[1], what)
					for _, k := range keys {
						m = press(t, m, k)
						if m.page != pageDoc {
							break // ] found no next document in this view, or stepped
						}
						checkScreen(t, m, size[0], size[1], what+" after "+k)
					}
				})
			}
		}
	}
	// A document with no result and one that failed to load.
	for _, size := range oddSizes {
		m := apply(t, base, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m.page = pageDoc
		_ = m.doc.Open("odd")
		m = apply(t, m, DocLoadedMsg{DocID: "odd", Doc: store.Document{ID: "odd", Text: oddTexts["wide"]}})
		checkScreen(t, m, size[0], size[1], "no result")
		m = press(t, m, "a", "e", "r", "j")
		_ = m.doc.Open("gone")
		m = apply(t, m, DocLoadedMsg{DocID: "gone", Err: fmt.Errorf("store: %w\n%s", store.ErrNotFound, strings.Repeat("x", 300))})
		checkScreen(t, m, size[0], size[1], "load error")
	}
}

func TestQueueAndPanelsOnOddDataDoNotPanic(t *testing.T) {
	rows := []store.Summary{
		{DocID: "", Snippet: ""},
		{DocID: strings.Repeat("長いID", 20), Snippet: "発票\t合計\n¥1,200", Status: pipeline.StatusNeedsReview, Confidence: math.NaN(), Flagged: 3},
		{DocID: "err", Status: pipeline.StatusError, Error: "boom\nline two\t" + strings.Repeat("!", 300)},
		{DocID: "odd-status", Status: "weird", Confidence: math.Inf(-1), Flagged: -1, Decisions: 2},
		{DocID: "rev", Status: pipeline.StatusOK, Reviewed: true, Confidence: 2, Snippet: "e\u0301\u0301\u0301 🇩🇪"},
	}
	f := newFixture(t)
	for _, size := range oddSizes {
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		m := apply(t, New(f.config()), tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m = apply(t, m, SummariesMsg{Rows: rows})
		checkScreen(t, m, size[0], size[1], what+" queue")
		for _, k := range []string{"5", "j", "G", "pgdown", "g", "tab", "shift+tab", "3", "/", "長", "esc", "4", "1"} {
			m = press(t, m, k)
			checkScreen(t, m, size[0], size[1], what+" queue after "+k)
		}
		m = apply(t, m, RunStartedMsg{Total: 0})
		m = apply(t, m, ResultMsg{DocID: "new", Result: pipeline.Result{Status: "weird"}, Row: store.Summary{DocID: "new", Status: "weird"}})
		m = apply(t, m, RunDoneMsg{Err: fmt.Errorf("run: %s", strings.Repeat("bad ", 50))})
		checkScreen(t, m, size[0], size[1], what+" after a failed run")
		m = press(t, m, "s")
		checkScreen(t, m, size[0], size[1], what+" stats")
		m = apply(t, m, StatsMsg{Err: fmt.Errorf("%s", strings.Repeat("no stats ", 30))})
		checkScreen(t, m, size[0], size[1], what+" stats error")
		m = press(t, m, "s", "?")
		checkScreen(t, m, size[0], size[1], what+" full help")
	}
}
