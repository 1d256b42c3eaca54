package tui

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// q and esc close the full help; only a q with the help closed quits (on an
// unfiltered queue). A new user pressed ? then q and lost the workstation.
func TestQuitKeysCloseHelpFirst(t *testing.T) {
	for _, k := range []string{"q", "esc"} {
		m := press(t, loaded(t, newFixture(t).config()), "?")
		if !m.help.ShowAll || !strings.Contains(helpText(m), "close help") {
			t.Fatalf("? did not open the help, or it does not say q closes it:\n%s", viewText(m))
		}
		nm, cmd := m.Update(keyMsg(k))
		m = nm.(Model)
		if cmd != nil {
			if _, quit := cmd().(tea.QuitMsg); quit {
				t.Fatalf("%s with the help open quit the workstation", k)
			}
		}
		if m.help.ShowAll {
			t.Fatalf("%s did not close the help", k)
		}
		if _, cmd := m.Update(keyMsg("q")); cmd == nil {
			t.Fatal("q on the queue with the help closed no longer quits")
		} else if _, quit := cmd().(tea.QuitMsg); !quit {
			t.Fatal("q on the queue with the help closed no longer quits")
		}
	}
	// On a document, q with the help open closes the help and stays.
	m := press(t, openDoc(t, loaded(t, newFixture(t).config()), "inv-001"), "?", "q")
	if m.help.ShowAll || m.page != pageDoc {
		t.Fatalf("q on a document with help: help=%v page=%v", m.help.ShowAll, m.page)
	}
}

func helpText(m Model) string { return m.help.View(m.helpKeys()) }

// Typing the pipeline's own value into the editor confirms it: the store
// records an accept, so the pipeline is not counted wrong for a correct value.
func TestReenteredValueIsAnAccept(t *testing.T) {
	f := newFixture(t)
	m := selectField(t, openDoc(t, loaded(t, f.config()), "inv-001"), "subtotal")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "540")
	m = press(t, m, "enter")
	d := decisions(t, f, "inv-001")["subtotal"]
	if d.Action != store.ActionAccept || d.Value != 540.0 {
		t.Fatalf("re-entering 540.00 stored %+v, want an accept of 540", d)
	}
	// A different value is still a correction.
	m = selectField(t, m, "tax")
	m = press(t, m, "e", "ctrl+u")
	m = typeText(t, m, "43.00")
	press(t, m, "enter")
	if d := decisions(t, f, "inv-001")["tax"]; d.Action != store.ActionCorrect || d.Value != 43.0 {
		t.Fatalf("a new tax stored %+v, want a correction to 43", d)
	}
}

// helpOnly are bindings that summarise others in the one-line help bar;
// the keys they name are bound elsewhere.
var helpOnly = map[string]bool{"MoveHelp": true, "TabsHelp": true, "QuitHelp": true, "ClearFilterHelp": true,
	"CloseHelp": true, "SortHelp": true, "BulkHelp": true}

// everyBinding is every key binding of the workstation by field name: the
// root's key map, each tab key, and the held-call page's keys.
func everyBinding() map[string]key.Binding {
	out := map[string]key.Binding{}
	collect := func(prefix string, v reflect.Value) {
		for i := range v.NumField() {
			name, fv := v.Type().Field(i).Name, v.Field(i)
			switch b := fv.Interface().(type) {
			case key.Binding:
				if !helpOnly[name] {
					out[prefix+name] = b
				}
			case [5]key.Binding:
				for j, tb := range b {
					out[prefix+name+string(rune('1'+j))] = tb
				}
			}
		}
	}
	collect("", reflect.ValueOf(DefaultKeyMap()))
	collect("hold.", reflect.ValueOf(newHoldPage(&services{}, nil).keys))
	return out
}

// readmeSpelling is how the README writes a key the binding names otherwise.
var readmeSpelling = map[string]string{"down": "↓", "up": "↑", "pgdown": "pgdn", "space": "space"}

// Every key the workstation binds (each key of a binding, not only the one
// its help names: ctrl+d as well as pgdn) is in the README's key tables and
// in the help of the screen it works on (full help, or the help bar of a modal
// state: the editor, the filter, a confirmation). A key added without both
// fails here.
func TestEveryBoundKeyInReadmeTablesAndHelp(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "| key (queue) |")
	end := strings.Index(readme, "Every decision is committed")
	if start < 0 || end < start {
		t.Fatal("README has no workstation key tables")
	}
	tables := readme[start:end]
	// The held-call page's keys are described in prose after the tables.
	if i := strings.Index(readme, "`y` approves"); i >= 0 {
		tables += readme[i-400 : i+400]
	}
	quoted := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(tables, -1) {
		quoted[m[1]] = true
		for _, k := range strings.Split(m[1], "/") {
			quoted[strings.TrimSpace(k)] = true
		}
	}
	if strings.Contains(tables, "`1`–`5`") {
		for _, d := range "12345" {
			quoted[string(d)] = true
		}
	}
	shown := shownInHelp(t)
	for name, b := range everyBinding() {
		for _, k := range b.Keys() {
			spelled := k
			if s, ok := readmeSpelling[k]; ok {
				spelled = s
			}
			if !quoted[spelled] && !quoted[k] {
				t.Errorf("README key tables do not list %q (%s: %s)", spelled, name, b.Help().Desc)
			}
			if !strings.HasPrefix(name, "hold.") && !shown[k] {
				t.Errorf("no help screen lists %q (%s: %s)", k, name, b.Help().Desc)
			}
		}
	}
}

// shownInHelp is every key some help screen lists: the full help of the
// queue and of a document, and the help bar of each modal state.
func shownInHelp(t *testing.T) map[string]bool {
	t.Helper()
	f := newFixture(t)
	shown := map[string]bool{}
	add := func(m Model) {
		for _, col := range m.helpKeys().FullHelp() {
			for _, b := range col {
				for _, k := range b.Keys() {
					shown[k] = true
				}
			}
		}
	}
	// Pages are shared by pointer between Model values: every state starts
	// from a fresh model.
	fresh := func() Model { return loaded(t, f.config()) }
	add(fresh())
	for _, keys := range [][]string{{"/"}, {"B"}, {"B", "enter"}, {"s"}, {"L"}} {
		add(press(t, fresh(), keys...))
	}
	d := openDoc(t, fresh(), "inv-001")
	add(d)
	add(press(t, d, "e"))
	add(openDoc(t, fresh(), "inv-004"))
	return shown
}
