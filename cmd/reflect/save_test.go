package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

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
	missing, err := st.MissingResults(ctx, c.ID, env.p.Version())
	if err != nil || len(missing) != 0 {
		t.Fatalf("review would re-run %d documents (%v)", len(missing), err)
	}
	if r := run(t, "", "extract", "--batch", "--save"); r.code != ExitUsage {
		t.Fatalf("--save without --file: exit %d", r.code)
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
