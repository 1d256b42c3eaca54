package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// rerunResult is inv-001 as a newer pipeline sees it: total and tax flagged.
func rerunResult(t *testing.T) pipeline.Result {
	return buildResult(t, "inv-001", textCafe, pipeline.Record{
		"vendor_name": "Café Müller GmbH", "invoice_number": "A-1001", "invoice_date": "2024-03-15",
		"subtotal": 540.0, "tax": 43.2, "total": 683.2, "currency": "EUR",
	}, map[string]string{"total": "683.20 not found", "tax": "tax rate looks wrong"}, 0.4)
}

// A reviewed document run again (a new pipeline version) whose new result
// flags a field nobody decided goes back to "needs review", whether or not
// the reviewer has it open.
func TestRerunOfAReviewedDocumentReopensIt(t *testing.T) {
	for _, open := range []bool{true, false} {
		f := newFixture(t)
		m := openDoc(t, loaded(t, f.config()), "inv-001")
		m = press(t, m, "a")
		if row, _ := m.queue.Row("inv-001"); !row.Reviewed {
			t.Fatalf("accepting the only flagged field did not review inv-001: %+v", row)
		}
		if !open {
			m = press(t, m, "q")
			m = openDoc(t, m, "inv-002")
		}
		m = apply(t, m, f.result(t, "inv-001", "test-2", rerunResult(t), time.Now()))
		m = apply(t, m, resortMsg{})
		row, _ := m.queue.Row("inv-001")
		if row.Reviewed || row.Decisions != 1 || row.Flagged != 2 {
			t.Fatalf("open=%v: inv-001 row after the re-run: %+v", open, row)
		}
		m = press(t, m, "q")
		if ids := queueIDs(m); !slices.Contains(ids, "inv-001") {
			t.Fatalf("open=%v: needs review after the re-run: %v", open, ids)
		}
	}
}

// A result the store did not take is counted as an error, not as what the
// pipeline said: it is not in the queue.
func TestUnsavedResultCountsAsAnError(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m = apply(t, m, RunStartedMsg{Total: 1, At: at})
	m = apply(t, m, ResultMsg{DocID: "inv-003", Result: pipeline.Result{Status: pipeline.StatusOK}, StoreErr: errString("store busy"), At: at.Add(time.Second)})
	line := strings.Split(viewText(m), "\n")[21]
	if !strings.Contains(line, "ok 0") || !strings.Contains(line, "err 1") {
		t.Fatalf("progress line %q", line)
	}
	if !strings.Contains(m.status, "result not saved") {
		t.Fatalf("status %q", m.status)
	}
}

// The background run's result for the document being corrected: a reviewable
// one leaves the editor open; an error closes it, so keys are not typed into
// an editor the screen no longer shows.
func TestResultArrivingWhileEditing(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "e")
	m = apply(t, m, f.result(t, "inv-001", "test-2", rerunResult(t), time.Now()))
	if !m.doc.Capturing() || !strings.Contains(viewText(m), "correct total (money):") {
		t.Fatalf("a reviewable result closed the editor:\n%s", viewText(m))
	}
	failed := pipeline.ErrorResult("inv-001", "", &pipeline.GeneratorError{Err: errString("model unavailable")})
	m = apply(t, m, f.result(t, "inv-001", "test-3", failed, time.Now()))
	if m.doc.Capturing() || !strings.Contains(viewText(m), "pipeline error: ") {
		t.Fatalf("after an error result: capturing=%v\n%s", m.doc.Capturing(), viewText(m))
	}
	if m = press(t, m, "q"); m.page != pageQueue {
		t.Fatal("q after the error result did not leave the document")
	}
}
