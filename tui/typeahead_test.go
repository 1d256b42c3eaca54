package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// update is one plain Update call: no command runs.
func update(t *testing.T, m Model, msg tea.Msg) (Model, tea.Cmd) {
	t.Helper()
	nm, cmd := m.Update(msg)
	return nm.(Model), cmd
}

// A whole correction typed before the document has loaded: every key is
// held and replayed, in order, once the load's message arrives.
func TestKeysTypedWhileDocumentLoadsAreReplayed(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	m, load := update(t, m, keyMsg("enter"))
	if load == nil || !m.doc.loading || m.doc.DocID() != "inv-001" {
		t.Fatalf("enter: loading=%v doc=%q cmd=%v", m.doc.loading, m.doc.DocID(), load != nil)
	}
	for _, k := range append([]string{"e", "ctrl+u"}, strings.Split("583.20", "")...) {
		var cmd tea.Cmd
		if m, cmd = update(t, m, keyMsg(k)); cmd != nil {
			t.Fatalf("key %q while loading returned a command", k)
		}
	}
	m, _ = update(t, m, keyMsg("enter"))
	if len(m.typeahead) != 9 || m.doc.Capturing() {
		t.Fatalf("held %d keys, editor open=%v; want 9 held and no editor yet", len(m.typeahead), m.doc.Capturing())
	}
	// The load completes: the held keys open the editor, type and submit.
	m = runCmd(t, m, load, 0)
	if len(m.typeahead) != 0 || m.doc.Capturing() {
		t.Fatalf("after the load: %d keys still held, editor open=%v (%s)", len(m.typeahead), m.doc.Capturing(), m.doc.editErr())
	}
	d, ok := decisions(t, f, "inv-001")["total"]
	if !ok || d.Action != store.ActionCorrect || d.Value != 583.2 {
		t.Fatalf("stored decision %+v, want total corrected to 583.2", d)
	}
}

// Keys typed before the queue has loaded wait for it too, and a key that opens
// a document stops the replay until that document has loaded.
func TestKeysTypedBeforeQueueLoadsReachTheDocument(t *testing.T) {
	f := newFixture(t)
	m := apply(t, New(f.config()), tea.WindowSizeMsg{Width: 80, Height: 24})
	init := m.Init()
	m, _ = update(t, m, keyMsg("enter"))
	m, _ = update(t, m, keyMsg("e"))
	if len(m.typeahead) != 2 || m.page != pageQueue {
		t.Fatalf("before the queue loaded: held %d, page %v", len(m.typeahead), m.page)
	}
	m, cmd := update(t, m, init())
	if m.page != pageDoc || !m.doc.loading || len(m.typeahead) != 1 {
		t.Fatalf("after the queue loaded: page %v loading %v held %d; want the document loading and e held",
			m.page, m.doc.loading, len(m.typeahead))
	}
	m = runCmd(t, m, cmd, 0)
	if !m.doc.Capturing() || m.doc.edit.field.Name != "total" {
		t.Fatalf("e after the load did not open the editor on total: capturing=%v", m.doc.Capturing())
	}
}

// "] a" typed fast accepts on the document ] moved to, not on the one it left.
func TestKeyAfterStepAppliesToTheNextDocument(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m, load := update(t, m, keyMsg("]"))
	if m.doc.DocID() != "inv-002" || !m.doc.loading {
		t.Fatalf("] opened %q loading=%v", m.doc.DocID(), m.doc.loading)
	}
	m, _ = update(t, m, keyMsg("a"))
	m = runCmd(t, m, load, 0)
	if n := len(decisions(t, f, "inv-001")); n != 0 {
		t.Fatalf("the accept landed on inv-001 (%d decisions)", n)
	}
	if d, ok := decisions(t, f, "inv-002")["invoice_date"]; !ok || d.Action != store.ActionAccept {
		t.Fatalf("inv-002 decisions %+v, want invoice_date accepted", decisions(t, f, "inv-002"))
	}
}

// Held commands run in the order typed: an accept then an undo leaves
// nothing, which concurrent commands could get backwards.
func TestHeldDecisionAndUndoRunInOrder(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	m, load := update(t, m, keyMsg("enter"))
	m, _ = update(t, m, keyMsg("a"))
	m, _ = update(t, m, keyMsg("u"))
	m = runCmd(t, m, load, 0)
	if ds := decisions(t, f, "inv-001"); len(ds) != 0 {
		t.Fatalf("decisions after a then u: %+v", ds)
	}
	if !strings.Contains(m.status, "undone: accepted total on inv-001") {
		t.Fatalf("status %q", m.status)
	}
}

func TestTypeaheadIsBoundedAndBackStillLeaves(t *testing.T) {
	f := newFixture(t)
	m := loaded(t, f.config())
	m, _ = update(t, m, keyMsg("enter"))
	for range maxTypeahead + 4 {
		m, _ = update(t, m, keyMsg("j"))
	}
	if len(m.typeahead) != maxTypeahead || !m.statusErr || !strings.Contains(m.status, "still loading") {
		t.Fatalf("held %d keys, status %q", len(m.typeahead), m.status)
	}
	m, _ = update(t, m, keyMsg("q"))
	if m.page != pageQueue || len(m.typeahead) != 0 {
		t.Fatalf("q past the bound: page %v, %d held", m.page, len(m.typeahead))
	}
	// ctrl+c is never held.
	m2 := loaded(t, f.config())
	m2, _ = update(t, m2, keyMsg("enter"))
	if _, cmd := update(t, m2, keyMsg("ctrl+c")); cmd == nil {
		t.Fatal("ctrl+c while loading did not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c while loading did not quit")
	}
}

// The tmux report, in the real program: enter and the keys of a correction
// sent back to back, with no wait for the document to draw.
func TestProgramEnterThenCorrectAtOnce(t *testing.T) {
	f := newFixture(t)
	tm := teatest.NewTestModel(t, New(f.config()), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("inv-001")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("e"))
	tm.Send(keyMsg("ctrl+u"))
	tm.Type("583.20")
	tm.Send(keyMsg("enter"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("saved:")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(keyMsg("ctrl+c"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if d := decisions(t, f, "inv-001")["total"]; d.Action != store.ActionCorrect || d.Value != 583.2 {
		t.Fatalf("stored %+v", d)
	}
}

// A background result that arrives while its document is loading is not lost
// when the load read the store before the result was written.
func TestResultArrivingDuringLoadIsShown(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	doc := store.Document{CorpusID: f.corpus.ID, ID: "late-1", Seq: len(f.docs), Text: textDeli}
	if err := f.st.PutCorpus(ctx, f.corpus, append(f.docs, doc)); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, f.config())
	m, load := update(t, m, OpenDocMsg{DocID: "late-1"})
	loadedMsg := load() // the read happens now, before the result exists
	if lm, ok := loadedMsg.(DocLoadedMsg); !ok || lm.HasResult {
		t.Fatalf("load read %#v, want no result yet", loadedMsg)
	}
	res := missingTotalResult(t, "late-1", textDeli)
	m, _ = update(t, m, f.result(t, "late-1", "test-1", res, time.Time{}))
	m, _ = update(t, m, loadedMsg)
	if !m.doc.hasResult || m.doc.res.Status != pipeline.StatusNeedsReview || m.doc.selected().Name != "total" {
		t.Fatalf("after the load: hasResult=%v status=%q selected=%s", m.doc.hasResult, m.doc.res.Status, m.doc.selected().Name)
	}
	if v := viewText(m); strings.Contains(v, "no result yet") || !strings.Contains(v, "— (missing)") {
		t.Fatalf("view:\n%s", v)
	}
}
