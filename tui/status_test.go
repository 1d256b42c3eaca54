package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// statusArea is the lines of the screen between the progress line and the
// help bar.
func statusArea(t *testing.T, m Model) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	help := len(lines) - m.helpH
	from := help - m.statusH
	if from < 2 || help > len(lines) {
		t.Fatalf("status lines %d and help lines %d do not fit a %d-line screen", m.statusH, m.helpH, len(lines))
	}
	return lines[from:help]
}

// A status message tells the reviewer what to do next, and that part is
// usually at its end: a message wider than the window wraps onto the lines
// above the help bar instead of losing its end, and the screen keeps its
// height.
func TestStatusMessageWrapsInsteadOfLosingItsEnd(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "X", "enter") // reject inv-001; inv-002 opens
	m = press(t, m, "u")          // u on inv-002 says where inv-001 went
	want := "press u there to take it back"
	if !strings.Contains(m.status, want) {
		t.Fatalf("status %q does not say how to take the rejection back", m.status)
	}
	if len(m.status) <= 80 {
		t.Fatalf("the message must be wider than the window for this test: %q", m.status)
	}
	view := ansi.Strip(m.View().Content)
	lines := strings.Split(view, "\n")
	if len(lines) != 24 {
		t.Errorf("screen is %d lines, want 24", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
	area := statusArea(t, m)
	if got := strings.Fields(strings.Join(area, " ")); !slices.Equal(got, strings.Fields(m.status)) {
		t.Errorf("status on screen = %q, want every word of %q", area, m.status)
	}
	if len(area) < 2 || !strings.HasSuffix(area[len(area)-1], want) {
		t.Errorf("status on screen = %q, want it wrapped, ending in %q", area, want)
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// The export path is what a reviewer copies; the status names all of it.
func TestExportStatusNamesTheWholePath(t *testing.T) {
	f := newFixture(t)
	cfg := f.config()
	dir := filepath.Join(t.TempDir(), "a-directory-name-long-enough", "to-push-the-path", "past-eighty-columns")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.ExportPath = filepath.Join(dir, "testcorpus.file-test.golden.jsonl")
	m := press(t, loaded(t, cfg), "E")
	if m.statusErr || !strings.HasPrefix(m.status, "exported ") {
		t.Fatalf("status after E = %q", m.status)
	}
	if got := strings.Join(statusArea(t, m), ""); !strings.Contains(got, cfg.ExportPath) {
		t.Errorf("status on screen = %q, want the whole path %s", got, cfg.ExportPath)
	}
}

// A message too long even for the status lines keeps to them, ends in "…",
// and leaves the body at least one line.
func TestStatusMessageHasABoundedHeight(t *testing.T) {
	m := loaded(t, newFixture(t).config())
	m.setStatus(strings.Repeat("a long message word ", 40), true)
	if m.statusH != maxStatusLines {
		t.Fatalf("status takes %d lines, want %d", m.statusH, maxStatusLines)
	}
	got := strings.Join(statusArea(t, m), "\n")
	if !strings.HasPrefix(got, "! a long message") || !strings.HasSuffix(got, "…") {
		t.Errorf("a cut message on screen = %q: want it marked as an error and cut with …", got)
	}
	if n := len(strings.Split(m.View().Content, "\n")); n != 24 {
		t.Errorf("screen is %d lines, want 24", n)
	}
	m.setStatus("short again", false)
	if m.statusH != 1 || m.bodyH != 24-2-1-m.helpH {
		t.Errorf("after a short message: status %d lines, body %d lines; want 1 and the rest", m.statusH, m.bodyH)
	}
}
