package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/pipeline"
)

// The correction editor is bubbles' textinput: the screen with it open, the
// current value replaced by a typed one, cursor at the end.
func TestGoldenCorrectionEditorView(t *testing.T) {
	m := openDoc(t, loaded(t, newFixture(t).config()), "inv-001")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "583.2")
	if got := m.doc.edit.input.Value(); got != "583.2" {
		t.Fatalf("editor value %q", got)
	}
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// The progress line mid-run, from messages with fixed times so rate and ETA
// are the same on every machine. The results are the stored ones, so the
// queue above the line stays as loaded.
func TestGoldenRunProgressView(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	t0 := time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)
	m = apply(t, m, RunStartedMsg{Total: 8, At: t0})
	for i, id := range []string{"inv-003", "inv-001", "inv-004"} {
		res, ok, err := f.st.Result(context.Background(), f.corpus.ID, id)
		if err != nil || !ok {
			t.Fatalf("stored result of %s: %v %v", id, ok, err)
		}
		m = apply(t, m, ResultMsg{DocID: id, Result: res, Row: f.row(t, id), At: t0.Add(time.Duration(i+1) * time.Second)})
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "3/8 ok 1 · review 1 · err 1 · 1.0/s · ETA 0:05") {
		t.Fatalf("progress line:\n%s", v)
	}
	teatest.RequireEqualOutput(t, []byte(v))
}

func TestProgressBarFillsByShapeWithoutColour(t *testing.T) {
	for _, noColor := range []bool{true, false} {
		st := NewStyles(noColor)
		p := newRunProgress(&st)
		p.SetWidth(80)
		p.Started(RunStartedMsg{Total: 4, At: time.Unix(0, 0)})
		p.Result(ResultMsg{Result: pipeline.Result{Status: pipeline.StatusOK}, At: time.Unix(1, 0)})
		p.Result(ResultMsg{Result: pipeline.Result{Status: pipeline.StatusOK}, At: time.Unix(2, 0)})
		p.Result(ResultMsg{Retry: true, Result: pipeline.Result{Status: pipeline.StatusOK}, At: time.Unix(3, 0)})
		raw := p.View("idle")
		plain := ansi.Strip(raw)
		if w := ansi.StringWidth(plain); w != 80 {
			t.Errorf("noColor=%v: line is %d wide: %q", noColor, w, plain)
		}
		full, empty := strings.Count(plain, "█"), strings.Count(plain, "░")
		if full == 0 || full != empty {
			t.Errorf("noColor=%v: 2/4 done drew %d full and %d empty cells: %q", noColor, full, empty, plain)
		}
		if !strings.Contains(plain, " 2/4 ok 2") {
			t.Errorf("noColor=%v: counts missing (a retry must not count): %q", noColor, plain)
		}
		hasColour := strings.Contains(raw, "\x1b[3") || strings.Contains(raw, "38;")
		if hasColour == noColor {
			t.Errorf("noColor=%v: colour escapes present=%v: %q", noColor, hasColour, raw)
		}
	}
}

func TestEditorAndFilterInputsWithoutColour(t *testing.T) {
	m := openDoc(t, loaded(t, newFixture(t).config()), "inv-001")
	m = press(t, m, "e", "ctrl+u")
	raw := m.doc.edit.View()
	if strings.Contains(raw, "38;") || strings.Contains(raw, "\x1b[3") {
		t.Errorf("editor sets a colour without colour: %q", raw)
	}
	// The cursor cell must still be visible: reverse video is an attribute.
	if !strings.Contains(raw, "\x1b[7m") && !strings.Contains(raw, ";7m") {
		t.Errorf("editor cursor has no reverse video: %q", raw)
	}
	m = press(t, m, "esc", "esc", "/")
	if !m.queue.Capturing() {
		t.Fatal("/ did not open the filter")
	}
	if raw := m.queue.filter.View(); strings.Contains(raw, "38;") {
		t.Errorf("filter sets a colour without colour: %q", raw)
	}
}

// A bracketed paste goes through the same input as typing; a trailing newline
// (pasted from a spreadsheet cell) becomes a space the parser trims.
func TestCorrectionByPaste(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m = press(t, m, "e", "ctrl+u")
	m = apply(t, m, tea.PasteMsg{Content: "583.20\n"})
	m = press(t, m, "enter")
	if m.doc.Capturing() {
		t.Fatalf("editor still open: %s", m.doc.editErr())
	}
	if d := decisions(t, f, "inv-001")["total"]; d.Value != 583.2 {
		t.Fatalf("stored %+v", d)
	}
}

func TestFilterTypingNarrowsQueue(t *testing.T) {
	m := press(t, loaded(t, newFixture(t).config()), "5", "/")
	m = typeText(t, m, "acme")
	if ids := queueIDs(m); len(ids) != 1 || ids[0] != "inv-002" {
		t.Fatalf("filter acme shows %v", ids)
	}
	m = press(t, m, "backspace", "backspace", "backspace", "backspace")
	if n := len(queueIDs(m)); n != 5 {
		t.Fatalf("cleared filter shows %d rows", n)
	}
	m = typeText(t, m, "lake")
	m = press(t, m, "enter")
	if m.queue.Capturing() || m.queue.query != "lake" {
		t.Fatalf("enter should keep the filter: capturing=%v query=%q", m.queue.Capturing(), m.queue.query)
	}
	if !strings.Contains(viewText(m), `filter: "lake"`) {
		t.Errorf("view:\n%s", viewText(m))
	}
}
