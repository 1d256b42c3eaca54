package heapheadroom

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercentGivesSmallHeapsHeadroomAndLargeOnesTheDefault(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 800},         // before the first collection: the runtime's 4 MB
		{2 * mib, 800},   // never tuned below a 4 MB heap
		{4 * mib, 800},   // grows by 32 MiB, not 4
		{16 * mib, 200},  // by 32 MiB, not 16
		{32 * mib, 100},  // by its own size, as by default
		{512 * mib, 100}, // a large heap collects as by default
	} {
		if got := gcPercentFor(c.live, 32*mib); got != c.want {
			t.Errorf("gcPercentFor(%d MiB live) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}

// gcPercent reads the collector's setting without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestHeapHeadroomRetunesAfterEachCollectionAndRestoresTheDefault(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the tuner leaves the user's setting alone")
	}
	restore := Keep(1 << 30) // far above this test's live heap
	if got := gcPercent(); got <= defaultGCPercent {
		t.Fatalf("GC percent after Keep = %d, want above %d", got, defaultGCPercent)
	}
	debug.SetGCPercent(defaultGCPercent)
	// The cleanup armed for the next cycle sets it again after a collection.
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() == defaultGCPercent {
		if time.Now().After(deadline) {
			t.Fatal("no retune after collections")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	restore()
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got := gcPercent(); got != defaultGCPercent {
		t.Fatalf("GC percent after restore = %d, want %d", got, defaultGCPercent)
	}
}

// A percent set in this process before the batch (an embedding program's,
// or a test's) is what the batch leaves behind, not the default.
func TestHeapHeadroomRestoresThePercentItFound(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the tuner leaves the user's setting alone")
	}
	const found = 250
	defer debug.SetGCPercent(debug.SetGCPercent(found))
	restore := Keep(1 << 30) // tunes far above 250
	if got := gcPercent(); got == found {
		t.Fatalf("GC percent after Keep = %d, want it tuned", got)
	}
	restore()
	if got := gcPercent(); got != found {
		t.Fatalf("GC percent after restore = %d, want the %d found before", got, found)
	}
}
