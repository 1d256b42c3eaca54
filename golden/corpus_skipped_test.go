package golden

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skippyCorpus has one good line and one of each kind of line OpenCorpus
// skips: bad JSON (line 2), empty text (3), a duplicate id (4).
const skippyCorpus = `{"id":"a","text":"receipt a\nTOTAL 1.00"}
{"id":"b","text":"receipt b
{"id":"c","text":"   "}
{"id":"a","text":"receipt a again"}
`

// A reopen served from the fingerprint reads nothing, yet reports the same
// skipped lines the first open found: the store kept them with the file's
// fingerprint.
func TestOpenCorpusReopenKeepsSkippedLines(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, []byte(skippyCorpus), 0o600); err != nil {
		t.Fatal(err)
	}
	c, bad, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil {
		t.Fatal(err)
	}
	first := describeSkips(bad)
	if len(bad) != 3 || bad[0].Line != 2 || bad[1].Line != 3 || bad[2].Line != 4 ||
		!strings.Contains(bad[1].Err.Error(), "empty text") || !strings.Contains(bad[2].Err.Error(), "duplicate id") {
		t.Fatalf("first open skipped %q", first)
	}
	fp, ok, err := st.CorpusFingerprint(ctx, c.ID)
	if err != nil || !ok || fp.SkippedTotal != 3 || len(fp.Skipped) != 3 {
		t.Fatalf("fingerprint %+v %v %v", fp, ok, err)
	}
	// Same size and mtime, other bytes: a reopen that read the file would
	// report one bad line, not the three kept.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("x", int(fi.Size()-1))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, again, err := OpenCorpus(ctx, st, path, "receipt")
	if err != nil {
		t.Fatalf("reopen read the file: %v", err)
	}
	if got := describeSkips(again); strings.Join(got, "|") != strings.Join(first, "|") {
		t.Fatalf("reopen lists %q, first open %q", got, first)
	}
}

func describeSkips(bad []LineError) []string {
	out := make([]string, len(bad))
	for i, le := range bad {
		out[i] = le.Error()
	}
	return out
}
