package tui

import (
	"strings"
	"testing"
)

// The title line and the window title name the corpus as the caller says
// (two corpora named "invoices" are march/invoices.jsonl and
// april/invoices.jsonl there), else by its name.
func TestTitleNamesTheCorpusAsGiven(t *testing.T) {
	f := newFixture(t)
	if v := loaded(t, f.config()).View(); !strings.HasPrefix(stripView(v.Content), "reflect review · testcorpus · ") {
		t.Errorf("default title: %q", strings.SplitN(stripView(v.Content), "\n", 2)[0])
	}
	cfg := f.config()
	cfg.Title = "march/invoices.jsonl"
	m := loaded(t, cfg)
	v := m.View()
	if first := strings.SplitN(stripView(v.Content), "\n", 2)[0]; !strings.HasPrefix(first, "reflect review · march/invoices.jsonl · queue") {
		t.Errorf("title line %q", first)
	}
	if v.WindowTitle != "reflect review · march/invoices.jsonl" {
		t.Errorf("window title %q", v.WindowTitle)
	}
	if s := stripView(press(t, m, "s").View().Content); !strings.Contains(s, "statistics · march/invoices.jsonl") {
		t.Errorf("stats page does not name the corpus as given:\n%s", s)
	}
}
