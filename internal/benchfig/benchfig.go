// Package benchfig prints the figure lines of `make bench`: one line per
// figure an issue names, with its goal and whether the run met it, so a
// reader sees the gap without knowing which benchmark measured what.
// Benchmarks in any package print through it; it imports nothing of ours.
//
// When REFLECT_BENCH_LOG names a file, each figure is also appended to it as
// one tab-separated row (name, value, goal, verdict): benchmarks run in many
// test processes, and the file is what `make bench-readme` turns into the
// README's performance table, so the table is the run, not a retyping of it.
package benchfig

import (
	"fmt"
	"os"
	"strings"
)

// LogEnv names the file figures are appended to.
const LogEnv = "REFLECT_BENCH_LOG"

// Print writes one figure: its name, the value measured, the goal, and ok
// or MISSED.
func Print(name, value, goal string, ok bool) {
	verdict := "ok"
	if !ok {
		verdict = "MISSED"
	}
	fmt.Printf("BENCH %-58s %10s  goal %-8s %s\n", name, value, goal, verdict)
	logRow(name, value, goal, verdict)
}

// Note records a measured figure that has no goal of its own (a context
// figure next to one that has).
func Note(name, value string) {
	fmt.Printf("BENCH %-58s %10s\n", name, value)
	logRow(name, value, "-", "-")
}

// logRow appends the figure to the file LogEnv names, if any; a failure to
// log is reported, never fatal to the benchmark that measured it.
func logRow(cells ...string) {
	path := os.Getenv(LogEnv)
	if path == "" {
		return
	}
	if err := appendRow(path, cells...); err != nil {
		fmt.Fprintf(os.Stderr, "benchfig: %s: %v\n", LogEnv, err)
	}
}

// appendRow writes one row with a single write on an O_APPEND file, so rows
// from test processes running at once do not interleave.
func appendRow(path string, cells ...string) error {
	for i, c := range cells {
		cells[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(c)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(strings.Join(cells, "\t") + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
