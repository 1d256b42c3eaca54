package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

// corpusAudit is one corpus's audit as stats reports it.
type corpusAudit struct {
	Corpus string `json:"corpus"`
	Name   string `json:"name"`
	golden.Audit
}

// readAudits reads the audit of the corpus id, or of every corpus when id
// is ""; corpora never audited are left out.
func readAudits(ctx context.Context, st *store.Store, id string) ([]corpusAudit, error) {
	var cs []store.Corpus
	if id != "" {
		c, err := st.Corpus(ctx, id)
		if err != nil {
			return nil, err
		}
		cs = []store.Corpus{c}
	} else {
		var err error
		if cs, err = st.Corpora(ctx); err != nil {
			return nil, err
		}
	}
	out := []corpusAudit{}
	for _, c := range cs {
		a, err := golden.ReadAudit(ctx, st, c.ID)
		if err != nil {
			return nil, err
		}
		if len(a.Draws) > 0 {
			out = append(out, corpusAudit{Corpus: c.ID, Name: c.Name, Audit: a})
		}
	}
	return out, nil
}

// auditVerdict is a line's standing against the budget, in words.
func auditVerdict(l golden.AuditLine) string {
	switch l.Status {
	case "breached":
		return "BUDGET BREACHED (even the lower bound is over it)"
	case "over":
		return "over budget so far (not yet significant: audit more)"
	case "within":
		return "within budget"
	}
	if l.N == 0 {
		return "nothing read yet"
	}
	return "unproven (too few read to bound it under the budget: audit more)"
}

// missedNote is the one definition both stats blocks give: a null passed
// unflagged and filled in by a reviewer is not silent-wrong.
const missedNote = "missed: nulls passed unflagged that a reviewer filled in; not silent-wrong, counted apart"

func writeAudits(w io.Writer, audits []corpusAudit) error {
	var b strings.Builder
	for _, a := range audits {
		d, rep := a.Draws[0], a.Report
		profile := "hand-set thresholds"
		if d.Profile != "" {
			profile = "gate profile " + d.Profile
		}
		fmt.Fprintf(&b, "\naudit of %s (%s): %d auto-accepted documents drawn in %d draw(s), seed %d, %s; %d read\n",
			a.Name, a.Corpus, a.Sample, len(a.Draws), d.Seed, profile, a.Audited)
		fmt.Fprintf(&b, "budget %s silent-wrong of values passed; bounds one-sided Clopper-Pearson %.0f%%\n", ratePct(rep.Budget), 100*rep.Conf)
		fmt.Fprintf(&b, "  %-16s %7s %7s %7s %8s %7s  %s\n", "field", "audited", "silent", "rate", "upper", "budget", "")
		for _, l := range append(rep.Fields, rep.All) {
			fmt.Fprintf(&b, "  %-16s %7d %7d %7s %8s %7s  %s\n", l.Field, l.N, l.SilentWrong, ratePct(l.Rate), ratePct(l.Upper), ratePct(rep.Budget), auditVerdict(l))
		}
		if rep.All.Missed > 0 {
			fmt.Fprintf(&b, "  (%d %s)\n", rep.All.Missed, missedNote)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ratePct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

// breached names the corpora whose audit shows the budget breached.
func breached(audits []corpusAudit) []string {
	var out []string
	for _, a := range audits {
		if a.Report.Breached {
			out = append(out, a.Name)
		}
	}
	return out
}
