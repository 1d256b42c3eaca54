package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

// evalFlags are eval's own flags (pipelineFlags carry the shared ones).
type evalFlags struct {
	dataset, labels string
	minAcc          float64
	maxSilent       int
	maxSilentRate   float64
	maxValueRate    float64
	minFieldAcc     string
	minOKRate       float64
	asJSON          bool
	conc            int
	confusions      bool
	minCatch        string
	maxFalseAlarm   string
	list            int
	scoreUnreviewed bool
}

func (e *evalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.dataset, "dataset", "", "golden JSONL {id,text,expected} (default: the bundled golden set)")
	fs.StringVar(&e.labels, "labels", "", `label overlay JSONL {id,expected} merged into the dataset's labels by id (adds fields to score)`)
	fs.Float64Var(&e.minAcc, "min-accuracy", golden.DefaultBars().MinAccuracy, "fail below this field accuracy")
	fs.IntVar(&e.maxSilent, "max-silent-wrong", golden.DefaultBars().MaxSilentWrong, "fail above this many silent-wrong fields")
	fs.Float64Var(&e.maxSilentRate, "max-silent-wrong-rate", 0, "fail when silent-wrong fields, nulls included, exceed this share of scored fields (e.g. 0.005; unset: no bar)")
	fs.Float64Var(&e.maxValueRate, "max-silent-value-rate", 0, "fail when wrong values returned as fine (nulls not counted) exceed this share of scored fields (unset: no bar)")
	fs.StringVar(&e.minFieldAcc, "min-field-accuracy", "", "per-field accuracy bars, e.g. total=0.92,invoice_date=0.98")
	fs.Float64Var(&e.minOKRate, "min-ok-rate", 0, "fail when fewer documents than this share come back ok (unset: no bar)")
	fs.BoolVar(&e.asJSON, "json", false, "print the report as JSON")
	fs.IntVar(&e.conc, "concurrency", 4, "rows verified at once")
	fs.BoolVar(&e.confusions, "confusions", false, "no model: validate each labelled record, then once per confusable value printed in the text, and report what the gate catches")
	fs.StringVar(&e.minCatch, "min-catch", "", "with --confusions: fail below this catch rate; a number for every field or field=rate pairs (total=0.98,tax=0.98)")
	fs.StringVar(&e.maxFalseAlarm, "max-false-alarm", "", "with --confusions: fail above this share of labelled records flagged; field=rate pairs bar single fields")
	fs.BoolVar(&e.scoreUnreviewed, "score-unreviewed", false, "with an exported --dataset: also score the fields no reviewer decided, as if accepted (default: only human-confirmed fields are scored)")
	fs.IntVar(&e.list, "list", -1, "failures listed per field, -1 for all (default: all; with --confusions: 10 misses and 10 false alarms per field)")
	// The default depends on --confusions, which the usage says; the flag
	// package's "(default -1)" would contradict it.
	fs.Lookup("list").DefValue = "0"
}

// check refuses flag values no run could use.
func (e *evalFlags) check(fs *flag.FlagSet) error {
	if err := pipeline.CheckThreshold("--min-accuracy", e.minAcc); err != nil {
		return err
	}
	if e.maxSilent < 0 {
		return errors.New("--max-silent-wrong must be >= 0")
	}
	if !e.confusions {
		for _, name := range []string{"min-catch", "max-false-alarm"} {
			if flagWasSet(fs, name) {
				return fmt.Errorf("--%s goes with --confusions", name)
			}
		}
	}
	return nil
}

func runEval(ctx context.Context, args []string, stdio Stdio) error {
	var pf pipelineFlags
	var ef evalFlags
	fs := newFlagSet("eval", "[--dataset F [--labels F]] [--replay F] [--provider P] [--confusions] [flags]", stdio)
	pf.register(fs)
	ef.register(fs)
	fs.Lookup("log-level").DefValue = "warn"
	pf.logLevel = "warn"
	prov := fs.Lookup("provider")
	prov.Usage = "model provider: openai, anthropic, bedrock, local or replay (env REFLECT_PROVIDER; default: replay on the bundled set or with --replay, local (keyless) with your own --dataset)"
	prov.DefValue = ""
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	if err := ef.check(fs); err != nil {
		return usageErr(err)
	}
	rows, err := loadEvalRows(ef, stdio)
	if err != nil {
		return err
	}
	if ef.confusions {
		if !flagWasSet(fs, "list") {
			ef.list = 10
		}
		return runConfusions(ctx, &pf, ef, rows, stdio)
	}
	bars, err := evalBars(fs, ef)
	if err != nil {
		return usageErr(err)
	}
	// Eval is offline by default: the recorded fixtures where there are
	// some (the bundled set, or --replay), else the keyless local extractor,
	// never a live model nobody asked for.
	if os.Getenv("REFLECT_PROVIDER") == "" && !flagWasSet(fs, "provider") {
		pf.prov.Provider = defaultEvalProvider(ef.dataset, pf.replay)
	}
	if pf.prov.Provider == providers.ProviderReplay && pf.replay == "" && ef.dataset != "" {
		return usageErr(errors.New("--provider replay with your own --dataset needs --replay FIXTURE (recorded with --record)"))
	}
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	pf.concurrency = ef.conc
	env, err := buildEnv(ctx, &pf, true, log)
	if err != nil {
		return err
	}
	defer env.Close()
	for _, e := range golden.CheckRows(env.p.Schema(), rows) {
		fmt.Fprintf(stdio.Err, "reflect eval: warning: %v\n", e)
	}
	start := time.Now()
	rep := golden.Evaluate(ctx, env.p, env.p.Schema(), rows, golden.Options{Concurrency: ef.conc, Bars: &bars})
	if err := env.finish(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	checkErr := rep.CheckBars(bars)
	rep.Pass = checkErr == nil
	if ef.asJSON {
		if err := printJSON(stdio, rep); err != nil {
			return err
		}
	} else {
		if err := rep.WriteTextList(stdio.Out, evalMode(pf.prov.Provider, env.p), ef.list); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "(%d rows in %s)\n", len(rows), time.Since(start).Round(time.Millisecond))
	}
	if checkErr != nil {
		return &exitError{code: ExitNeedsReview, err: checkErr, loud: !ef.asJSON}
	}
	return nil
}

// evalBars gathers the bars eval gates on; the share bars apply only when
// their flag is given.
func evalBars(fs *flag.FlagSet, ef evalFlags) (golden.Bars, error) {
	bars := golden.Bars{MinAccuracy: ef.minAcc, MaxSilentWrong: ef.maxSilent}
	if flagWasSet(fs, "max-silent-wrong-rate") {
		if err := pipeline.CheckThreshold("--max-silent-wrong-rate", ef.maxSilentRate); err != nil {
			return bars, err
		}
		bars.MaxSilentWrongRate = &ef.maxSilentRate
	}
	if flagWasSet(fs, "max-silent-value-rate") {
		if err := pipeline.CheckThreshold("--max-silent-value-rate", ef.maxValueRate); err != nil {
			return bars, err
		}
		bars.MaxSilentValueRate = &ef.maxValueRate
	}
	if flagWasSet(fs, "min-ok-rate") {
		if err := pipeline.CheckThreshold("--min-ok-rate", ef.minOKRate); err != nil {
			return bars, err
		}
		bars.MinOKRate = &ef.minOKRate
	}
	if ef.minFieldAcc != "" {
		m, err := golden.ParseBarSpec(ef.minFieldAcc)
		if err != nil {
			return bars, fmt.Errorf("--min-field-accuracy: %w", err)
		}
		if _, ok := m[golden.AllFields]; ok {
			return bars, errors.New("--min-field-accuracy takes field=rate pairs (use --min-accuracy for all fields)")
		}
		bars.MinFieldAccuracy = m
	}
	return bars, nil
}

// loadEvalRows reads the dataset (or the bundled one) and merges the label
// overlay into it.
func loadEvalRows(ef evalFlags, stdio Stdio) ([]golden.Row, error) {
	var rows []golden.Row
	var lineErrs []error
	var err error
	if ef.dataset == "" {
		rows, lineErrs, err = golden.BundledDataset()
	} else {
		rows, lineErrs, err = golden.LoadDataset(ef.dataset)
	}
	if err != nil {
		// The error already names the dataset and its file.
		return nil, usageErr(err)
	}
	for _, le := range lineErrs {
		fmt.Fprintf(stdio.Err, "reflect eval: skipping %v\n", le)
	}
	if ef.scoreUnreviewed && ef.dataset != "" {
		if _, err := golden.AddUnreviewed(ef.dataset, rows); err != nil {
			return nil, usageErr(fmt.Errorf("--score-unreviewed: %w", err))
		}
	}
	if len(rows) == 0 {
		return nil, usageErr(errors.New("the dataset has no usable rows"))
	}
	if ef.labels != "" {
		labels, lineErrs, err := golden.LoadLabels(ef.labels)
		if err != nil {
			return nil, usageErr(err) // it names the labels and their file
		}
		for _, le := range lineErrs {
			fmt.Fprintf(stdio.Err, "reflect eval: --labels: skipping %v\n", le)
		}
		st := labels.Apply(rows)
		if st.Rows == 0 {
			return nil, usageErr(fmt.Errorf("--labels %s: no id matches a dataset row (is it the overlay for this dataset?)", ef.labels))
		}
		for _, w := range st.Warnings() {
			fmt.Fprintf(stdio.Err, "reflect eval: --labels: warning: %s\n", w)
		}
	}
	return rows, nil
}

// runConfusions is `eval --confusions`: the gate alone, heuristics-only, on
// the labelled records and on plausible wrong values from the same texts.
func runConfusions(ctx context.Context, pf *pipelineFlags, ef evalFlags, rows []golden.Row, stdio Stdio) error {
	var bars golden.ConfusionBars
	var err error
	if ef.minCatch != "" {
		if bars.MinCatch, err = golden.ParseBarSpec(ef.minCatch); err != nil {
			return usageErr(fmt.Errorf("--min-catch: %w", err))
		}
	}
	if ef.maxFalseAlarm != "" {
		if bars.MaxFalseAlarm, err = golden.ParseBarSpec(ef.maxFalseAlarm); err != nil {
			return usageErr(fmt.Errorf("--max-false-alarm: %w", err))
		}
	}
	// No model: a validate-only pipeline with no Critic, the path
	// `validate --heuristics-only` takes.
	pf.heuristicsOnly = true
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	env, err := buildEnv(ctx, pf, false, log)
	if err != nil {
		return err
	}
	defer env.Close()
	start := time.Now()
	rep := golden.Confusions(ctx, env.p, env.p.Schema(), rows, golden.ConfusionOptions{Concurrency: ef.conc, Bars: bars})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	checkErr := rep.Check()
	if ef.asJSON {
		if err := printJSON(stdio, rep); err != nil {
			return err
		}
	} else {
		if err := rep.WriteText(stdio.Out, ef.list); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "(%d rows, %d validations in %s)\n", len(rows), rep.Records+rep.Candidates, time.Since(start).Round(time.Millisecond))
	}
	if checkErr != nil {
		return &exitError{code: ExitNeedsReview, err: fmt.Errorf("confusions failed: %w", checkErr), loud: !ef.asJSON}
	}
	return nil
}

func printJSON(stdio Stdio, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	_, err = fmt.Fprintln(stdio.Out, string(b))
	return err
}

// defaultEvalProvider is eval's provider when neither --provider nor
// REFLECT_PROVIDER names one: recorded replies where there are some to
// replay, else the keyless local extractor (a dataset of your own has no
// recordings unless --replay gives them).
func defaultEvalProvider(dataset, replay string) string {
	if dataset != "" && replay == "" {
		return providers.ProviderLocal
	}
	return providers.ProviderReplay
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
