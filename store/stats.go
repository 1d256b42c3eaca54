package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// Stats are review totals over one corpus or all of them.
//
// NeedsReview counts documents gated needs_review that are not reviewed yet
// (the pending queue), mirroring AutoAccepted (ok and not reviewed).
// CaughtWrong, SilentWrong and Missed count fields of reviewed documents
// whose settled value differs from the pipeline's: flagged; not flagged
// and a value (silent-wrong); not flagged and null (a missed value, a null
// a reviewer filled in, counted apart from silent-wrong as the audit does).
// CatchRate is CaughtWrong over all three, 1 when no reviewed field was
// wrong. Rows stored before Missed existed count such a null as
// silent-wrong until their document changes. Rejected documents (not a document) are
// counted apart from Reviewed and from every field count but Errors; Skipped
// ones (set aside with a note) still count where their status puts them.
type Stats struct {
	Documents       int     `json:"documents"`
	WithResult      int     `json:"with_result"`
	Reviewed        int     `json:"reviewed"`
	AutoAccepted    int     `json:"auto_accepted"`
	NeedsReview     int     `json:"needs_review"`
	Errors          int     `json:"errors"`
	DecidedFields   int     `json:"decided_fields"`
	CorrectedFields int     `json:"corrected_fields"`
	FlaggedFields   int     `json:"flagged_fields"`
	CaughtWrong     int     `json:"caught_wrong"`
	SilentWrong     int     `json:"silent_wrong"`
	Missed          int     `json:"missed_nulls"`
	CatchRate       float64 `json:"catch_rate"`
	Rejected        int     `json:"rejected"`
	Skipped         int     `json:"skipped"`
}

// Stats totals the queue rows of a corpus, or of every corpus when corpusID
// is "".
func (s *Store) Stats(ctx context.Context, corpusID string) (Stats, error) {
	var st Stats
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
			st.Documents++
			if r.Status != "" {
				st.WithResult++
			}
			if r.Verdict == ActionSkip && !r.Reviewed {
				st.Skipped++ // still set aside: reviewed later, it is reviewed
			}
			switch {
			case r.Verdict == ActionReject:
				st.Rejected++
				if r.Status == pipeline.StatusError {
					st.Errors++
				}
				return nil
			case r.Reviewed:
				st.Reviewed++
				// A failed run returned no value as if it were fine, so
				// what the reviewer typed in is neither caught nor silent
				// (eval counts error rows the same way).
				if r.Status != pipeline.StatusError {
					st.CaughtWrong += r.Caught
					st.SilentWrong += r.Silent
					st.Missed += r.Corrected - r.Caught - r.Silent
				}
			case r.Status == pipeline.StatusOK:
				st.AutoAccepted++
			case r.Status == pipeline.StatusNeedsReview:
				st.NeedsReview++
			}
			if r.Status == pipeline.StatusError {
				st.Errors++
			}
			st.DecidedFields += r.Decisions
			st.CorrectedFields += r.Corrected
			st.FlaggedFields += r.Flagged
			return nil
		}
		if corpusID == "" {
			return b.ForEach(add)
		}
		return scanPrefix(b, prefix(corpusID), add)
	})
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %q: %w", corpusID, err)
	}
	st.CatchRate = 1
	if n := st.CaughtWrong + st.SilentWrong + st.Missed; n > 0 {
		st.CatchRate = float64(st.CaughtWrong) / float64(n)
	}
	return st, nil
}

// Wrong is how many values reviewers found wrong on reviewed documents:
// everything the gate could have caught.
func (s Stats) Wrong() int { return s.CaughtWrong + s.SilentWrong + s.Missed }

// CatchText is the catch rate as reflect stats and the review workstation
// both print it. With no wrong value found by a reviewer yet there is
// nothing the gate could have caught: a rate would claim a success that was
// never tested, so it says n/a.
func (s Stats) CatchText() string {
	n := s.Wrong()
	if n == 0 {
		return "n/a (no reviewer has corrected a value yet)"
	}
	return fmt.Sprintf("%.1f%% (%d of %d corrected values flagged)", s.CatchRate*100, s.CaughtWrong, n)
}

// Review is everything known about one reviewed document, as Export needs it.
type Review struct {
	Document  Document
	Result    pipeline.Result // zero when HasResult is false
	HasResult bool
	Decisions map[string]Decision
	Settled   pipeline.Record
	// Verdict is the document-level decision standing on it; a rejected
	// document is reviewed (decided) but not golden data.
	Verdict    Verdict
	HasVerdict bool
}

// Reviewed returns the corpus's reviewed documents in Seq order, read in one
// transaction so an export is a consistent snapshot.
func (s *Store) Reviewed(ctx context.Context, corpusID string) ([]Review, error) {
	var out []Review
	err := s.EachReviewed(ctx, corpusID, func(rv Review) error {
		out = append(out, rv)
		return nil
	})
	return out, err
}

// EachReviewed is Reviewed one document at a time, in one read transaction
// (a consistent snapshot) without holding every text (issue 11: export at
// 1M documents held 3.8 GB). fn must not write to the store.
func (s *Store) EachReviewed(ctx context.Context, corpusID string, fn func(Review) error) error {
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktSummaries, bktDocs)
		if err != nil {
			return err
		}
		return scanPrefix(bs[0], prefix(corpusID), func(k, v []byte) error {
			return eachReviewed(tx, bs[1], corpusID, k, v, fn)
		})
	})
	if err != nil {
		return fmt.Errorf("reviewed documents of %q: %w", corpusID, err)
	}
	return nil
}

// EachReviewedOf is EachReviewed over the documents ids only (an audit
// sample), so reading a sample costs the sample, not the corpus; ids not in
// the corpus, or not reviewed, are passed over.
func (s *Store) EachReviewedOf(ctx context.Context, corpusID string, ids []string, fn func(Review) error) error {
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktSummaries, bktDocs, bktDocIndex)
		if err != nil {
			return err
		}
		for _, id := range ids {
			seq := bs[2].Get(docKey(corpusID, id))
			if len(seq) != 8 {
				continue
			}
			k := append(prefix(corpusID), seq...)
			if err := eachReviewed(tx, bs[1], corpusID, k, bs[0].Get(k), fn); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reviewed documents of %q: %w", corpusID, err)
	}
	return nil
}

// eachReviewed calls fn with the review of the summary row k, v when the
// document is reviewed.
func eachReviewed(tx *bbolt.Tx, docs *bbolt.Bucket, corpusID string, k, v []byte, fn func(Review) error) error {
	if v == nil {
		return nil
	}
	r, err := decodeSummary(v)
	if err != nil {
		return fmt.Errorf("summary %x: %w", k, err)
	}
	if !r.Reviewed {
		return nil
	}
	var rv Review
	if err := json.Unmarshal(docs.Get(k), &rv.Document); err != nil {
		return fmt.Errorf("decode document %q: %w", r.DocID, err)
	}
	res, err := latestResult(tx, corpusID, r.DocID)
	if err != nil {
		return err
	}
	if res != nil {
		rv.Result, rv.HasResult = *res, true
	}
	if rv.Decisions, err = decisionsOf(tx, corpusID, r.DocID); err != nil {
		return err
	}
	if rv.Verdict, rv.HasVerdict, err = verdictOf(tx, corpusID, r.DocID); err != nil {
		return err
	}
	rv.Settled = settle(res, rv.Decisions)
	return fn(rv)
}
