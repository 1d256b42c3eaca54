// Package heapheadroom tunes the garbage collector for a run that keeps
// little alive but allocates a lot (a batch, a corpus file stored into the
// store): the Go default collects whenever the heap doubles, from 4 MB, so
// such a run collects dozens of times and spends a fifth of its CPU on it.
// It imports nothing of ours.
package heapheadroom

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const defaultGCPercent = 100

// heapHeadroom re-tunes the collector after every collection: the next one
// starts once the heap has grown by max(live, headroom).
type heapHeadroom struct {
	headroom uint64
	mu       sync.Mutex // orders a late retune after stop
	stopped  bool
	sample   []metrics.Sample
}

// Keep tunes the collector so that the next collection starts once the
// heap has grown by max(live, headroom) past what the last one found live,
// and returns the function that puts back the percent it found. It costs
// at most headroom more memory than the default, and a heap already larger
// than headroom collects exactly as by default (GOGC 100). A GOGC the user
// set is theirs: nothing is tuned then.
func Keep(headroom uint64) (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	h := &heapHeadroom{headroom: headroom, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	// What was in force before (100 unless something in this process set
	// it) is what the run leaves behind: a caller that chose its own
	// percent must not find the default instead.
	found, _ := h.retune()
	h.arm()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.stopped = true
		debug.SetGCPercent(found)
	}
}

// gcCycle is an object allocated only to become garbage: its cleanup runs
// after the collection that finds it unreachable, once per cycle. Large
// enough not to be a tiny allocation, whose cleanups may never run.
type gcCycle [32]byte

func (h *heapHeadroom) arm() {
	runtime.AddCleanup(new(gcCycle), func(h *heapHeadroom) {
		if _, tuning := h.retune(); tuning {
			h.arm()
		}
	}, h)
}

// retune sets the percent for the live heap the last collection found and
// reports the percent it replaced and whether tuning goes on.
func (h *heapHeadroom) retune() (prev int, tuning bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return 0, false
	}
	metrics.Read(h.sample)
	return debug.SetGCPercent(gcPercentFor(h.sample[0].Value.Uint64(), h.headroom)), true
}

// gcPercentFor is the GOGC that lets a heap of live bytes grow by
// max(live, headroom): never below the default. Before the first
// collection live reads 0, and the runtime counts a heap of 4 MB.
func gcPercentFor(live, headroom uint64) int {
	const minHeap = 4 << 20
	live = max(live, minHeap)
	if live >= headroom {
		return defaultGCPercent
	}
	return int(headroom * 100 / live)
}
