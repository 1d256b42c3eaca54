package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

func stripView(s string) string { return ansi.Strip(s) }

func TestQueueOrderAndTabs(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())

	// Default tab: needs review, lowest confidence first.
	if got, want := queueIDs(m), []string{"inv-001", "inv-002"}; !slices.Equal(got, want) {
		t.Fatalf("needs review tab = %v, want %v", got, want)
	}
	m = press(t, m, "5")
	if got, want := queueIDs(m), []string{"inv-001", "inv-002", "inv-004", "inv-005", "inv-003"}; !slices.Equal(got, want) {
		t.Fatalf("all tab = %v, want %v (needs review, error, then ok by confidence)", got, want)
	}
	m = press(t, m, "2")
	if got, want := queueIDs(m), []string{"inv-005", "inv-003"}; !slices.Equal(got, want) {
		t.Fatalf("ok tab = %v, want %v", got, want)
	}
	m = press(t, m, "tab")
	if m.queue.tab != TabErrors || !slices.Equal(queueIDs(m), []string{"inv-004"}) {
		t.Fatalf("tab → %v %v, want errors [inv-004]", m.queue.tab, queueIDs(m))
	}
	m = press(t, m, "shift+tab", "shift+tab")
	if m.queue.tab != TabNeedsReview {
		t.Fatalf("shift+tab twice from errors → %v, want needs review", m.queue.tab)
	}
	m = press(t, m, "shift+tab", "shift+tab")
	if m.queue.tab != TabAll {
		t.Fatalf("shift+tab wraps to audit, then %v, want all", m.queue.tab)
	}
	v := viewText(m)
	for _, want := range []string{"needs review 2", "ok 2", "errors 1", "reviewed 0", "all 5", "▶ review  inv-001"} {
		if !strings.Contains(v, want) {
			t.Errorf("queue view lacks %q:\n%s", want, v)
		}
	}
}

func TestQueueNavigationAndTextFilter(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "5")
	m = press(t, m, "j", "j")
	if id, _ := m.queue.Selected(); id != "inv-004" {
		t.Fatalf("after j j selected %s, want inv-004", id)
	}
	m = press(t, m, "G")
	if id, _ := m.queue.Selected(); id != "inv-003" {
		t.Fatalf("G selected %s", id)
	}
	m = press(t, m, "/")
	if !m.queue.Capturing() {
		t.Fatal("/ did not start filtering")
	}
	// Letters are filter text now, not commands (s would open stats, q quit).
	m = typeText(t, m, "supplies")
	if got := queueIDs(m); !slices.Equal(got, []string{"inv-002"}) {
		t.Fatalf("filter 'supplies' = %v", got)
	}
	if m.showStats {
		t.Fatal("typing s in the filter opened stats")
	}
	m = press(t, m, "enter")
	if m.queue.Capturing() || m.queue.query != "supplies" {
		t.Fatalf("enter should keep the filter and stop editing: capturing=%v query=%q", m.queue.Capturing(), m.queue.query)
	}
	if !strings.Contains(viewText(m), `filter: "supplies"`) {
		t.Error("active filter not shown")
	}
	// Filter by id, case-insensitive.
	m = press(t, m, "/")
	m = press(t, m, "ctrl+u")
	m = typeText(t, m, "INV-00")
	if got := len(queueIDs(m)); got != 5 {
		t.Fatalf("filter INV-00 matches %d, want 5", got)
	}
	m = press(t, m, "esc")
	if m.queue.query != "" || len(queueIDs(m)) != 5 {
		t.Fatalf("esc should clear the filter, query=%q", m.queue.query)
	}
}

func openDoc(t *testing.T, m Model, id string) Model {
	t.Helper()
	m = apply(t, m, OpenDocMsg{DocID: id})
	if m.page != pageDoc || m.doc.loading || m.doc.loadErr != nil {
		t.Fatalf("doc %s not open: page=%v loading=%v err=%v", id, m.page, m.doc.loading, m.doc.loadErr)
	}
	return m
}

// selectField moves the selection with k and j only, as a reviewer would.
func selectField(t *testing.T, m Model, name string) Model {
	t.Helper()
	for range m.doc.fields {
		m = press(t, m, "k")
	}
	for range m.doc.fields {
		if m.doc.selected().Name == name {
			return m
		}
		m = press(t, m, "j")
	}
	t.Fatalf("field %s not reachable", name)
	return m
}

func TestDocumentFieldNavigationAndHighlights(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "enter")
	if m.page != pageDoc || m.doc.DocID() != "inv-001" {
		t.Fatalf("enter opened %q", m.doc.DocID())
	}
	// Opens on the first flagged field.
	if got := m.doc.selected().Name; got != "total" {
		t.Fatalf("selected %s, want total (the flagged field)", got)
	}
	m = press(t, m, "k")
	if got := m.doc.selected().Name; got != "tax" {
		t.Fatalf("k → %s, want tax", got)
	}
	m = press(t, m, "down", "down")
	if got := m.doc.selected().Name; got != "currency" {
		t.Fatalf("down down → %s, want currency", got)
	}
	m = press(t, m, "n")
	if got := m.doc.selected().Name; got != "total" {
		t.Fatalf("n wraps to %s, want total", got)
	}
	m = press(t, m, "N")
	if got := m.doc.selected().Name; got != "total" {
		t.Fatalf("N with one flagged field → %s", got)
	}

	// The vendor span follows multi-byte runes: highlight exactly
	// "Café Müller GmbH" (16 code points, 18 bytes).
	m = press(t, m, "g") // not bound on the document: no change
	m = selectField(t, m, "vendor_name")
	sp := runeSpan(t, textCafe, "Café Müller GmbH")
	for i, c := range m.doc.text.class {
		in := i >= sp.Start && i < sp.End
		if in && c != classSelected {
			t.Fatalf("rune %d (%q) of the selected span has class %d", i, m.doc.text.runes[i], c)
		}
		if !in && c == classSelected {
			t.Fatalf("rune %d (%q) outside the span is selected", i, m.doc.text.runes[i])
		}
	}
	if tot := runeSpan(t, textCafe, "540.00"); m.doc.text.class[tot.Start] != classSpan {
		t.Errorf("subtotal span class %d, want plain span", m.doc.text.class[tot.Start])
	}
	v := viewText(m)
	for _, want := range []string{"Café Müller GmbH", "▶ vendor_name", "!total", "flagged", "critic: critic checked inv-001"} {
		if !strings.Contains(v, want) {
			t.Errorf("document view lacks %q:\n%s", want, v)
		}
	}
	m = press(t, m, "n")
	if !strings.Contains(viewText(m), "reason: 683.20 not found in source") {
		t.Errorf("reason of the selected flagged field not shown:\n%s", viewText(m))
	}
	m = press(t, m, "q")
	if m.page != pageQueue {
		t.Fatal("q on the document did not go back to the queue")
	}
}

func TestAcceptIsSavedOnlyAfterTheStoreWrite(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")

	nm, cmd := m.Update(keyMsg("a"))
	m = nm.(Model)
	if cmd == nil {
		t.Fatal("accept returned no command")
	}
	if got := m.doc.fieldStatus("total"); got != "saving…" {
		t.Fatalf("before the write the field is %q, want saving…", got)
	}
	if len(decisions(t, f, "inv-001")) != 0 {
		t.Fatal("Update wrote to the store itself")
	}
	m = runCmd(t, m, cmd, 0)
	if got := m.doc.fieldStatus("total"); got != "accepted" {
		t.Fatalf("after the write the field is %q, want accepted", got)
	}
	d, ok := decisions(t, f, "inv-001")["total"]
	if !ok || d.Action != store.ActionAccept || d.Reviewer != "tester" || d.Value != 683.2 {
		t.Fatalf("stored decision = %+v", d)
	}
	row, _ := m.queue.Row("inv-001")
	if !row.Reviewed || row.Decisions != 1 {
		t.Fatalf("row after accepting the only flagged field: %+v", row)
	}
	if slices.Contains(queueIDs(m), "inv-001") {
		t.Error("reviewed document still in the needs-review tab")
	}
}

func TestCorrectValidValueIsRegrounded(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "e")
	if !m.doc.Capturing() {
		t.Fatal("e did not open the editor")
	}
	if got := m.doc.edit.input.Value(); got != "683.20" {
		t.Fatalf("editor starts with %q, want the current value 683.20", got)
	}
	m = press(t, m, "ctrl+u")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter")
	if m.doc.Capturing() {
		t.Fatalf("editor still open: %s", m.doc.edit.err)
	}
	d := decisions(t, f, "inv-001")["total"]
	if d.Action != store.ActionCorrect || d.Value != 583.2 || d.Original != 683.2 {
		t.Fatalf("stored decision = %+v", d)
	}
	if got := m.doc.fieldStatus("total"); got != "corrected" {
		t.Fatalf("status %q", got)
	}
	want := runeSpan(t, textCafe, "583.20")
	got := m.doc.regrounds["total"]
	if len(got) == 0 || got[0] != want {
		t.Fatalf("re-grounded span = %v, want %v", got, want)
	}
	if m.doc.text.class[want.Start] != classSelected {
		t.Error("corrected value's span not highlighted")
	}
	v := viewText(m)
	if !strings.Contains(v, "583.20") || !strings.Contains(v, "corrected value found in source") {
		t.Errorf("view after correction:\n%s", v)
	}
	row, _ := m.queue.Row("inv-001")
	if row.Corrected != 1 || !row.Reviewed {
		t.Errorf("row = %+v", row)
	}
}

func TestCorrectRejectsInvalidInput(t *testing.T) {
	cases := []struct {
		field, input, wantErr string
	}{
		{"total", "twelve", "not an amount"},
		{"invoice_date", "2024-02-30", "not a date"},
		{"invoice_date", "03/04/2024", "could be 2024-04-03 or 2024-03-04"},
		{"currency", "US", "not a currency code"},
		{"currency", "U$D", "not a currency code"},
		{"currency", "XYZ", "not a currency code"},
		{"currency", "$", "could be"},
		{"vendor_name", "   ", "empty value"},
	}
	for _, tc := range cases {
		t.Run(tc.field+"/"+tc.input, func(t *testing.T) {
			f := newFixture(t)
			m := openDoc(t, loaded(t, f.config()), "inv-001")
			m = selectField(t, m, tc.field)
			m = press(t, m, "e", "ctrl+u")
			m = typeText(t, m, tc.input)
			m = press(t, m, "enter")
			if !m.doc.Capturing() || !strings.Contains(m.doc.edit.err, tc.wantErr) {
				t.Fatalf("editor open=%v err=%q, want error containing %q", m.doc.Capturing(), m.doc.editErr(), tc.wantErr)
			}
			if !strings.Contains(viewText(m), tc.wantErr) {
				t.Errorf("error not shown:\n%s", viewText(m))
			}
			if len(decisions(t, f, "inv-001")) != 0 {
				t.Fatal("invalid input reached the store")
			}
			m = press(t, m, "esc")
			if m.doc.Capturing() || m.page != pageDoc {
				t.Fatal("esc should close only the editor")
			}
		})
	}
	// Valid forms of each kind are normalized.
	inv := pipeline.Invoice()
	for _, tc := range []struct {
		field, in string
		want      any
	}{{"total", "1,234.50", 1234.5}, {"currency", "eur", "EUR"}, {"invoice_date", "2024-02-29", "2024-02-29"},
		// The forms the heuristics read in documents are accepted too.
		{"invoice_date", "15/03/2024", "2024-03-15"}, {"invoice_date", "15.03.2024", "2024-03-15"},
		{"currency", "€", "EUR"}, {"currency", "RM", "MYR"}, {"currency", "rm", "MYR"}} {
		fl, _ := inv.Field(tc.field)
		got, err := parseCorrection(fl, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseCorrection(%s, %q) = %v, %v; want %v", tc.field, tc.in, got, err, tc.want)
		}
	}
}

func TestSetNullAndUndo(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-002")
	m = selectField(t, m, "invoice_date")
	m = press(t, m, "x")
	d := decisions(t, f, "inv-002")["invoice_date"]
	if d.Action != store.ActionSetNull || d.Value != nil {
		t.Fatalf("stored %+v", d)
	}
	if got := m.doc.fieldStatus("invoice_date"); got != "set null" {
		t.Fatalf("status %q", got)
	}
	if sp := m.doc.spans("invoice_date"); len(sp) != 0 {
		t.Errorf("a nulled field still has spans %v", sp)
	}
	m = press(t, m, "u")
	if len(decisions(t, f, "inv-002")) != 0 {
		t.Fatal("undo left the decision in the store")
	}
	if got := m.doc.fieldStatus("invoice_date"); got != "flagged" {
		t.Fatalf("after undo status %q, want flagged", got)
	}
	if !strings.Contains(m.status, "undone") {
		t.Errorf("status %q", m.status)
	}
	row, _ := m.queue.Row("inv-002")
	if row.Reviewed || row.Decisions != 0 {
		t.Errorf("row after undo %+v", row)
	}
	m = press(t, m, "u")
	if m.status != "nothing to undo" {
		t.Errorf("second undo: %q", m.status)
	}
}

func TestAcceptAllThenNextDocument(t *testing.T) {
	f := newFixture(t)
	m := press(t, loaded(t, f.config()), "enter")
	m = press(t, m, "A")
	ds := decisions(t, f, "inv-001")
	if len(ds) != len(pipeline.Invoice().Fields) {
		t.Fatalf("A stored %d decisions, want every field", len(ds))
	}
	for name, d := range ds {
		if d.Action != store.ActionAccept {
			t.Errorf("%s: %s", name, d.Action)
		}
	}
	// inv-001 left the needs-review view; A opened the one after it.
	if m.page != pageDoc || m.doc.DocID() != "inv-002" {
		t.Fatalf("A left %q open, want inv-002", m.doc.DocID())
	}
	m = press(t, m, "]")
	if m.doc.DocID() != "inv-002" || !strings.Contains(m.status, "no more documents") {
		t.Fatalf("] past the end: doc %s status %q", m.doc.DocID(), m.status)
	}
}

func TestDecisionErrorKeepsOldState(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	// The document vanishing from under the screen makes Decide fail for real.
	m.doc.docID = "inv-404"
	m = press(t, m, "a")
	if !m.statusErr || !strings.Contains(m.status, "not saved") {
		t.Fatalf("status %q err=%v", m.status, m.statusErr)
	}
	if got := m.doc.fieldStatus("total"); got != "flagged" {
		t.Fatalf("failed decision shows %q, want the old flagged state", got)
	}
	if len(decisions(t, f, "inv-001")) != 0 {
		t.Fatal("decision stored")
	}
}

type scriptedRunner struct {
	fn func(ctx context.Context, doc pipeline.Document) (pipeline.Result, error)
}

func (r scriptedRunner) Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error) {
	return r.fn(ctx, doc)
}

func TestRetryErrorDocument(t *testing.T) {
	f := newFixture(t)
	cfg := f.config()
	calls := 0
	cfg.Runner = scriptedRunner{fn: func(_ context.Context, doc pipeline.Document) (pipeline.Result, error) {
		calls++
		return buildResult(t, doc.ID, doc.Text, pipeline.Record{"vendor_name": "smudged fax"}, nil, 0.8), nil
	}}
	m := openDoc(t, loaded(t, cfg), "inv-004")
	v := viewText(m)
	if !strings.Contains(v, "pipeline error: generator: model returned invalid JSON") || !strings.Contains(v, "press r") {
		t.Fatalf("error document view:\n%s", v)
	}
	m = press(t, m, "r")
	if calls != 1 {
		t.Fatalf("runner called %d times", calls)
	}
	r, ok, err := f.st.Result(context.Background(), f.corpus.ID, "inv-004")
	if err != nil || !ok || r.Status != pipeline.StatusOK {
		t.Fatalf("stored result after retry: %v %v %v", r.Status, ok, err)
	}
	if m.doc.res.Status != pipeline.StatusOK {
		t.Fatalf("document still shows %s", m.doc.res.Status)
	}
	if row, _ := m.queue.Row("inv-004"); row.Status != pipeline.StatusOK {
		t.Errorf("row %+v", row)
	}
	m = press(t, m, "r")
	if calls != 1 {
		t.Error("r re-ran a document that no longer failed")
	}
}

func TestStatsPanelAndExportAndHelp(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	m = press(t, m, "s")
	v := viewText(m)
	if !m.showStats || !strings.Contains(v, "needs review (pending)") || !strings.Contains(v, "catch rate") {
		t.Fatalf("stats panel:\n%s", v)
	}
	if m.stats.stats.Documents != 5 || m.stats.stats.Errors != 1 {
		t.Errorf("stats %+v", m.stats.stats)
	}
	m = press(t, m, "s")
	if m.showStats {
		t.Fatal("s did not close the panel")
	}
	m = press(t, m, "?")
	if !m.help.ShowAll || !strings.Contains(viewText(m), "export golden") {
		t.Fatalf("full help:\n%s", viewText(m))
	}
	if got := strings.Count(viewText(m), "\n") + 1; got != 24 {
		t.Errorf("view with full help has %d lines, want 24", got)
	}
}

func TestResizeKeepsTheScreenInBounds(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	for _, size := range [][2]int{{80, 24}, {120, 40}, {50, 14}, {80, 24}} {
		m = apply(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, page := range []string{"queue", "doc"} {
			if page == "doc" {
				m = openDoc(t, m, "inv-001")
			}
			v := viewText(m)
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d %s: %d lines", size[0], size[1], page, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%dx%d %s: line %d is %d wide: %q", size[0], size[1], page, i, w, l)
				}
			}
			if page == "doc" {
				m = press(t, m, "esc")
			}
		}
	}
}

func TestNoColorStylesStayDistinguishable(t *testing.T) {
	st := NewStyles(true)
	for name, s := range map[string]string{
		"selected": st.SpanSelected.Render("x"), "flagged": st.SpanFlagged.Render("x"), "span": st.Span.Render("x"),
		"row": st.RowSelected.Render("x"), "error": st.Error.Render("x"),
	} {
		if strings.Contains(s, "[3") && strings.Contains(s, ";3") || strings.Contains(s, "38;") {
			t.Errorf("%s sets a colour without colour: %q", name, s)
		}
		if s == "x" {
			t.Errorf("%s has no attribute at all: indistinguishable without colour", name)
		}
	}
	if st.SpanSelected.Render("x") == st.SpanFlagged.Render("x") || st.SpanFlagged.Render("x") == st.Span.Render("x") {
		t.Error("selected, flagged and plain spans render alike without colour")
	}
	if c := NewStyles(false).SpanFlagged.Render("x"); c == st.SpanFlagged.Render("x") {
		t.Error("colour styles equal no-colour styles")
	}
}

// A provider's error is read whole on the document page: wrapped over a few
// lines, not cut at the window's width, and the page keeps its height.
func TestLongPipelineErrorWraps(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-004")
	cause := "generator: POST https://api.example.com/v1/chat/completions: 429 Too Many Requests: " +
		"rate limit reached for requests per minute on this organization; retry after 20s"
	m.doc.res.ErrorMessage = cause
	v := viewText(m)
	if got := strings.Join(strings.Fields(v), " "); !strings.Contains(strings.ReplaceAll(got, "/ ", "/"), "retry after 20s") {
		t.Fatalf("the error's end is not on the page:\n%s", v)
	}
	if lines := strings.Count(v, "\n") + 1; lines > 24 {
		t.Fatalf("the page is %d lines in a 24-line window:\n%s", lines, v)
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line of %d cells in 80 columns: %q", w, l)
		}
	}
}
