package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/internal/benchfig"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

const benchDocs = 100_000

// benchStore is the populated store every 100k benchmark shares: populating
// 100,000 documents takes far longer than any of the benchmarks, so it
// happens once per test binary, in a directory TestMain removes. The
// benchmarks only read it (navigation never decides), so sharing is safe.
type benchStore struct {
	once sync.Once
	dir  string
	cfg  Config
	err  error
}

var shared benchStore

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// benchConfig returns the shared store with benchDocs synthetic documents
// and their results.
func benchConfig(b *testing.B) Config {
	b.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "tui-bench-")
		if shared.err != nil {
			return
		}
		st, err := store.Open(filepath.Join(shared.dir, "bench.db"), store.Options{Timeout: 10 * time.Second})
		if err != nil {
			shared.err = err
			return
		}
		ctx := context.Background()
		if err := storetest.Populate(ctx, st, "bench", benchDocs); err != nil {
			shared.err = err
			return
		}
		c, err := st.Corpus(ctx, "bench")
		if err != nil {
			shared.err = err
			return
		}
		shared.cfg = Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), PipelineVersion: storetest.Version, Reviewer: "bench", NoColor: true}
	})
	if shared.err != nil {
		b.Fatalf("populating the benchmark store: %v", shared.err)
	}
	return shared.cfg
}

// reportP99 records the 99th percentile of per-keypress latencies.
func reportP99(b *testing.B, ds []time.Duration) time.Duration {
	b.Helper()
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	p99 := ds[(len(ds)-1)*99/100]
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
	return p99
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
	benchKeys(b, m, keyMsg("j"), keyMsg("j"), keyMsg("pgdown"), keyMsg("k"), keyMsg("j"), keyMsg("pgup"), keyMsg("j"))
}

func BenchmarkDocumentKey(b *testing.B) {
	m := loaded(b, benchConfig(b))
	id, _ := m.queue.Selected()
	m = apply(b, m, OpenDocMsg{DocID: id})
	if m.page != pageDoc || m.doc.loading || m.doc.loadErr != nil {
		b.Fatalf("document %s not open: %v", id, m.doc.loadErr)
	}
	benchKeys(b, m, keyMsg("j"), keyMsg("j"), keyMsg("n"), keyMsg("k"), keyMsg("N"), keyMsg("down"), keyMsg("up"))
}

// benchKeys presses keys in turn, one per iteration, timing Update + View of
// each, and reports the p99.
func benchKeys(b *testing.B, m Model, keys ...tea.KeyPressMsg) {
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
	var m Model
	for b.Loop() {
		start := time.Now()
		m = New(cfg)
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
	p99 := reportP99(b, ds)
	// Heap in use with one loaded model alive: what the reviewer's process
	// holds for a 100k-document queue (rows, indices, views) after a GC.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(m)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	benchfig.Print(fmt.Sprintf("review, 100k stored: first screen (queue + view), worst of %d", len(ds)), p99.Round(time.Millisecond).String(), "< 1 s", p99 < time.Second)
	benchfig.Print("review, 100k stored: heap in use after the first screen", fmt.Sprintf("%.0f MB", float64(ms.HeapInuse)/(1<<20)), "< 500 MB", ms.HeapInuse < 500<<20)
}

// BenchmarkReviewRunReceipts is the background run end to end on the real
// SROIE receipts: load the corpus into an empty store, run every document
// through the keyless local pipeline with four workers, store each result,
// then read the queue back.
func BenchmarkReviewRunReceipts(b *testing.B) {
	const path = "../../shared/data/receipts-dev.jsonl"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("receipts corpus not available: %v", err)
	}
	p, err := pipeline.New(pipeline.Config{Schema: pipeline.Invoice(), Generator: local.New(), Gate: pipeline.DefaultGate(), Version: "local"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var total time.Duration
	docs, runs := 0, 0
	for b.Loop() {
		st, err := store.Open(filepath.Join(b.TempDir(), "run.db"), store.Options{Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		c, ds, lineErrs, err := golden.LoadCorpus(path, "invoice")
		if err != nil || len(lineErrs) > 0 {
			b.Fatalf("corpus: %v %v", err, lineErrs)
		}
		if err := st.PutCorpus(ctx, c, ds); err != nil {
			b.Fatal(err)
		}
		var results atomic.Int64
		var runErr error
		send := func(msg tea.Msg) {
			switch msg := msg.(type) {
			case ResultMsg:
				if msg.StoreErr == nil {
					results.Add(1)
				}
			case RunDoneMsg:
				runErr = msg.Err // written before done closes, read after
			}
		}
		cfg := Config{Store: st, Corpus: c, Schema: pipeline.Invoice(), Runner: p, PipelineVersion: "local", Concurrency: 4}
		<-StartRun(ctx, cfg, send)
		rows, err := st.Summaries(ctx, c.ID)
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		if runErr != nil || int(results.Load()) != len(ds) || len(rows) != len(ds) {
			b.Fatalf("run: err=%v, %d results and %d rows for %d documents", runErr, results.Load(), len(rows), len(ds))
		}
		for _, r := range rows {
			if r.Status == "" {
				b.Fatalf("%s has no stored result after the run", r.DocID)
			}
		}
		docs += len(ds)
		runs++
	}
	b.ReportMetric(total.Seconds()/float64(runs), "run-s")
	b.ReportMetric(float64(docs)/total.Seconds(), "docs/s")
}
