package golden

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// reviewedStore is a store with corpora a and b, each with one reviewed
// document.
func reviewedStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"a", "b"} {
		if err := storetest.Populate(ctx, st, c, 5); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Decide(ctx, store.Decision{CorpusID: c, DocID: "doc-000004", Field: "total",
			Action: store.ActionCorrect, Value: 1.5, Reviewer: "ann"}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestExportFileIsExportWrittenAtomically(t *testing.T) {
	ctx := context.Background()
	st := reviewedStore(t)
	var want bytes.Buffer
	for _, c := range []string{"a", "b"} {
		if _, err := Export(ctx, st, &want, ExportOptions{CorpusID: c}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.golden.jsonl")
	if err := os.WriteFile(path, []byte("an older export\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := ExportFile(ctx, st, path, ExportOptions{CorpusID: "a"}, ExportOptions{CorpusID: "b"})
	if err != nil || n != 2 {
		t.Fatalf("ExportFile = %d, %v", n, err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want.Bytes())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %v, want only the export", entries)
	}
	// As readable as a file os.Create makes: the umask decides, not 0600.
	probe := filepath.Join(dir, "probe")
	f, err := os.Create(probe)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	pi, _ := os.Stat(probe)
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != pi.Mode().Perm() {
		t.Errorf("export mode %v, os.Create gives %v", fi.Mode().Perm(), pi.Mode().Perm())
	}
}

// A failure leaves the previous file as it was and no temporary file, and
// says whether the file or the store was at fault.
func TestExportFileFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	st := reviewedStore(t)
	dir := t.TempDir()

	missing := filepath.Join(dir, "no-such-dir", "out.jsonl")
	_, err := ExportFile(ctx, st, missing, ExportOptions{CorpusID: "a"})
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("into a missing directory: err = %v, want a FileError", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("the missing directory was created: %v", err)
	}

	path := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(path, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ExportFile(ctx, st, path, ExportOptions{CorpusID: "a"}, ExportOptions{CorpusID: "nope"})
	if err == nil || errors.As(err, &fe) || !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown corpus: err = %v, want the store's ErrNotFound", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "kept\n" {
		t.Errorf("a failed export changed the file: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %v after a failed export", entries)
	}
}

// TestExportSkipsRejected: a rejected document (not a document) is reviewed
// but no golden example: the export leaves it out and counts it, while a
// document set aside with a note is simply not reviewed yet.
func TestExportSkipsRejected(t *testing.T) {
	ctx := context.Background()
	st := reviewedStore(t) // doc-000004 of a is reviewed
	for _, d := range []store.Decision{
		{CorpusID: "a", DocID: "doc-000003", Field: "total", Action: store.ActionAccept, Reviewer: "ann"},
		store.VerdictDecision("a", "doc-000003", "ann", store.ActionReject, "a delivery note"),
		store.VerdictDecision("a", "doc-000002", "ann", store.ActionSkip, "ask the vendor"),
	} {
		if _, err := st.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	rejected := 0
	n, err := Export(ctx, st, &buf, ExportOptions{CorpusID: "a", Rejected: &rejected})
	if err != nil || n != 1 || rejected != 1 {
		t.Fatalf("Export = %d rows, %d rejected, %v; want 1 row, 1 rejected left out", n, rejected, err)
	}
	if bytes.Contains(buf.Bytes(), []byte("doc-000003")) || bytes.Contains(buf.Bytes(), []byte("doc-000002")) {
		t.Errorf("export holds a rejected or skipped document:\n%s", buf.Bytes())
	}
	path := filepath.Join(t.TempDir(), "out.jsonl")
	rejected = 0
	if n, err := ExportFile(ctx, st, path, ExportOptions{CorpusID: "a", Rejected: &rejected},
		ExportOptions{CorpusID: "b", Rejected: &rejected}); err != nil || n != 2 || rejected != 1 {
		t.Errorf("ExportFile = %d rows, %d rejected, %v; want 2 rows, 1 rejected", n, rejected, err)
	}
}
