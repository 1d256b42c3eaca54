package golden

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sort"
	"strconv"
)

// Audits of what passed: a gate with a budget needs a live estimate, so a
// seeded sample of the documents it auto-accepted is reviewed like any
// other, and what reviewers correct there is the observed silent-wrong.

// AuditSampleSize is how many auto-accepted documents to audit so that,
// if the audit finds no wrong value, the one-sided upper bound on the
// silent-wrong rate is at or under budget at conf: the values needed
// (about 3/budget at 95%) over the values a document carries.
func AuditSampleSize(budget, conf, valuesPerDoc float64) int {
	n := NeededTrials(0, budget, conf, 1<<30)
	if n == 0 {
		return 0
	}
	return int(math.Ceil(float64(n) / math.Max(valuesPerDoc, 1)))
}

// AuditSample picks n of ids, reproducibly: each id is ranked by a hash of
// the seed and the id, so the sample depends on neither input order nor,
// for the ids already present, on documents added later.
func AuditSample(ids []string, n int, seed uint64) []string {
	type ranked struct {
		id   string
		rank uint64
	}
	rs := make([]ranked, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		h := sha256.Sum256([]byte(strconv.FormatUint(seed, 10) + "\x00" + id))
		rs = append(rs, ranked{id, binary.BigEndian.Uint64(h[:8])})
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].rank != rs[j].rank {
			return rs[i].rank < rs[j].rank
		}
		return rs[i].id < rs[j].id
	})
	out := make([]string, 0, min(n, len(rs)))
	for _, r := range rs[:min(max(n, 0), len(rs))] {
		out = append(out, r.id)
	}
	return out
}

// AuditDoc is one audited auto-accepted document: the fields its reviewer
// confirmed and corrected, and the pipeline's values.
type AuditDoc struct {
	ID        string
	Confirmed []string
	Corrected []string
	Original  map[string]any
}

// AuditDocFromExport reads an audited document from a golden export row.
func AuditDocFromExport(r ExportRow) AuditDoc {
	return AuditDoc{ID: r.ID, Confirmed: r.Review.Confirmed, Corrected: r.Review.Corrected, Original: r.Review.Original}
}

// AuditLine is the observed silent-wrong for one field (or all).
type AuditLine struct {
	Field       string  `json:"field"`
	N           int     `json:"n"`
	SilentWrong int     `json:"silent_wrong"`
	Missed      int     `json:"missed_nulls"`
	Rate        float64 `json:"rate"`
	Upper       float64 `json:"upper_bound"`
	Lower       float64 `json:"lower_bound"`
	// Status: "within" (upper bound at or under budget), "unproven" (rate
	// under budget, too few audited to bound it there), "over" (rate over
	// budget, not yet significant), "breached" (the lower bound is over the
	// budget: the audit shows the gate lets more through than promised).
	Status string `json:"status"`
}

// AuditReport is the audit estimate next to the budget.
type AuditReport struct {
	Budget   float64     `json:"budget"`
	Conf     float64     `json:"confidence"`
	Docs     int         `json:"docs"`
	Fields   []AuditLine `json:"fields"`
	All      AuditLine   `json:"all"`
	Breached bool        `json:"breached"`
}

// LowerBound is the one-sided Clopper-Pearson lower bound: the smallest p
// under which k or more events in n has probability 1-conf.
func LowerBound(k, n int, conf float64) float64 {
	if n <= 0 || k <= 0 {
		return 0
	}
	// P(X >= k) = 1 - P(X <= k-1) rises with p.
	return solveP(func(p float64) float64 { return binomCDF(k-1, n, p) }, conf)
}

func (l *AuditLine) finish(budget, conf float64) {
	if l.N > 0 {
		l.Rate = float64(l.SilentWrong) / float64(l.N)
	}
	l.Upper, l.Lower = UpperBound(l.SilentWrong, l.N, conf), LowerBound(l.SilentWrong, l.N, conf)
	switch {
	case l.Lower > budget:
		l.Status = "breached"
	case l.Rate > budget:
		l.Status = "over"
	case l.Upper <= budget:
		l.Status = "within"
	default:
		l.Status = "unproven"
	}
}

// EstimateAudit counts, per field, the audited values a reviewer had to
// correct: each is a wrong value the gate passed. A corrected null is a
// missed value, reported apart as calibrate does.
func EstimateAudit(docs []AuditDoc, budget, conf float64) AuditReport {
	rep := AuditReport{Budget: budget, Conf: conf, Docs: len(docs)}
	by := map[string]*AuditLine{}
	line := func(f string) *AuditLine {
		if by[f] == nil {
			by[f] = &AuditLine{Field: f}
		}
		return by[f]
	}
	for _, d := range docs {
		for _, f := range d.Confirmed {
			line(f).N++
			rep.All.N++
		}
		for _, f := range d.Corrected {
			l := line(f)
			l.N++
			rep.All.N++
			if d.Original[f] == nil {
				l.Missed++
				rep.All.Missed++
				continue
			}
			l.SilentWrong++
			rep.All.SilentWrong++
		}
	}
	names := make([]string, 0, len(by))
	for f := range by {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		by[f].finish(budget, conf)
		rep.Fields = append(rep.Fields, *by[f])
		rep.Breached = rep.Breached || by[f].Status == "breached"
	}
	rep.All.Field = "all"
	rep.All.finish(budget, conf)
	rep.Breached = rep.Breached || rep.All.Status == "breached"
	return rep
}
