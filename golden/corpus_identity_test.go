package golden

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// A stored corpus file moved or renamed is the same corpus: reopened at its
// new path it keeps its id, results and decisions, and the record takes
// the new path. A new file written at the old path is another corpus.
func TestOpenCorpusFollowsAMovedFile(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	dir := t.TempDir()
	old := filepath.Join(dir, "march.jsonl")
	writeCorpus(t, old, "a", "b", "c")
	c, _, err := OpenCorpus(ctx, st, old, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: c.ID, DocID: "b", Field: "total", Action: store.ActionCorrect,
		Value: 2.0, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(dir, "archive", "2026-03.jsonl")
	if err := os.MkdirAll(filepath.Dir(moved), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, moved); err != nil {
		t.Fatal(err)
	}
	c2, _, err := OpenCorpus(ctx, st, moved, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if c2.ID != c.ID || c2.Path != moved {
		t.Fatalf("moved file opened as %+v, want id %s at %s", c2, c.ID, moved)
	}
	if ds, err := st.Decisions(ctx, c.ID, "b"); err != nil || ds["total"].Value != 2.0 {
		t.Fatalf("ann's correction after the move: %v %v", ds, err)
	}
	if stored, err := st.Corpus(ctx, c.ID); err != nil || stored.Path != moved {
		t.Fatalf("stored record %+v %v, want the new path", stored, err)
	}
	// Reopened at the new path, it is served from the fingerprint again.
	if c3, _, err := OpenCorpus(ctx, st, moved, "receipt"); err != nil || c3.ID != c.ID {
		t.Fatalf("second open at the new path: %+v %v", c3, err)
	}
	// Another file at the old path is another corpus.
	writeCorpus(t, old, "x", "y")
	c4, _, err := OpenCorpus(ctx, st, old, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if c4.ID == c.ID {
		t.Fatalf("a new file at the moved corpus's old path took its id %s", c.ID)
	}
	if rows, _ := st.Summaries(ctx, c4.ID); len(rows) != 2 {
		t.Fatalf("the new file's corpus has %d documents, want 2", len(rows))
	}
	if rows, _ := st.Summaries(ctx, c.ID); len(rows) != 3 {
		t.Fatalf("the moved corpus has %d documents, want 3", len(rows))
	}
}

// A line whose id is stored but whose text changed in the file is marked,
// not silently kept: the store keeps the text its decisions were made on
// and records the change; the file changing back clears the mark.
func TestOpenCorpusMarksChangedText(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	orig := `{"id":"a","text":"receipt a\nTOTAL 1.00"}` + "\n" + `{"id":"b","text":"receipt b\nTOTAL 2.00"}` + "\n"
	edited := `{"id":"a","text":"receipt a\nTOTAL 1.00"}` + "\n" + `{"id":"b","text":"receipt b\nTOTAL 20.00"}` + "\n"
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(orig)
	c, _, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	write(edited)
	if _, _, err := OpenCorpus(ctx, st, path, "receipt"); err != nil {
		t.Fatal(err)
	}
	marks, err := st.TextChanges(ctx, c.ID)
	if err != nil || len(marks) != 1 {
		t.Fatalf("marks %v %v, want b only", marks, err)
	}
	if _, ok := marks["b"]; !ok {
		t.Fatalf("marks %v, want b", marks)
	}
	if d, _ := st.Document(ctx, c.ID, "b"); d.Text != "receipt b\nTOTAL 2.00" {
		t.Fatalf("stored text became %q", d.Text)
	}
	write(orig)
	if _, _, err := OpenCorpus(ctx, st, path, "receipt"); err != nil {
		t.Fatal(err)
	}
	if marks, _ := st.TextChanges(ctx, c.ID); len(marks) != 0 {
		t.Fatalf("the file has the stored text again, marks %v", marks)
	}
}

// New user report #6: a copy of a stored corpus file, opened while the
// original is still in place with its content, is a new corpus; the
// original keeps its id and decisions. A move is when the old path no
// longer holds that content.
func TestOpenCorpusCopyIsNotAMove(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	dir := t.TempDir()
	orig := filepath.Join(dir, "new.jsonl")
	writeCorpus(t, orig, "a", "b")
	c, _, err := OpenCorpus(ctx, st, orig, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(orig)
	cp := filepath.Join(dir, "copy.jsonl")
	if err := os.WriteFile(cp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c2, _, err := OpenCorpus(ctx, st, cp, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if c2.ID == c.ID {
		t.Fatalf("a copy took the original's corpus %s", c.ID)
	}
	if again, _, err := OpenCorpus(ctx, st, orig, "receipt"); err != nil || again.ID != c.ID || again.Path != orig {
		t.Fatalf("the original reopened as %+v %v, want %s at %s", again, err, c.ID, orig)
	}
}
