package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
