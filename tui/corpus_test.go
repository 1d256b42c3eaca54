package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
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
	if want := []string{"a", "line-2", "7"}; !slices.Equal(ids, want) {
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

func TestTextViewSpansAreCodePoints(t *testing.T) {
	st := NewStyles(true)
	var tv textView
	tv.SetWidth(10)
	text := "naïve café\t€12\r\nzürich 日本語テキスト"
	tv.SetText(text)
	// Wrapped by display width: the CJK runes are two cells wide.
	var got []string
	for _, l := range tv.lines {
		got = append(got, string(tv.runes[l.start:l.end]))
	}
	want := []string{"naïve café", "\t€12\r", "zürich 日", "本語テキス", "ト"}
	if !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	price := runeSpan(t, text, "€12")
	city := runeSpan(t, text, "zürich")
	tv.SetHighlights([]fieldSpans{
		{class: classSpan, spans: []pipeline.Span{city, {Start: -5, End: 2}, {Start: 30, End: 99}}},
		{class: classSelected, spans: []pipeline.Span{price}},
	})
	for i, c := range tv.class {
		wantC := classNone
		switch {
		case i >= price.Start && i < price.End:
			wantC = classSelected
		case i >= city.Start && i < city.End, i < 2, i >= 30:
			wantC = classSpan
		}
		if c != wantC {
			t.Errorf("rune %d %q: class %d, want %d", i, tv.runes[i], c, wantC)
		}
	}
	out := tv.Render(5, &st)
	plain := strings.Split(ansi.Strip(out), "\n")
	if plain[1] != " €12" || plain[3] != "本語テキス" {
		t.Errorf("rendered %q", plain)
	}
	for _, l := range plain {
		if ansi.StringWidth(l) > 10 {
			t.Errorf("line %q wider than 10", l)
		}
	}
	// The selected span is drawn reversed, and only it.
	if !strings.Contains(out, st.SpanSelected.Render("€12")) {
		t.Errorf("selected span not rendered as one reversed run: %q", out)
	}
	tv.ScrollTo(runeSpan(t, text, "ト"), 2)
	if tv.offset != 3 || !strings.HasPrefix(ansi.Strip(tv.Render(2, &st)), "本語テキス\nト") {
		t.Errorf("scroll to the last line: offset %d", tv.offset)
	}
}
