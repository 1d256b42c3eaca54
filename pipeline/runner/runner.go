// Package runner is the worker pool that runs documents through the
// pipeline: `reflect extract --batch` (outcomes in input order) and the
// review workstation's background run (outcomes as they finish) both use it.
// It knows nothing of documents or pipelines, and imports nothing of ours.
package runner

import (
	"context"
	"iter"
	"sync"
)

// Options size a Run.
type Options struct {
	// Workers run do at once; less than 1 means 1.
	Workers int
	// Ordered hands outcomes to emit in input order rather than as they
	// finish.
	Ordered bool
	// Window bounds the items taken but not yet emitted (default 4 per
	// worker), so one slow item cannot make the reorder buffer, or the
	// reading ahead, grow without limit.
	Window int
}

// Run takes items from src, calls do on each with opts.Workers goroutines and
// hands every outcome to emit, which Run calls from its own goroutine only.
// It returns once every item taken has been emitted.
//
// Cancelling ctx stops the taking: src is abandoned at once, even while it
// blocks (a read of stdin nobody closes), and only items already taken are
// finished and emitted. do gets no context of its own: the caller chooses
// whether an interrupt also cancels the work in flight.
func Run[T, R any](ctx context.Context, opts Options, src iter.Seq[T], do func(T) R, emit func(T, R)) {
	workers := max(1, opts.Workers)
	window := opts.Window
	if window < 1 {
		window = 4 * workers
	}
	type job struct {
		seq  int
		item T
	}
	type out struct {
		job
		res     R
		skipped bool // taken before the cancel, never started: not emitted
	}

	// The source runs in a goroutine that may never return (a blocked read):
	// it hands items to the dispatcher, which alone feeds the workers and
	// stops at cancellation.
	items := make(chan T)
	go func() {
		defer close(items)
		for it := range src {
			select {
			case items <- it:
			case <-ctx.Done():
				return
			}
		}
	}()
	slots := make(chan struct{}, window)
	// A job per worker waits ready, and outcomes queue for emit (at most the
	// window: each holds a slot), so neither a worker finishing nor one
	// starting waits for another goroutine to be scheduled: at 32 workers a
	// round of model replies arrives at once, and each worker's next
	// document used to start only after the emitter had taken every earlier
	// outcome and the dispatcher had read the next line.
	jobs := make(chan job, workers)
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			var it T
			var ok bool
			select {
			case it, ok = <-items:
			case <-ctx.Done():
				return
			}
			if !ok || ctx.Err() != nil {
				return
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{seq, it}:
			case <-ctx.Done():
				return
			}
		}
	}()
	outs := make(chan out, window)
	// A job still queued when ctx is cancelled is not started, as one the
	// dispatcher had not handed over was not. Workers take a job and look
	// at ctx in one step (under take), so the jobs started are the first
	// ones taken and no item is skipped before one that ran.
	var take sync.Mutex
	next := func() (j job, ok, start bool) {
		take.Lock()
		defer take.Unlock()
		j, ok = <-jobs
		return j, ok, ctx.Err() == nil
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, ok, start := next()
				if !ok {
					return
				}
				if !start {
					outs <- out{job: j, skipped: true}
					continue
				}
				outs <- out{job: j, res: do(j.item)}
			}
		}()
	}
	go func() { wg.Wait(); close(outs) }()

	if !opts.Ordered {
		for o := range outs {
			if !o.skipped {
				emit(o.item, o.res)
			}
			<-slots
		}
		return
	}
	pending := map[int]out{}
	seq := 0
	for o := range outs {
		pending[o.seq] = o
		for {
			p, ok := pending[seq]
			if !ok {
				break
			}
			delete(pending, seq)
			seq++
			if !p.skipped {
				emit(p.item, p.res)
			}
			<-slots
		}
	}
}
