package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/reflect-mcp/reflect/store"
)

func runStats(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("stats", "[--corpus ID] [--json]", stdio)
	sf.register(fs)
	corpusID := fs.String("corpus", "", "corpus id, path or queue; default: every corpus")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	st, err := sf.openExisting()
	if err != nil {
		return err
	}
	id := ""
	if *corpusID != "" {
		ids, err := corpusIDs(ctx, st, *corpusID)
		if err != nil {
			return err
		}
		id = ids[0]
	}
	s, err := st.Stats(ctx, id)
	if err != nil {
		return err
	}
	al, err := st.Alarms(ctx, id)
	if err != nil {
		return err
	}
	audits, err := readAudits(ctx, st, id)
	if err != nil {
		return err
	}
	runs, err := st.ShownRuns(ctx, id)
	if err != nil {
		return err
	}
	if err := writeStats(stdio, s, al, audits, runs, *asJSON); err != nil {
		return err
	}
	if names := breached(audits); len(names) > 0 {
		return &exitError{code: ExitNeedsReview, loud: true, err: fmt.Errorf("the audit of %s shows the silent-wrong budget breached: export the corpus and recalibrate (reflect calibrate --dataset EXPORT ...)", strings.Join(names, ", "))}
	}
	return nil
}

func writeStats(stdio Stdio, s store.Stats, al store.Alarms, audits []corpusAudit, runs map[string]int, asJSON bool) error {
	if asJSON {
		js := statsJSON(s, al)
		js["runs"] = runs
		js["audits"] = audits
		b, err := json.MarshalIndent(js, "", "  ")
		if err != nil {
			return fmt.Errorf("encode stats: %w", err)
		}
		fmt.Fprintln(stdio.Out, string(b))
		return nil
	}
	fmt.Fprintf(stdio.Out, "documents         : %d (%d with a result, %d errors)\n", s.Documents, s.WithResult, s.Errors)
	if len(runs) > 0 {
		fmt.Fprintf(stdio.Out, "pipeline run      : %s (the results last opened; review --provider/--gate switches)\n", runsLine(runs))
	}
	fmt.Fprintf(stdio.Out, "reviewed          : %d\n", s.Reviewed)
	fmt.Fprintf(stdio.Out, "rejected, skipped : %d not a document (left out of exports), %d skipped with a note\n", s.Rejected, s.Skipped)
	fmt.Fprintf(stdio.Out, "auto-accepted     : %d (ok, not reviewed)\n", s.AutoAccepted)
	fmt.Fprintf(stdio.Out, "awaiting review   : %d\n", s.NeedsReview)
	fmt.Fprintf(stdio.Out, "decided fields    : %d (%d corrected)\n", s.DecidedFields, s.CorrectedFields)
	fmt.Fprintf(stdio.Out, "gate vs reviewers : catch rate %s, silent-wrong %d\n", s.CatchText(), s.SilentWrong)
	if s.Missed > 0 {
		fmt.Fprintf(stdio.Out, "                    (%d %s)\n", s.Missed, missedNote)
	}
	fmt.Fprintf(stdio.Out, "false alarms      : %s\n", al.Text())
	return writeAudits(stdio.Out, audits)
}

// statsJSON is the stats as JSON, with null wherever the text form says n/a:
// a rate with nothing under it is not a number.
func statsJSON(s store.Stats, al store.Alarms) map[string]any {
	out := map[string]any{
		"documents": s.Documents, "with_result": s.WithResult, "reviewed": s.Reviewed, "auto_accepted": s.AutoAccepted,
		"needs_review": s.NeedsReview, "errors": s.Errors, "decided_fields": s.DecidedFields,
		"corrected_fields": s.CorrectedFields, "flagged_fields": s.FlaggedFields, "caught_wrong": s.CaughtWrong,
		"silent_wrong": s.SilentWrong, "missed_nulls": s.Missed, "catch_rate": nil, "flagged_reviewed": al.Flagged,
		"false_alarms": al.FalseAlarms, "false_alarm_rate": nil, "rejected": s.Rejected, "skipped": s.Skipped,
	}
	if s.Wrong() > 0 {
		out["catch_rate"] = s.CatchRate
	}
	if r, ok := al.Rate(); ok {
		out["false_alarm_rate"] = r
	}
	return out
}

// runsLine names the pipeline runs whose results stats counts, with how
// many documents each, most first.
func runsLine(runs map[string]int) string {
	vs := make([]string, 0, len(runs))
	for v := range runs {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool {
		if runs[vs[i]] != runs[vs[j]] {
			return runs[vs[i]] > runs[vs[j]]
		}
		return vs[i] < vs[j]
	})
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%s (%d)", v, runs[v])
	}
	return strings.Join(parts, ", ")
}
