package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLoadCorpus: a review corpus file of any content loads without
// panicking; every document it keeps has a unique id without a NUL, a
// non-blank text, and its place in order; nothing is both kept and refused.
func FuzzLoadCorpus(f *testing.F) {
	for _, seed := range []string{
		"{\"id\":\"a\",\"text\":\"ACME total 1.00\"}\n{\"text\":\"second\",\"expected\":{\"total\":2}}\n",
		"{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\",\"text\":\"y\"}\n",
		"{\"id\":\"a\\u0000b\",\"text\":\"x\"}\n{\"text\":\"  \"}\n{\"text\":\"\\ud800\"}\n",
		"\ufeff{\"text\":\"bom\"}\r\n", "not json\n", "", "{\"text\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "corpus.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, docs, bad, err := LoadCorpus(path, "invoice")
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for i, d := range docs {
			if d.ID == "" || strings.IndexByte(d.ID, 0) >= 0 || seen[d.ID] {
				t.Fatalf("document %d: id %q (empty, NUL or repeated)", i, d.ID)
			}
			seen[d.ID] = true
			if strings.TrimSpace(d.Text) == "" || d.Seq != i {
				t.Fatalf("document %d: text %q seq %d", i, d.Text, d.Seq)
			}
			if !utf8.ValidString(d.Text) {
				t.Fatalf("document %d: text is not UTF-8: %q", i, d.Text)
			}
		}
		for _, b := range bad {
			if b.Line <= 0 {
				t.Fatalf("a refused line without its number: %+v", b)
			}
		}
	})
}
