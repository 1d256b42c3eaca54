package golden

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/reflect-mcp/reflect/internal/benchfig"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// heapWatch is the export's writer: every few rows it collects garbage and
// notes the live heap, so the peak is what the export holds, not what it
// has yet to collect.
type heapWatch struct {
	writes, every int
	peak          uint64
}

func (h *heapWatch) Write(p []byte) (int, error) {
	h.writes++
	if h.writes%h.every == 0 {
		h.peak = max(h.peak, liveHeap())
	}
	return len(p), nil
}

func liveHeap() uint64 {
	// Twice: what an object awaiting its finalizer (an os.File) points to
	// is freed only by the collection after the finalizer ran.
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// decidedStore is a store with a corpus of n documents, every one decided.
func decidedStore(t testing.TB, n int) *store.Store {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", n); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Summaries(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	var ds []store.Decision
	for _, r := range rows {
		for _, f := range pipeline.Invoice().FieldNames() {
			ds = append(ds, store.Decision{CorpusID: "c", DocID: r.DocID, Field: f, Action: store.ActionAccept, Reviewer: "ann"})
		}
	}
	if _, err := st.Decide(ctx, ds...); err != nil {
		t.Fatal(err)
	}
	return st
}

// exportPeak is the live heap an export of a reviewed corpus of n documents
// adds at its peak, and the rows it wrote.
func exportPeak(t testing.TB, n int) (uint64, int) {
	st := decidedStore(t, n)
	w := &heapWatch{every: 50}
	// A buffered writer would hide the rows from heapWatch; Export's own
	// buffer flushes every 4 KB.
	wrote, err := Export(context.Background(), st, w, ExportOptions{CorpusID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	// Measured from what stays live once the export is over (the store's
	// own, and the test's): before it, the store still held the garbage of
	// building the corpus.
	after := liveHeap()
	if w.peak < after {
		return 0, wrote
	}
	return w.peak - after, wrote
}

// An export holds one document at a time: the heap it adds at its peak
// does not grow with the corpus (8x the documents, within 2x the heap;
// holding every review, as it once did, grew it 6-8x).
func TestExportMemoryFlatInCorpusSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an 8,000-document store")
	}
	const n = 1000
	small, rowsSmall := exportPeak(t, n)
	big, rowsBig := exportPeak(t, 8*n)
	if rowsSmall < n/2 || rowsBig < 8*rowsSmall-8 {
		t.Fatalf("exported %d and %d rows of %d and %d documents", rowsSmall, rowsBig, n, 8*n)
	}
	const floor = 512 << 10 // below this the heap is noise
	t.Logf("peak heap added by the export: %d rows %d KB, %d rows %d KB (x%.1f)",
		rowsSmall, small>>10, rowsBig, big>>10, float64(big)/float64(max(small, 1)))
	if big > 2*max(small, floor) {
		t.Fatalf("export of %d rows added %d KB at its peak, of %d rows %d KB: memory grows with the corpus",
			rowsBig, big>>10, rowsSmall, small>>10)
	}
}

var _ io.Writer = (*heapWatch)(nil)

// BenchmarkExportMemory prints make bench's export row: the live heap an
// export adds at its peak at 2,000 and 16,000 reviewed documents, and the
// ratio (flat: 1x; the 1M-document run the issue names is not made here).
func BenchmarkExportMemory(b *testing.B) {
	const n = 2000
	var small, big uint64
	for b.Loop() {
		small, _ = exportPeak(b, n)
		big, _ = exportPeak(b, 8*n)
	}
	const floor = 512 << 10
	ratio := float64(max(big, floor)) / float64(max(small, floor))
	b.ReportMetric(float64(small)/1024, "KB-at-n")
	b.ReportMetric(float64(big)/1024, "KB-at-8n")
	benchfig.Print("export peak heap, 16,000 vs 2,000 reviewed docs", fmt.Sprintf("%.1f× (%d KB)", ratio, big>>10), "flat ≤ 2×", ratio <= 2)
}
