package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

func verdictOf(t *testing.T, f fixture, id string) (store.Verdict, bool) {
	t.Helper()
	v, ok, err := f.st.Verdict(context.Background(), f.corpus.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	return v, ok
}

// TestRejectKey: "X enter" rejects the open document as not a document —
// two keys, written to the store before the status line says saved — and
// opens the next document that needs review; u on it takes the reject back
// as one action and U redoes it.
func TestRejectKey(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "X")
	if !m.doc.Capturing() || !strings.Contains(viewText(m), "not a document (inv-001), note:") {
		t.Fatalf("X opened no note prompt:\n%s", viewText(m))
	}
	m = press(t, m, "enter")
	v, ok := verdictOf(t, f, "inv-001")
	if !ok || v.Action != store.ActionReject || v.Note != "" || v.Reviewer != "tester" {
		t.Fatalf("stored verdict = %+v %v, want tester's reject", v, ok)
	}
	if r := f.row(t, "inv-001"); r.Verdict != store.ActionReject || !r.Reviewed {
		t.Errorf("stored row = %+v", r)
	}
	if m.page != pageDoc || m.doc.DocID() != "inv-002" {
		t.Fatalf("after X enter the page shows %q (page %v), want the next document inv-002", m.doc.DocID(), m.page)
	}
	if !strings.Contains(m.status, "saved: inv-001 rejected") {
		t.Errorf("status = %q", m.status)
	}
	if ids := queueIDs(m); slices.Contains(ids, "inv-001") {
		t.Errorf("needs review still lists the rejected inv-001: %v", ids)
	}
	if got := decisions(t, f, "inv-001"); len(got) != 0 {
		t.Errorf("a reject decided fields: %v", got)
	}

	m = openDoc(t, m, "inv-001")
	if h := strings.SplitN(viewText(m), "\n", 3)[1]; !strings.Contains(h, "inv-001 · REJECTED (not a document) · needs_review") {
		t.Errorf("header of a rejected document: %q", h)
	}
	m = press(t, m, "u")
	if _, ok := verdictOf(t, f, "inv-001"); ok {
		t.Fatal("u left the reject standing")
	}
	if m.doc.hasVerdict || strings.Contains(viewText(m), "REJECTED") || !strings.Contains(m.status, "undone: the document rejected") {
		t.Errorf("after u: verdict shown %v, status %q", m.doc.hasVerdict, m.status)
	}
	if r := f.row(t, "inv-001"); r.Reviewed || r.Verdict != "" {
		t.Errorf("row after u = %+v", r)
	}
	m = press(t, m, "U")
	if v, ok := verdictOf(t, f, "inv-001"); !ok || v.Action != store.ActionReject {
		t.Fatalf("U did not redo the reject: %+v %v", v, ok)
	}
	if !m.doc.hasVerdict {
		t.Error("the page does not show the redone reject")
	}
}

// New user report #15: after X the next document opens; u there has
// nothing of this document to take back, and says where the reject is.
func TestUndoAfterRejectSaysWhereTheRejectIs(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, press(t, m, "X"), "enter")
	if m.doc.DocID() != "inv-002" {
		t.Fatalf("after X enter the page shows %q, want inv-002", m.doc.DocID())
	}
	m = press(t, m, "u")
	if !strings.Contains(m.status, "inv-001 was rejected (not a document)") || !strings.Contains(m.status, "press u there") {
		t.Errorf("u on the next document: status %q", m.status)
	}
	if _, ok := verdictOf(t, f, "inv-001"); !ok {
		t.Error("u on another document took the reject back")
	}
}

// TestRejectOnErrorPage: a page the pipeline could not read can be rejected
// too, with a note; it then leaves the errors tab.
func TestRejectOnErrorPage(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "3")
	if ids := queueIDs(m); !slices.Equal(ids, []string{"inv-004"}) {
		t.Fatalf("errors tab = %v", ids)
	}
	m = openDoc(t, m, "inv-004")
	if h := helpLine(m); !strings.Contains(h, "X not a doc") {
		t.Errorf("the error page's help does not offer X: %q", h)
	}
	m = press(t, m, "X")
	m = typeText(t, m, "fax cover sheet")
	m = press(t, m, "enter")
	v, ok := verdictOf(t, f, "inv-004")
	if !ok || v.Action != store.ActionReject || v.Note != "fax cover sheet" {
		t.Fatalf("verdict = %+v %v", v, ok)
	}
	if n := len(m.queue.views[TabErrors]); n != 0 {
		t.Errorf("errors tab still holds %d documents after the reject", n)
	}
	st, err := f.st.Stats(context.Background(), f.corpus.ID)
	if err != nil || st.Rejected != 1 {
		t.Errorf("stats = %+v %v", st, err)
	}
}

// TestSkipWithNoteKey: S sets the document aside only with a note: enter on
// an empty note says so and writes nothing, esc writes nothing; with a note
// it is stored, the row is marked and stays to review, and the next document
// opens.
func TestSkipWithNoteKey(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "S", "enter")
	if !m.doc.Capturing() || !strings.Contains(viewText(m), "a skip needs a note") {
		t.Fatalf("empty skip note was not refused:\n%s", viewText(m))
	}
	m = press(t, m, "esc")
	if _, ok := verdictOf(t, f, "inv-001"); ok || m.doc.Capturing() {
		t.Fatal("esc on the skip prompt wrote a verdict or left the prompt open")
	}
	m = press(t, m, "S")
	m = typeText(t, m, "two totals, ask finance")
	m = press(t, m, "enter")
	v, ok := verdictOf(t, f, "inv-001")
	if !ok || v.Action != store.ActionSkip || v.Note != "two totals, ask finance" {
		t.Fatalf("verdict = %+v %v", v, ok)
	}
	if r := f.row(t, "inv-001"); r.Verdict != store.ActionSkip || r.Reviewed {
		t.Errorf("row = %+v, want skipped and still to review", r)
	}
	if m.doc.DocID() != "inv-002" {
		t.Errorf("after the skip the page shows %q, want inv-002", m.doc.DocID())
	}
	m = press(t, m, "q")
	if ids := queueIDs(m); !slices.Contains(ids, "inv-001") || !strings.Contains(viewText(m), " » ") {
		t.Errorf("needs review after the skip: %v\n%s", ids, viewText(m))
	}
	m = openDoc(t, m, "inv-001")
	if !strings.Contains(viewText(m), "SKIPPED: two totals, ask finance") {
		t.Errorf("the skipped document does not show its note:\n%s", viewText(m))
	}
}

// Golden screens of the verdict views: the note prompt of X, the refused
// empty note of S, and a rejected document's page, at 80x24 and 120x35.
func TestGoldenRejectPromptView(t *testing.T) {
	m := press(t, openDoc(t, loaded(t, newFixture(t).config()), "inv-001"), "X")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenRejectPromptView120(t *testing.T) {
	m := press(t, openDoc(t, wide(t, loaded(t, newFixture(t).config())), "inv-001"), "X")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenSkipNoteRequiredView(t *testing.T) {
	m := press(t, openDoc(t, loaded(t, newFixture(t).config()), "inv-002"), "S", "enter")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenSkipNoteRequiredView120(t *testing.T) {
	m := press(t, openDoc(t, wide(t, loaded(t, newFixture(t).config())), "inv-002"), "S", "enter")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func rejectedErrorPage(t *testing.T, m Model) Model {
	t.Helper()
	m = press(t, openDoc(t, m, "inv-004"), "X")
	m = typeText(t, m, "fax cover sheet")
	m = press(t, m, "enter")
	return openDoc(t, m, "inv-004")
}

func TestGoldenRejectedErrorView(t *testing.T) {
	m := rejectedErrorPage(t, loaded(t, newFixture(t).config()))
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenRejectedErrorView120(t *testing.T) {
	m := rejectedErrorPage(t, wide(t, loaded(t, newFixture(t).config())))
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// TestBulkAcceptPassesOverVerdicts: a bulk accept settles no field of a
// document rejected as not a document, or set aside with a note.
func TestBulkAcceptPassesOverVerdicts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, d := range []store.Decision{
		store.VerdictDecision(f.corpus.ID, "inv-003", "tester", store.ActionReject, ""),
		store.VerdictDecision(f.corpus.ID, "inv-005", "tester", store.ActionSkip, "ask"),
	} {
		if _, err := f.st.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	plan := planBulk(ctx, f.st, f.corpus.ID, "tester", []string{"inv-001", "inv-003", "inv-005"}, 0.9)
	if plan.Err != nil || len(plan.Plan) != 1 || plan.Plan[0].DocID != "inv-001" {
		t.Fatalf("plan = %+v, want only inv-001's fields", plan)
	}
}

// TestKeystrokesPerDocument pins the README's counts, from a document open
// to the next one open: every field right, 1 key (A); one wrong value on the
// flagged field selected on open, the value + 3 keys (e, value, enter, A);
// not a document, 2 keys (X enter).
func TestKeystrokesPerDocument(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "2") // ok: inv-005, inv-003
	m = openDoc(t, m, "inv-005")
	m = press(t, m, "A")
	if m.doc.DocID() != "inv-003" || !f.row(t, "inv-005").Reviewed {
		t.Fatalf("A: open %s, inv-005 reviewed %v; want inv-003 open after 1 key", m.doc.DocID(), f.row(t, "inv-005").Reviewed)
	}

	m = press(t, m, "q", "1") // needs review: inv-001 (total flagged), inv-002
	m = openDoc(t, m, "inv-001")
	m = press(t, m, "e")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter", "A")
	if m.doc.DocID() != "inv-002" || decisions(t, f, "inv-001")["total"].Value != 583.2 || !f.row(t, "inv-001").Reviewed {
		t.Fatalf("e 583.20 enter A: open %s, inv-001 decisions %v", m.doc.DocID(), decisions(t, f, "inv-001"))
	}

	m = press(t, m, "X", "enter")
	if v, ok := verdictOf(t, f, "inv-002"); !ok || v.Action != store.ActionReject || m.page != pageQueue {
		t.Fatalf("X enter: verdict %+v %v, page %v; want inv-002 rejected and the emptied tab's queue back", v, ok, m.page)
	}
}

// TestHistoryNamesVerdicts: the history pane says what a verdict did in
// words, not as a field set to its note.
func TestHistoryNamesVerdicts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.st.Decide(ctx, store.VerdictDecision(f.corpus.ID, "inv-002", "ann", store.ActionReject, "a quote")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.UndoAction(ctx, f.corpus.ID, "inv-002", "ann"); err != nil {
		t.Fatal(err)
	}
	es, err := f.st.Audit(ctx, f.corpus.ID)
	if err != nil || len(es) != 2 {
		t.Fatalf("audit = %v %v", es, err)
	}
	if l := historyLine(es[0]); !strings.HasSuffix(l, "ann  document rejected (not a document): a quote") {
		t.Errorf("reject line = %q", l)
	}
	if l := historyLine(es[1]); !strings.HasSuffix(l, `ann  undid the document's verdict (note was "a quote")`) {
		t.Errorf("undo line = %q", l)
	}
}

// TestExportKeySaysRejectedLeftOut: E writes the reviewed documents and says
// how many rejected ones it left out; the stats panel counts them.
func TestExportKeySaysRejectedLeftOut(t *testing.T) {
	f := newFixture(t)
	cfg := f.config()
	cfg.ExportPath = filepath.Join(t.TempDir(), "out.golden.jsonl")
	m := openDoc(t, loaded(t, cfg), "inv-001")
	m = press(t, m, "A")               // inv-001 reviewed; inv-002 opens
	m = press(t, m, "X", "enter", "E") // inv-002 rejected
	if m.statusErr || !strings.Contains(m.status, "exported 1 reviewed documents") ||
		!strings.Contains(m.status, "left out 1 rejected (not a document)") {
		t.Fatalf("status after E: %q", m.status)
	}
	if b, err := os.ReadFile(cfg.ExportPath); err != nil || strings.Contains(string(b), "inv-002") {
		t.Errorf("export: %v\n%s", err, b)
	}
	m = press(t, m, "s")
	if v := viewText(m); !strings.Contains(v, "rejected / skipped with a note") || !strings.Contains(v, "1 / 0") {
		t.Errorf("stats panel:\n%s", v)
	}
}

// TestExportKeyNeverOverwritesAnotherCorpusExport is new-user report #4:
// two corpora named invoices.jsonl in different directories both wrote
// invoices.golden.jsonl, the second replacing the first's 15 rows with 1.
// The default name carries the corpus id, and E refuses a file that holds
// another corpus's export, leaving it as it was.
func TestExportKeyNeverOverwritesAnotherCorpusExport(t *testing.T) {
	f := newFixture(t)
	other := store.Corpus{ID: "file:0123456789abcdef", Name: f.corpus.Name, Kind: "file"}
	if a, b := golden.DefaultExportName(f.corpus), golden.DefaultExportName(other); a == b {
		t.Fatalf("two corpora named %q share the default export name %q", f.corpus.Name, a)
	}
	cfg := f.config()
	cfg.ExportPath = filepath.Join(t.TempDir(), "invoices.golden.jsonl")
	theirs := `{"id":"x-1","text":"t","expected":{"total":1},"unreviewed":{},"review":{"corpus":"file:0123456789abcdef"}}` + "\n"
	if err := os.WriteFile(cfg.ExportPath, []byte(theirs), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openDoc(t, loaded(t, cfg), "inv-001")
	m = press(t, m, "A", "E")
	if !m.statusErr || !strings.Contains(m.status, "export of corpus file:0123456789abcdef") {
		t.Errorf("status after E over another corpus's export: %q (error %v)", m.status, m.statusErr)
	}
	if b, err := os.ReadFile(cfg.ExportPath); err != nil || string(b) != theirs {
		t.Errorf("the other corpus's export was replaced: %v\n%s", err, b)
	}
	// Its own earlier export is replaced as before.
	cfg.ExportPath = filepath.Join(t.TempDir(), golden.DefaultExportName(f.corpus))
	m = openDoc(t, loaded(t, cfg), "inv-001")
	m = press(t, m, "E")
	m = press(t, m, "E")
	if m.statusErr || !strings.Contains(m.status, "exported 1 reviewed documents") {
		t.Errorf("second E over its own export: %q", m.status)
	}
}

// New-user report (session 6): after S the hint sent the reviewer to the
// reviewed tab, where a skipped document is not; it stays in needs review,
// marked ». A reject's hint still names the reviewed tab.
func TestUndoAfterSkipSaysWhereTheSkipIs(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "S")
	m = typeText(t, m, "two totals, ask finance")
	m = press(t, m, "enter")
	if m.doc.DocID() == "inv-001" {
		t.Fatalf("after S enter the page still shows inv-001")
	}
	m = press(t, m, "u")
	if !strings.Contains(m.status, "inv-001 was skipped") || !strings.Contains(m.status, "needs review (1), marked »") {
		t.Errorf("u on the next document after a skip: status %q", m.status)
	}
	if strings.Contains(m.status, "reviewed tab") {
		t.Errorf("the hint names the reviewed tab, where a skipped document is not: %q", m.status)
	}
}
