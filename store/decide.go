package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// step is one Decide as Undo sees it: the decision made and whether it has
// been undone. What a field goes back to is derived from the steps before it,
// so an undone decision can never come back.
type step struct {
	Decision Decision `json:"decision"`
	Undone   bool     `json:"undone,omitempty"`
	// Group is the history key's sequence number of the first step one
	// Decide call wrote: one reviewer action ("accept all") is one group, and
	// UndoAction takes the whole group back. Zero (steps written before
	// groups) is a group of one.
	Group uint64 `json:"group,omitempty"`
}

// Decide records reviewer decisions, their audit entries and the affected
// queue rows in one transaction, and returns those rows, one per document in
// the order first decided. bbolt fsyncs on commit, so when Decide returns
// without error the decisions survive a crash; a UI shows "saved" only then.
//
// The store fills Original from the latest result, Value from Original for
// accept and nil for set_null, and At with the current time when zero. It
// never invents the reviewer: a decision without one is rejected.
func (s *Store) Decide(ctx context.Context, ds ...Decision) ([]Summary, error) {
	return s.decideAll(ctx, nil, ds)
}

// Redo decides ds again, as Decide does, unless another reviewer has decided
// one of their fields since the reviewer undid it: then it writes nothing
// and returns a *DecidedSinceError naming who. Redoing over a newer decision
// would overwrite it with an action made before it (new-user report #9).
func (s *Store) Redo(ctx context.Context, ds ...Decision) ([]Summary, error) {
	return s.decideAll(ctx, decidedSinceUndo, ds)
}

func (s *Store) decideAll(ctx context.Context, check func(*bbolt.Tx, Decision) error, ds []Decision) ([]Summary, error) {
	if len(ds) == 0 {
		return nil, nil
	}
	for _, d := range ds {
		if err := validateDecision(d); err != nil {
			return nil, fmt.Errorf("decide: %w", err)
		}
	}
	var rows []Summary
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		type ref struct{ corpus, doc string }
		touched := map[ref]bool{}
		var order []ref
		var group uint64
		for _, d := range ds {
			if check != nil {
				if err := check(tx, d); err != nil {
					return err
				}
			}
			if err := decide(tx, d, &group); err != nil {
				return err
			}
			r := ref{d.CorpusID, d.DocID}
			if !touched[r] {
				touched[r] = true
				order = append(order, r)
			}
		}
		rows = make([]Summary, 0, len(order))
		for _, r := range order {
			row, err := refreshSummary(tx, r.corpus, r.doc, nil)
			if err != nil {
				return err
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("decide: %w", err)
	}
	return rows, nil
}

// DecidedSinceError is an undo or redo refused because another reviewer has
// decided the field since: their decision stands and nothing was written.
type DecidedSinceError struct {
	DocID, Field string
	By           Decision // the newer decision
}

func (e *DecidedSinceError) Error() string {
	what := fmt.Sprintf("%s %s", e.By.Action, pipeline.FormatValue(e.By.Value))
	if e.Field == VerdictField {
		what = string(e.By.Action) + " the document"
	}
	return fmt.Sprintf("%s decided %s on %s since (%s): their decision stands, nothing was changed",
		e.By.Reviewer, e.Field, e.DocID, what)
}

// decidedSinceUndo refuses d when a step on its field by another reviewer
// stands that is newer than d's reviewer's latest undone step on it.
func decidedSinceUndo(tx *bbolt.Tx, d Decision) error {
	history, err := bucket(tx, bktHistory)
	if err != nil {
		return err
	}
	var newer *Decision
	err = scanPrefixReverse(history, prefix(d.CorpusID), nil, func(_, v []byte) (bool, error) {
		var st step
		if err := json.Unmarshal(v, &st); err != nil {
			return false, fmt.Errorf("decode history: %w", err)
		}
		o := st.Decision
		if o.DocID != d.DocID || o.Field != d.Field {
			return true, nil
		}
		if o.Reviewer == d.Reviewer {
			return !st.Undone, nil // reached the undone step: stop
		}
		if !st.Undone && newer == nil {
			newer = &o
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	if newer != nil {
		return &DecidedSinceError{DocID: d.DocID, Field: d.Field, By: *newer}
	}
	return nil
}

func validateDecision(d Decision) error {
	if err := checkID("corpus id", d.CorpusID); err != nil {
		return err
	}
	if err := checkID("document id", d.DocID); err != nil {
		return err
	}
	if err := checkID("field", d.Field); err != nil {
		return err
	}
	if d.Field == VerdictField || d.Action.IsVerdict() {
		if d.Field != VerdictField {
			return fmt.Errorf("decision on %s/%s: %s is a decision on the whole document", d.DocID, d.Field, d.Action)
		}
		if d.Reviewer == "" {
			return fmt.Errorf("verdict on %s: no reviewer", d.DocID)
		}
		return validateVerdict(d)
	}
	if d.Reviewer == "" {
		return fmt.Errorf("decision on %s/%s: no reviewer", d.DocID, d.Field)
	}
	switch d.Action {
	case ActionAccept, ActionCorrect, ActionSetNull:
		return nil
	default:
		return fmt.Errorf("decision on %s/%s: action %q is not accept, correct or set_null", d.DocID, d.Field, d.Action)
	}
}

// decide writes one decision; *group is the action's group, set by the first
// decision of the action that writes a step.
func decide(tx *bbolt.Tx, d Decision, group *uint64) error {
	bs, err := buckets(tx, bktDocIndex, bktDecisions, bktHistory)
	if err != nil {
		return err
	}
	if bs[0].Get(docKey(d.CorpusID, d.DocID)) == nil {
		return fmt.Errorf("document %q in corpus %q: %w", d.DocID, d.CorpusID, ErrNotFound)
	}
	res, err := latestResult(tx, d.CorpusID, d.DocID)
	if err != nil {
		return err
	}
	if d.Field == VerdictField {
		// A verdict stands whatever the pipeline said (an error page can
		// be rejected too); it has no pipeline value.
		d.Original = nil
	} else if res != nil && len(res.Data) > 0 {
		v, ok := res.Data[d.Field]
		if !ok {
			return fmt.Errorf("field %q is not in the result of %q", d.Field, d.DocID)
		}
		if d.Action == ActionAccept && !res.Given(d.Field) {
			// validate's caller left the field out: its null is no
			// claim to accept (new-user report #5); a typed value or
			// an explicit set-null still settles it.
			return fmt.Errorf("field %q of %q was not given by the caller: nothing to accept; correct it or set it null", d.Field, d.DocID)
		}
		d.Original = v
		d.Flagged = res.Flagged(d.Field)
		if lb, err := bucket(tx, bktLatest); err == nil {
			d.Version = string(lb.Get(docKey(d.CorpusID, d.DocID)))
		}
	}
	switch d.Action {
	case ActionAccept:
		d.Value = d.Original
	case ActionSetNull:
		d.Value = nil
	}
	if d.At.IsZero() {
		d.At = time.Now().UTC()
	}
	key := subKey(d.CorpusID, d.DocID, d.Field)
	prev, err := getDecision(bs[1], key)
	if err != nil {
		return err
	}
	if prev != nil && prev.Action == d.Action && prev.Reviewer == d.Reviewer && SameValue(prev.Value, d.Value) {
		// Pressing accept twice settles nothing new; recording it again
		// would make one undo seem to do nothing.
		return nil
	}
	if err := putJSON(bs[1], key, d); err != nil {
		return err
	}
	before := d.Original
	if prev != nil {
		before = prev.Value
	}
	seq, err := appendAudit(tx, AuditEntry{At: d.At, Who: d.Reviewer, CorpusID: d.CorpusID, DocID: d.DocID,
		Field: d.Field, Action: d.Action, Before: before, After: d.Value})
	if err != nil {
		return err
	}
	if *group == 0 {
		*group = seq
	}
	return putJSON(bs[2], append(prefix(d.CorpusID), u64(seq)...), step{Decision: d, Group: *group})
}

// Undone is what one Undo took back.
type Undone struct {
	// Found is false when the reviewer had nothing left to undo; the other
	// fields are then zero.
	Found    bool
	Decision Decision // the decision taken back
	Row      Summary  // its document's queue row after the undo
}

// Undo reverts the reviewer's most recent not-yet-undone decision in the
// corpus: the field goes back to the latest earlier decision on it that still
// stands, or to undecided. If someone has decided that field again since,
// their decision stands and only the step is marked undone. Repeated calls
// walk further back. UndoAction takes back a whole action in one document.
func (s *Store) Undo(ctx context.Context, corpusID, reviewer string) (Undone, error) {
	var out Undone
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktHistory, bktDecisions)
		if err != nil {
			return err
		}
		key, st, err := lastStep(bs[0], corpusID, nil, func(st step) bool { return st.Decision.Reviewer == reviewer })
		if err != nil || key == nil {
			return err
		}
		if err := undoStep(tx, bs[0], bs[1], corpusID, reviewer, key, st); err != nil {
			return err
		}
		row, err := refreshSummary(tx, st.Decision.CorpusID, st.Decision.DocID, nil)
		if err != nil {
			return err
		}
		out = Undone{Found: true, Decision: st.Decision, Row: row}
		return nil
	})
	if err != nil {
		return Undone{}, fmt.Errorf("undo in %q: %w", corpusID, err)
	}
	return out, nil
}

// undoStep marks one step undone and puts its field back, with its audit
// entry; see Undo.
func undoStep(tx *bbolt.Tx, history, decisions *bbolt.Bucket, corpusID, reviewer string, key []byte, st step) error {
	st.Undone = true
	if err := putJSON(history, key, st); err != nil {
		return err
	}
	d := st.Decision
	dkey := subKey(d.CorpusID, d.DocID, d.Field)
	cur, err := getDecision(decisions, dkey)
	if err != nil {
		return err
	}
	after := d.Original
	switch {
	case cur != nil && !sameDecision(*cur, d) && cur.Reviewer != reviewer:
		// Another reviewer decided the field since: undoing would report
		// success and change nothing, and a redo would then overwrite
		// their newer decision (new-user report #9). The transaction is
		// rolled back, so nothing is written.
		return &DecidedSinceError{DocID: d.DocID, Field: d.Field, By: *cur}
	case cur != nil && !sameDecision(*cur, d):
		after = cur.Value
	case cur != nil:
		sameField := func(o step) bool { return o.Decision.DocID == d.DocID && o.Decision.Field == d.Field }
		pkey, prev, err := lastStep(history, corpusID, key, sameField)
		if err != nil {
			return err
		}
		if pkey != nil {
			after = prev.Decision.Value
			err = putJSON(decisions, dkey, prev.Decision)
		} else {
			err = decisions.Delete(dkey)
		}
		if err != nil {
			return err
		}
	}
	_, err = appendAudit(tx, AuditEntry{At: time.Now().UTC(), Who: reviewer, CorpusID: d.CorpusID,
		DocID: d.DocID, Field: d.Field, Action: ActionUndo, Before: d.Value, After: after})
	return err
}

// lastStep finds the corpus's latest not-undone step before key (nil: the
// end) that match accepts; a nil key means there is none.
func lastStep(history *bbolt.Bucket, corpusID string, before []byte, match func(step) bool) ([]byte, step, error) {
	var key []byte
	var found step
	err := scanPrefixReverse(history, prefix(corpusID), before, func(k, v []byte) (bool, error) {
		var st step
		if err := json.Unmarshal(v, &st); err != nil {
			return false, fmt.Errorf("decode history: %w", err)
		}
		if st.Undone || !match(st) {
			return true, nil
		}
		key, found = append([]byte(nil), k...), st
		return false, nil
	})
	return key, found, err
}

func sameDecision(a, b Decision) bool {
	return a.Reviewer == b.Reviewer && a.Action == b.Action && a.At.Equal(b.At) && SameValue(a.Value, b.Value)
}

func getDecision(b *bbolt.Bucket, key []byte) (*Decision, error) {
	raw := b.Get(key)
	if raw == nil {
		return nil, nil
	}
	var d Decision
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("decode decision: %w", err)
	}
	return &d, nil
}

func putJSON(b *bbolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	return b.Put(key, raw)
}

// appendAudit adds an entry under the bucket's next sequence number.
func appendAudit(tx *bbolt.Tx, e AuditEntry) (uint64, error) {
	b, err := bucket(tx, bktAudit)
	if err != nil {
		return 0, err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("audit sequence: %w", err)
	}
	e.Seq = seq
	return seq, putJSON(b, u64(seq), e)
}

// Decisions returns the current decision for each decided field.
func (s *Store) Decisions(ctx context.Context, corpusID, docID string) (map[string]Decision, error) {
	var out map[string]Decision
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		out, err = decisionsOf(tx, corpusID, docID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("decisions for %q/%q: %w", corpusID, docID, err)
	}
	return out, nil
}

func decisionsOf(tx *bbolt.Tx, corpusID, docID string) (map[string]Decision, error) {
	b, err := bucket(tx, bktDecisions)
	if err != nil {
		return nil, err
	}
	out := map[string]Decision{}
	err = scanPrefix(b, append(docKey(corpusID, docID), 0), func(k, v []byte) error {
		var d Decision
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("decode decision %q: %w", k, err)
		}
		if d.Field == VerdictField {
			return nil // see verdictOf
		}
		out[d.Field] = d
		return nil
	})
	return out, err
}

// Audit returns the corpus's audit trail in the order it was written; ""
// returns every corpus's.
func (s *Store) Audit(ctx context.Context, corpusID string) ([]AuditEntry, error) {
	var out []AuditEntry
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktAudit)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error {
			var e AuditEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("decode audit entry %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if corpusID == "" || e.CorpusID == corpusID {
				out = append(out, e)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("audit of %q: %w", corpusID, err)
	}
	return out, nil
}

// Settled returns the latest result's data with the reviewer's decisions
// applied, and whether the document counts as reviewed: its values settled
// by a human. A document rejected as not a document is not (none of its
// values is confirmed; see Verdict), though its queue row counts as decided.
func (s *Store) Settled(ctx context.Context, corpusID, docID string) (pipeline.Record, bool, error) {
	if docID == "" {
		// A queue entry still in the outbox (FindTrace): nobody has seen it.
		return pipeline.Record{}, false, nil
	}
	var rec pipeline.Record
	var reviewed bool
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		if _, err := getDocument(tx, corpusID, docID); err != nil {
			return err
		}
		res, err := latestResult(tx, corpusID, docID)
		if err != nil {
			return err
		}
		decs, err := decisionsOf(tx, corpusID, docID)
		if err != nil {
			return err
		}
		rec, reviewed = settle(res, decs), isReviewed(res, decs)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("settled %q/%q: %w", corpusID, docID, err)
	}
	return rec, reviewed, nil
}

func settle(res *pipeline.Result, decs map[string]Decision) pipeline.Record {
	rec := pipeline.Record{}
	if res != nil {
		rec = res.Data.Clone()
		// A field validate's caller left out is nobody's value: it is
		// in the record only once a reviewer settles it.
		for _, f := range res.NotGiven {
			delete(rec, f)
		}
	}
	for f, d := range decs {
		rec[f] = d.Value
	}
	return rec
}
