package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// UndoneAction is what one UndoAction took back.
type UndoneAction struct {
	// Found is false when the reviewer has nothing left to undo in the
	// document; the other fields are then zero.
	Found bool
	// Decisions are the action's decisions, in the order they were made:
	// Decide them again to redo the action.
	Decisions []Decision
	Row       Summary // the document's queue row after the undo
}

// UndoAction takes back the reviewer's most recent action in one document:
// every decision one Decide call made there ("accept all" is one action), each
// as Undo takes back one. Another reviewer's decisions and other documents
// are never touched.
func (s *Store) UndoAction(ctx context.Context, corpusID, docID, reviewer string) (UndoneAction, error) {
	var out UndoneAction
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktHistory, bktDecisions)
		if err != nil {
			return err
		}
		history, decisions := bs[0], bs[1]
		mine := func(st step) bool { return st.Decision.Reviewer == reviewer && st.Decision.DocID == docID }
		key, last, err := lastStep(history, corpusID, nil, mine)
		if err != nil || key == nil {
			return err
		}
		type kst struct {
			key []byte
			st  step
		}
		group := []kst{{key, last}}
		if last.Group != 0 {
			p := prefix(corpusID)
			err := scanPrefixReverse(history, p, key, func(k, v []byte) (bool, error) {
				if binary.BigEndian.Uint64(k[len(p):]) < last.Group {
					return false, nil
				}
				var st step
				if err := json.Unmarshal(v, &st); err != nil {
					return false, fmt.Errorf("decode history: %w", err)
				}
				if st.Group == last.Group && !st.Undone {
					group = append(group, kst{append([]byte(nil), k...), st})
				}
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		// group runs newest first, so each field goes back past the later
		// steps before the earlier ones.
		for _, g := range group {
			if err := undoStep(tx, history, decisions, corpusID, reviewer, g.key, g.st); err != nil {
				return err
			}
		}
		for i := len(group) - 1; i >= 0; i-- {
			out.Decisions = append(out.Decisions, group[i].st.Decision)
		}
		row, err := refreshSummary(tx, corpusID, docID, nil)
		if err != nil {
			return err
		}
		out.Found, out.Row = true, row
		return nil
	})
	if err != nil {
		return UndoneAction{}, fmt.Errorf("undo in %q/%q: %w", corpusID, docID, err)
	}
	return out, nil
}
