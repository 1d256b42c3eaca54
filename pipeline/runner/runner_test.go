package runner

import (
	"context"
	"iter"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Later items finish first (each waits for its successor), yet an ordered
// run emits them in input order.
func TestOrderedEmitsInInputOrder(t *testing.T) {
	const n = 8
	done := make([]chan struct{}, n+1)
	for i := range done {
		done[i] = make(chan struct{})
	}
	close(done[n])
	var got []int
	Run(context.Background(), Options{Workers: n, Ordered: true}, count(n), func(i int) int {
		<-done[i+1]
		close(done[i])
		return i * i
	}, func(i, sq int) {
		if sq != i*i {
			t.Errorf("emit(%d, %d)", i, sq)
		}
		got = append(got, i)
	})
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("emitted %v, want %v", got, want)
	}
}

// Unordered, outcomes are emitted as they finish: each item waits until
// its successor has been emitted, which only an unordered run can do.
func TestUnorderedEmitsAsTheyFinish(t *testing.T) {
	const n = 5
	emitted := make([]chan struct{}, n+1)
	for i := range emitted {
		emitted[i] = make(chan struct{})
	}
	close(emitted[n])
	var got []int
	Run(context.Background(), Options{Workers: n}, count(n), func(i int) int {
		<-emitted[i+1]
		return i
	}, func(i, _ int) {
		got = append(got, i)
		close(emitted[i])
	})
	if want := []int{4, 3, 2, 1, 0}; !slices.Equal(got, want) {
		t.Fatalf("emitted %v, want %v", got, want)
	}
}

// The window bounds how many items are taken but not yet emitted, whatever
// the number of workers: the first item waits until two more are taken, so
// the rest pile up behind it in the reorder buffer.
func TestWindowBoundsItemsInFlight(t *testing.T) {
	var taken, emitted, most atomic.Int64
	release := make(chan struct{})
	var once sync.Once
	Run(context.Background(), Options{Workers: 8, Ordered: true, Window: 3}, count(100), func(i int) int {
		n := taken.Add(1)
		if in := n - emitted.Load(); in > most.Load() {
			most.Store(in)
		}
		if i == 0 {
			<-release
		} else if n >= 3 {
			once.Do(func() { close(release) })
		}
		return i
	}, func(int, int) { emitted.Add(1) })
	if emitted.Load() != 100 {
		t.Fatalf("emitted %d of 100", emitted.Load())
	}
	if most.Load() > 3 {
		t.Fatalf("%d items in flight, window is 3", most.Load())
	}
}

// Cancelling stops taking items at once, even from a source blocked in a
// read, and still emits every item already taken.
func TestCancelAbandonsABlockedSource(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	blocked := make(chan struct{})
	defer close(blocked)
	src := func(yield func(int) bool) {
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
		<-blocked // stdin with nobody at the other end
	}
	var got []int
	Run(ctx, Options{Workers: 2, Ordered: true}, src, func(i int) int {
		if i == 2 {
			cancel()
		}
		return i
	}, func(i, _ int) { got = append(got, i) })
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("emitted %v, want the three items taken", got)
	}
}

// Jobs wait ready for the workers, yet after a cancel no item starts that
// had not started before it: the items in flight finish and are emitted,
// the ones waiting are dropped.
func TestCancelStartsNoWaitingItem(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int64
	release := make(chan struct{})
	var got []int
	go func() {
		for started.Load() < 2 {
			runtime.Gosched()
		}
		cancel() // both workers busy, more items waiting for them
		close(release)
	}()
	Run(ctx, Options{Workers: 2, Ordered: true}, count(100), func(i int) int {
		started.Add(1)
		<-release
		return i
	}, func(i, _ int) { got = append(got, i) })
	if n := started.Load(); n != 2 {
		t.Fatalf("%d items started, want the 2 in flight at the cancel", n)
	}
	if !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("emitted %v, want [0 1]", got)
	}
}
