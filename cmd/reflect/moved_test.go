package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// New user report #6: a copy of a corpus file saved with extract --batch
// --save is a new corpus; the original, still in place, keeps its id, its
// decisions and its name for stats --corpus. A --corpus not found lists
// the stored corpora by path.
func TestSaveOfACopyLeavesTheOriginal(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "new.jsonl")
	if err := os.WriteFile(orig, []byte(fakeCorpus(3)), 0o600); err != nil {
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
	save(orig)
	ctx := context.Background()
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := st.Corpora(ctx)
	id := cs[0].ID
	if _, err := st.Decide(ctx, store.Decision{CorpusID: id, DocID: "doc-1", Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(orig)
	cp := filepath.Join(dir, "moved.jsonl")
	if err := os.WriteFile(cp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	save(cp)
	cs, err = st.Corpora(ctx)
	if err != nil || len(cs) != 2 {
		t.Fatalf("corpora after saving a copy: %+v %v, want the original and the copy", cs, err)
	}
	for _, c := range cs {
		if (c.ID == id) != (c.Path == orig) {
			t.Fatalf("corpus %s at %s: the original %s kept its id?", c.ID, c.Path, orig)
		}
	}
	if r := run(t, "", "stats", "--corpus", orig, "--store", storePath); r.code != ExitOK || !strings.Contains(r.out, "reviewed") {
		t.Fatalf("stats --corpus on the untouched original: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r := run(t, "", "stats", "--corpus", filepath.Join(dir, "nowhere.jsonl"), "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, orig) || strings.Contains(r.err, "file:") {
		t.Fatalf("an unknown --corpus: exit %d %s, want the stored paths listed", r.code, r.err)
	}
}
