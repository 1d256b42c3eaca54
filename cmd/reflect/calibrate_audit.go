package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
)

// auditFlags are calibrate's audit modes: draw the sample of auto-accepted
// documents to review, and read the estimate back from their review.
type auditFlags struct {
	sample, estimate, ids string
	conf                  float64
	// budgetSet: --max-silent-wrong was given; else a sample takes the
	// budget of the gate profile its results were gated under.
	budgetSet bool
}

// profileBudgetNote reads the budget from the note every result gated under a
// profile carries (pipeline's profileNote: "…; silent-wrong budget 0.7%).").
var profileBudgetNote = regexp.MustCompile(`Gate profile (\S+) \(.*silent-wrong budget ([0-9.]+)%\)`)

func (a *auditFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.sample, "audit-sample", "", "results JSONL (extract/validate --batch output): print a seeded sample of its auto-accepted (ok) documents to audit, sized from --max-silent-wrong and --audit-confidence")
	fs.StringVar(&a.estimate, "audit-estimate", "", "golden export JSONL of audited documents (reflect export): the observed silent-wrong per field with its bound, next to --max-silent-wrong; exit 1 when breached")
	fs.StringVar(&a.ids, "audit-ids", "", "with --audit-estimate: only the documents of this sample (--audit-sample's output)")
	fs.Float64Var(&a.conf, "audit-confidence", 0.95, "confidence of the audit's bound")
}

func runAudit(cf calFlags, stdio Stdio) error {
	a := cf.audit
	switch {
	case a.sample != "" && a.estimate != "":
		return usageErr(errors.New("--audit-sample and --audit-estimate are two steps: give one"))
	case !(cf.budget > 0 && cf.budget < 1):
		return usageErr(fmt.Errorf("--max-silent-wrong must be in (0,1), got %v", cf.budget))
	case !(a.conf > 0 && a.conf < 1):
		return usageErr(fmt.Errorf("--audit-confidence must be in (0,1), got %v", a.conf))
	case len(cf.datasets) > 1 || (len(cf.datasets) == 1 && a.sample == ""):
		return usageErr(errors.New("--dataset goes with --audit-sample only, once: the documents the results came from"))
	}
	if a.sample != "" {
		return auditSample(cf, stdio)
	}
	return auditEstimate(cf, stdio)
}

func auditSample(cf calFlags, stdio Stdio) error {
	var ok []string
	values, lines := 0, 0
	profile, profBudget := "", 0.0
	err := readJSONL(cf.audit.sample, func(b []byte) error {
		var r pipeline.Result
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		lines++
		if m := profileBudgetNote.FindStringSubmatch(r.Notes); m != nil && profile == "" {
			if b, err := strconv.ParseFloat(m[2], 64); err == nil && b > 0 && b < 100 {
				profile, profBudget = m[1], b/100
			}
		}
		if r.Status != pipeline.StatusOK || r.ID == "" {
			return nil
		}
		ok = append(ok, r.ID)
		for _, v := range r.Data {
			if v != nil {
				values++
			}
		}
		return nil
	})
	if err != nil {
		return usageErr(fmt.Errorf("--audit-sample: %w", err))
	}
	if profile != "" && !cf.audit.budgetSet {
		// New user report #15: the sample was sized from the default 0.5%
		// under a profile with another budget.
		cf.budget = profBudget
		fmt.Fprintf(stdio.Err, "reflect calibrate: budget %.2f%% from gate profile %s, which gated these results (--max-silent-wrong sets another)\n", 100*cf.budget, profile)
	}
	perDoc := float64(values) / float64(max(len(ok), 1))
	n := golden.AuditSampleSize(cf.budget, cf.audit.conf, perDoc)
	picked := golden.AuditSample(ok, n, cf.seed)
	if err := writeSample(cf, picked, stdio); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Err, "reflect calibrate: audit sample of %d of %d auto-accepted documents (%d results; seed %d): %d are needed, at %.1f values a document, to bound a %.2f%% silent-wrong rate at %.0f%% if the audit finds none wrong\n",
		len(picked), len(ok), lines, cf.seed, n, perDoc, 100*cf.budget, 100*cf.audit.conf)
	if len(picked) < n {
		fmt.Fprintf(stdio.Err, "reflect calibrate: warning: only %d auto-accepted documents, fewer than the %d the bound needs: audit them all and keep auditing\n", len(ok), n)
	}
	return nil
}

// writeSample prints the sample: with --dataset, the sampled documents'
// own lines (a corpus `reflect review` opens), else their ids.
func writeSample(cf calFlags, picked []string, stdio Stdio) error {
	if len(cf.datasets) == 0 {
		for _, id := range picked {
			b, _ := json.Marshal(map[string]string{"id": id})
			if _, err := fmt.Fprintln(stdio.Out, string(b)); err != nil {
				return err
			}
		}
		return nil
	}
	want := map[string]bool{}
	for _, id := range picked {
		want[id] = true
	}
	found := 0
	err := readJSONL(cf.datasets[0], func(b []byte) error {
		var x struct{ ID string }
		if json.Unmarshal(b, &x) != nil || !want[x.ID] {
			return nil
		}
		found++
		_, err := fmt.Fprintln(stdio.Out, string(b))
		return err
	})
	if err != nil {
		return usageErr(fmt.Errorf("--dataset: %w", err))
	}
	if found < len(picked) {
		return usageErr(fmt.Errorf("--dataset %s holds %d of the %d sampled documents: is it the file the results came from?", cf.datasets[0], found, len(picked)))
	}
	return nil
}

func auditEstimate(cf calFlags, stdio Stdio) error {
	var want map[string]bool
	if cf.audit.ids != "" {
		want = map[string]bool{}
		if err := readJSONL(cf.audit.ids, func(b []byte) error {
			var x struct{ ID string }
			if err := json.Unmarshal(b, &x); err != nil {
				return err
			}
			want[x.ID] = true
			return nil
		}); err != nil {
			return usageErr(fmt.Errorf("--audit-ids: %w", err))
		}
	}
	var docs []golden.AuditDoc
	if err := readJSONL(cf.audit.estimate, func(b []byte) error {
		var r golden.ExportRow
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		if want == nil || want[r.ID] {
			docs = append(docs, golden.AuditDocFromExport(r))
		}
		return nil
	}); err != nil {
		return usageErr(fmt.Errorf("--audit-estimate: %w", err))
	}
	rep := golden.EstimateAudit(docs, cf.budget, cf.audit.conf)
	if cf.asJSON {
		if err := printJSON(stdio, rep); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		fmt.Fprintf(&b, "audit: %d audited auto-accepted documents, budget %.2f%% silent-wrong, one-sided Clopper-Pearson %.0f%%\n", rep.Docs, 100*rep.Budget, 100*rep.Conf)
		fmt.Fprintf(&b, "%-16s %5s %7s %7s %8s %6s  %s\n", "field", "n", "silent", "rate", "upper", "missed", "vs budget")
		for _, l := range append(rep.Fields, rep.All) {
			fmt.Fprintf(&b, "%-16s %5d %7d %6.2f%% %7.2f%% %6d  %s\n", l.Field, l.N, l.SilentWrong, 100*l.Rate, 100*l.Upper, l.Missed, l.Status)
		}
		if _, err := fmt.Fprint(stdio.Out, b.String()); err != nil {
			return err
		}
	}
	if rep.Breached {
		return &exitError{code: ExitNeedsReview, loud: true, err: errors.New("the audit shows the budget breached: recalibrate with the audited documents (reflect export, then calibrate --dataset)")}
	}
	return nil
}

// readJSONL calls fn on each non-blank line of path; an error names the line.
func readJSONL(path string, fn func([]byte) error) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := fn([]byte(line)); err != nil {
			return fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
	}
	return nil
}
