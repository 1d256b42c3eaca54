package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
)

// ToolCall is a call the gateway held, as the review item shows it. It is
// the Text of its Document (Kind tool_call), as JSON, so one read gives the
// page everything; the document's ID is the hold id.
type ToolCall struct {
	HoldID     string          `json:"hold_id"`
	DecisionID string          `json:"decision_id,omitempty"`
	Client     string          `json:"client"`
	SessionID  string          `json:"session_id,omitempty"`
	Upstream   string          `json:"upstream"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	// Class is the classification's verb and Source where it came from
	// (a mapping, an annotation, the default heuristic, a changed pin).
	Class  string `json:"class"`
	Source string `json:"source"`
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
	// Expires is the hold's expiry as the engine wrote it (RFC 3339 UTC).
	Expires string `json:"expires"`
	// Budget is the session's budget use, as the engine reported it.
	Budget string `json:"budget,omitempty"`
	// Linked is the extraction whose unsettled value is in the arguments.
	Linked     *LinkedValue `json:"linked,omitempty"`
	Resolution *Resolution  `json:"resolution,omitempty"`
}

// LinkedValue is a value reflect flagged for review, found in a held
// call's arguments: whether it is settled is read when shown (FindTrace).
type LinkedValue struct {
	TraceID  string `json:"trace_id"`
	Field    string `json:"field"`
	Value    string `json:"value"`
	Argument string `json:"argument"`
}

// Resolution is how a reviewer settled a held call.
type Resolution struct {
	Approved bool      `json:"approved"`
	Reviewer string    `json:"reviewer"`
	Note     string    `json:"note,omitempty"`
	At       time.Time `json:"at"`
}

// ParseToolCall reads a tool_call document's text.
func ParseToolCall(d Document) (ToolCall, error) {
	var c ToolCall
	if d.Kind != KindToolCall {
		return c, fmt.Errorf("document %q is a %s, not a tool_call", d.ID, d.Kind)
	}
	if err := json.Unmarshal([]byte(d.Text), &c); err != nil {
		return c, fmt.Errorf("held call %q: %w", d.ID, err)
	}
	return c, nil
}

// EnqueueToolCall stores a held call as a needs-review item in the queue
// QueueCorpusID(queue). A hold already queued is left as it is (the
// gateway may report one hold again after a restart), so it is idempotent
// per hold id. It returns the corpus id and the item's queue row.
func (s *Store) EnqueueToolCall(ctx context.Context, queue string, c ToolCall) (string, Summary, error) {
	corpusID := QueueCorpusID(queue)
	if err := checkID("queue", queue); err != nil {
		return "", Summary{}, fmt.Errorf("enqueue held call: %w", err)
	}
	if err := checkID("hold id", c.HoldID); err != nil {
		return "", Summary{}, fmt.Errorf("enqueue held call: %w", err)
	}
	if c.Arguments != nil && !json.Valid(c.Arguments) {
		return "", Summary{}, fmt.Errorf("enqueue held call %s: arguments are not JSON", c.HoldID)
	}
	c.Resolution = nil
	text, err := json.Marshal(c)
	if err != nil {
		return "", Summary{}, fmt.Errorf("enqueue held call %s: %w", c.HoldID, err)
	}
	var row Summary
	err = s.update(ctx, func(tx *bbolt.Tx) error {
		if _, err := getCorpus(tx, corpusID); err != nil {
			if err := putCorpus(tx, Corpus{ID: corpusID, Name: queue, Kind: "mcp", Created: time.Now().UTC()}); err != nil {
				return err
			}
		}
		if old, err := getDocument(tx, corpusID, c.HoldID); err == nil {
			if old.Kind != KindToolCall {
				return fmt.Errorf("id %q is taken by a %s", c.HoldID, old.Kind)
			}
			r, err := toolCallRow(tx, corpusID, c.HoldID)
			row = r.Summary
			return err
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		// No TraceID on the document: the trace index must keep pointing
		// at the extraction, not at the call that carries its value.
		d, err := addDocument(tx, corpusID, Document{ID: c.HoldID, Kind: KindToolCall, Text: string(text)})
		if err != nil {
			return err
		}
		r := sumRec{Summary: Summary{DocID: d.ID, Seq: d.Seq, Kind: KindToolCall, Status: pipeline.StatusNeedsReview,
			Flagged: 1, Snippet: c.Upstream + " " + c.Tool + " " + c.Rule, Expires: expiresUnix(c.Expires)}}
		row = r.Summary
		return putToolCallRow(tx, corpusID, d, r)
	})
	if err != nil {
		return "", Summary{}, fmt.Errorf("enqueue held call %s to %q: %w", c.HoldID, corpusID, err)
	}
	return corpusID, row, nil
}

// ResolveToolCall records the reviewer's answer on the item, so the queue
// shows it decided. The engine's hold is resolved by the caller first: this
// is the queue's copy of that decision, not the decision.
func (s *Store) ResolveToolCall(ctx context.Context, queue, holdID string, r Resolution) (Summary, error) {
	corpusID := QueueCorpusID(queue)
	if r.At.IsZero() {
		r.At = time.Now().UTC()
	}
	var row Summary
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		d, err := getDocument(tx, corpusID, holdID)
		if err != nil {
			return err
		}
		c, err := ParseToolCall(d)
		if err != nil {
			return err
		}
		c.Resolution = &r
		text, err := json.Marshal(c)
		if err != nil {
			return err
		}
		d.Text = string(text)
		raw, err := json.Marshal(d)
		if err != nil {
			return err
		}
		docs, err := bucket(tx, bktDocs)
		if err != nil {
			return err
		}
		if err := docs.Put(seqKey(corpusID, d.Seq), raw); err != nil {
			return err
		}
		rec, err := toolCallRow(tx, corpusID, holdID)
		if err != nil {
			return err
		}
		// The status stays needs-review, as a reviewed extraction's does:
		// Reviewed is what moves it out of the reviewer's way.
		rec.Reviewed, rec.Decisions = true, 1
		row = rec.Summary
		return putToolCallRow(tx, corpusID, d, rec)
	})
	if err != nil {
		return Summary{}, fmt.Errorf("resolve held call %s in %q: %w", holdID, corpusID, err)
	}
	return row, nil
}

// ToolCallQueue finds the queue a held call was filed in; ok is false when
// no queue has it (the gateway ran without a store, or queueing failed).
func (s *Store) ToolCallQueue(ctx context.Context, holdID string) (queue string, ok bool, err error) {
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		corpora, index := tx.Bucket(bktCorpora), tx.Bucket(bktDocIndex)
		if corpora == nil || index == nil {
			return nil
		}
		c := corpora.Cursor()
		for k, _ := c.Seek([]byte(queuePrefix)); k != nil && strings.HasPrefix(string(k), queuePrefix); k, _ = c.Next() {
			if index.Get(docKey(string(k), holdID)) == nil {
				continue
			}
			if d, err := getDocument(tx, string(k), holdID); err == nil && d.Kind == KindToolCall {
				queue, ok = strings.TrimPrefix(string(k), queuePrefix), true
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("queue of held call %s: %w", holdID, err)
	}
	return queue, ok, nil
}

func toolCallRow(tx *bbolt.Tx, corpusID, docID string) (sumRec, error) {
	bs, err := buckets(tx, bktDocIndex, bktSummaries)
	if err != nil {
		return sumRec{}, err
	}
	seq := bs[0].Get(docKey(corpusID, docID))
	if seq == nil {
		return sumRec{}, fmt.Errorf("document %q: %w", docID, ErrNotFound)
	}
	return decodeSummary(bs[1].Get(append(prefix(corpusID), seq...)))
}

func putToolCallRow(tx *bbolt.Tx, corpusID string, d Document, r sumRec) error {
	sums, err := bucket(tx, bktSummaries)
	if err != nil {
		return err
	}
	if err := sums.Put(seqKey(corpusID, d.Seq), encodeSummary(r)); err != nil {
		return err
	}
	return noteChange(tx, corpusID, d.ID)
}

// expiresUnix reads a hold's RFC 3339 expiry; 0 when it has none or it does
// not parse (such a hold sorts after every hold with a known expiry).
func expiresUnix(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0
	}
	return t.Unix()
}
