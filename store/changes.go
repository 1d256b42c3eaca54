package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/bbolt"
)

// The change log lets an open workstation ask "which queue rows changed since
// I last looked" once a second without reading the whole queue: every
// rewrite of a row (a new result, a decision, an undo, from any process)
// takes the next number of one sequence, and each document keeps only its
// latest number, so the log is one entry per document however often it
// changes. The buckets are made by the first write that needs them, so a
// file written before they existed needs no migration: no bucket, no changes.
var (
	bktChanges   = []byte("changes")   // corpusID\x00changeSeq -> docID
	bktChangeIdx = []byte("changeidx") // corpusID\x00docID -> changeSeq
)

// noteChange records that docID's row changed; it runs in the transaction
// that changed it.
func noteChange(tx *bbolt.Tx, corpusID, docID string) error {
	log, err := tx.CreateBucketIfNotExists(bktChanges)
	if err != nil {
		return fmt.Errorf("change log: %w", err)
	}
	idx, err := tx.CreateBucketIfNotExists(bktChangeIdx)
	if err != nil {
		return fmt.Errorf("change log: %w", err)
	}
	seq, err := log.NextSequence()
	if err != nil {
		return fmt.Errorf("change log: %w", err)
	}
	ik := docKey(corpusID, docID)
	if old := idx.Get(ik); old != nil {
		if err := log.Delete(append(prefix(corpusID), old...)); err != nil {
			return err
		}
	}
	if err := idx.Put(ik, u64(seq)); err != nil {
		return err
	}
	return log.Put(append(prefix(corpusID), u64(seq)...), []byte(docID))
}

// ChangeSeq is the latest change number in the store: read it before
// Summaries, then ask ChangedSince with it, and no change falls between.
func (s *Store) ChangeSeq(ctx context.Context) (uint64, error) {
	var seq uint64
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		if b := tx.Bucket(bktChanges); b != nil {
			seq = b.Sequence()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("change sequence: %w", err)
	}
	return seq, nil
}

// ChangedSince returns the corpus's queue rows that changed after change
// number since, in the order they changed, and the number to ask with next
// time. It reads only the changed rows.
func (s *Store) ChangedSince(ctx context.Context, corpusID string, since uint64) ([]Summary, uint64, error) {
	var rows []Summary
	next := since
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		rows, next, err = changedSince(ctx, tx, corpusID, since)
		return err
	})
	if err != nil {
		return nil, since, fmt.Errorf("changes in %q since %d: %w", corpusID, since, err)
	}
	return rows, next, nil
}

func changedSince(ctx context.Context, tx *bbolt.Tx, corpusID string, since uint64) ([]Summary, uint64, error) {
	var rows []Summary
	next, err := eachChange(ctx, tx, corpusID, since, func(index, sums *bbolt.Bucket, docID string) error {
		seq := index.Get(docKey(corpusID, docID))
		if seq == nil {
			return nil // removed since
		}
		raw := sums.Get(append(prefix(corpusID), seq...))
		if raw == nil {
			return nil
		}
		row, err := decodeSummary(raw)
		if err != nil {
			return fmt.Errorf("summary of %q: %w", docID, err)
		}
		rows = append(rows, row.Summary)
		return nil
	})
	return rows, next, err
}

// Polled is what one poll of an open workstation reads.
type Polled struct {
	// Rows and Next are ChangedSince's.
	Rows []Summary
	Next uint64
	// Presence is PresenceIn's.
	Presence []Presence
	// Decisions is the open document's decisions, read (DecisionsRead)
	// only when its row is among Rows: another reviewer decided on it.
	Decisions     map[string]Decision
	DecisionsRead bool
}

// Poll reads what ChangedSince, PresenceIn and, for openDoc when its row
// changed, Decisions would, in one transaction: the file is opened once
// per poll instead of three times, which matters at 100k documents where
// each open maps a file of hundreds of megabytes.
func (s *Store) Poll(ctx context.Context, corpusID string, since uint64, openDoc string, now time.Time) (Polled, error) {
	var p Polled
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		if p.Rows, p.Next, err = changedSince(ctx, tx, corpusID, since); err != nil {
			return err
		}
		if p.Presence, err = presenceIn(tx, corpusID, now); err != nil {
			return err
		}
		if openDoc == "" || !slices.ContainsFunc(p.Rows, func(r Summary) bool { return r.DocID == openDoc }) {
			return nil
		}
		p.Decisions, err = decisionsOf(tx, corpusID, openDoc)
		p.DecisionsRead = err == nil
		return err
	})
	if err != nil {
		return Polled{}, fmt.Errorf("poll of %q since %d: %w", corpusID, since, err)
	}
	return p, nil
}

// eachChange walks the change log of corpusID after change number since, in
// the order the rows changed, and calls fn with each changed document's id
// and the document index and summary buckets to read its row from. It
// returns the number to ask with next time (since when the store has no
// log yet). ChangedSince and UnsettledSince read the log this one way.
func eachChange(ctx context.Context, tx *bbolt.Tx, corpusID string, since uint64, fn func(index, sums *bbolt.Bucket, docID string) error) (uint64, error) {
	next := since
	log := tx.Bucket(bktChanges)
	if log == nil {
		return next, nil
	}
	next = max(next, log.Sequence())
	bs, err := buckets(tx, bktDocIndex, bktSummaries)
	if err != nil {
		return next, err
	}
	p := prefix(corpusID)
	c := log.Cursor()
	for k, v := c.Seek(append(append([]byte(nil), p...), u64(since+1)...)); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if err := ctx.Err(); err != nil {
			return next, err
		}
		if len(k) != len(p)+8 {
			continue
		}
		if err := fn(bs[0], bs[1], string(v)); err != nil {
			return next, err
		}
		next = max(next, binary.BigEndian.Uint64(k[len(p):]))
	}
	return next, nil
}
