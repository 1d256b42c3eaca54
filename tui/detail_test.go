package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// heldCallPage stands in for the page a held tool call will get: its own
// load message and its own keys. It is what the detail interface promises a
// second page can be, registered without touching the root.
type heldCallPage struct {
	id      string
	loading bool
	keys    []string
	approve key.Binding
}

type callLoadedMsg struct{ id string }

func (p *heldCallPage) Open(id string) tea.Cmd {
	p.id, p.loading, p.keys = id, true, nil
	return func() tea.Msg { return callLoadedMsg{id} }
}
func (p *heldCallPage) ItemID() string { return p.id }
func (p *heldCallPage) Crumb() string  { return "held call " + p.id }
func (p *heldCallPage) Loading() bool  { return p.loading }
func (p *heldCallPage) Saving() bool   { return false }
func (p *heldCallPage) Apply(msg tea.Msg) bool {
	if m, ok := msg.(callLoadedMsg); ok && m.id == p.id {
		p.loading = false
		return true
	}
	return false
}
func (p *heldCallPage) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		p.keys = append(p.keys, k.String())
	}
	return nil
}
func (p *heldCallPage) View() string              { return "approve or reject " + p.id }
func (p *heldCallPage) SetSize(int, int)          {}
func (p *heldCallPage) Capturing() bool           { return false }
func (p *heldCallPage) ShortHelp() []key.Binding  { return []key.Binding{p.approve} }
func (p *heldCallPage) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// An item opens on the page registered for its Kind: keys typed while it
// loads reach that page once its own load message arrives, back returns to
// the queue, and an extraction document still opens the document page.
func TestItemsOpenOnThePageForTheirKind(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	call := store.Document{ID: "call-1", Kind: store.KindToolCall, Text: "delete_file(path=/etc/passwd)"}
	if err := f.st.PutCorpus(ctx, f.corpus, []store.Document{call}); err != nil {
		t.Fatal(err)
	}
	held := pipeline.Result{ID: "call-1", Status: pipeline.StatusNeedsReview, OverallConfidence: 0.1}
	if _, err := f.st.PutResult(ctx, f.corpus.ID, "call-1", "test-1", held); err != nil {
		t.Fatal(err)
	}
	page := &heldCallPage{approve: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "approve"))}
	m := New(f.config())
	m.details[store.KindToolCall] = page
	m = apply(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = runCmd(t, m, m.Init(), 0)
	if row, _ := m.queue.Row("call-1"); row.Kind != store.KindToolCall {
		t.Fatalf("queue row of the held call: %+v", row)
	}

	m, load := update(t, m, OpenDocMsg{DocID: "call-1"})
	if m.detail != page || page.id != "call-1" {
		t.Fatalf("opened on %T %q, want the held-call page", m.detail, page.id)
	}
	m, _ = update(t, m, keyMsg("y"))
	if len(page.keys) != 0 || len(m.typeahead) != 1 {
		t.Fatalf("a key typed while loading reached the page (%v) or was not held (%d)", page.keys, len(m.typeahead))
	}
	m = apply(t, m, load())
	if strings.Join(page.keys, " ") != "y" || len(m.typeahead) != 0 {
		t.Fatalf("after the load the page has keys %v, %d held", page.keys, len(m.typeahead))
	}
	v := viewText(m)
	if !strings.Contains(v, "held call call-1") || !strings.Contains(v, "approve or reject call-1") || !strings.Contains(v, "y approve") {
		t.Fatalf("view:\n%s", v)
	}

	if m = press(t, m, "esc"); m.page != pageQueue {
		t.Fatal("esc did not leave the held call")
	}
	m = openDoc(t, m, "inv-001")
	if m.detail != m.doc || !strings.Contains(viewText(m), "document inv-001") {
		t.Fatalf("inv-001 opened on %T", m.detail)
	}
}

// The queue shows the rows the store wrote: after a decision, an undo and a
// new result, each row equals the stored one, field for field.
func TestQueueRowsAreTheStoresRows(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	same := func(what string) {
		t.Helper()
		for _, id := range []string{"inv-001", "inv-002"} {
			if got, want := mustRow(t, m, id), f.row(t, id); got != want {
				t.Fatalf("%s: queue row of %s = %+v\nstored %+v", what, id, got, want)
			}
		}
	}
	m = press(t, m, "a")
	same("after accept")
	if !mustRow(t, m, "inv-001").Reviewed {
		t.Fatal("accepting the only flagged field did not review inv-001")
	}
	m = press(t, m, "u")
	same("after undo")
	m = apply(t, m, f.result(t, "inv-002", "test-2", rerunResult(t), time.Now()))
	same("after a new result")
}

func mustRow(t *testing.T, m Model, id string) store.Summary {
	t.Helper()
	r, ok := m.queue.Row(id)
	if !ok {
		t.Fatalf("no queue row for %s", id)
	}
	return r
}
