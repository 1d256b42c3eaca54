// Package testclock measures for tests on a machine shared with other work:
// the process's CPU time (so a goroutine waiting for a core does not read
// as slow) and whether work honours its context's deadline promptly, judged
// against the same work without a deadline instead of a wall-clock bound (a
// loaded 2-core machine made fixed bounds, 100 ms deadline and 1 s to
// return, flake, and a fixed deadline is most of the run once the work is
// fast).
package testclock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Prompt runs work once without a deadline, then again with a deadline at a
// fifth of that run's time, and fails t when the second run goes on working
// for more than two fifths of the whole run past its deadline (one that
// ignored it would work four fifths), or returns anything but the
// deadline's error once past it. Both are measured in the
// process's CPU time, not wall-clock time: on a loaded machine a goroutine
// waiting for a core is not ignoring its deadline, but one that keeps
// computing is. A second and third measurement are taken before failing.
// name labels the log and the failure.
func Prompt(t testing.TB, name string, work func(ctx context.Context) error) {
	t.Helper()
	var whole, late time.Duration
	for try := 0; try < 3 && (try == 0 || late > whole/4); try++ {
		start, startCPU := time.Now(), CPUTime()
		if err := work(context.Background()); err != nil {
			t.Fatalf("%s without a deadline: %v", name, err)
		}
		wall := time.Since(start)
		whole = CPUTime() - startCPU
		ctx, cancel := context.WithTimeout(context.Background(), wall/5)
		atDeadline := make(chan time.Duration, 1)
		stop := context.AfterFunc(ctx, func() { atDeadline <- CPUTime() })
		err := work(ctx)
		end := CPUTime()
		fired := !stop()
		cancel()
		late = 0
		if fired {
			late = max(0, end-<-atDeadline)
		}
		switch {
		case err == nil && !fired:
			// Faster the second time (warm caches): it met the deadline.
		case err == nil:
			t.Fatalf("%s: worked %v of CPU past a deadline at a fifth of its run and returned no error", name, late)
		case !errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("%s: err = %v, want the deadline's error", name, err)
		}
	}
	t.Logf("%s: %v of CPU after a deadline at a fifth of its run (%v of CPU)", name, late, whole)
	if late > whole*2/5 {
		t.Errorf("%s: %v of CPU after a deadline at a fifth of its run (%v of CPU): the deadline was not honoured promptly", name, late, whole)
	}
}
