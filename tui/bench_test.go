package tui

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

const benchDocs = 100_000

// benchConfig stores benchDocs synthetic documents with results.
func benchConfig(b *testing.B) Config {
	b.Helper()
	st, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := store.Populate(ctx, st, "bench", benchDocs); err != nil {
		b.Fatal(err)
	}
	c, err := st.Corpus(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: store.PopulateVersion, Reviewer: "bench", NoColor: true}
}

// reportP99 records the 99th percentile of per-keypress latencies.
func reportP99(b *testing.B, ds []time.Duration) {
	b.Helper()
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	p99 := ds[(len(ds)-1)*99/100]
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
}

// keystroke is one Update plus the View the program would render after it.
func keystroke(m Model, k tea.KeyPressMsg) Model {
	nm, _ := m.Update(k)
	m = nm.(Model)
	_ = m.View()
	return m
}

func BenchmarkQueueKey100k(b *testing.B) {
	m := press(b, loaded(b, benchConfig(b)), "5")
	if len(m.queue.view) != benchDocs {
		b.Fatalf("queue holds %d rows", len(m.queue.view))
	}
	keys := []tea.KeyPressMsg{keyMsg("j"), keyMsg("j"), keyMsg("pgdown"), keyMsg("k"), keyMsg("j"), keyMsg("pgup"), keyMsg("j")}
	keys[2] = tea.KeyPressMsg{Code: tea.KeyPgDown}
	keys[5] = tea.KeyPressMsg{Code: tea.KeyPgUp}
	var ds []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		m = keystroke(m, keys[i%len(keys)])
		ds = append(ds, time.Since(start))
		i++
	}
	reportP99(b, ds)
}

func BenchmarkDocumentKey(b *testing.B) {
	m := loaded(b, benchConfig(b))
	id, _ := m.queue.Selected()
	m = apply(b, m, OpenDocMsg{DocID: id})
	if m.page != pageDoc || m.doc.loading || m.doc.loadErr != nil {
		b.Fatalf("document %s not open: %v", id, m.doc.loadErr)
	}
	keys := []tea.KeyPressMsg{keyMsg("j"), keyMsg("j"), keyMsg("n"), keyMsg("k"), keyMsg("N"), keyMsg("down"), keyMsg("up")}
	var ds []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		m = keystroke(m, keys[i%len(keys)])
		ds = append(ds, time.Since(start))
		i++
	}
	reportP99(b, ds)
}

func BenchmarkFirstScreen100k(b *testing.B) {
	cfg := benchConfig(b)
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		m := New(cfg)
		nm, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m = nm.(Model)
		nm, _ = m.Update(m.Init()())
		m = nm.(Model)
		_ = m.View()
		ds = append(ds, time.Since(start))
		if len(m.queue.rows) != benchDocs {
			b.Fatalf("first screen has %d rows", len(m.queue.rows))
		}
	}
	reportP99(b, ds)
}
