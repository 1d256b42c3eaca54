package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// An audit is a random sample of the documents the gate auto-accepted,
// reviewed like any other so the silent-wrong rate of what passed can be
// measured. Its draws are recorded, not recomputed: the sample a reviewer
// worked through must stay the same sample when the corpus grows, another
// workstation opens it, or `reflect stats` reads the estimate. Like the
// change log, the bucket is made by the first draw, so older files need no
// migration.
var bktAuditDraws = []byte("auditdraws") // corpusID\x00draw number (8 bytes BE) -> AuditDraw JSON

// AuditDraw is one recorded draw of a corpus's audit sample: the first is
// drawn when the audit is first opened, later ones when a reviewer asks for
// more.
type AuditDraw struct {
	// N numbers the corpus's draws from 1.
	N    int    `json:"n"`
	Seed uint64 `json:"seed"`
	// Budget and Confidence sized the draw: the gate profile's silent-wrong
	// budget and the confidence its bound is stated at.
	Budget     float64 `json:"budget"`
	Confidence float64 `json:"confidence"`
	// Profile is the gate profile the documents were gated under ("" for
	// the hand-set thresholds).
	Profile string `json:"profile,omitempty"`
	// Eligible is how many documents the draw was taken from: auto-accepted,
	// not reviewed, not drawn before.
	Eligible int       `json:"eligible"`
	IDs      []string  `json:"ids"`
	Reviewer string    `json:"reviewer"`
	At       time.Time `json:"at"`
}

// AuditPick chooses a draw's documents from the eligible ids (in corpus
// order); it runs inside the write transaction, so it must not touch the
// store.
type AuditPick func(eligible []string) []string

// DrawAudit records a draw of the corpus's audit sample. With more false it
// draws only when the corpus has no draw yet and otherwise returns the
// first one, drawn false: the sample is drawn once per corpus, whichever
// process or handle asks first. With more true it always adds a draw, from
// documents no earlier draw took. d carries the seed, budget, confidence,
// profile and reviewer; N, Eligible, IDs and At are filled in here.
//
// Eligible documents are auto-accepted (status ok) extractions nobody has
// reviewed yet: an audit counts what a reviewer read after the draw, never
// what was settled before it (a bulk accept confirms without reading).
func (s *Store) DrawAudit(ctx context.Context, corpusID string, d AuditDraw, pick AuditPick, more bool) (AuditDraw, bool, error) {
	if pick == nil {
		return AuditDraw{}, false, errors.New("draw audit: no pick")
	}
	drawn := false
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		if _, err := getCorpus(tx, corpusID); err != nil {
			return err
		}
		prev, err := auditDraws(tx, corpusID)
		if err != nil {
			return err
		}
		if len(prev) > 0 && !more {
			d = prev[0]
			return nil
		}
		taken := map[string]bool{}
		for _, p := range prev {
			for _, id := range p.IDs {
				taken[id] = true
			}
		}
		sums, err := bucket(tx, bktSummaries)
		if err != nil {
			return err
		}
		var eligible []string
		err = scanPrefix(sums, prefix(corpusID), func(k, v []byte) error {
			r, err := decodeSummary(v)
			if err != nil {
				return fmt.Errorf("summary %x: %w", k, err)
			}
			if r.Kind == KindExtraction && r.Status == pipeline.StatusOK && !r.Reviewed && !taken[r.DocID] {
				eligible = append(eligible, r.DocID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		d.N, d.Eligible, d.IDs, d.At = len(prev)+1, len(eligible), pick(eligible), time.Now().UTC()
		if d.IDs == nil {
			d.IDs = []string{}
		}
		b, err := tx.CreateBucketIfNotExists(bktAuditDraws)
		if err != nil {
			return fmt.Errorf("audit draws: %w", err)
		}
		drawn = true
		return putJSON(b, append(prefix(corpusID), u64(uint64(d.N))...), d)
	})
	if err != nil {
		return AuditDraw{}, false, fmt.Errorf("draw audit of %q: %w", corpusID, err)
	}
	return d, drawn, nil
}

// AuditDraws returns the corpus's audit draws, first first; none when the
// audit was never opened.
func (s *Store) AuditDraws(ctx context.Context, corpusID string) ([]AuditDraw, error) {
	var out []AuditDraw
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		out, err = auditDraws(tx, corpusID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("audit draws of %q: %w", corpusID, err)
	}
	return out, nil
}

func auditDraws(tx *bbolt.Tx, corpusID string) ([]AuditDraw, error) {
	b := tx.Bucket(bktAuditDraws)
	if b == nil {
		return nil, nil
	}
	var out []AuditDraw
	err := scanPrefix(b, prefix(corpusID), func(k, v []byte) error {
		var d AuditDraw
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("decode audit draw %x: %w", k, err)
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// AuditSampleIDs is every document the draws took, as a set.
func AuditSampleIDs(draws []AuditDraw) map[string]bool {
	out := map[string]bool{}
	for _, d := range draws {
		for _, id := range d.IDs {
			out[id] = true
		}
	}
	return out
}
