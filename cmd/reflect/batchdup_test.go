package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// A batch line reusing an earlier document's id is an error line, as any
// other unusable line is: it names the id and the line that has it first,
// is not verified (no model call) nor stored, and the batch exits 3. Review
// and eval skip such a line too, so --save stores exactly the documents the
// output shows as verified. An empty text claims no id, and id-less lines
// with one text are told apart by their -2 ids, so neither is a duplicate.
func TestBatchRefusesADuplicateID(t *testing.T) {
	body := fakeCorpus(2) + // doc-0 on line 1, doc-1 on line 2
		`{"id":"doc-0","text":"From: Other GmbH\nInvoice #B-9\nTotal: 9.00 EUR"}` + "\n" +
		`{"id":"e","text":""}` + "\n" +
		`{"id":"e","text":"Invoice #E-1\nTotal: 1.00 USD"}` + "\n" +
		`{"text":"Invoice #T-1\nTotal: 2.00 USD"}` + "\n" +
		`{"text":"Invoice #T-1\nTotal: 2.00 USD"}` + "\n"
	corpus := writeFile(t, "c.jsonl", body)
	storePath := filepath.Join(t.TempDir(), "review.db")
	args := []string{"extract", "--batch", "--file", corpus, "--provider", "local", "--log-level", "error"}
	for _, save := range []bool{false, true} {
		a := args
		if save {
			a = append(a, "--save", "--store", storePath)
		}
		r := run(t, "", a...)
		if r.code != ExitPipeline {
			t.Fatalf("save=%v: exit %d, want %d (a failed line)\n%s", save, r.code, ExitPipeline, r.err)
		}
		res := decodeLines(t, r.out)
		if len(res) != 7 {
			t.Fatalf("save=%v: %d result lines, want one per input line\n%s", save, len(res), r.out)
		}
		dup := res[2]
		if dup.ID != "doc-0" || dup.Status != pipeline.StatusError ||
			dup.ErrorMessage != `line 3: duplicate id "doc-0" (first on line 1): this line was not verified` {
			t.Fatalf("save=%v: the duplicate line gave %+v", save, dup)
		}
		for i, r := range res {
			if i != 2 && i != 3 && r.Status == pipeline.StatusError {
				t.Fatalf("save=%v: line %d is not a duplicate but failed: %s", save, i+1, r.ErrorMessage)
			}
		}
		if res[4].ID != "e" || res[5].ID == res[6].ID {
			t.Fatalf("save=%v: ids %q, %q, %q", save, res[4].ID, res[5].ID, res[6].ID)
		}
	}
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, docs, _, err := golden.LoadCorpus(corpus, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Summaries(context.Background(), c.ID)
	if err != nil || len(rows) != len(docs) || len(rows) != 5 {
		t.Fatalf("stored %d documents (%v), review loads %d, want 5", len(rows), err, len(docs))
	}
}
