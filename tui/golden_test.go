package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Golden screens at 80x24, compared as plain text (ansi.Strip) so they pin the
// layout, not the terminal's colours. Regenerate with -update.

func TestGoldenQueueView(t *testing.T) {
	m := press(t, loaded(t, newFixture(t).config()), "5", "j")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenDocumentView(t *testing.T) {
	m := openDoc(t, loaded(t, newFixture(t).config()), "inv-001")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenErrorDocumentView(t *testing.T) {
	m := openDoc(t, loaded(t, newFixture(t).config()), "inv-004")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

// The same screens at 120x35: the ID column and the value column grow with
// the terminal.
func wide(t *testing.T, m Model) Model {
	t.Helper()
	return apply(t, m, tea.WindowSizeMsg{Width: 120, Height: 35})
}

func TestGoldenQueueView120(t *testing.T) {
	m := press(t, wide(t, loaded(t, newFixture(t).config())), "5", "j")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenDocumentView120(t *testing.T) {
	m := openDoc(t, wide(t, loaded(t, newFixture(t).config())), "inv-001")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}

func TestGoldenExpandedReasonView(t *testing.T) {
	m := press(t, openDoc(t, loaded(t, newFixture(t).config()), "inv-001"), "enter")
	teatest.RequireEqualOutput(t, []byte(ansi.Strip(m.View().Content)))
}
