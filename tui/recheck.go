package tui

import (
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// recheck runs the pipeline's checks again on the record as the reviewer has
// settled it so far, so a correction that repairs (or breaks) a relation
// changes the other fields' flags and reasons: correcting the subtotal can
// clear the total's "subtotal + tax ≠ total" flag.
//
// Each field keeps the pipeline's own evidence for it (its confidence before
// the checks' factor), and only the checks' factor and reasons are redone;
// so a field the extractor was unsure of stays flagged whatever the
// correction. It reports false when no field has been corrected: the stored
// result already says everything.
func recheck(text string, s *pipeline.Schema, res pipeline.Result, decs map[string]store.Decision) (pipeline.Result, bool) {
	corrected := false
	for _, d := range decs {
		if d.Action == store.ActionCorrect || d.Action == store.ActionSetNull {
			corrected = true
		}
	}
	if !corrected || res.Status == pipeline.StatusError || len(res.Data) == 0 {
		return res, false
	}
	settled := res.Data.Clone()
	for f, d := range decs {
		settled[f] = d.Value
	}
	before := pipeline.RunHeuristics(text, s, res.Data)
	after := pipeline.RunHeuristics(text, s, settled)
	ev := map[string]pipeline.Evidence{}
	for _, f := range s.Fields {
		conf, ok := res.FieldConfidence[f.Name]
		if !ok {
			continue
		}
		factor := 1.0
		if chk, ok := before[f.Name]; ok {
			factor = chk.Factor
		}
		if factor <= 0 {
			continue // the checks zeroed it; the evidence under them is unknown
		}
		ev[f.Name] = pipeline.Evidence{Confidence: min(1, conf/factor), Method: extractorMethod(res, f.Name, before[f.Name].Reasons)}
	}
	g := pipeline.Gate(s, settled, nil, after, ev, pipeline.DefaultGate())
	out := res
	out.FieldConfidence = make(map[string]float64, len(res.FieldConfidence))
	for f, c := range res.FieldConfidence {
		out.FieldConfidence[f] = c
	}
	out.FlaggedFields = nil
	for _, ff := range res.FlaggedFields {
		// A decided field keeps the flag it was decided on: the queue row
		// and the catch statistics count it.
		if _, ok := decs[ff.Field]; ok {
			out.FlaggedFields = append(out.FlaggedFields, ff)
		}
	}
	for _, f := range s.Fields {
		if _, ok := decs[f.Name]; ok {
			continue
		}
		if !res.Given(f.Name) {
			// Left out by the caller: no claim to re-check, and the gate
			// would read the missing key as a required value not found.
			continue
		}
		if c, ok := g.FieldConfidence[f.Name]; ok {
			out.FieldConfidence[f.Name] = c
		}
		for _, ff := range g.FlaggedFields {
			if ff.Field == f.Name {
				out.FlaggedFields = append(out.FlaggedFields, ff)
			}
		}
	}
	return out, true
}

// extractorMethod is how the extractor found field, as the stored flag's
// reason says it ("extractor: <method>" followed by the checks' reasons), so
// a re-checked flag keeps saying why the evidence was weak; "evidence
// before the checks" when the stored result says nothing of it.
func extractorMethod(res pipeline.Result, field string, checkReasons []string) string {
	const prefix = "extractor: "
	for _, ff := range res.FlaggedFields {
		if ff.Field != field || !strings.HasPrefix(ff.Reason, prefix) {
			continue
		}
		m := strings.TrimPrefix(ff.Reason, prefix)
		if len(checkReasons) > 0 {
			m = strings.TrimSuffix(m, "; "+strings.Join(checkReasons, "; "))
		}
		if m != "" {
			return m
		}
	}
	return "evidence before the checks"
}
