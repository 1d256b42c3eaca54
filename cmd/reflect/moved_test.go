package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// extract --batch --save of a stored corpus file that was moved stores its
// results under the same corpus: the decisions made on it stay with it and
// no second corpus appears.
func TestSaveFollowsAMovedCorpus(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(old, []byte(fakeCorpus(3)), 0o600); err != nil {
		t.Fatal(err)
	}
	storePath := filepath.Join(dir, "review.db")
	save := func(file string) {
		t.Helper()
		r := run(t, "", "extract", "--batch", "--save", "--file", file, "--store", storePath, "--provider", "local", "--log-level", "error")
		if r.code != ExitOK && r.code != ExitNeedsReview {
			t.Fatalf("--save %s: exit %d %s", file, r.code, r.err)
		}
	}
	save(old)
	ctx := context.Background()
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := st.Corpora(ctx)
	if err != nil || len(cs) != 1 {
		t.Fatalf("corpora after the first save: %v %v", cs, err)
	}
	id := cs[0].ID
	if _, err := st.Decide(ctx, store.Decision{CorpusID: id, DocID: "doc-1", Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(dir, "renamed.jsonl")
	if err := os.Rename(old, moved); err != nil {
		t.Fatal(err)
	}
	save(moved)
	cs, err = st.Corpora(ctx)
	if err != nil || len(cs) != 1 || cs[0].ID != id || cs[0].Path != moved {
		t.Fatalf("corpora after saving the moved file: %+v %v, want one, id %s, at %s", cs, err, id, moved)
	}
	if ds, _ := st.Decisions(ctx, id, "doc-1"); ds["total"].Reviewer != "ann" {
		t.Fatalf("ann's decision after the move: %v", ds)
	}
}
