package golden

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadCorpusJSONL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "receipts.jsonl")
	body := `{"id":"a","text":"first"}
{"text":"no id here","expected":{"total":12.5}}

not json
{"id":"a","text":"duplicate"}
{"text":"   "}
{"id":7,"text":"numeric id"}
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, docs, bad, err := LoadCorpus(path, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, d := range docs {
		ids = append(ids, d.ID)
		if d.Seq != i || d.CorpusID != c.ID {
			t.Errorf("doc %s: seq %d corpus %q", d.ID, d.Seq, d.CorpusID)
		}
	}
	if want := []string{"a", NewDocIDs(nil).ID(Line{Text: "no id here"}), "7"}; !slices.Equal(ids, want) || !strings.HasPrefix(ids[1], "text-") {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	if docs[1].Expected["total"] != 12.5 {
		t.Errorf("expected not carried: %v", docs[1].Expected)
	}
	var lines []int
	for _, b := range bad {
		lines = append(lines, b.Line)
	}
	if want := []int{4, 5, 6}; !slices.Equal(lines, want) {
		t.Fatalf("bad lines %v (%v), want %v", lines, bad, want)
	}
	if !strings.Contains(bad[1].Error(), `duplicate id "a"`) {
		t.Errorf("duplicate reported as %v", bad[1].Error())
	}
	if c.Name != "receipts" || c.Kind != "file" || c.Schema != "invoice" || c.ContentHash == "" || !filepath.IsAbs(c.Path) {
		t.Errorf("corpus %+v", c)
	}

	// The ID follows the path (so reopening resumes), the hash the content.
	wd, _ := os.Getwd()
	t.Chdir(dir)
	c2, _, _, err := LoadCorpus("receipts.jsonl", "invoice")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	if c2.ID != c.ID || c2.ContentHash != c.ContentHash {
		t.Errorf("relative path gave %s/%s, want %s/%s", c2.ID, c2.ContentHash, c.ID, c.ContentHash)
	}
	if err := os.WriteFile(path, []byte(body+`{"text":"more"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c3, _, _, _ := LoadCorpus(path, "invoice")
	if c3.ID != c.ID || c3.ContentHash == c.ContentHash {
		t.Errorf("after an edit: id %s (want %s), hash unchanged=%v", c3.ID, c.ID, c3.ContentHash == c.ContentHash)
	}
	other := filepath.Join(dir, "other.jsonl")
	if err := os.WriteFile(other, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if c4, _, _, _ := LoadCorpus(other, "invoice"); c4.ID == c.ID {
		t.Error("two files share a corpus id")
	}
	if _, _, _, err := LoadCorpus(filepath.Join(dir, "missing.jsonl"), "invoice"); err == nil {
		t.Error("missing file loaded")
	}
}

func TestLoadCorpusDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"b.txt": "second", "a.txt": "first", "notes.md": "skip me", "empty.txt": "\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, docs, bad, err := LoadCorpus(dir, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != "dir" || len(docs) != 2 || docs[0].ID != "a" || docs[0].Text != "first" || docs[1].ID != "b" {
		t.Fatalf("corpus %+v docs %+v", c, docs)
	}
	if len(bad) != 1 || !strings.Contains(bad[0].Error(), "empty.txt") {
		t.Errorf("bad %v", bad)
	}
}
