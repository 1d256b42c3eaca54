package store

import (
	"context"
	"fmt"
	"strings"

	"go.etcd.io/bbolt"
)

// VerdictField is the pseudo-field a document-level verdict is decided on. A
// verdict is a Decision like any other (one history step, one audit entry,
// undone by UndoAction, redone by deciding it again), so it needs no second
// undo or audit mechanism; decisionsOf leaves it out, so no field-level
// reader (settle, export, review_status, stats) ever mistakes it for a field.
// A schema field cannot be named this: field names are identifiers.
const VerdictField = "(document)"

// Document-level actions, decided on VerdictField only. The decision's Value
// is the reviewer's note (a string, possibly empty for a reject).
const (
	// ActionReject: the item is not a document of the corpus's kind (a blank
	// page, a photo of a cat). It counts as reviewed, the export leaves it
	// out and says so, and review_status answers "rejected".
	ActionReject Action = "reject"
	// ActionSkip: the reviewer set the document aside with a note saying
	// why (an unreadable scan to ask about). It stays unreviewed, so it is
	// neither exported nor counted as settled, and its note is shown.
	ActionSkip Action = "skip"
)

// IsVerdict reports whether a is a document-level action.
func (a Action) IsVerdict() bool { return a == ActionReject || a == ActionSkip }

// Verdict is the document's standing document-level decision: Action is
// ActionReject or ActionSkip, Note the reviewer's words.
type Verdict struct {
	Action   Action
	Note     string
	Reviewer string
	Decision Decision
}

// VerdictDecision builds the decision that records a verdict; Decide writes
// it. A skip without a note is refused there: a skipped document must say
// why to whoever opens it next.
func VerdictDecision(corpusID, docID, reviewer string, a Action, note string) Decision {
	return Decision{CorpusID: corpusID, DocID: docID, Field: VerdictField, Action: a,
		Value: strings.TrimSpace(note), Reviewer: reviewer}
}

func validateVerdict(d Decision) error {
	if !d.Action.IsVerdict() {
		return fmt.Errorf("decision on %s: action %q is not reject or skip", d.DocID, d.Action)
	}
	note, ok := d.Value.(string)
	if d.Value != nil && !ok {
		return fmt.Errorf("verdict on %s: the note must be text, not %T", d.DocID, d.Value)
	}
	if d.Action == ActionSkip && strings.TrimSpace(note) == "" {
		return fmt.Errorf("skip of %s: a skip needs a note saying why", d.DocID)
	}
	return nil
}

// Verdict returns the document's standing verdict; ok is false when it has
// none (never given, or undone).
func (s *Store) Verdict(ctx context.Context, corpusID, docID string) (v Verdict, ok bool, err error) {
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		v, ok, err = verdictOf(tx, corpusID, docID)
		return err
	})
	if err != nil {
		return Verdict{}, false, fmt.Errorf("verdict on %q/%q: %w", corpusID, docID, err)
	}
	return v, ok, nil
}

func verdictOf(tx *bbolt.Tx, corpusID, docID string) (Verdict, bool, error) {
	b, err := bucket(tx, bktDecisions)
	if err != nil {
		return Verdict{}, false, err
	}
	d, err := getDecision(b, subKey(corpusID, docID, VerdictField))
	if err != nil || d == nil {
		return Verdict{}, false, err
	}
	note, _ := d.Value.(string)
	return Verdict{Action: d.Action, Note: note, Reviewer: d.Reviewer, Decision: *d}, true, nil
}

// verdictCode is a verdict's byte in a queue row.
func verdictCode(a Action) byte {
	switch a {
	case ActionReject:
		return 1
	case ActionSkip:
		return 2
	}
	return 0
}

func verdictOfCode(c byte) Action {
	switch c {
	case 1:
		return ActionReject
	case 2:
		return ActionSkip
	}
	return ""
}
