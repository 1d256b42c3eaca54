package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/store"
)

// B on the needs-review tab asks for a confidence, says how many fields in
// how many documents it will settle, and on y writes exactly those: every
// undecided field at or above it (the flagged ones at 0.30 stay open), one
// Decide per document, so one u in a document takes back only its part.
func TestBulkAcceptConfirmsCountsAndWrites(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "B")
	if !m.queue.Capturing() || !strings.Contains(viewText(m), "bulk accept fields with confidence ≥ 0.90") {
		t.Fatalf("B did not open the threshold prompt:\n%s", viewText(m))
	}
	if h := helpLine(m); h != "enter save • esc cancel" {
		t.Fatalf("bulk prompt help: %q", h)
	}
	m = press(t, m, "enter")
	v := viewText(m)
	// inv-001: 7 fields, total flagged; inv-002: 5 fields, invoice_date flagged.
	if !strings.Contains(v, "accept 10 fields in 2 documents at confidence ≥ 0.90? y/n") {
		t.Fatalf("confirmation:\n%s", v)
	}
	if len(decisions(t, f, "inv-001")) != 0 {
		t.Fatal("the count wrote decisions before the confirmation")
	}
	m = press(t, m, "y")
	if m.queue.Capturing() || !strings.Contains(viewText(m), "10 fields accepted in 2 documents") {
		t.Fatalf("after y:\n%s", viewText(m))
	}
	d1, d2 := decisions(t, f, "inv-001"), decisions(t, f, "inv-002")
	if len(d1) != 6 || len(d2) != 4 {
		t.Fatalf("decided %d and %d fields, want 6 and 4", len(d1), len(d2))
	}
	if _, ok := d1["total"]; ok {
		t.Fatal("the flagged total (0.30) was accepted at ≥ 0.90")
	}
	for _, d := range d1 {
		if d.Action != store.ActionAccept || d.Reviewer != "tester" {
			t.Fatalf("decision %+v", d)
		}
	}
	if r, _ := m.queue.Row("inv-001"); r.Decisions != 6 || r.Reviewed {
		t.Fatalf("queue row after bulk: %+v", r)
	}
	// One u in inv-001 undoes its 6 fields and leaves inv-002's 4.
	m = press(t, openDoc(t, m, "inv-001"), "u")
	if n := len(decisions(t, f, "inv-001")); n != 0 {
		t.Fatalf("one u left %d of inv-001's bulk decisions", n)
	}
	if n := len(decisions(t, f, "inv-002")); n != 4 {
		t.Fatalf("u in inv-001 changed inv-002: %d decisions", n)
	}
}

// The bulk accept works on what the queue shows: a filter narrows it, a lower
// threshold takes flagged fields too, n writes nothing and a threshold out of
// range is refused with a reason.
func TestBulkAcceptFollowsFilterThresholdAndCancel(t *testing.T) {
	f := newFixture(t)
	m := typeText(t, press(t, loaded(t, f.config()), "/"), "acme")
	m = press(t, m, "enter", "B", "backspace", "backspace", "backspace", "backspace")
	m = typeText(t, m, "1.5")
	m = press(t, m, "enter")
	if !strings.Contains(viewText(m), "a confidence is a number from 0 to 1") {
		t.Fatalf("bad threshold:\n%s", viewText(m))
	}
	m = press(t, m, "backspace", "backspace", "backspace")
	m = typeText(t, m, "0.2")
	m = press(t, m, "enter")
	if !strings.Contains(viewText(m), "accept 5 fields in 1 document at confidence ≥ 0.20? y/n") {
		t.Fatalf("confirmation:\n%s", viewText(m))
	}
	m = press(t, m, "n")
	if m.queue.Capturing() || !strings.Contains(viewText(m), "nothing written") || len(decisions(t, f, "inv-002")) != 0 {
		t.Fatalf("n:\n%s", viewText(m))
	}
	m = press(t, m, "B", "esc")
	if m.queue.Capturing() {
		t.Fatal("esc did not close the prompt")
	}
	// Nothing left at the threshold: it says so and writes nothing.
	m = press(t, m, "5", "esc", "B", "enter", "y")
	m = press(t, m, "B", "enter")
	if !strings.Contains(viewText(m), "no undecided field at confidence ≥ 0.90") {
		t.Fatalf("second bulk:\n%s", viewText(m))
	}
}

func TestGoldenBulkConfirmView(t *testing.T) {
	m := press(t, loaded(t, newFixture(t).config()), "B", "enter")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenBulkConfirmView120(t *testing.T) {
	m := press(t, wide(t, loaded(t, newFixture(t).config())), "B", "enter")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}
