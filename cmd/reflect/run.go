package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Stdio is where a run reads and writes.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

type verb struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, io Stdio) error
}

func verbs() []verb {
	return []verb{
		{"extract", "extract a record from text and verify every field", runExtract},
		{"validate", "verify a record extracted elsewhere against its source", runValidate},
		{"eval", "score the pipeline on a labelled golden dataset", runEval},
		{"calibrate", "fit gate thresholds to a silent-wrong budget on labelled data, estimated held out by group", runCalibrate},
		{"review", "open the review workstation on a corpus (runs the pipeline, keeps decisions)", runReview},
		{"export", "write reviewed documents as golden JSONL for eval", runExport},
		{"stats", "review totals and the gate's measured catch rate", runStats},
		{"queues", "list the review queues (MCP clients' and corpora) in a store, with counts", runQueues},
		{"audit", "every review decision: who, when, before, after", runReviewAudit},
		{"doctor", "run bbolt's consistency check over the review store and the model-call cache", runDoctor},
		{"mcp", "serve extract, validate and review_status over MCP (stdio or HTTP)", runMCP},
		{"gateway", "govern other MCP servers' tools: classify, decide, allow / deny / hold", runGateway},
		{"core", "serve the decision engine over reeflex-core's REST API; freeze on|off", runCore},
		{"holds", "list, show, approve or reject the decision engine's holds", runHolds},
		{"policy", "check an operator policy pack and run its embedded examples", runPolicy},
	}
}

const topUsage = `reflect — extraction you can trust: every field verified, or flagged for a human.

Usage:
  reflect <command> [flags]

Commands:
%s
Run 'reflect <command> --help' for a command's flags.

Exit codes: 0 ok · 1 needs_review · 2 usage or input error · 3 pipeline error · 130 interrupted
`

// Run is the whole CLI: it parses args, runs one verb and returns an error that
// ExitCode maps to the process exit code.
func Run(ctx context.Context, args []string, stdio Stdio) error {
	if len(args) == 0 {
		printTopUsage(stdio.Err)
		return usageErr(errors.New("no command given"))
	}
	switch args[0] {
	case "-h", "--help", "help":
		printTopUsage(stdio.Out)
		return nil
	case "-v", "--version", "version":
		fmt.Fprintf(stdio.Out, "reflect %s\n", version)
		return nil
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(ctx, args[1:], stdio)
		}
	}
	printTopUsage(stdio.Err)
	return usageErr(fmt.Errorf("unknown command %q", args[0]))
}

func printTopUsage(w io.Writer) {
	var b strings.Builder
	for _, v := range verbs() {
		fmt.Fprintf(&b, "  %-10s %s\n", v.name, v.summary)
	}
	fmt.Fprintf(w, topUsage, b.String())
}

var flagLineRE = regexp.MustCompile(`(?m)^  -`)

// newFlagSet returns a FlagSet whose --help prints to stdout and exits 0.
func newFlagSet(name, usage string, stdio Stdio) *flag.FlagSet {
	fs := flag.NewFlagSet("reflect "+name, flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n", strings.TrimSpace("reflect "+name+" "+usage))
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			return // a verb without flags has no Flags: section to print
		}
		fmt.Fprint(fs.Output(), "\nFlags:\n")
		// Print flags the way users type them: --name.
		var b strings.Builder
		out := fs.Output()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(out)
		fmt.Fprint(out, flagLineRE.ReplaceAllString(b.String(), "  --"))
	}
	return fs
}

// parseFlags parses flags that may come before or after positional arguments
// ("reflect review corpus.jsonl --reviewer ana") and returns the positionals.
func parseFlags(fs *flag.FlagSet, args []string, stdio Stdio) ([]string, error) {
	var pos []string
	// The flag package prints its own error and usage on a bad flag; say it
	// once instead: --help to stdout, a mistake's usage to stderr (main prints
	// the error itself).
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdio.Out)
				fs.Usage()
				return nil, flag.ErrHelp
			}
			fs.SetOutput(stdio.Err)
			fs.Usage()
			return nil, usageErr(err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// helpOK turns the --help signal into a clean exit.
func helpOK(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, usageErr(fmt.Errorf("--log-level %q: want debug, info, warn or error", level))
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// envOr returns the environment variable or def.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}
