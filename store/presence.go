package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/bbolt"
)

// Presence says which document a reviewer has open, so a second reviewer on
// the same store sees "open by NAME" and does not review it twice. A
// workstation writes it when the open document changes and again every
// PresenceHeartbeat; an entry older than PresenceStale is a session that
// ended without clearing it (a kill -9) and is not reported.
type Presence struct {
	Reviewer string    `json:"reviewer"`
	DocID    string    `json:"doc_id"`
	At       time.Time `json:"at"`
}

const (
	PresenceHeartbeat = 10 * time.Second
	PresenceStale     = 30 * time.Second
)

// bktPresence is corpusID\x00reviewer -> Presence JSON: one entry per
// reviewer, so reading a corpus's presence costs the reviewers, not the
// documents. Made by the first write, so older files need no migration.
var bktPresence = []byte("presence")

// SetPresence records that reviewer has docID open in the corpus, at at;
// docID "" clears the reviewer's entry (the document was left, or the
// workstation quit). It does not touch the change log: presence is not a
// change of any queue row.
func (s *Store) SetPresence(ctx context.Context, corpusID, reviewer, docID string, at time.Time) error {
	if reviewer == "" {
		return fmt.Errorf("presence: no reviewer")
	}
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktPresence)
		if err != nil {
			return err
		}
		k := docKey(corpusID, reviewer)
		if docID == "" {
			return b.Delete(k)
		}
		return putJSON(b, k, Presence{Reviewer: reviewer, DocID: docID, At: at.UTC()})
	})
	if err != nil {
		return fmt.Errorf("presence of %q in %q: %w", reviewer, corpusID, err)
	}
	return nil
}

// PresenceIn lists who has which document of the corpus open, by reviewer
// name, leaving out entries older than PresenceStale at now.
func (s *Store) PresenceIn(ctx context.Context, corpusID string, now time.Time) ([]Presence, error) {
	var out []Presence
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		out, err = presenceIn(tx, corpusID, now)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("presence in %q: %w", corpusID, err)
	}
	return out, nil
}

func presenceIn(tx *bbolt.Tx, corpusID string, now time.Time) ([]Presence, error) {
	var out []Presence
	b := tx.Bucket(bktPresence)
	if b == nil {
		return nil, nil
	}
	err := scanPrefix(b, prefix(corpusID), func(k, v []byte) error {
		var p Presence
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("decode presence %q: %w", k, err)
		}
		if now.Sub(p.At) <= PresenceStale {
			out = append(out, p)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Reviewer < out[j].Reviewer })
	return out, err
}
