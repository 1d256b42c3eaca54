package pipeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// GateConfig holds the gate's thresholds.
type GateConfig struct {
	// FieldThreshold flags any non-null field whose combined confidence is below it.
	FieldThreshold float64
	// OverallThreshold sends the whole result to review when overall confidence
	// is below it.
	OverallThreshold float64
	// Profile, when set, replaces FieldThreshold with measured per-field,
	// per-kind or per-evidence thresholds (see gateprofile.go).
	Profile *GateProfile
}

// DefaultGate is the documented default gate: fields below 0.70, or overall below 0.75,
// need review.
func DefaultGate() GateConfig { return GateConfig{FieldThreshold: 0.70, OverallThreshold: 0.75} }

// CheckThreshold rejects NaN, infinities and values outside [0,1].
func CheckThreshold(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1 {
		return fmt.Errorf("%w: %s must be a number in [0,1], got %v", ErrInput, name, v)
	}
	return nil
}

// Validate checks both thresholds.
func (g GateConfig) Validate() error {
	if err := CheckThreshold("field_threshold", g.FieldThreshold); err != nil {
		return err
	}
	return CheckThreshold("overall_threshold", g.OverallThreshold)
}

// Critic confidence caps, as the README documents them: a committed value the Critic
// does not vouch for cannot be trusted past a coin flip.
const (
	ungroundedCap = 0.5
	// heuristicsOnlyBase is the confidence a field starts from when no Critic
	// ran and the Generator gave no evidence of its own: high, so that only the
	// deterministic checks decide, but below certainty.
	heuristicsOnlyBase = 0.95
)

// Gate is the confidence gate. A null is never flagged unless the schema
// marks the field required. crit is nil in heuristics-only mode, where
// each field's base confidence is the Generator's own evidence (when it gave
// any) or heuristicsOnlyBase, capped at 0.5 when the value was not found in
// the source, exactly as a Critic's grounded:false would be.
func Gate(s *Schema, rec Record, crit *Critique, h HeuristicReport, ev map[string]Evidence, cfg GateConfig) Result {
	return gate(s, rec, crit, h, ev, cfg, false)
}

// gate is Gate. When own is set, rec is the caller's to give away and holds
// every field of s and nothing else (NormalizeRecord's): the result keeps
// it as its Data instead of a copy, a map less per document.
func gate(s *Schema, rec Record, crit *Critique, h HeuristicReport, ev map[string]Evidence, cfg GateConfig, own bool) Result {
	// The maps are sized for every field at once: grown from empty, each
	// cost a second allocation per document.
	res := Result{
		Status:          StatusOK,
		Data:            rec,
		FieldConfidence: make(map[string]float64, len(s.Fields)),
		FieldProvenance: make(map[string][]Span, len(s.Fields)),
		FlaggedFields:   []FlaggedField{},
		Schema:          s.Name,
		FieldOrder:      s.fieldOrder(),
	}
	if !own {
		res.Data = make(Record, len(s.Fields))
	}
	verdicts := mergeVerdicts(crit)
	var sum float64
	var n int
	var asides []string // reasons on fields that passed: worth a look, not a flag
	for _, f := range s.Fields {
		v := rec[f.Name]
		if !own {
			res.Data[f.Name] = v
		}
		if v == nil {
			if chk, ok := h[f.Name]; ok && len(chk.Reasons) > 0 {
				// The document states a value the record left out: abstaining
				// is honest only when the source has nothing.
				res.FieldConfidence[f.Name] = 0
				res.FieldProvenance[f.Name] = nonNil(chk.Spans)
				n++
				res.FlaggedFields = append(res.FlaggedFields, FlaggedField{Field: f.Name, Value: nil, Confidence: 0,
					Reason: strings.Join(chk.Reasons, "; ")})
				continue
			}
			if f.Required {
				// A required field every document states came back empty:
				// a miss that would otherwise pass silently.
				res.FieldConfidence[f.Name] = 0
				res.FieldProvenance[f.Name] = []Span{}
				n++
				res.FlaggedFields = append(res.FlaggedFields, FlaggedField{Field: f.Name, Value: nil, Confidence: 0,
					Reason: "required field is missing: no value was found in the source"})
			}
			continue // an honest null of an optional field is never flagged
		}
		chk, ok := h[f.Name]
		if !ok {
			chk = FieldCheck{Factor: 1}
		}
		var reasons []string
		var base float64
		if crit != nil {
			vd, ok := verdicts[f.Name]
			switch {
			case !ok:
				base = ungroundedCap
				reasons = append(reasons, "critic gave no verdict for this field")
			default:
				base = clamp01(vd.Confidence)
				if vd.Reason != "" {
					reasons = append(reasons, vd.Reason)
				}
				if !vd.Grounded {
					base = math.Min(base, ungroundedCap)
					reasons = append(reasons, "critic marked the value not grounded in the source")
				}
			}
		} else {
			base = heuristicsOnlyBase
			if e, ok := ev[f.Name]; ok {
				base = math.Min(base, clamp01(e.Confidence))
				if e.Confidence < cfg.FieldThreshold && e.Method != "" {
					reasons = append(reasons, "extractor: "+e.Method)
				}
			}
			if !chk.Grounded {
				base = math.Min(base, ungroundedCap)
			}
		}
		combined := round3(base * clamp01(chk.Factor))
		reasons = append(reasons, chk.Reasons...)
		res.FieldConfidence[f.Name] = combined
		spans := chk.Spans
		if spans == nil {
			spans = []Span{}
		}
		res.FieldProvenance[f.Name] = spans
		sum += combined
		n++
		if combined < cfg.fieldThreshold(f, ev[f.Name].Tier) {
			reason := strings.Join(reasons, "; ")
			if reason == "" {
				reason = "confidence below threshold"
			}
			res.FlaggedFields = append(res.FlaggedFields, FlaggedField{Field: f.Name, Value: v, Confidence: combined, Reason: reason})
		} else if len(chk.Reasons) > 0 {
			asides = append(asides, f.Name+": "+strings.Join(chk.Reasons, "; "))
		}
	}
	switch {
	case n == 0:
		res.OverallConfidence = 0
	default:
		res.OverallConfidence = round3(sum / float64(n))
	}
	if crit != nil {
		res.OverallConfidence = math.Min(res.OverallConfidence, round3(clamp01(crit.OverallConfidence)))
		res.CriticSummary = crit.Summary
	}
	notes := make([]string, 0, 4) // at most four: sized, not grown, per document
	if k := len(res.FlaggedFields); k > 0 {
		var b [96]byte
		line := strconv.AppendInt(b[:0], int64(k), 10)
		if cfg.Profile != nil {
			// The profile's own thresholds decided, which its note lists:
			// the flat one did not apply.
			line = append(line, " field(s) below the gate profile's confidence thresholds require human review before use."...)
		} else {
			line = appendPct(append(line, " field(s) below the "...), cfg.FieldThreshold)
			line = append(line, " confidence threshold require human review before use."...)
		}
		notes = append(notes, string(line))
	}
	if n == 0 {
		notes = append(notes, "No field could be extracted from the source.")
	}
	if res.OverallConfidence < cfg.OverallThreshold {
		notes = append(notes, fmt.Sprintf("Overall confidence %.2f is below the %s threshold.", res.OverallConfidence, pct(cfg.OverallThreshold)))
	}
	if len(notes) > 0 {
		res.Status = StatusNeedsReview
	} else {
		if cfg.Profile != nil {
			notes = append(notes, "All fields passed the gate profile's confidence thresholds.")
		} else if cfg.FieldThreshold == DefaultGate().FieldThreshold {
			notes = append(notes, defaultPassNote) // most documents pass the default gate
		} else {
			notes = append(notes, passNote(cfg.FieldThreshold))
		}
	}
	if len(asides) > 0 {
		notes = append(notes, "Passed with a note: "+strings.Join(asides, " | ")+".")
	}
	res.Notes = strings.Join(cfg.profileNote(notes), " ")
	return res
}

// mergeVerdicts keeps one verdict per field: the minimum confidence, and on a
// tie the grounded:false one, so verdict order never matters.
func mergeVerdicts(c *Critique) map[string]FieldVerdict {
	if c == nil {
		return nil // read only: heuristics-only mode allocates no map
	}
	out := map[string]FieldVerdict{}
	for _, v := range c.FieldVerdicts {
		v.Confidence = clamp01(v.Confidence)
		cur, ok := out[v.Field]
		if !ok || v.Confidence < cur.Confidence || (v.Confidence == cur.Confidence && cur.Grounded && !v.Grounded) {
			out[v.Field] = v
		}
	}
	return out
}

func nonNil(s []Span) []Span {
	if s == nil {
		return []Span{}
	}
	return s
}

func clamp01(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// pct is fmt's "%.0f%%" of x*100 without its boxing: the gate writes one
// per document.
func pct(x float64) string { return string(appendPct(nil, x)) }

// passNote is the note of a document whose every field passed the flat
// threshold; defaultPassNote is that of the default gate, written once.
func passNote(threshold float64) string {
	var b [64]byte
	line := appendPct(append(b[:0], "All fields passed the "...), threshold)
	return string(append(line, " confidence threshold."...))
}

var defaultPassNote = passNote(DefaultGate().FieldThreshold)

// appendPct appends pct(x) to b: a note is built in one buffer and copied
// into its string once.
func appendPct(b []byte, x float64) []byte {
	return append(strconv.AppendFloat(b, x*100, 'f', 0, 64), '%')
}
