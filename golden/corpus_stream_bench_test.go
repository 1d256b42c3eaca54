package golden

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/internal/benchfig"
	"github.com/reflect-mcp/reflect/internal/heapheadroom"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// BenchmarkOpenCorpusStored100k is review FILE's corpus open on a 100k
// corpus already stored (issue 11: 3.2 s and 670-700 MB before). It prints
// the first (streaming) open and the reopen as BENCH lines with the goal.
func BenchmarkOpenCorpusStored100k(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	order := pipeline.Invoice().FieldNames()
	for i := range 100_000 {
		d, _ := storetest.Synthetic(i, order)
		fmt.Fprintf(f, "{\"id\":%q,\"text\":%q}\n", d.ID, d.Text)
	}
	f.Close()
	st, err := store.Open(filepath.Join(dir, "reflect.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// As review opens a file: under the collector headroom it gives the open.
	restore := heapheadroom.Keep(OpenHeapHeadroom)
	start := time.Now()
	if _, _, err := OpenCorpus(ctx, st, path, "invoice"); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	restore()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	b.ResetTimer()
	start = time.Now()
	for b.Loop() {
		if _, _, err := OpenCorpus(ctx, st, path, "invoice"); err != nil {
			b.Fatal(err)
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	runtime.ReadMemStats(&ms)
	b.StopTimer()
	kb := (ms.TotalAlloc - before) / uint64(b.N) / 1024
	benchfig.Print("review FILE, 100k stored: corpus reopen (file unchanged)", per.Round(time.Microsecond).String(), "< 1 s", per < time.Second)
	benchfig.Note("review FILE, 100k stored: reopen allocates", fmt.Sprintf("%d KB", kb))
	benchfig.Print("review FILE, 100k: first open, file streamed", first.Round(time.Millisecond).String(), "< 1 s", first < time.Second)
	benchfig.Print("review FILE, 100k: heap obtained from the OS", fmt.Sprintf("%d MB", ms.HeapSys>>20), "< 500 MB", ms.HeapSys < 500<<20)
}
