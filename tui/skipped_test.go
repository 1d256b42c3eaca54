package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// skippyConfig opens, as `reflect review FILE` does, a corpus file with one
// good line and one of each line the loader skips.
func skippyConfig(t *testing.T) Config {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "receipts.jsonl")
	corpus := `{"id":"a","text":"Blue Bottle Coffee\nTotal 12.50 USD"}
{"id":"b","text":"cut short
{"id":"c","text":"   "}
{"id":"a","text":"the same id again"}
`
	if err := os.WriteFile(path, []byte(corpus), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := golden.OpenCorpus(context.Background(), st, path, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	// The path is a temporary directory: the screens show a fixed one.
	c.Path = "/data/receipts.jsonl"
	return Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: "test-1", Reviewer: "tester", NoColor: true}
}

// L on the queue lists the lines the loader skipped, with line number and
// reason; L or q gives the queue back.
func TestSkippedLinesKey(t *testing.T) {
	m := press(t, loaded(t, skippyConfig(t)), "L")
	if !m.showSkipped {
		t.Fatal("L did not open the skipped lines")
	}
	v := viewText(m)
	for _, want := range []string{"3 lines of /data/receipts.jsonl were skipped", "line 2 ", "line 3       empty text",
		`line 4       duplicate id "a" (first on line 1)`} {
		if !strings.Contains(v, want) {
			t.Errorf("L panel lacks %q:\n%s", want, v)
		}
	}
	m = press(t, m, "q")
	if m.showSkipped || m.page != pageQueue {
		t.Fatalf("q did not close the panel (showSkipped=%v)", m.showSkipped)
	}
	// A document's page has no L: the list is the corpus's.
	m = press(t, openDoc(t, press(t, m, "5"), "a"), "L")
	if m.showSkipped {
		t.Error("L opened the corpus's skipped lines from a document")
	}
	m = press(t, m, "q", "L", "L")
	if m.showSkipped {
		t.Error("a second L did not close the panel")
	}
}

// A corpus without a recorded file says so instead of an empty list.
func TestSkippedLinesUnknownCorpus(t *testing.T) {
	m := press(t, loaded(t, newFixture(t).config()), "L")
	if v := viewText(m); !strings.Contains(v, "no corpus file is recorded for testcorpus") {
		t.Fatalf("L on a corpus without a fingerprint:\n%s", v)
	}
}

func TestGoldenSkippedLinesView(t *testing.T) {
	m := press(t, loaded(t, skippyConfig(t)), "L")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenSkippedLinesView120(t *testing.T) {
	m := press(t, wide(t, loaded(t, skippyConfig(t))), "L")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// A directory corpus lists the files it skipped the same way.
func TestSkippedFilesOfADirectory(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"a.txt": "Blue Bottle Coffee\nTotal 12.50 USD", "b.txt": "  \n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, _, err := golden.OpenCorpus(context.Background(), st, dir, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: "test-1", Reviewer: "tester", NoColor: true}
	v := viewText(press(t, loaded(t, cfg), "L"))
	if !strings.Contains(v, "1 file of "+dir+" was skipped") || !strings.Contains(v, "\n  b.txt: empty text") {
		t.Fatalf("L on a directory corpus:\n%s", v)
	}
}

// New user report #12: the directory the user tried (upper-case .TXT, an
// empty file, invalid UTF-8, a subdirectory): L names each file skipped
// and the subdirectory, with no "line" anywhere.
func TestSkippedFilesOfADirectoryNameEveryOne(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.txt": "Blue Bottle Coffee\nTotal 12.50 USD", "b.TXT": "Kedai Ali\nTotal 3.00",
		"empty.txt": "", "bin.txt": "\xff\xfe total", "sub/c.txt": "Globex\nTotal 9.00"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, bad, err := golden.OpenCorpus(context.Background(), st, dir, "invoice")
	if err != nil || len(bad) != 3 {
		t.Fatalf("open: %v, skipped %v", err, bad)
	}
	cfg := Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: "test-1", Reviewer: "tester", NoColor: true}
	v := viewText(press(t, loaded(t, cfg), "L"))
	for _, want := range []string{"3 files of " + dir, "  bin.txt: not valid UTF-8", "  empty.txt: empty text", "  sub/: a subdirectory, not read"} {
		if !strings.Contains(v, want) {
			t.Errorf("L lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "  line ") || strings.Contains(v, "  file ") {
		t.Errorf("L on a directory lists positions, not files:\n%s", v)
	}
}
