package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

func runEval(ctx context.Context, args []string, stdio Stdio) error {
	var pf pipelineFlags
	fs := newFlagSet("eval", "[--dataset F] [--replay F] [--provider P] [flags]", stdio)
	pf.register(fs)
	dataset := fs.String("dataset", "", "golden JSONL {id,text,expected} (default: the bundled golden set)")
	minAcc := fs.Float64("min-accuracy", golden.DefaultBars().MinAccuracy, "fail below this field accuracy")
	maxSilent := fs.Int("max-silent-wrong", golden.DefaultBars().MaxSilentWrong, "fail above this many silent-wrong fields")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	conc := fs.Int("concurrency", 4, "rows verified at once")
	fs.Lookup("log-level").DefValue = "warn"
	pf.logLevel = "warn"
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	if err := pipeline.CheckThreshold("--min-accuracy", *minAcc); err != nil {
		return usageErr(err)
	}
	if *maxSilent < 0 {
		return usageErr(errors.New("--max-silent-wrong must be >= 0"))
	}
	// Eval is offline by default: the recorded fixtures, not a live model.
	if os.Getenv("REFLECT_PROVIDER") == "" && !flagWasSet(fs, "provider") {
		pf.prov.Provider = providers.ProviderReplay
	}
	if pf.prov.Provider == providers.ProviderReplay && pf.replay == "" && *dataset != "" {
		return usageErr(errors.New("--provider replay with your own --dataset needs --replay FIXTURE (recorded with --record)"))
	}

	var rows []golden.Row
	var lineErrs []error
	var err error
	if *dataset == "" {
		rows, lineErrs, err = golden.BundledDataset()
	} else {
		rows, lineErrs, err = golden.LoadDataset(*dataset)
	}
	if err != nil {
		return usageErr(fmt.Errorf("--dataset: %w", err))
	}
	for _, le := range lineErrs {
		fmt.Fprintf(stdio.Err, "reflect eval: skipping %v\n", le)
	}
	if len(rows) == 0 {
		return usageErr(errors.New("the dataset has no usable rows"))
	}
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	env, err := buildEnv(ctx, &pf, true, log)
	if err != nil {
		return err
	}
	defer env.Close()
	for _, e := range golden.CheckRows(env.p.Schema(), rows) {
		fmt.Fprintf(stdio.Err, "reflect eval: warning: %v\n", e)
	}
	bars := golden.Bars{MinAccuracy: *minAcc, MaxSilentWrong: *maxSilent}
	start := time.Now()
	rep := golden.Evaluate(ctx, env.p, env.p.Schema(), rows, golden.Options{Concurrency: *conc, Bars: &bars})
	if err := env.finish(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	checkErr := rep.Check(*minAcc, *maxSilent)
	rep.Pass = checkErr == nil
	mode := evalMode(pf.prov.Provider, env.p)
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fmt.Errorf("encode report: %w", err)
		}
		fmt.Fprintln(stdio.Out, string(b))
	} else {
		if err := rep.WriteText(stdio.Out, mode); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "(%d rows in %s)\n", len(rows), time.Since(start).Round(time.Millisecond))
	}
	if checkErr != nil {
		return &exitError{code: ExitNeedsReview, err: checkErr, loud: !*asJSON}
	}
	return nil
}

func evalMode(provider string, p *pipeline.Pipeline) string {
	suffix := ""
	if p.HeuristicsOnly() {
		suffix = ", heuristics-only"
	}
	switch provider {
	case providers.ProviderReplay:
		return "OFFLINE (replay fixtures" + suffix + ")"
	case providers.ProviderLocal:
		return "LOCAL (keyless extractor" + suffix + ")"
	}
	return "LIVE (" + provider + suffix + ")"
}
