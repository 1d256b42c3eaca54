package golden

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// DefaultAuditBudget and DefaultAuditConfidence size an audit when the gate
// has no profile: the budget calibrate is asked for by default.
const (
	DefaultAuditBudget     = 0.005
	DefaultAuditConfidence = 0.95
)

// AuditSpec says how to draw a corpus's audit sample.
type AuditSpec struct {
	Budget, Confidence float64
	// Profile is the gate profile's id ("" for hand-set thresholds).
	Profile string
	// ValuesPerDoc is how many values a document carries (the schema's
	// fields): each audited document bounds that many values.
	ValuesPerDoc int
	Reviewer     string
	// Seed: 0 derives one from the corpus id, so the same corpus draws the
	// same sample in every store.
	Seed uint64
}

// AuditSpecFor is the spec for a gate: the profile's budget at 95%, or the
// default budget when thresholds are hand-set.
func AuditSpecFor(s *pipeline.Schema, prof *pipeline.GateProfile, reviewer string) AuditSpec {
	sp := AuditSpec{Budget: DefaultAuditBudget, Confidence: DefaultAuditConfidence, Reviewer: reviewer}
	if s != nil {
		sp.ValuesPerDoc = len(s.Fields)
	}
	if prof != nil {
		sp.Profile = prof.ID
		if prof.Budget > 0 && prof.Budget < 1 {
			sp.Budget = prof.Budget
		}
	}
	return sp
}

// AuditSeed is the seed a corpus's audit draws with unless told otherwise.
func AuditSeed(corpusID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(corpusID))
	return h.Sum64()
}

// DrawAudit draws the corpus's audit sample, sized so that an audit finding
// nothing wrong bounds the silent-wrong rate under the budget, and records
// it in the store. more false returns the recorded sample when there is one
// (drawn is then false); more true draws that many again from the documents
// not yet drawn.
func DrawAudit(ctx context.Context, st *store.Store, corpusID string, sp AuditSpec, more bool) (store.AuditDraw, bool, error) {
	if sp.Seed == 0 {
		sp.Seed = AuditSeed(corpusID)
	}
	n := AuditSampleSize(sp.Budget, sp.Confidence, float64(max(sp.ValuesPerDoc, 1)))
	d := store.AuditDraw{Seed: sp.Seed, Budget: sp.Budget, Confidence: sp.Confidence, Profile: sp.Profile, Reviewer: sp.Reviewer}
	pick := func(eligible []string) []string { return AuditSample(eligible, n, sp.Seed) }
	return st.DrawAudit(ctx, corpusID, d, pick, more)
}

// Audit is a corpus's audit as the store has it: the draws, how many sample
// documents have been reviewed, and the estimate over those.
type Audit struct {
	Draws   []store.AuditDraw `json:"draws"`
	Sample  int               `json:"sample"`
	Audited int               `json:"audited"`
	Report  AuditReport       `json:"estimate"`
}

// ReadAudit reads a corpus's audit: every reviewed document of its sample
// counts, at the budget and confidence of the first draw. A corpus never
// audited has no draws and an empty report.
func ReadAudit(ctx context.Context, st *store.Store, corpusID string) (Audit, error) {
	draws, err := st.AuditDraws(ctx, corpusID)
	if err != nil || len(draws) == 0 {
		return Audit{}, err
	}
	var ids []string
	for _, d := range draws {
		ids = append(ids, d.IDs...)
	}
	var docs []AuditDoc
	err = st.EachReviewedOf(ctx, corpusID, ids, func(rv store.Review) error {
		if rv.Document.Kind != store.KindExtraction || (rv.HasVerdict && rv.Verdict.Action.IsVerdict()) {
			// Rejected (not a document) or set aside: no field of it was
			// read as a value, so it measures nothing the gate passed.
			return nil
		}
		docs = append(docs, AuditDocFromExport(exportRow(corpusID, rv, "")))
		return nil
	})
	if err != nil {
		return Audit{}, fmt.Errorf("read audit: %w", err)
	}
	return Audit{Draws: draws, Sample: len(ids), Audited: len(docs),
		Report: EstimateAudit(docs, draws[0].Budget, draws[0].Confidence)}, nil
}

// groupField is the field whose settled value groups a corpus's exported
// rows for calibration: the schema's issuer (an invoice's vendor), so no
// vendor's documents are both fitted on and scored.
func groupField(schema string) string {
	if s, ok := pipeline.BuiltinSchema(schema); ok {
		for _, f := range s.Fields {
			if f.Party == pipeline.PartyIssuer {
				return f.Name
			}
		}
	}
	return "vendor_name"
}

// groupKey normalises a settled vendor so case and spacing do not split
// one vendor into two groups.
func groupKey(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
