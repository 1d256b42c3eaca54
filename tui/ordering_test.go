package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "a u" typed on a loaded document: the undo must wait for the accept to be
// written. Run concurrently, the undo could reach the store first, find
// nothing (or an older decision) to undo, and leave the accept standing. The
// test runs the later command first, as a scheduler may.
func TestUndoWaitsForTheDecisionBeforeIt(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m, save := update(t, m, keyMsg("a"))
	if save == nil {
		t.Fatal("a returned no command")
	}
	m, undo := update(t, m, keyMsg("u"))
	m = runCmd(t, m, undo, 0)
	m = runCmd(t, m, save, 0)
	if ds := decisions(t, f, "inv-001"); len(ds) != 0 {
		t.Fatalf("decisions after a then u: %+v", ds)
	}
	if !strings.Contains(m.status, "undone: accepted total on inv-001") || m.undoing || len(m.typeahead) != 0 {
		t.Fatalf("status %q undoing=%v held=%d", m.status, m.undoing, len(m.typeahead))
	}
}

// "A ]" typed at once: the document is left only after its save landed, so
// its queue row learns it was reviewed and it leaves "needs review".
func TestNextDocumentWaitsForTheSave(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m, save := update(t, m, keyMsg("A"))
	m, next := update(t, m, keyMsg("]"))
	m = runCmd(t, m, next, 0)
	m = runCmd(t, m, save, 0)
	if m.doc.DocID() != "inv-002" || m.doc.loading {
		t.Fatalf("] opened %q loading=%v", m.doc.DocID(), m.doc.loading)
	}
	if row, _ := m.queue.Row("inv-001"); !row.Reviewed || row.Decisions != 7 {
		t.Fatalf("inv-001 row after accept all: %+v", row)
	}
	if ids := queueIDs(m); len(ids) != 1 || ids[0] != "inv-002" {
		t.Fatalf("needs review after accepting inv-001: %v", ids)
	}
}

// A failed save releases the held keys too.
func TestHeldKeysReplayAfterAFailedSave(t *testing.T) {
	f := newFixture(t)
	m := openDoc(t, loaded(t, f.config()), "inv-001")
	m, save := update(t, m, keyMsg("a"))
	m, _ = update(t, m, keyMsg("k"))
	msg := save().(DecidedMsg)
	msg.Err = errString("store busy")
	m = apply(t, m, msg)
	if m.doc.saving() || len(m.typeahead) != 0 || m.doc.selected().Name != "tax" {
		t.Fatalf("saving=%v held=%d selected=%s", m.doc.saving(), len(m.typeahead), m.doc.selected().Name)
	}
}

// "a s" and "a E" typed at once: the stats panel and the golden export read
// the store after the accept is written, so they include it.
func TestStatsAndExportSeeTheDecisionBeforeThem(t *testing.T) {
	f := newFixture(t)
	cfg := f.config()
	cfg.ExportPath = filepath.Join(t.TempDir(), "out.golden.jsonl")
	m := openDoc(t, loaded(t, cfg), "inv-001")
	m, save := update(t, m, keyMsg("a"))
	m, stats := update(t, m, keyMsg("s"))
	m = runCmd(t, m, stats, 0)
	m = runCmd(t, m, save, 0)
	if !m.showStats || m.stats.loading || m.stats.stats.DecidedFields != 1 || m.stats.stats.Reviewed != 1 {
		t.Fatalf("stats after a then s: showing=%v %+v", m.showStats, m.stats.stats)
	}

	m = press(t, m, "s", "k")
	m, save = update(t, m, keyMsg("a"))
	m, export := update(t, m, keyMsg("E"))
	m = runCmd(t, m, export, 0)
	m = runCmd(t, m, save, 0)
	data, err := os.ReadFile(cfg.ExportPath)
	if err != nil || !strings.Contains(m.status, "exported 1") {
		t.Fatalf("export: status %q, %v", m.status, err)
	}
	var row struct {
		Review struct {
			Original map[string]any `json:"original"`
		} `json:"review"`
	}
	if err := json.Unmarshal(data, &row); err != nil {
		t.Fatal(err)
	}
	if _, ok := row.Review.Original["tax"]; !ok {
		t.Fatalf("the export missed the tax accept typed before E:\n%s", data)
	}
}

// An export that cannot be written says so and leaves nothing behind.
func TestExportFailureIsReported(t *testing.T) {
	f := newFixture(t)
	cfg := f.config()
	cfg.ExportPath = filepath.Join(t.TempDir(), "missing-dir", "out.golden.jsonl")
	m := openDoc(t, loaded(t, cfg), "inv-001")
	m = press(t, m, "a", "E")
	if !m.statusErr || !strings.Contains(m.status, "export:") {
		t.Fatalf("status %q", m.status)
	}
	if _, err := os.Stat(filepath.Dir(cfg.ExportPath)); !os.IsNotExist(err) {
		t.Fatalf("export created %s: %v", filepath.Dir(cfg.ExportPath), err)
	}
}
