package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// Two corpus files with one base name in different directories are two
// corpora with one name. reflect queues tells them apart by path; a name
// given to --corpus or --queue that fits both is refused with both paths,
// never read as whichever was stored first.
func TestTwoCorporaWithOneName(t *testing.T) {
	dir := t.TempDir()
	storePath := filepath.Join(dir, "reflect.db")
	paths := map[string]int{filepath.Join(dir, "march", "invoices.jsonl"): 2, filepath.Join(dir, "april", "invoices.jsonl"): 3}
	for p, n := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var lines strings.Builder
		for i := range n {
			lines.WriteString(`{"id":"` + filepath.Base(filepath.Dir(p)) + `-` + string(rune('a'+i)) + `","text":"ACME Ltd\nInvoice A-1\nTotal 10.00 EUR"}` + "\n")
		}
		if err := os.WriteFile(p, []byte(lines.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := run(t, "", "extract", "--batch", "--save", "--file", p, "--store", storePath, "--provider", "local"); r.code == ExitUsage || r.code == ExitPipeline {
			t.Fatalf("extract --batch --save %s: exit %d %s", p, r.code, r.err)
		}
	}
	r := run(t, "", "queues", "--store", storePath)
	for p := range paths {
		if !strings.Contains(r.out, "reflect review "+p) {
			t.Errorf("reflect queues does not list %s:\n%s", p, r.out)
		}
	}
	for _, verb := range [][]string{{"stats"}, {"audit"}, {"export", "--golden", filepath.Join(dir, "out.jsonl")}} {
		r := run(t, "", append(verb, "--corpus", "invoices", "--store", storePath)...)
		if r.code != ExitUsage || !strings.Contains(r.err, `"invoices" names 2 corpora`) {
			t.Errorf("%s --corpus invoices: exit %d, stderr %q; want it refused as two corpora", verb[0], r.code, r.err)
		}
		for p := range paths {
			if !strings.Contains(r.err, p) {
				t.Errorf("%s --corpus invoices: stderr %q does not name %s", verb[0], r.err, p)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.jsonl")); err == nil {
		t.Error("a refused export wrote its file")
	}
	for p, n := range paths {
		r := run(t, "", "stats", "--corpus", p, "--store", storePath)
		if want := "documents         : " + string(rune('0'+n)) + " "; r.code != ExitOK || !strings.Contains(r.out, want) {
			t.Errorf("stats --corpus %s: exit %d, want %q in\n%s%s", p, r.code, want, r.out, r.err)
		}
	}
	r = run(t, "", "review", "--queue", "invoices", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, "2 corpus files' name") {
		t.Errorf("review --queue invoices: exit %d, stderr %q", r.code, r.err)
	}
	for p := range paths {
		if !strings.Contains(r.err, "reflect review "+p) {
			t.Errorf("review --queue invoices: stderr %q lacks the command for %s", r.err, p)
		}
	}
}

// The workstation's title names such a corpus by as much of its path as
// tells it from the other; a name no other corpus has stays the name.
func TestWorkstationTitleTellsSameNamedCorporaApart(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	put := func(id, name, path string) store.Corpus {
		c := store.Corpus{ID: id, Name: name, Kind: "file", Path: path, Schema: "invoice"}
		if err := st.PutCorpus(ctx, c, []store.Document{{CorpusID: id, ID: "a", Text: "Total 1.00"}}); err != nil {
			t.Fatal(err)
		}
		return c
	}
	march := put("file:1", "invoices", "/data/2026/march/invoices.jsonl")
	receipts := put("file:2", "receipts", "/data/receipts.jsonl")
	if got := corpusTitle(ctx, st, march); got != "invoices" {
		t.Errorf("a name of its own: title %q, want invoices", got)
	}
	put("file:3", "invoices", "/data/2026/april/invoices.jsonl")
	if got := corpusTitle(ctx, st, march); got != filepath.Join("march", "invoices.jsonl") {
		t.Errorf("two invoices corpora: title %q, want march/invoices.jsonl", got)
	}
	put("file:4", "invoices", "/backup/march/invoices.jsonl")
	if got := corpusTitle(ctx, st, march); got != march.Path {
		t.Errorf("two march/invoices.jsonl: title %q, want the whole path", got)
	}
	if got := corpusTitle(ctx, st, receipts); got != "receipts" {
		t.Errorf("receipts: title %q", got)
	}
}
