package tui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// heuristicRunner stands in for the pipeline: it takes the record from the
// document's expected data, and scores it with the real heuristics (the gate's
// threshold of 0.7 on 0.95 × factor). Documents whose id ends in "-bad" get
// a total off by 100; "-err" documents fail.
type heuristicRunner struct {
	schema   *pipeline.Schema
	expected map[string]map[string]any
	calls    atomic.Int64
}

func (r *heuristicRunner) Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error) {
	r.calls.Add(1)
	if err := ctx.Err(); err != nil {
		return pipeline.Result{}, err
	}
	if strings.HasSuffix(doc.ID, "-err") {
		return pipeline.Result{}, &pipeline.GeneratorError{Err: errors.New("model returned invalid JSON")}
	}
	rec, err := r.schema.NormalizeRecord(r.expected[doc.ID], pipeline.Lenient)
	if err != nil {
		return pipeline.Result{}, err
	}
	if strings.HasSuffix(doc.ID, "-bad") {
		rec["total"] = rec["total"].(float64) + 100
	}
	rep := pipeline.RunHeuristics(doc.Text, r.schema, rec)
	res := pipeline.Result{ID: doc.ID, Status: pipeline.StatusOK, Data: rec, FieldConfidence: map[string]float64{},
		FieldProvenance: map[string][]pipeline.Span{}, OverallConfidence: 1, Schema: r.schema.Name, CriticSummary: "heuristics only"}
	for _, f := range r.schema.Fields {
		chk, ok := rep[f.Name]
		if !ok {
			continue
		}
		c := 0.95 * chk.Factor
		res.FieldConfidence[f.Name] = c
		res.FieldProvenance[f.Name] = chk.Spans
		res.OverallConfidence = min(res.OverallConfidence, c)
		if c < 0.7 {
			res.FlaggedFields = append(res.FlaggedFields, pipeline.FlaggedField{Field: f.Name, Value: rec[f.Name],
				Confidence: c, Reason: strings.Join(chk.Reasons, "; ")})
		}
	}
	if len(res.FlaggedFields) > 0 {
		res.Status = pipeline.StatusNeedsReview
	}
	return res, nil
}

const flowCorpus = `{"id":"inv-ok","text":"Lakeside Hardware\nInvoice 9001\nDate: 2023-12-01\nSubtotal: 200.00\nTax: 50.00\nTotal: 250.00\nCurrency: GBP","expected":{"vendor_name":"Lakeside Hardware","invoice_number":"9001","invoice_date":"2023-12-01","subtotal":200,"tax":50,"total":250,"currency":"GBP"}}
{"id":"inv-bad","text":"Café Müller GmbH\nInvoice No: A-1001\nDate: 2024-03-15\nSubtotal: 540.00\nTax: 43.20\nTotal due: 583.20\nCurrency: EUR","expected":{"vendor_name":"Café Müller GmbH","invoice_number":"A-1001","invoice_date":"2024-03-15","subtotal":540,"tax":43.2,"total":583.2,"currency":"EUR"}}
{"id":"inv-err","text":"smudged fax, nothing legible"}
{"id":"inv-ok2","text":"Blue Bottle Coffee\nReceipt 5521\nDate: 2024-01-09\nSubtotal: 10.00\nTax: 2.50\nTotal: 12.50\nCurrency: USD","expected":{"vendor_name":"Blue Bottle Coffee","invoice_number":"5521","invoice_date":"2024-01-09","subtotal":10,"tax":2.5,"total":12.5,"currency":"USD"}}
this line is not JSON
`

// flowSetup loads flowCorpus from a JSONL file into a fresh store.
func flowSetup(t *testing.T) (Config, *heuristicRunner) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "flow.jsonl")
	if err := os.WriteFile(path, []byte(flowCorpus), 0o600); err != nil {
		t.Fatal(err)
	}
	c, docs, bad, err := golden.LoadCorpus(path, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 4 || len(bad) != 1 || bad[0].Line != 5 {
		t.Fatalf("loaded %d docs, bad lines %v", len(docs), bad)
	}
	st, err := store.Open(filepath.Join(dir, "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutCorpus(context.Background(), c, docs); err != nil {
		t.Fatal(err)
	}
	r := &heuristicRunner{schema: pipeline.Invoice(), expected: map[string]map[string]any{}}
	for _, d := range docs {
		r.expected[d.ID] = d.Expected
	}
	return Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), Runner: r, PipelineVersion: "flow-1",
		Reviewer: "flow-tester", Concurrency: 3, NoColor: true, ExportPath: filepath.Join(dir, "out.golden.jsonl")}, r
}

// collect is a send func that records messages.
type collect struct {
	mu   sync.Mutex
	msgs []tea.Msg
}

func (c *collect) send(m tea.Msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
}

func TestStartRunStoresResultsAndResumes(t *testing.T) {
	cfg, runner := flowSetup(t)
	ctx := context.Background()
	var got collect
	<-StartRun(ctx, cfg, got.send)

	var started RunStartedMsg
	results := map[string]ResultMsg{}
	var done *RunDoneMsg
	for _, m := range got.msgs {
		switch m := m.(type) {
		case RunStartedMsg:
			started = m
		case ResultMsg:
			results[m.DocID] = m
		case RunDoneMsg:
			done = &m
		}
	}
	if started.Total != 4 || len(results) != 4 || done == nil || done.Err != nil {
		t.Fatalf("started %+v, %d results, done %+v", started, len(results), done)
	}
	if _, ok := got.msgs[len(got.msgs)-1].(RunDoneMsg); !ok {
		t.Error("RunDoneMsg is not the last message")
	}
	for id, want := range map[string]pipeline.Status{"inv-ok": pipeline.StatusOK, "inv-bad": pipeline.StatusNeedsReview, "inv-err": pipeline.StatusError} {
		r, ok, err := cfg.Store.Result(ctx, cfg.Corpus.ID, id)
		if err != nil || !ok || r.Status != want {
			t.Errorf("%s stored as %q (%v, %v), want %q", id, r.Status, ok, err, want)
		}
		if results[id].Result.Status != want || results[id].StoreErr != nil {
			t.Errorf("%s message %+v", id, results[id])
		}
	}
	if r, _, _ := cfg.Store.Result(ctx, cfg.Corpus.ID, "inv-err"); !strings.Contains(r.ErrorMessage, "invalid JSON") {
		t.Errorf("error result message %q", r.ErrorMessage)
	}
	if r, _, _ := cfg.Store.Result(ctx, cfg.Corpus.ID, "inv-bad"); !r.Flagged("total") {
		t.Errorf("inv-bad flagged %v, want total", r.FlaggedFields)
	}

	// The progress line, fed the same messages, reports the outcome counts.
	m := loaded(t, cfg)
	for _, msg := range got.msgs {
		m = apply(t, m, msg)
	}
	if v := viewText(m); !strings.Contains(v, "4/4 ok 2 · review 1 · err 1 · done") {
		t.Errorf("progress line after the run:\n%s", v)
	}

	// Reopening resumes: nothing is missing, so nothing runs again.
	calls := runner.calls.Load()
	var again collect
	<-StartRun(ctx, cfg, again.send)
	if runner.calls.Load() != calls {
		t.Errorf("second run called the runner %d more times", runner.calls.Load()-calls)
	}
	if s, ok := again.msgs[0].(RunStartedMsg); !ok || s.Total != 0 {
		t.Errorf("second run started with %+v", again.msgs[0])
	}
}

// blockingRunner waits for cancellation, as a slow model call would.
type blockingRunner struct{ started chan struct{} }

func (r blockingRunner) Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error) {
	select {
	case r.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return pipeline.Result{}, ctx.Err()
}

func TestStartRunCancelStopsWorkers(t *testing.T) {
	cfg, _ := flowSetup(t)
	br := blockingRunner{started: make(chan struct{}, 1)}
	cfg.Runner = br
	ctx, cancel := context.WithCancel(context.Background())
	var got collect
	done := StartRun(ctx, cfg, got.send)
	<-br.started
	cancel()
	<-done
	last, ok := got.msgs[len(got.msgs)-1].(RunDoneMsg)
	if !ok || !errors.Is(last.Err, context.Canceled) {
		t.Fatalf("last message %#v", got.msgs[len(got.msgs)-1])
	}
	for _, m := range got.msgs {
		if r, ok := m.(ResultMsg); ok {
			t.Errorf("cancelled work reported a result for %s", r.DocID)
		}
	}
	missing, err := cfg.Store.MissingResultIDs(context.Background(), cfg.Corpus.ID, cfg.PipelineVersion)
	if err != nil || len(missing) != 4 {
		t.Fatalf("after cancel %d documents still missing (%v), want all 4: cancellation is not an error result", len(missing), err)
	}
}

// TestFlowRunCorrectQuit drives the real program: the background run fills
// the queue, the reviewer opens the flagged document, corrects the total and
// quits; the correction is in the store.
func TestFlowRunCorrectQuit(t *testing.T) {
	cfg, _ := flowSetup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(80, 24))
	done := StartRun(ctx, cfg, tm.Send)
	<-done // every result has been handed to the program

	waitScreen := func(want string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	// The row is drawn only once the queue has loaded and the run's results
	// are in, so the keys below find it.
	waitScreen("inv-bad")
	tm.Send(keyMsg("/"))
	tm.Type("bad")
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("enter"))
	waitScreen("FIELD")
	tm.Send(keyMsg("e"))
	tm.Send(keyMsg("ctrl+u"))
	tm.Type("583.20")
	tm.Send(keyMsg("enter"))
	waitScreen("saved:")
	// Back to the queue, clear the filter, quit.
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	ds, err := cfg.Store.Decisions(ctx, cfg.Corpus.ID, "inv-bad")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := ds["total"]
	if !ok || d.Action != store.ActionCorrect || d.Value != 583.2 || d.Original != 683.2 || d.Reviewer != "flow-tester" {
		t.Fatalf("stored decisions %+v", ds)
	}
	final := tm.FinalModel(t).(Model)
	if row, _ := final.queue.Row("inv-bad"); !row.Reviewed || row.Corrected != 1 {
		t.Errorf("final row %+v", row)
	}
}

func TestExportWritesGoldenFile(t *testing.T) {
	cfg, _ := flowSetup(t)
	<-StartRun(context.Background(), cfg, func(tea.Msg) {})
	m := loaded(t, cfg)
	m = apply(t, m, OpenDocMsg{DocID: "inv-bad"})
	m = press(t, m, "A", "E")
	if m.statusErr || !strings.Contains(m.status, "exported 1") {
		t.Fatalf("status %q", m.status)
	}
	data, err := os.ReadFile(cfg.ExportPath)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(strings.TrimSpace(string(data)), "\n") + 1; lines != 1 || !strings.Contains(string(data), `"inv-bad"`) {
		t.Fatalf("export:\n%s", data)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg.ExportPath), ".out.golden.jsonl.*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}
