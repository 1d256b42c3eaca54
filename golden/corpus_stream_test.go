package golden

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

func writeCorpus(t *testing.T, path string, ids ...string) {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "{\"id\":%q,\"text\":\"receipt %s\\nTOTAL 1.00\"}\n", id, id)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// An unchanged file (same size and mtime) is served from the store without
// being read: its bytes are overwritten with the same size and mtime, and
// the reopen neither reports bad lines nor a new hash.
func TestOpenCorpusUnchangedFileIsNotRead(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	writeCorpus(t, path, "a", "b", "c")
	c, bad, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil || len(bad) != 0 {
		t.Fatalf("first open: %v %v", err, bad)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	garbage := strings.Repeat("x", int(fi.Size()-1)) + "\n"
	if err := os.WriteFile(path, []byte(garbage), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	c2, bad, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil || len(bad) != 0 {
		t.Fatalf("reopen read the file: %v %v", err, bad)
	}
	if c2.ID != c.ID || c2.ContentHash != c.ContentHash || c.ContentHash == "" {
		t.Fatalf("reopen = %+v, want %+v", c2, c)
	}
	rows, err := st.Summaries(ctx, c.ID)
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows = %d, %v", len(rows), err)
	}
	// Another schema is another corpus record: the file is read again.
	if _, bad, _ := OpenCorpus(ctx, st, path, "invoice"); len(bad) != 1 {
		t.Fatalf("schema change did not reread: bad = %v", bad)
	}
}

// A changed file is streamed: new documents are appended after the stored
// ones, the stored ones keep their Seq, and the hash matches LoadCorpus's.
func TestOpenCorpusChangedFileAddsNewDocuments(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	writeCorpus(t, path, "a", "b")
	if _, _, err := OpenCorpus(ctx, st, path, "receipt"); err != nil {
		t.Fatal(err)
	}
	writeCorpus(t, path, "z", "a", "b", "c")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	c, _, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	want, _, _, err := LoadCorpus(path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if c.ContentHash != want.ContentHash || c.ID != want.ID {
		t.Fatalf("hash %s id %s, LoadCorpus %s %s", c.ContentHash, c.ID, want.ContentHash, want.ID)
	}
	rows, err := st.Summaries(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.DocID)
	}
	if strings.Join(got, ",") != "a,b,z,c" {
		t.Fatalf("rows %v, want a,b,z,c", got)
	}
	stored, err := st.Corpus(ctx, c.ID)
	if err != nil || stored.ContentHash != want.ContentHash {
		t.Fatalf("stored record %+v %v", stored, err)
	}
}

// Bad lines are reported, and more documents than one batch are all stored.
func TestOpenCorpusStreamsManyBatches(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	ids := make([]string, 3*streamBatch+7)
	for i := range ids {
		ids[i] = fmt.Sprintf("d%05d", i)
	}
	writeCorpus(t, path, ids...)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintln(f, "not json")
	f.Close()
	c, bad, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || bad[0].Line != len(ids)+1 {
		t.Fatalf("bad = %v", bad)
	}
	rows, err := st.Summaries(ctx, c.ID)
	if err != nil || len(rows) != len(ids) || rows[len(rows)-1].DocID != ids[len(ids)-1] {
		t.Fatalf("rows = %d, %v", len(rows), err)
	}
}

// A batch is bounded by its texts' bytes as well as by its count: a file of
// large documents is never held whole.
func TestStreamJSONLBoundsABatchByBytes(t *testing.T) {
	text := strings.Repeat("x", streamBatchBytes/2+1)
	var in bytes.Buffer
	for i := range 5 {
		fmt.Fprintf(&in, "{\"id\":\"d%d\",\"text\":%q}\n", i, text)
	}
	var sizes []int
	_, err := streamJSONL(&in, NewDocIDs(nil), func(b []store.Document) error {
		sizes = append(sizes, len(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[2 2 1]" {
		t.Fatalf("batches of %v documents, want [2 2 1]", sizes)
	}
}

// Once a batch cannot be stored, no later batch is, the reader stops, and
// the batch's error is the one reported.
func TestPutBehindStopsAtTheFirstFailedBatch(t *testing.T) {
	var in bytes.Buffer
	for i := range 5*streamBatch + 1 {
		fmt.Fprintf(&in, "{\"id\":\"d%d\",\"text\":\"t\"}\n", i)
	}
	full := errors.New("disk full")
	var calls []int
	bh := putBehind(func(b []store.Document) error {
		calls = append(calls, b[0].Seq)
		if len(calls) == 2 {
			return full
		}
		return nil
	})
	_, err := streamJSONL(&in, NewDocIDs(nil), bh.put)
	if werr := bh.wait(); !errors.Is(werr, full) {
		t.Fatalf("wait = %v, want the failed batch's error", werr)
	}
	if err != nil && !errors.Is(err, errStopped) {
		t.Fatalf("reader: %v", err)
	}
	if fmt.Sprint(calls) != fmt.Sprint([]int{0, streamBatch}) {
		t.Fatalf("batches stored from seqs %v, want the first two only", calls)
	}
}
