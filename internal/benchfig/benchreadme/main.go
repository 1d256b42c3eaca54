// Command benchreadme rewrites the README's performance table from the rows
// `make bench` logged (REFLECT_BENCH_LOG): the part of README.md between the
// markers below is replaced, everything else is left as it is.
//
//	go run ./internal/benchfig/benchreadme -log bin/bench.tsv -readme README.md
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

const (
	startMarker = "<!-- bench:start (make bench-readme writes this table; do not edit by hand) -->"
	endMarker   = "<!-- bench:end -->"
)

func main() {
	logPath := flag.String("log", "bin/bench.tsv", "the figures `make bench` logged")
	readme := flag.String("readme", "README.md", "the README to rewrite")
	machine := flag.String("machine", "", "how to name the machine (default: cores and OS)")
	flag.Parse()
	if err := run(*logPath, *readme, *machine); err != nil {
		fmt.Fprintln(os.Stderr, "benchreadme:", err)
		os.Exit(1)
	}
}

func run(logPath, readme, machine string) error {
	rows, err := readRows(logPath)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("%s holds no figures: run make bench first", logPath)
	}
	info, err := os.Stat(logPath)
	if err != nil {
		return err
	}
	if machine == "" {
		machine = fmt.Sprintf("%d cores, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	}
	text, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	out, err := replaceTable(text, table(rows, machine, info.ModTime()))
	if err != nil {
		return fmt.Errorf("%s: %w", readme, err)
	}
	return os.WriteFile(readme, out, 0o644)
}

type row struct{ name, value, goal, verdict string }

func readRows(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		cells := strings.Split(sc.Text(), "\t")
		if len(cells) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated cells, got %d", path, n, len(cells))
		}
		rows = append(rows, row{cells[0], cells[1], cells[2], cells[3]})
	}
	return rows, sc.Err()
}

func table(rows []row, machine string, when time.Time) string {
	var b strings.Builder
	missed := 0
	for _, r := range rows {
		if r.verdict == "MISSED" {
			missed++
		}
	}
	fmt.Fprintf(&b, "From one `make bench` run, %s UTC, on %s (%d figures, %d missed). Timings are from\none run on a shared machine: expect noise; ratios and growth are steadier.\n\n",
		when.UTC().Format("2006-01-02 15:04"), machine, len(rows), missed)
	b.WriteString("| figure | measured | goal | |\n|---|---|---|---|\n")
	cell := strings.NewReplacer("|", "\\|")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell.Replace(r.name), cell.Replace(r.value), cell.Replace(r.goal), r.verdict)
	}
	return b.String()
}

// replaceTable puts tbl between the markers, which must each appear once.
func replaceTable(text []byte, tbl string) ([]byte, error) {
	s, e := []byte(startMarker), []byte(endMarker)
	if bytes.Count(text, s) != 1 || bytes.Count(text, e) != 1 {
		return nil, errors.New("want one " + startMarker + " and one " + endMarker)
	}
	i := bytes.Index(text, s) + len(s)
	j := bytes.Index(text, e)
	if j < i {
		return nil, errors.New("the end marker comes before the start marker")
	}
	var out bytes.Buffer
	out.Write(text[:i])
	out.WriteString("\n" + tbl)
	out.Write(text[j:])
	return out.Bytes(), nil
}
