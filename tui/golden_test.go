package tui

import (
	"testing"

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
