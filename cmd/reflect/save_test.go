package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

// extract --batch --save stores every result under the corpus `reflect
// review FILE` opens, for the same pipeline version: the workstation has
// nothing left to run.
func TestBatchSaveFeedsReview(t *testing.T) {
	corpus := writeFile(t, "c.jsonl", fakeCorpus(6)+`{"id":"bad","text":`+"\n")
	storePath := filepath.Join(t.TempDir(), "review.db")
	r := run(t, "", "extract", "--batch", "--save", "--file", corpus, "--store", storePath, "--provider", "local", "--log-level", "error")
	if r.code != ExitPipeline || len(decodeLines(t, r.out)) != 7 {
		t.Fatalf("exit %d (the bad line makes it 3), %d lines\n%s", r.code, len(decodeLines(t, r.out)), r.err)
	}
	ctx := context.Background()
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, _, _, err := golden.LoadCorpus(corpus, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Summaries(ctx, c.ID)
	if err != nil || len(rows) != 6 {
		t.Fatalf("summaries: %d rows, %v", len(rows), err)
	}
	for _, row := range rows {
		if row.Status == "" {
			t.Fatalf("%s has no stored result", row.DocID)
		}
	}
	var pf pipelineFlags
	fs := newFlagSet("x", "", Stdio{Out: io.Discard, Err: io.Discard})
	pf.register(fs)
	if err := fs.Parse([]string{"--provider", "local"}); err != nil {
		t.Fatal(err)
	}
	env, err := buildEnv(ctx, &pf, true, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	missing, err := st.MissingResultIDs(ctx, c.ID, env.p.Version())
	if err != nil || len(missing) != 0 {
		t.Fatalf("review would re-run %d documents (%v)", len(missing), err)
	}
	if r := run(t, "", "extract", "--batch", "--save"); r.code != ExitUsage {
		t.Fatalf("--save without --file: exit %d", r.code)
	}
}

// --save prints the same lines as the batch without it, and stores each
// result as the very line printed (one encoding serves both): names with
// "&" and "<" stay unescaped in both.
func TestBatchSaveStoresThePrintedLine(t *testing.T) {
	body := fakeCorpus(3) + `{"id":"amp","text":"Müller & Söhne <GmbH>\nRechnung R-7\nGesamt 12,00 EUR"}` + "\n"
	corpus := writeFile(t, "c.jsonl", body)
	storePath := filepath.Join(t.TempDir(), "review.db")
	args := []string{"extract", "--batch", "--file", corpus, "--provider", "local", "--log-level", "error"}
	plain := run(t, "", args...)
	saved := run(t, "", append(args, "--save", "--store", storePath)...)
	untraced := regexp.MustCompile(`"trace_id":"[^"]*"`)
	if a, b := untraced.ReplaceAllString(plain.out, ""), untraced.ReplaceAllString(saved.out, ""); a != b {
		t.Fatalf("--save changed the output:\n%s\nwithout it:\n%s", b, a)
	}
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sinkCorpus(corpus, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(saved.out, "\n"), "\n")
	for i, res := range decodeLines(t, saved.out) {
		got, ok, err := st.Result(context.Background(), c.ID, res.ID)
		if err != nil || !ok {
			t.Fatalf("%s: not stored (%v)", res.ID, err)
		}
		raw, err := got.MarshalJSON()
		if err != nil || string(raw) != lines[i] {
			t.Fatalf("%s stored as\n%s\nprinted as\n%s", res.ID, raw, lines[i])
		}
	}
	if !strings.Contains(saved.out, "Müller & Söhne") {
		t.Fatalf("the vendor's & was escaped:\n%s", saved.out)
	}
}

// Things a new user tripped on: --record where no model is called, and the
// workstation started without a terminal.
func TestUsageErrorsANewUserHit(t *testing.T) {
	f := writeFile(t, "c.jsonl", fakeCorpus(2))
	r := run(t, "", "extract", "--batch", "--file", f, "--provider", "local", "--record", filepath.Join(t.TempDir(), "rec.json"))
	if r.code != ExitUsage || !strings.Contains(r.err, "--record") {
		t.Fatalf("--record with the local provider: exit %d %s", r.code, r.err)
	}
	// The default (keyless local) provider is refused the same way, with
	// the reason: the README's --record example names a model provider.
	r = run(t, "", "extract", "--batch", "--file", f, "--record", filepath.Join(t.TempDir(), "rec.json"))
	if r.code != ExitUsage || !strings.Contains(r.err, "this run calls no model") {
		t.Fatalf("--record with the default provider: exit %d %s", r.code, r.err)
	}
	r = run(t, "", "review", f, "--provider", "local")
	if r.code != ExitUsage || !strings.Contains(r.err, "needs a terminal") {
		t.Fatalf("review without a terminal: exit %d %s", r.code, r.err)
	}
}

// review --no-run checks corrections against the corpus's own schema, which
// a --save batch recorded as an absolute path.
func TestNoRunReviewUsesTheCorpusSchema(t *testing.T) {
	schema, _ := filepath.Abs(filepath.Join("..", "..", "golden", "testdata", "purchase_order.yaml"))
	data, _ := filepath.Abs(filepath.Join("..", "..", "golden", "testdata", "purchase_orders.jsonl"))
	storePath := filepath.Join(t.TempDir(), "s.db")
	r := run(t, "", "validate", "--batch", "--heuristics-only", "--save", "--file", data, "--schema", schema, "--store", storePath)
	if r.code == ExitUsage || r.code == ExitPipeline {
		t.Fatalf("save: exit %d %s", r.code, r.err)
	}
	t.Chdir(t.TempDir()) // the schema must be found from anywhere
	r = run(t, "", "review", data, "--no-run", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, "needs a terminal") {
		t.Fatalf("review --no-run should get as far as the terminal check: exit %d %s", r.code, r.err)
	}
	r = run(t, "", "review", data, "--no-run", "--store", storePath, "--schema", "nope.yaml")
	if r.code != ExitUsage || !strings.Contains(r.err, "nope.yaml") {
		t.Fatalf("a bad --schema: exit %d %s", r.code, r.err)
	}
}

// --save derives the corpus LoadCorpus would, without reading the file.
func TestSinkCorpusMatchesLoadCorpus(t *testing.T) {
	path := writeFile(t, "c.jsonl", fakeCorpus(2))
	want, _, _, err := golden.LoadCorpus(path, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	got, err := sinkCorpus(path, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != want.ID || got.Name != want.Name || got.Kind != want.Kind || got.Path != want.Path || got.Schema != want.Schema {
		t.Fatalf("sinkCorpus = %+v, LoadCorpus = %+v", got, want)
	}
}

// extract --batch --save streams (issue 10 §4): a result is stored while
// the input is still open, which a batch that loads the corpus first can
// never do. The input is a FIFO the test holds open until it sees the
// first stored result (or gives up).
func TestBatchSaveStreams(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	storePath := filepath.Join(dir, "review.db")
	done := make(chan runOut, 1)
	go func() {
		done <- run(t, "", "extract", "--batch", "--save", "--file", fifo, "--store", storePath, "--provider", "local", "--log-level", "error")
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(w, fakeCorpus(3)); err != nil {
		t.Fatal(err)
	}
	c, err := sinkCorpus(fifo, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	streamed := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !streamed; time.Sleep(20 * time.Millisecond) {
		st, err := store.Open(storePath, store.Options{})
		if err != nil {
			continue
		}
		rows, err := st.Summaries(context.Background(), c.ID)
		streamed = err == nil && len(rows) > 0 && rows[0].Status != ""
	}
	w.Close()
	r := <-done
	if !streamed {
		t.Fatalf("no result was stored while the input stayed open (exit %d)\n%s", r.code, r.err)
	}
	if r.code > ExitNeedsReview {
		t.Fatalf("exit %d\n%s", r.code, r.err)
	}
}

// New user report #2: an id-less corpus saved by extract --batch --save,
// then a line inserted at the top and saved again: the new line is a new
// document with its result, and the old ones keep their ids, the ids the
// workstation opens them by.
func TestBatchSaveIDlessCorpusWithAnInsertedLine(t *testing.T) {
	body := `{"text":"ACME LTD\nInvoice INV-1\nTotal 10.00 EUR"}` + "\n" + `{"text":"GLOBEX\nInvoice INV-2\nTotal 20.00 EUR"}` + "\n"
	corpus := writeFile(t, "noid.jsonl", body)
	storePath := filepath.Join(t.TempDir(), "review.db")
	save := func() {
		t.Helper()
		if r := run(t, "", "extract", "--batch", "--save", "--file", corpus, "--store", storePath, "--provider", "local", "--log-level", "error"); r.code == ExitUsage || r.code == ExitPipeline {
			t.Fatalf("exit %d\n%s", r.code, r.err)
		}
	}
	save()
	if err := os.WriteFile(corpus, []byte(`{"text":"F&P PHARMACY\nInvoice 3-1707067\nTotal 5.00 EUR"}`+"\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	save()
	ctx := context.Background()
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, docs, _, err := golden.LoadCorpus(corpus, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Summaries(ctx, c.ID)
	if err != nil || len(rows) != 3 {
		t.Fatalf("stored %d documents (%v), want 3: the inserted one too", len(rows), err)
	}
	for _, d := range docs {
		got, err := st.Document(ctx, c.ID, d.ID)
		if err != nil || got.Text != d.Text {
			t.Fatalf("document %s as the workstation names it: %q %v", d.ID, got.Text, err)
		}
		if _, ok, err := st.Result(ctx, c.ID, d.ID); err != nil || !ok {
			t.Fatalf("document %s has no stored result (%v)", d.ID, err)
		}
	}
}

// New user report #14: an empty batch input says so on stderr; blank lines
// get no output line (the README's rule), so output line N answers the
// N-th non-blank input line; review without a terminal stores nothing.
func TestBatchEmptyInputAndReviewWithoutTerminal(t *testing.T) {
	empty := writeFile(t, "empty.jsonl", "\n\n")
	r := run(t, "", "extract", "--batch", "--file", empty, "--provider", "local")
	if r.code != ExitOK || r.out != "" || !strings.Contains(r.err, "holds no line") {
		t.Fatalf("empty input: exit %d, out %q, stderr %q", r.code, r.out, r.err)
	}
	blank := writeFile(t, "blank.jsonl", `{"id":"a","text":"ACME\nTotal 1.00"}`+"\n\n"+`{"id":"b","text":"GLOBEX\nTotal 2.00"}`+"\n")
	r = run(t, "", "extract", "--batch", "--file", blank, "--provider", "local")
	if out := decodeLines(t, r.out); len(out) != 2 || strings.Contains(r.err, "holds no line") {
		t.Fatalf("two documents around a blank line: %d output lines\n%s", len(out), r.err)
	}
	storePath := filepath.Join(t.TempDir(), "s.db")
	e2 := writeFile(t, "e2.jsonl", fakeCorpus(2))
	r = run(t, "", "review", e2, "--provider", "local", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, "needs a terminal") {
		t.Fatalf("review without a terminal: exit %d %s", r.code, r.err)
	}
	r = run(t, "", "queues", "--store", storePath)
	if strings.Contains(r.out, "e2") {
		t.Fatalf("review without a terminal registered its corpus:\n%s", r.out)
	}
}

// New user report #13: the README's purchase_order schema, copied as it is,
// reads (or flags) the buyer and PO number of a plainly labelled PO; it
// used to return ok with both null.
func TestReadmePurchaseOrderSchemaReadsItsLabels(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "```yaml\nname: purchase_order\n")
	if start < 0 {
		t.Fatal("README: the purchase_order schema example is gone; update this test with it")
	}
	block := readme[start+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	schema := writeFile(t, "po.yaml", block)
	po := writeFile(t, "po.txt", "PURCHASE ORDER PO-7781\nBuyer: Initech LLC\nOrder date: 2026-03-05\nNet amount: 1,000.00\nVAT 20%: 200.00\nGross: 1,200.00 EUR\n")
	r := run(t, "", "extract", "--file", po, "--schema", schema, "--provider", "local", "--log-level", "error")
	var res struct {
		Status        string         `json:"status"`
		Data          map[string]any `json:"data"`
		FlaggedFields []struct {
			Field string `json:"field"`
		} `json:"flagged_fields"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.out, r.err)
	}
	flagged := map[string]bool{}
	for _, f := range res.FlaggedFields {
		flagged[f.Field] = true
	}
	for f, want := range map[string]string{"buyer": "Initech LLC", "po_number": "PO-7781", "order_date": "2026-03-05"} {
		if res.Data[f] != want && !flagged[f] {
			t.Errorf("%s = %v, neither %q nor flagged (status %s)", f, res.Data[f], want, res.Status)
		}
	}
}
