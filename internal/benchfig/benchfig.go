// Package benchfig prints the figure lines of `make bench`: one line per
// figure an issue names, with its goal and whether the run met it, so a
// reader sees the gap without knowing which benchmark measured what.
// Benchmarks in any package print through it; it imports nothing of ours.
package benchfig

import "fmt"

// Print writes one figure: its name, the value measured, the goal, and ok
// or MISSED.
func Print(name, value, goal string, ok bool) {
	verdict := "ok"
	if !ok {
		verdict = "MISSED"
	}
	fmt.Printf("BENCH %-58s %10s  goal %-8s %s\n", name, value, goal, verdict)
}
