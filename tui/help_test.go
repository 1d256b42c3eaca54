package tui

import (
	"strings"
	"testing"
)

func helpLine(m Model) string {
	lines := strings.Split(viewText(m), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// The help bar lists only keys that do what it says on the screen shown:
// while text is typed, ? and q are letters, and the stats panel takes only s
// and q.
func TestHelpBarListsOnlyKeysThatWork(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	if h := helpLine(m); !strings.Contains(h, "/ filter") || !strings.Contains(h, "q quit") {
		t.Fatalf("queue help: %q", h)
	}
	m = press(t, m, "/")
	if h := helpLine(m); h != "enter apply • esc clear" {
		t.Fatalf("filter help: %q", h)
	}
	m = press(t, m, "esc")
	m = press(t, m, "s")
	if h := helpLine(m); h != "s stats • q back" {
		t.Fatalf("stats help: %q", h)
	}
	m = press(t, m, "?")
	if !m.showStats || m.help.ShowAll {
		t.Fatal("? on the stats panel did something its help bar does not list")
	}
	m = openDoc(t, press(t, m, "q"), "inv-001")
	if h := helpLine(m); !strings.Contains(h, "a accept") || !strings.Contains(h, "q back") {
		t.Fatalf("document help: %q", h)
	}
	m = press(t, m, "e")
	if h := helpLine(m); h != "enter save • esc cancel" {
		t.Fatalf("editor help: %q", h)
	}
	// Full help, switched on before the editor opened, shows the editor's keys.
	m = press(t, m, "esc", "?")
	if v := viewText(m); !strings.Contains(v, "undo") {
		t.Fatalf("full help lists no undo:\n%s", v)
	}
	m = press(t, m, "e")
	if v := viewText(m); strings.Contains(v, "undo") || strings.Contains(v, "q back") || !strings.Contains(v, "cancel") {
		t.Fatalf("full help in the editor:\n%s", v)
	}
	if n := strings.Count(viewText(m), "\n") + 1; n != 24 {
		t.Fatalf("the editor's full help left a %d-line screen at 80x24", n)
	}
}
