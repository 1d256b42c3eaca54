package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// Unsettled is a needs_review result no human has settled yet: the values
// it flagged must not flow into an agent's actions (the gateway's guard).
type Unsettled struct {
	DocID   string // "" while the result waits in the outbox
	TraceID string
	Flagged []pipeline.FlaggedField
}

// UnsettledSince reads the rows of corpusID that changed after change
// number since (all of them for 0), in one read transaction: open holds the
// extractions that need review and are not reviewed, with their flagged
// fields; closed the ids of the other changed rows (settled since, or
// never flagged), which a cache drops. next is the number to ask with next.
func (s *Store) UnsettledSince(ctx context.Context, corpusID string, since uint64) (open []Unsettled, closed []string, next uint64, err error) {
	next = since
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		next, err = eachChange(ctx, tx, corpusID, since, func(index, sums *bbolt.Bucket, docID string) error {
			u, isOpen, err := unsettledDoc(tx, index, sums, corpusID, docID)
			if err != nil {
				return err
			}
			if isOpen {
				open = append(open, u)
			} else {
				closed = append(closed, docID)
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil, nil, since, fmt.Errorf("unsettled results in %q since %d: %w", corpusID, since, err)
	}
	return open, closed, next, nil
}

func unsettledDoc(tx *bbolt.Tx, index, sums *bbolt.Bucket, corpusID, docID string) (Unsettled, bool, error) {
	seq := index.Get(docKey(corpusID, docID))
	if seq == nil {
		return Unsettled{}, false, nil
	}
	raw := sums.Get(append(prefix(corpusID), seq...))
	if raw == nil {
		return Unsettled{}, false, nil
	}
	row, err := decodeSummary(raw)
	if err != nil {
		return Unsettled{}, false, fmt.Errorf("summary of %q: %w", docID, err)
	}
	// A rejected document is decided but none of its values is settled:
	// they stay guarded.
	if row.Kind != KindExtraction || row.Status != pipeline.StatusNeedsReview || row.Reviewed && row.Verdict != ActionReject {
		return Unsettled{}, false, nil
	}
	res, err := latestResult(tx, corpusID, docID)
	if err != nil || res == nil {
		return Unsettled{}, false, err
	}
	return Unsettled{DocID: docID, TraceID: res.TraceID, Flagged: res.FlaggedFields}, true, nil
}

// OutboxUnsettled returns the needs_review results queued to queue that
// still wait in the outbox (another process held the store when they were
// made): nobody can have settled them yet.
func (s *Store) OutboxUnsettled(queue string) ([]Unsettled, error) {
	lines, err := readOutboxes(s.path)
	if err != nil {
		return nil, err
	}
	var out []Unsettled
	seen := map[string]bool{}
	for _, line := range lines {
		var e outboxEntry
		if json.Unmarshal(line, &e) != nil || e.Op != "enqueue" || e.Queue != queue {
			continue
		}
		r, err := decodeResult(e.Result)
		if err != nil || r.Status != pipeline.StatusNeedsReview || (r.TraceID != "" && seen[r.TraceID]) {
			continue // seen: read in the outbox and again in a drain's file
		}
		seen[r.TraceID] = true
		out = append(out, Unsettled{TraceID: r.TraceID, Flagged: r.FlaggedFields})
	}
	return out, nil
}
