package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
)

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
