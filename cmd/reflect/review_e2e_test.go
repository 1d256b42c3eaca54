package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

// e2eCorpus is four invoices of golden/dataset.jsonl that the keyless local
// extractor reads cleanly, one (odd-9) where an item line carries a second
// total-like amount, so the gate flags total and the document needs review,
// and a blank page of a scan (blank-6), which is no invoice at all: X.
var e2eCorpus = []struct{ id, text string }{
	{"inv-001", "From: billing@acme-supplies.com\nSubject: Invoice INV-1001 for March\n\nHello,\n\nPlease find our invoice below.\n\nACME Supplies Inc.\nInvoice #: INV-1001\nInvoice date: March 3, 2026\n\nBill to: Initech LLC, 4120 Freidrich Lane, Austin TX\n\n2 x Printer toner            $120.00\n1 x Copy paper (10 reams)     $45.50\n\nSubtotal: $165.50\nSales tax (8.25%): $13.65\nTotal due: $179.15 USD\n\nThanks,\nAccounts Receivable"},
	{"inv-002", "Müller & Söhne GmbH\nHauptstraße 12, 80331 München\nUSt-IdNr.: DE123456789\n\nRECHNUNG\nRechnungsnummer: RE-2026-0415\nRechnungsdatum: 15.04.2026\n\nKunde: Beispiel AG, Berlin\n\nPos.  Menge  Bezeichnung              Betrag\n1     3      Beratung (Std.)        1.050,00 €\n2     1      Reisekosten              184,56 €\n\nNettobetrag:         1.234,56 €\nMwSt. 19 %:            234,57 €\nGesamtbetrag:        1.469,13 €\n\nZahlbar innerhalb von 14 Tagen ohne Abzug."},
	{"odd-9", "Northwind Traders\nInvoice NW-96\nDate: 2026-01-16\n1 x Service total 99.00\nTotal 32.40 USD"},
	{"inv-004", "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\nItems came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"},
	{"blank-6", "Page 2 of 2\n\nThis page intentionally left blank."},
	{"inv-005", "KEDAI RUNCIT MAJU JAYA SDN BHD\n(CO. NO. 123456-X)\nLOT 5, JALAN BESAR, 43000 KAJANG, SELANGOR\nTEL: 03-8736 1234\nTAX INVOICE\nINVOICE NO: CS00012345\nDATE: 21/03/2026 14:32\nCASHIER: AMINAH\n-----------------------------\nMILO 1KG           1 x 18.90\nGARDENIA BREAD     2 x  4.20\nTELUR GRED A       1 x 12.50\n-----------------------------\nSUBTOTAL (EXCL SST):  RM 39.80\nSST 6%:               RM  2.39\nTOTAL (INCL SST):     RM 42.19\nCASH                  RM 50.00\nCHANGE                RM  7.81\nTHANK YOU. PLEASE COME AGAIN."},
}

// docTitleRE reads the open document's id from the title line.
var docTitleRE = regexp.MustCompile(`reflect review · \S+ · document (\S+) · you:`)

// traceIDs reads every stored result's trace id: the pipeline draws a fresh
// one per run, so an unchanged id means the document was not run again.
func traceIDs(t *testing.T, storePath string) map[string]string {
	t.Helper()
	st, err := store.Open(storePath, store.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, err := st.Corpora(ctx)
	if err != nil || len(cs) != 1 {
		t.Fatalf("corpora %v: %v", cs, err)
	}
	ids := map[string]string{}
	for _, d := range e2eCorpus {
		r, ok, err := st.Result(ctx, cs[0].ID, d.id)
		if err != nil || !ok || r.TraceID == "" {
			t.Fatalf("stored result of %s: ok=%v err=%v trace=%q", d.id, ok, err, r.TraceID)
		}
		ids[d.id] = r.TraceID
	}
	return ids
}

// The real binary in a real terminal, a reviewer's day: run a corpus in the
// background, bulk-accept the sure fields (B, confirmed, must settle some),
// reject a blank page (X enter, the next document opens), correct the flagged
// field (re-checked), u/U, A on an ok document opens the next and one u takes
// all of it back; quit, reopen and find everything kept with nothing re-run;
// export (the rejected page left out) and evaluate against it (only the
// fields a human decided are scored); then a second process's MCP result
// reaches an open queue within a second, and review_status answers
// "rejected" for the item the reviewer rejected there.
func TestReviewE2EInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the terminal end-to-end test needs it (apt-get install tmux; `make test` does)")
	}
	// A short directory: tmux's socket path must fit in sun_path.
	dir, err := os.MkdirTemp("", "rfe2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := buildBinary(t, dir)

	var corpus bytes.Buffer
	for _, d := range e2eCorpus {
		b, _ := json.Marshal(map[string]string{"id": d.id, "text": d.text})
		corpus.Write(append(b, '\n'))
	}
	corpusPath := filepath.Join(dir, "invoices.jsonl")
	storePath := filepath.Join(dir, "review.db")
	if err := os.WriteFile(corpusPath, corpus.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	tm := &tmuxTerm{t: t, sock: filepath.Join(dir, "tmux.sock"), env: cleanEnv("NO_COLOR=1")}
	t.Cleanup(func() { _, _ = tm.run("kill-server") })
	// A session that outlives the review sessions keeps the server up: when
	// the last session ends the server exits, and the next new-session on the
	// socket would race its shutdown ("server exited unexpectedly").
	tm.must("new-session", "-d", "-s", "keep", "sh", "-c", "sleep 600")

	start := func(session, rcFile string) {
		t.Helper()
		review := fmt.Sprintf("%q review %q --store %q --reviewer e2e --provider local --concurrency 2; echo $? > %q",
			bin, corpusPath, storePath, rcFile)
		tm.must("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "-e", "NO_COLOR=1", "sh", "-c", review)
	}

	// Session 1: the background run finishes; two documents need review,
	// the blank page (lowest confidence, first) and odd-9. The local
	// extractor's evidence tiers flag odd-9's vendor (0.60) and invoice
	// number (0.65) as well as its total: three flagged fields.
	rc1 := filepath.Join(dir, "rc1")
	start("one", rc1)
	s := tm.waitText("one", "6/6", "done", "▶ review  blank-6")
	if !strings.Contains(s, "review 2") || !strings.Contains(s, "err 0") || !strings.Contains(s, "you: e2e") {
		t.Fatalf("run summary:\n%s", s)
	}
	// Bulk accept on the needs-review tab: B, the offered 0.90, enter; the
	// confirmation says how many fields it settles, y writes them. odd-9's
	// date (0.90) and currency (0.95) are the sure ones.
	bulked := bulkAcceptE2E(t, tm, "one")
	// X enter: the blank page is not a document; the next one opens.
	tm.keys("one", "Enter")
	tm.waitText("one", "document blank-6")
	tm.keys("one", "X")
	tm.waitText("one", "not a document (blank-6), note:")
	tm.keys("one", "Enter")
	s = tm.waitText("one", "saved: blank-6 rejected (not a document)", "document odd-9", "needs_review", "3 flagged")
	if bulked == 2 {
		for _, f := range []string{"invoice_date", "currency"} {
			if l := fieldRow(s, f); !strings.Contains(l, "accepted") {
				t.Fatalf("%s after the bulk accept: %q", f, l)
			}
		}
	}
	// NO_COLOR: the cells carry attributes (reverse, bold) but no colour.
	styled := tm.must("capture-pane", "-p", "-e", "-t", "one")
	if c := colourSGR(styled); c != "" {
		t.Fatalf("NO_COLOR screen sets colour %q:\n%q", c, styled)
	}
	if !strings.Contains(styled, "\x1b[7m") && !regexp.MustCompile(`\x1b\[[0-9;]*;7[;m]`).MatchString(styled) {
		t.Fatalf("NO_COLOR screen has no reverse-video selection:\n%q", styled)
	}
	if l := fieldRow(s, "vendor_name"); !strings.HasPrefix(l, "▶!vendor_name") || !strings.Contains(l, "flagged") {
		t.Fatalf("the first flagged field is not selected on open:\n%s", s)
	}
	// a accepts and moves to the next flagged field: two keys, two fields.
	tm.keys("one", "a")
	tm.waitFor("one", "invoice_number selected", func(s string) bool { return strings.HasPrefix(fieldRow(s, "invoice_number"), "▶!") })
	tm.keys("one", "a")
	s = tm.waitFor("one", "total selected", func(s string) bool { return strings.HasPrefix(fieldRow(s, "total"), "▶!") })
	if l := fieldRow(s, "vendor_name"); !strings.Contains(l, "accepted") {
		t.Fatalf("vendor_name after a: %q", l)
	}
	// One correction: e, the value (it replaces the selected old one), enter.
	tm.keys("one", "e")
	tm.waitText("one", "correct total (money): 32.40")
	tm.typeText("one", "99.00")
	tm.waitText("one", "correct total (money): 99.00")
	tm.keys("one", "Enter")
	s = tm.waitText("one", "saved: odd-9 corrected [total]", "re-checked")
	if l := fieldRow(s, "total"); !strings.Contains(l, "99.00") || !strings.Contains(l, "corrected") {
		t.Fatalf("total row after saving: %q\n%s", l, s)
	}
	// u takes back only the last action (the correction); U puts it back.
	tm.keys("one", "u")
	s = tm.waitText("one", "undone: corrected total on odd-9")
	if l := fieldRow(s, "total"); !strings.Contains(l, "32.40") || !strings.Contains(l, "flagged") || !strings.Contains(fieldRow(s, "invoice_number"), "accepted") {
		t.Fatalf("after one u: total %q, invoice_number %q", l, fieldRow(s, "invoice_number"))
	}
	tm.keys("one", "U")
	s = tm.waitText("one", "saved: odd-9 corrected [total]")
	if l := fieldRow(s, "total"); !strings.Contains(l, "99.00") {
		t.Fatalf("after U: %q", l)
	}
	tm.keys("one", "q")
	tm.waitText("one", "queue · needs review", "[ 1 needs review 0 ]", "4 reviewed 2")

	// A on an ok document: one key settles it and opens the next document;
	// one u back in it undoes the whole A. The tab "all" lists the two
	// needs-review documents first, so the first ok one is the third row.
	tm.keys("one", "5", "g", "j", "j")
	tm.waitText("one", "queue · all", "▶ ok ")
	tm.keys("one", "Enter")
	s = tm.waitFor("one", "a document open", func(s string) bool { return docTitleRE.MatchString(s) })
	first := docTitleRE.FindStringSubmatch(s)[1]
	tm.keys("one", "A")
	tm.waitFor("one", "the next document after A", func(s string) bool {
		m := docTitleRE.FindStringSubmatch(s)
		return m != nil && m[1] != first
	})
	tm.keys("one", "[")
	tm.waitText("one", "document "+first)
	tm.keys("one", "u")
	undone := regexp.MustCompile(`undone: accepted ([0-9]+) fields on ` + regexp.QuoteMeta(first))
	s = tm.waitFor("one", "one u undoing the whole A", undone.MatchString)
	if n, _ := strconv.Atoi(undone.FindStringSubmatch(s)[1]); n < 4 {
		t.Fatalf("one u undid %d fields of A:\n%s", n, s)
	}
	tm.keys("one", "q")
	tm.waitText("one", "queue · all")
	tm.keys("one", "q")
	if rc := waitExit(t, tm, "one", rc1); rc != 0 {
		t.Fatalf("first review session exited %d", rc)
	}
	before := traceIDs(t, storePath)

	// Session 2: same corpus and store. Nothing is left to run, the correction
	// is there, and the screen follows a resize.
	rc2 := filepath.Join(dir, "rc2")
	start("two", rc2)
	s = tm.waitText("two", "6 docs · 0 need review · 4 ok · 0 errors · 2 reviewed")
	if strings.Contains(s, "/6 ok") {
		t.Fatalf("the reopened corpus ran documents again:\n%s", s)
	}
	// The reviewed tab: the rejected blank page (✗) first, then odd-9.
	tm.keys("two", "4")
	s = tm.waitText("two", "queue · reviewed", "blank-6")
	if l := lineOf(s, "blank-6"); !strings.Contains(l, " ✗ ") {
		t.Fatalf("the rejected blank-6 is not marked in the reviewed tab: %q", l)
	}
	tm.keys("two", "G")
	tm.waitText("two", "▶ review  odd-9")
	tm.keys("two", "Enter")
	tm.waitText("two", "document odd-9")
	tm.keys("two", "n", "n") // the first flagged field is selected on open; total is the third
	s = tm.waitText("two", "document odd-9", "corrected value found in source")
	if l := fieldRow(s, "total"); !strings.Contains(l, "99.00") || !strings.Contains(l, "corrected") {
		t.Fatalf("correction not kept across sessions: %q\n%s", l, s)
	}
	if w := len([]rune(strings.TrimRight(lineOf(s, "────"), " "))); w != 80 {
		t.Fatalf("divider is %d wide at 80 columns", w)
	}
	tm.must("resize-window", "-t", "two", "-x", "100", "-y", "30")
	s = tm.waitFor("two", "a redraw at 100x30", func(s string) bool {
		return len([]rune(strings.TrimRight(lineOf(s, "────"), " "))) == 100
	})
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) != 30 || !strings.Contains(lines[len(lines)-1], "q back") {
		t.Fatalf("after resize the help bar is not on the last of 30 lines (%d lines):\n%s", len(lines), s)
	}
	if l := fieldRow(s, "total"); !strings.Contains(l, "99.00") || !strings.Contains(l, "corrected") {
		t.Fatalf("total row after resize: %q", l)
	}
	tm.keys("two", "q")
	tm.waitText("two", "queue · reviewed")
	tm.keys("two", "q")
	if rc := waitExit(t, tm, "two", rc2); rc != 0 {
		t.Fatalf("second review session exited %d", rc)
	}
	after := traceIDs(t, storePath)
	for id, tr := range before {
		if after[id] != tr {
			t.Errorf("%s was run again on reopen (trace %s → %s)", id, tr, after[id])
		}
	}

	// Export the review and score the local pipeline against it.
	out := filepath.Join(dir, "out.jsonl")
	exp := exec.Command(bin, "export", "--golden", out, "--store", storePath)
	exp.Env = cleanEnv()
	b, err := exp.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "wrote 1 reviewed document(s)") || !strings.Contains(string(b), "left out 1 rejected") {
		t.Fatalf("export: %v\n%s", err, b)
	}
	t.Logf("%s", bytes.TrimSpace(b))
	rows, lineErrs, err := golden.LoadDataset(out)
	if err != nil || len(lineErrs) > 0 {
		t.Fatalf("exported file: %v %v", err, lineErrs)
	}
	if len(rows) != 1 || rows[0].ID != "odd-9" {
		t.Fatalf("exported rows %+v, want only the reviewed odd-9", rows)
	}
	var row golden.ExportRow
	raw, _ := os.ReadFile(out)
	if err := json.Unmarshal(bytes.TrimSpace(raw), &row); err != nil {
		t.Fatal(err)
	}
	if row.Expected["total"] != 99.0 || row.Review.Reviewer != "e2e" || len(row.Review.Corrected) != 1 || row.Review.Corrected[0] != "total" {
		t.Fatalf("exported row: expected=%v review=%+v", row.Expected, row.Review)
	}
	// Only what a human decided is a label: the three flagged fields and
	// the ones the bulk accept settled.
	decided := 3 + bulked
	if len(row.Expected) != decided || len(row.Review.Confirmed) != decided-1 || len(row.Unreviewed) == 0 {
		t.Fatalf("exported row: expected=%v confirmed=%v unreviewed=%v, want %d decided fields only",
			row.Expected, row.Review.Confirmed, row.Unreviewed, decided)
	}
	if row.Review.Original["total"] != 32.4 {
		t.Errorf("exported original total %v, want the pipeline's 32.4", row.Review.Original["total"])
	}

	ev := exec.Command(bin, "eval", "--dataset", out, "--provider", "local")
	ev.Env = cleanEnv()
	var evOut, evErr bytes.Buffer
	ev.Stdout, ev.Stderr = &evOut, &evErr
	err = ev.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != ExitOK && code != ExitNeedsReview {
		t.Fatalf("eval exit %d\n%s\n%s", code, evOut.String(), evErr.String())
	}
	// The reviewed truth is what eval scores: the local extractor still says
	// 32.40, and the report names the reviewer's 99.0 as expected.
	rep := evOut.String()
	if !strings.Contains(rep, "examples          : 1") || !strings.Contains(rep, "[odd-9] total: expected 99.0") {
		t.Fatalf("eval report does not score the reviewed value:\n%s\n%s", rep, evErr.String())
	}
	acc := fmt.Sprintf("field accuracy    : %.1f%%  (%d/%d)", 100*float64(decided-1)/float64(decided), decided-1, decided)
	if !strings.Contains(rep, acc) || !strings.Contains(rep, fmt.Sprintf("of %d scored fields", decided)) {
		t.Fatalf("eval scored fields nobody confirmed (want %q):\n%s", acc, rep)
	}
	t.Logf("eval of the export: %s", acc)

	liveQueueE2E(t, tm, bin, dir, storePath)
}

// bulkAcceptE2E runs B on the open queue tab with the offered threshold and
// confirms, and returns how many fields it settled. A bulk accept that
// settles nothing fails the test: the day must show it writing.
func bulkAcceptE2E(t *testing.T, tm *tmuxTerm, session string) int {
	t.Helper()
	tm.keys(session, "B")
	tm.waitText(session, "bulk accept fields with confidence ≥ 0.90")
	tm.keys(session, "Enter")
	confirm := regexp.MustCompile(`accept ([0-9]+) fields? in ([0-9]+) documents? at confidence ≥ 0\.90\? y/n`)
	s := tm.waitFor(session, "the bulk accept's confirmation", func(s string) bool {
		return confirm.MatchString(s) || strings.Contains(s, "bulk accept: no undecided field")
	})
	m := confirm.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("bulk accept settles nothing:\n%s", s)
	}
	fields, _ := strconv.Atoi(m[1])
	tm.keys(session, "y")
	done := tm.waitText(session, "bulk accept: "+m[1]+" field")
	t.Logf("%s", strings.TrimSpace(lineOf(done, "bulk accept:")))
	if fields == 0 {
		t.Fatal("bulk accept settled 0 fields")
	}
	return fields
}

// liveQueueE2E: a workstation open on an MCP client's queue shows a result a
// second process queues within a second, without a key pressed.
func liveQueueE2E(t *testing.T, tm *tmuxTerm, bin, dir, storePath string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// call runs one tool in a fresh `reflect mcp` process, as an agent's
	// client would, and returns its structured answer.
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		cmd := exec.Command(bin, "mcp", "--provider", "local", "--store", storePath, "--log-level", "warn")
		cmd.Env = cleanEnv()
		client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-ai", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		var out map[string]any
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s answer: %v (%s)", tool, err, raw)
		}
		return out
	}
	var traces []string
	queueOne := func(total float64) {
		t.Helper()
		env := call("validate", map[string]any{
			"text": "Globex Ltd\nInvoice 77\nAmount due 583.20 GBP", "heuristics_only": true,
			"data": map[string]any{"vendor_name": "Globex Ltd", "total": total}})
		tr, _ := env["trace_id"].(string)
		traces = append(traces, tr)
	}
	queueOne(683.2)
	q := exec.Command(bin, "queues", "--store", storePath)
	q.Env = cleanEnv()
	if out, err := q.CombinedOutput(); err != nil || !strings.Contains(string(out), "claude-ai") {
		t.Fatalf("reflect queues: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "rc3")
	review := fmt.Sprintf("%q review --queue claude-ai --store %q --reviewer e2e; echo $? > %q", bin, storePath, rc)
	tm.must("new-session", "-d", "-s", "three", "-x", "80", "-y", "24", "-e", "NO_COLOR=1", "sh", "-c", review)
	tm.waitText("three", "1 docs · 1 need review")
	queueOne(783.2)
	queued := time.Now()
	tm.waitText("three", "2 docs · 2 need review")
	took := time.Since(queued)
	t.Logf("a result queued by another process appeared in the open queue after %v", took.Round(10*time.Millisecond))
	// The aim is under 1 s (the workstation polls the store every
	// half second; the logged figure above is what the closing note quotes).
	// The test fails only past 3 s: on a loaded 2-core machine tmux's own
	// capture polling adds its share, and a flake here would hide real
	// failures, while a live queue that stopped polling never shows it at all.
	if took > 3*time.Second {
		t.Errorf("the queued result took %v to appear, want about one poll (aim under 1 s)", took)
	}
	// The agent asks about an item the reviewer rejected: "rejected", with
	// the note, for that one; the other is still pending.
	tm.keys("three", "Enter")
	tm.waitText("three", "needs_review")
	tm.keys("three", "X")
	tm.typeText("three", "a test message")
	tm.keys("three", "Enter")
	tm.waitText("three", "rejected (not a document): a test message")
	var got []string
	for _, tr := range traces {
		ans := call("review_status", map[string]any{"trace_id": tr})
		got = append(got, fmt.Sprint(ans["status"]))
		if ans["status"] == "rejected" && (ans["note"] != "a test message" || ans["reviewer"] != "e2e" || ans["record"] != nil) {
			t.Errorf("review_status of the rejected item: %v", ans)
		}
	}
	if slices.Sort(got); !slices.Equal(got, []string{"pending", "rejected"}) {
		t.Errorf("review_status of the two queued items: %v, want one pending and one rejected", got)
	}
	tm.keys("three", "q") // X opened the other item: back to the queue, then quit
	tm.waitText("three", "queue · needs review", "1 need review")
	tm.keys("three", "q")
	if code := waitExit(t, tm, "three", rc); code != 0 {
		t.Fatalf("queue review exited %d", code)
	}
}
