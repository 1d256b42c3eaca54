package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// textNorth prints a subtotal, tax and total that add up; the fixture's
// result read the cash tendered (600.00) as the subtotal, so the gate flags
// both sides of the broken relation.
const textNorth = "Northwind Traders\nInvoice 4410\n2024-05-02\nItems 540.00\nTax 43.20\nCash 600.00\nAmount 583.20\nCurrency EUR"

// northFixture is the five-document fixture plus inv-006, whose result the
// real heuristics and gate produced: subtotal and total both flagged.
func northFixture(t *testing.T) fixture {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	doc := store.Document{CorpusID: f.corpus.ID, ID: "inv-006", Seq: 5, Text: textNorth}
	if err := f.st.PutCorpus(ctx, f.corpus, append(f.docs, doc)); err != nil {
		t.Fatal(err)
	}
	s := pipeline.Invoice()
	rec := pipeline.Record{"vendor_name": "Northwind Traders", "invoice_number": "4410", "invoice_date": "2024-05-02",
		"subtotal": 600.0, "tax": 43.2, "total": 583.2, "currency": "EUR"}
	res := pipeline.Gate(s, rec, nil, pipeline.RunHeuristics(textNorth, s, rec), nil, pipeline.DefaultGate())
	res.ID = "inv-006"
	if !res.Flagged("subtotal") || !res.Flagged("total") {
		t.Fatalf("fixture result flags %+v, want subtotal and total", res.FlaggedFields)
	}
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "inv-006", "test-1", res); err != nil {
		t.Fatal(err)
	}
	f.docs = append(f.docs, doc)
	return f
}

// a accepts and moves on to the next flagged field nobody decided.
func TestAcceptMovesToNextFlagged(t *testing.T) {
	f := northFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-006")
	if got := m.doc.selected().Name; got != "subtotal" {
		t.Fatalf("opened on %s, want the first flagged field", got)
	}
	m = press(t, m, "a")
	if got := m.doc.selected().Name; got != "total" {
		t.Fatalf("after a on subtotal the cursor is on %s, want total", got)
	}
	if decisions(t, f, "inv-006")["subtotal"].Action != store.ActionAccept {
		t.Fatal("subtotal not accepted")
	}
}

// space skips a flagged field without deciding it.
func TestSpaceSkipsField(t *testing.T) {
	f := northFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-006")
	m = press(t, m, "space")
	if got := m.doc.selected().Name; got != "total" || len(decisions(t, f, "inv-006")) != 0 {
		t.Fatalf("space: on %s with %d decisions, want total and none", got, len(decisions(t, f, "inv-006")))
	}
}

// A correction re-runs the checks: correcting the subtotal repairs the
// relation, so the total's flag and reason go; undoing it brings them back.
func TestCorrectionRechecksOtherFields(t *testing.T) {
	f := northFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-006")
	if !strings.Contains(m.doc.reason("total"), "!= total") {
		t.Fatalf("total's reason before: %q", m.doc.reason("total"))
	}
	m = press(t, m, "e")
	m = typeText(t, m, "540") // the value is selected: typing replaces it
	m = press(t, m, "enter")
	if d := decisions(t, f, "inv-006")["subtotal"]; d.Action != store.ActionCorrect || d.Value != 540.0 {
		t.Fatalf("stored %+v, want subtotal corrected to 540", d)
	}
	if m.doc.res.Flagged("total") || m.doc.reason("total") != "" || m.doc.fieldStatus("total") != "ok" {
		t.Fatalf("after correcting the subtotal, total is %q with reason %q", m.doc.fieldStatus("total"), m.doc.reason("total"))
	}
	if !m.doc.rechecked {
		t.Error("page does not say it re-checked")
	}
	m = press(t, m, "u")
	if !m.doc.res.Flagged("total") {
		t.Error("undoing the correction left total unflagged")
	}
}

// A is one action: it accepts the rest and opens the next document; one u
// there undoes all of it, U redoes it.
func TestAcceptAllUndoRedoIsOneAction(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "5") // the "all" tab keeps inv-001 in view
	m = openDoc(t, m, "inv-001")
	m = press(t, m, "A")
	if m.doc.DocID() != "inv-002" {
		t.Fatalf("A left %q open, want the next document", m.doc.DocID())
	}
	if n := len(decisions(t, f, "inv-001")); n != 7 {
		t.Fatalf("A stored %d decisions", n)
	}
	m = press(t, m, "u")
	if !strings.Contains(m.status, "nothing") && len(decisions(t, f, "inv-001")) != 7 {
		t.Fatalf("u in inv-002 reached into inv-001: %q", m.status)
	}
	m = press(t, m, "[")
	m = press(t, m, "u")
	if n := len(decisions(t, f, "inv-001")); n != 0 {
		t.Fatalf("one u left %d of A's decisions", n)
	}
	if !strings.Contains(m.status, "undone: accepted 7 fields on inv-001") {
		t.Errorf("status %q", m.status)
	}
	m = press(t, m, "U")
	if n := len(decisions(t, f, "inv-001")); n != 7 {
		t.Fatalf("U restored %d decisions, want 7", n)
	}
	m = press(t, m, "U")
	if !strings.Contains(m.status, "nothing to redo") {
		t.Errorf("second U: %q", m.status)
	}
}

// u on the queue says what it does instead of reaching into some document.
func TestUndoOnQueueSaysOpenADocument(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "a", "q", "u")
	if len(decisions(t, f, "inv-001")) != 1 || !strings.Contains(m.status, "open one first") {
		t.Fatalf("u on the queue: status %q, decisions %d", m.status, len(decisions(t, f, "inv-001")))
	}
}

// A on the last document needing review comes back to the queue.
func TestAcceptAllOnLastDocumentReturnsToQueue(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "A")
	if m.doc.DocID() != "inv-002" {
		t.Fatalf("A opened %s", m.doc.DocID())
	}
	m = press(t, m, "A")
	if m.page != pageQueue || !strings.Contains(m.status, "no more documents") {
		t.Fatalf("page %v status %q", m.page, m.status)
	}
}

// enter shows the whole reason and the notes in place of the source text.
func TestEnterExpandsReason(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m.doc.res.Notes = "1 field(s) below the 70% confidence threshold. | Passed with a note: tax: rounded"
	m = press(t, m, "enter")
	v := viewText(m)
	if !strings.Contains(v, "reason: 683.20 not found in source; subtotal + tax = 583.20") || !strings.Contains(v, "note: Passed with a note") {
		t.Fatalf("expanded view:\n%s", v)
	}
	m = press(t, m, "enter")
	if !strings.Contains(viewText(m), "Invoice No: A-1001") {
		t.Error("enter again does not bring the source text back")
	}
}

// The status line says who I am.
func TestTitleShowsReviewer(t *testing.T) {
	m := loaded(t, newFixture(t).config())
	if !strings.Contains(viewText(m), "you: tester") {
		t.Fatalf("view:\n%s", viewText(m))
	}
}
