package store

import (
	"context"
	"fmt"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// Alarms is how the gate's flags fared with reviewers: of the fields flagged
// on reviewed documents, how many the reviewer corrected (caught) and how
// many they accepted as they were (false alarms, the cost of the gate).
type Alarms struct {
	Flagged     int `json:"flagged_reviewed"`
	FalseAlarms int `json:"false_alarms"`
}

// Alarms totals the reviewed documents' flags of a corpus, or of every corpus
// when corpusID is "". A reviewed document has every flagged field decided,
// so each flag is either a caught wrong value or a false alarm.
func (s *Store) Alarms(ctx context.Context, corpusID string) (Alarms, error) {
	var a Alarms
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktSummaries)
		if err != nil {
			return err
		}
		add := func(k, v []byte) error {
			r, err := decodeSummary(v)
			if err != nil {
				return fmt.Errorf("summary %x: %w", k, err)
			}
			if r.Reviewed && r.Status != pipeline.StatusError && r.Verdict != ActionReject {
				a.Flagged += r.Flagged
				a.FalseAlarms += max(0, r.Flagged-r.Caught)
			}
			return nil
		}
		if corpusID == "" {
			return b.ForEach(add)
		}
		return scanPrefix(b, prefix(corpusID), add)
	})
	if err != nil {
		return Alarms{}, fmt.Errorf("alarms of %q: %w", corpusID, err)
	}
	return a, nil
}

// Rate is FalseAlarms over Flagged, and false while no flagged field has
// been reviewed: a rate with nothing under it is not a number.
func (a Alarms) Rate() (float64, bool) {
	if a.Flagged == 0 {
		return 0, false
	}
	return float64(a.FalseAlarms) / float64(a.Flagged), true
}

// Text is the false alarms as reflect stats and the review workstation both
// print them.
func (a Alarms) Text() string {
	r, ok := a.Rate()
	if !ok {
		return "n/a (no flagged field reviewed yet)"
	}
	return fmt.Sprintf("%d of %d flags (%.1f%%) accepted as they were", a.FalseAlarms, a.Flagged, 100*r)
}
