package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

// loadGateProfile puts the --gate profile (if any) into g.
func loadGateProfile(g *pipeline.GateConfig, path string) error {
	if path == "" {
		return nil
	}
	prof, err := pipeline.LoadGateProfile(path)
	if err != nil {
		return usageErr(fmt.Errorf("--gate: %w", err))
	}
	g.Profile = prof
	return nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

type calFlags struct {
	datasets, labels listFlag
	budget           float64
	by, groupBy, out string
	folds            int
	seed             uint64
	minKey           int
	conc             int
	asJSON           bool
	allowUnsupported bool
	audit            auditFlags
}

func (c *calFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.datasets, "dataset", "labelled JSONL {id,text,expected} (repeat for several)")
	fs.Var(&c.labels, "labels", "label overlay JSONL for the --dataset of the same position (repeat; none or one per --dataset)")
	fs.Float64Var(&c.budget, "max-silent-wrong", 0.005, "budget: most share of scored values wrong and unflagged")
	fs.StringVar(&c.by, "by", pipeline.ProfileByField, "threshold per field, kind or evidence (the extractor's evidence tier)")
	fs.StringVar(&c.groupBy, "group-by", golden.DefaultGroupKey, "dataset key (dotted) grouping rows for cross-validation; rows without it group by id")
	fs.StringVar(&c.out, "out", "gate.yaml", "write the gate profile here (.yaml/.yml: YAML, else JSON)")
	fs.IntVar(&c.folds, "folds", 5, "cross-validation folds over groups")
	fs.Uint64Var(&c.seed, "seed", 1, "fold assignment seed")
	fs.IntVar(&c.minKey, "min-key-values", 30, "a key with fewer values never gets a threshold below the pooled one")
	fs.IntVar(&c.conc, "concurrency", 4, "rows verified at once")
	fs.BoolVar(&c.asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&c.allowUnsupported, "allow-unsupported", false, "write the profile even when the held-out bound does not support the budget")
	c.audit.register(fs)
}

func (c *calFlags) check() error {
	switch {
	case len(c.datasets) == 0:
		return errors.New("--dataset is required (labelled rows to calibrate on)")
	case len(c.labels) != 0 && len(c.labels) != len(c.datasets):
		return fmt.Errorf("--labels: give none or one per --dataset (%d datasets, %d label files)", len(c.datasets), len(c.labels))
	case c.folds < 2:
		return errors.New("--folds must be at least 2")
	case !(c.budget > 0 && c.budget < 1):
		return fmt.Errorf("--max-silent-wrong must be in (0,1), got %v", c.budget)
	}
	switch c.by {
	case pipeline.ProfileByField, pipeline.ProfileByKind, pipeline.ProfileByEvidence:
	default:
		return fmt.Errorf("--by must be field, kind or evidence, got %q", c.by)
	}
	return nil
}

// tierRecorder keeps each document's evidence tiers, which the Result does
// not carry, for calibration by evidence.
type tierRecorder struct {
	inner pipeline.Generator
	mu    sync.Mutex
	tiers map[string]map[string]string
}

func (t *tierRecorder) Generate(ctx context.Context, doc pipeline.Document, s *pipeline.Schema) (pipeline.Extraction, error) {
	ext, err := t.inner.Generate(ctx, doc, s)
	if err == nil && len(ext.Evidence) > 0 {
		m := make(map[string]string, len(ext.Evidence))
		for f, e := range ext.Evidence {
			m[f] = e.Tier
		}
		t.mu.Lock()
		t.tiers[doc.ID] = m
		t.mu.Unlock()
	}
	return ext, err
}

func runCalibrate(ctx context.Context, args []string, stdio Stdio) error {
	var pf pipelineFlags
	var cf calFlags
	fs := newFlagSet("calibrate", "--dataset F [--labels F]... [--max-silent-wrong 0.005] [--by field|kind|evidence] [--out gate.yaml]", stdio)
	pf.register(fs)
	cf.register(fs)
	fs.Lookup("log-level").DefValue = "warn"
	pf.logLevel = "warn"
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	if cf.audit.sample != "" || cf.audit.estimate != "" {
		cf.audit.budgetSet = flagWasSet(fs, "max-silent-wrong")
		return runAudit(cf, stdio)
	}
	if err := cf.check(); err != nil {
		return usageErr(err)
	}
	if flagWasSet(fs, "gate") {
		return usageErr(errors.New("calibrate fits a gate profile: run it without --gate"))
	}
	pf.gateFile = "" // REFLECT_GATE would only change flags, not the confidences fitted on
	// Calibrate is keyless by default: the local extractor.
	if os.Getenv("REFLECT_PROVIDER") == "" && !flagWasSet(fs, "provider") {
		pf.prov.Provider = providers.ProviderLocal
	}
	rows, groups, fitOn, err := loadCalRows(cf, stdio)
	if err != nil {
		return err
	}
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	pf.concurrency = cf.conc
	env, err := buildEnv(ctx, &pf, true, log)
	if err != nil {
		return err
	}
	defer env.Close()
	c := env.base
	rec := &tierRecorder{inner: c.Generator, tiers: map[string]map[string]string{}}
	if c.Generator != nil {
		c.Generator = rec
	}
	p, err := pipeline.New(c)
	if err != nil {
		return usageErr(err)
	}
	for _, e := range golden.CheckRows(p.Schema(), rows) {
		fmt.Fprintf(stdio.Err, "reflect calibrate: warning: %v\n", e)
	}
	start := time.Now()
	results, errs := golden.RunRows(ctx, p, rows, cf.conc)
	if err := env.finish(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	docs := make([]golden.CalDoc, len(rows))
	for i, row := range rows {
		docs[i] = golden.CalDocFrom(p.Schema(), row, groups[i], results[i], errs[i], rec.tiers[row.ID], cf.by, c.Gate.OverallThreshold)
	}
	rep, prof, err := golden.Calibrate(p.Schema(), docs, golden.CalOptions{Budget: cf.budget, By: cf.by, Folds: cf.folds,
		Seed: cf.seed, MinKeyValues: cf.minKey})
	if err != nil {
		return usageErr(err)
	}
	fitOn["pipeline"] = p.Version()
	fitOn["group_by"] = cf.groupBy
	values, err := jsonKeyed(rep.Values)
	if err != nil {
		return err
	}
	fitOn["estimate"] = map[string]any{"folds": rep.Folds, "seed": rep.Seed, "values": values,
		"docs_auto_accept": round4(rep.DocsAccepted), "bound": "one-sided Clopper-Pearson 95%"}
	prof.Fit = fitOn
	// A refusal still says what the data can do: the tightest budget it
	// supports and what a gate fitted there auto-accepts.
	var tight *golden.Tightest
	if !rep.Values.Supported {
		t, ok, err := golden.TightestBudget(p.Schema(), docs, golden.CalOptions{Budget: cf.budget, By: cf.by, Folds: cf.folds,
			Seed: cf.seed, MinKeyValues: cf.minKey}, tightestLimit)
		if err != nil {
			return usageErr(err)
		}
		if ok {
			tight = &t
		}
	}
	if cf.asJSON {
		err = printJSON(stdio, calJSON{CalReport: rep, Tightest: tight})
	} else {
		err = writeCalReport(stdio.Out, rep, groupLabel(cf.groupBy, groups))
		if err == nil && !rep.Values.Supported {
			err = writeTightest(stdio.Out, cf, tight)
		}
		fmt.Fprintf(stdio.Out, "(%d rows in %s)\n", len(rows), time.Since(start).Round(time.Millisecond))
	}
	if err != nil {
		return err
	}
	if !rep.Values.Supported && !cf.allowUnsupported {
		return &exitError{code: ExitNeedsReview, loud: true, err: fmt.Errorf("refused: the held-out bound %.2f%% does not support the %.2f%% budget; %s; profile not written (--allow-unsupported writes it anyway)",
			100*rep.Values.Upper, 100*cf.budget, needText(rep.Values, rep.Docs))}
	}
	b, err := prof.Marshal(cf.out)
	if err != nil {
		return err
	}
	if err := writeFileSync(cf.out, b); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(stdio.Out, "gate profile %s written to %s (use: --gate %s or REFLECT_GATE=%s)\n", prof.ID, cf.out, cf.out, cf.out)
	return nil
}

// tightestLimit is the loosest budget a refusal searches for support at: a
// gate letting more than one value in twenty through wrong is no gate.
const tightestLimit = 0.05

// jsonKeyed is v as a map under its JSON names: a YAML profile spells the
// estimate as the JSON one and calibrate --json do (silent_wrong, not the
// field name silentwrong).
func jsonKeyed(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// calJSON is calibrate's --json report.
type calJSON struct {
	golden.CalReport
	Tightest *golden.Tightest `json:"tightest_supported,omitempty"`
}

func writeTightest(w io.Writer, cf calFlags, t *golden.Tightest) error {
	if t == nil {
		_, err := fmt.Fprintf(w, "no budget up to %.0f%% is supported by this data\n", 100*tightestLimit)
		return err
	}
	_, err := fmt.Fprintf(w, "tightest budget this data supports: %.2f%% (held-out silent-wrong %.2f%%, upper95 %.2f%%, values auto-accepted %.1f%%, documents auto-accepted %.1f%%): --max-silent-wrong %s writes it\n",
		100*t.Budget, 100*t.Values.Rate, 100*t.Values.Upper, 100*t.Values.AutoAccept, 100*t.DocsAccepted, strconv.FormatFloat(t.Budget, 'f', -1, 64))
	return err
}

// groupLabel names what grouped the rows: the key asked for, and an
// export's reviewed vendor where rows lacked it.
func groupLabel(key string, groups []string) string {
	if slices.ContainsFunc(groups, func(g string) bool { return strings.HasPrefix(g, "vendor:") }) {
		return key + ", else an export's reviewed vendor"
	}
	return key
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// loadCalRows reads each dataset with eval's loader (its overlay merged),
// and each row's group.
func loadCalRows(cf calFlags, stdio Stdio) ([]golden.Row, []string, map[string]any, error) {
	var rows []golden.Row
	var groups []string
	var data []map[string]any
	seen := map[string]string{}
	for i, path := range cf.datasets {
		ef := evalFlags{dataset: path}
		if len(cf.labels) > 0 {
			ef.labels = cf.labels[i]
		}
		rs, err := loadEvalRows(ef, stdio)
		if err != nil {
			return nil, nil, nil, err
		}
		keys, err := golden.LoadRowKeys(path, cf.groupBy)
		if err != nil {
			return nil, nil, nil, usageErr(fmt.Errorf("--dataset: %w", err))
		}
		grouped, audited := 0, 0
		for _, r := range rs {
			if prev, dup := seen[r.ID]; dup {
				return nil, nil, nil, usageErr(fmt.Errorf("row id %q is in both %s and %s: calibrating on a row twice would score it on itself", r.ID, prev, path))
			}
			seen[r.ID] = path
			grp, ok := keys.Groups[r.ID]
			if ok {
				grouped++
			} else {
				grp = "id:" + r.ID
			}
			if keys.Audited[r.ID] {
				audited++
			}
			groups = append(groups, grp)
		}
		rows = append(rows, rs...)
		d := map[string]any{"dataset": filepath.Base(path), "sha256": fileHash(path), "rows": len(rs), "grouped": grouped}
		if audited > 0 {
			// Audited rows are the one unbiased sample of what the gate
			// passed: the profile says how many of its rows were.
			d["audited"] = audited
			fmt.Fprintf(stdio.Err, "reflect calibrate: %s: %d of %d rows are audited auto-accepted documents\n", filepath.Base(path), audited, len(rs))
		}
		if ef.labels != "" {
			d["labels"], d["labels_sha256"] = filepath.Base(ef.labels), fileHash(ef.labels)
		}
		data = append(data, d)
	}
	return rows, groups, map[string]any{"data": data, "rows": len(rows)}, nil
}

func fileHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writeFileSync writes b to path through a synced temporary file, so the
// profile is on disk, whole, before calibrate says it is.
func writeFileSync(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gate-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// needText says how much more data would support the budget.
func needText(e golden.Estimate, docs int) string {
	if e.NeedN == 0 {
		return fmt.Sprintf("the observed rate %.2f%% is at or over the budget: more rows will not help, the extractor or the gate must", 100*e.Rate)
	}
	perRow := float64(e.N) / float64(max(docs, 1))
	rows := int(math.Ceil(float64(e.NeedN) / perRow))
	return fmt.Sprintf("needs %d values at this rate (~%d more rows)", e.NeedN, max(rows-docs, 1))
}

func writeCalReport(w io.Writer, rep golden.CalReport, groupBy string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "calibrate: %d documents in %d groups (%s), thresholds by %s, budget %.2f%% silent-wrong of scored values\n",
		rep.Docs, rep.Groups, groupBy, rep.By, 100*rep.Budget)
	fmt.Fprintf(&b, "held-out: %d-fold cross-validation over groups (seed %d), never scored on rows it was fitted on; bound: one-sided Clopper-Pearson %.0f%%\n",
		rep.Folds, rep.Seed, 100*rep.Conf)
	fmt.Fprintf(&b, "%-34s %5s %9s %11s %7s %7s %8s %6s  %s\n", "key", "n", "threshold", "auto-accept", "silent", "rate", "upper95", "missed", "budget")
	line := func(key string, thr string, e golden.Estimate) {
		verdict := "supported"
		if !e.Supported {
			verdict = "not supported: " + needText(e, rep.Docs)
		}
		fmt.Fprintf(&b, "%-34s %5d %9s %10.1f%% %7d %6.2f%% %7.2f%% %6d  %s\n", key, e.N, thr, 100*e.AutoAccept, e.SilentWrong, 100*e.Rate, 100*e.Upper, e.Missed, verdict)
	}
	for _, k := range rep.Keys {
		name, thr := k.Key, fmt.Sprintf("%.3f", k.Threshold)
		if name == "" {
			name, thr = "(no evidence tier)", fmt.Sprintf("%.3f*", rep.Default)
		}
		line(name, thr, k.Estimate)
	}
	line("all values", fmt.Sprintf("%.3f*", rep.Default), rep.Values)
	fmt.Fprintf(&b, "documents auto-accepted (held out): %.1f%% of %d\n", 100*rep.DocsAccepted, rep.Docs)
	fmt.Fprintf(&b, "(silent: wrong values passed, the rate's numerator, over n scored fields; missed: wrong nulls left unflagged, which no threshold reaches;\n"+
		" * the default threshold, for keys not listed and keys with too few values)\n")
	_, err := io.WriteString(w, b.String())
	return err
}
