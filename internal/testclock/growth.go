package testclock

import "time"

// Growth compares the CPU time of work on a text scale times larger than
// small with scale runs of small, measured back to back in the same round
// so that both see the same load from the rest of the machine: the small
// side is the same amount of work in the same window, not one short run
// taken while the machine was idle against a long one taken while another
// test package was busy, which made a linear stage look super-linear in CI.
// It runs up to rounds rounds and stops at the first whose ratio is within
// limit; the least ratio seen is returned with that round's times (small is
// per run). A super-linear stage exceeds the limit in every round.
func Growth(scale, rounds int, limit float64, small, big func()) (ratio float64, perSmall, perBig time.Duration) {
	small() // warm up the caches and the heap for both sizes
	big()
	ratio = -1
	for range rounds {
		start := CPUTime()
		for range scale {
			small()
		}
		mid := CPUTime()
		big()
		end := CPUTime()
		ts := max((mid-start)/time.Duration(scale), time.Microsecond)
		r := float64(end-mid) / float64(ts)
		if ratio < 0 || r < ratio {
			ratio, perSmall, perBig = r, ts, end-mid
		}
		if ratio <= limit {
			break
		}
	}
	return ratio, perSmall, perBig
}
