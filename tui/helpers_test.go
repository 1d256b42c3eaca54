package tui

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

const (
	textCafe = "Café Müller GmbH\nInvoice No: A-1001\nDate: 2024-03-15\nSubtotal: 540.00\nTax: 43.20\nTotal due: 583.20\nCurrency: EUR €"
	textAcme = "ACME Supplies\nInvoice #778\nIssued 03/04/2024\nTotal 99.00 USD"
	textBlue = "Blue Bottle Coffee\nReceipt 5521\n2024-01-09\nTotal 12.50 USD"
	textGone = "smudged fax, nothing legible"
	textLake = "Lakeside Hardware\nInvoice 9001\n2023-12-01\nTotal 250.00 GBP"
)

// runeSpan is where sub occurs in text, in code points.
func runeSpan(t testing.TB, text, sub string) pipeline.Span {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in text", sub)
	}
	start := utf8.RuneCountInString(text[:i])
	return pipeline.Span{Start: start, End: start + utf8.RuneCountInString(sub)}
}

// buildResult makes a pipeline result the way the gate shapes one: every
// field found in the source gets its span; flagged fields carry a reason and
// low confidence.
func buildResult(t testing.TB, id, text string, rec pipeline.Record, flagged map[string]string, overall float64) pipeline.Result {
	t.Helper()
	r := pipeline.Result{
		ID: id, Status: pipeline.StatusOK, Data: pipeline.Record{}, FieldConfidence: map[string]float64{},
		OverallConfidence: overall, FieldProvenance: map[string][]pipeline.Span{}, Schema: "invoice",
		CriticSummary: "critic checked " + id,
	}
	for _, f := range pipeline.Invoice().Fields {
		v := rec[f.Name]
		r.Data[f.Name] = v
		if v == nil {
			continue
		}
		r.FieldConfidence[f.Name] = 0.95
		s := pipeline.FormatValue(v)
		if strings.Contains(text, s) {
			r.FieldProvenance[f.Name] = []pipeline.Span{runeSpan(t, text, s)}
		}
		if reason, ok := flagged[f.Name]; ok {
			r.FieldConfidence[f.Name] = 0.3
			r.FlaggedFields = append(r.FlaggedFields, pipeline.FlaggedField{Field: f.Name, Value: v, Confidence: 0.3, Reason: reason})
		}
	}
	if len(r.FlaggedFields) > 0 {
		r.Status = pipeline.StatusNeedsReview
	}
	return r
}

type fixture struct {
	st     *store.Store
	corpus store.Corpus
	docs   []store.Document
}

// newFixture stores five documents in a real bbolt file: two need review,
// two are ok, one failed.
func newFixture(t testing.TB) fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := store.Corpus{ID: "file:test", Name: "testcorpus", Kind: "file", Schema: "invoice"}
	texts := []struct{ id, text string }{
		{"inv-001", textCafe}, {"inv-002", textAcme}, {"inv-003", textBlue}, {"inv-004", textGone}, {"inv-005", textLake},
	}
	var docs []store.Document
	for i, d := range texts {
		docs = append(docs, store.Document{CorpusID: c.ID, ID: d.id, Seq: i, Text: d.text})
	}
	if err := st.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	results := map[string]pipeline.Result{
		"inv-001": buildResult(t, "inv-001", textCafe, pipeline.Record{
			"vendor_name": "Café Müller GmbH", "invoice_number": "A-1001", "invoice_date": "2024-03-15",
			"subtotal": 540.0, "tax": 43.2, "total": 683.2, "currency": "EUR",
		}, map[string]string{"total": "683.20 not found in source; subtotal + tax = 583.20"}, 0.41),
		"inv-002": buildResult(t, "inv-002", textAcme, pipeline.Record{
			"vendor_name": "ACME Supplies", "invoice_number": "778", "invoice_date": "2024-03-04",
			"total": 99.0, "currency": "USD",
		}, map[string]string{"invoice_date": "ambiguous day/month order"}, 0.62),
		"inv-003": buildResult(t, "inv-003", textBlue, pipeline.Record{
			"vendor_name": "Blue Bottle Coffee", "invoice_number": "5521", "invoice_date": "2024-01-09",
			"total": 12.5, "currency": "USD",
		}, nil, 0.93),
		"inv-004": pipeline.ErrorResult("inv-004", "", &pipeline.GeneratorError{Err: errString("model returned invalid JSON")}),
		"inv-005": buildResult(t, "inv-005", textLake, pipeline.Record{
			"vendor_name": "Lakeside Hardware", "invoice_number": "9001", "invoice_date": "2023-12-01",
			"total": 250.0, "currency": "GBP",
		}, nil, 0.88),
	}
	for id, r := range results {
		if _, err := st.PutResult(ctx, c.ID, id, "test-1", r); err != nil {
			t.Fatal(err)
		}
	}
	return fixture{st: st, corpus: c, docs: docs}
}

type errString string

func (e errString) Error() string { return string(e) }

func (f fixture) config() Config {
	return Config{Store: f.st, Corpus: f.corpus, Schema: pipeline.Invoice(), PipelineVersion: "test-1",
		Reviewer: "tester", NoColor: true}
}

// keyMsg builds the key press a terminal would deliver for a key name.
func keyMsg(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "ctrl+c", "ctrl+u":
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return tea.KeyPressMsg{Code: r, Text: s}
}

// apply runs msg through Update and then every command it returns,
// synchronously, feeding their messages back: Update as a plain function.
func apply(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	nm, cmd := m.Update(msg)
	return runCmd(t, nm.(Model), cmd, 0)
}

func runCmd(t testing.TB, m Model, cmd tea.Cmd, depth int) Model {
	t.Helper()
	if cmd == nil || depth > 20 {
		return m
	}
	switch msg := cmd().(type) {
	case nil, tea.QuitMsg:
		return m
	case tea.BatchMsg:
		for _, c := range msg {
			m = runCmd(t, m, c, depth+1)
		}
		return m
	default:
		// tea.Sequence's message type is unexported: it is a []tea.Cmd the
		// program runs in order, which is what this does.
		if cmds, ok := sequenceCmds(msg); ok {
			for _, c := range cmds {
				m = runCmd(t, m, c, depth+1)
			}
			return m
		}
		nm, next := m.Update(msg)
		return runCmd(t, nm.(Model), next, depth+1)
	}
}

func sequenceCmds(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// press sends key names (each a key) through apply.
func press(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		m = apply(t, m, keyMsg(k))
	}
	return m
}

// typeText types s one rune at a time.
func typeText(t testing.TB, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		m = apply(t, m, keyMsg(string(r)))
	}
	return m
}

// loaded returns a model at 80x24 with the queue loaded from the store.
func loaded(t testing.TB, cfg Config) Model {
	t.Helper()
	m := New(cfg)
	m = apply(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	return runCmd(t, m, m.Init(), 0)
}

func viewText(m Model) string {
	return stripView(m.View().Content)
}

func queueIDs(m Model) []string {
	ids := make([]string, len(m.queue.view))
	for i, r := range m.queue.view {
		ids[i] = m.queue.rows[r].DocID
	}
	return ids
}

func decisions(t testing.TB, f fixture, docID string) map[string]store.Decision {
	t.Helper()
	ds, err := f.st.Decisions(context.Background(), f.corpus.ID, docID)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// result stores res as the background run does and returns the message the
// run would send: the result with the queue row the store rewrote.
func (f fixture) result(t testing.TB, id, version string, res pipeline.Result, at time.Time) ResultMsg {
	t.Helper()
	row, err := f.st.PutResult(context.Background(), f.corpus.ID, id, version, res)
	if err != nil {
		t.Fatal(err)
	}
	return ResultMsg{DocID: id, Result: res, Row: row, At: at}
}

// row is a document's stored queue row.
func (f fixture) row(t testing.TB, id string) store.Summary {
	t.Helper()
	rows, err := f.st.Summaries(context.Background(), f.corpus.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.DocID == id {
			return r
		}
	}
	t.Fatalf("no stored row for %s", id)
	return store.Summary{}
}
