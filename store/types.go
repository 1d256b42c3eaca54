// Package store keeps reflect's durable state in one bbolt file: corpora, their
// documents, pipeline results, reviewer decisions and an append-only audit
// trail. Several processes share the file: no process keeps it open for longer
// than one transaction.
package store

import (
	"fmt"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Corpus is a set of documents opened for review: a JSONL file, a directory of
// .txt files, or an MCP client's queue (Kind "mcp").
type Corpus struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Kind        string    `json:"kind"` // "file", "dir" or "mcp"
	Path        string    `json:"path,omitempty"`
	ContentHash string    `json:"content_hash,omitempty"`
	Schema      string    `json:"schema"`
	Created     time.Time `json:"created"`
}

// Kind is what a review item is, and so which page of the workstation
// shows it and what deciding on it means. It is one byte in a queue row (a
// string would cost 100,000 rows 1.6 MB) and its name in JSON.
type Kind uint8

const (
	// KindExtraction is a document run through the extraction pipeline;
	// its fields are accepted, corrected or set null. It is the zero Kind,
	// so every item stored before kinds existed is one.
	KindExtraction Kind = iota
	// KindToolCall is an agent's tool call the gateway held for a human to
	// approve or reject.
	KindToolCall
)

var kindNames = [...]string{KindExtraction: "extraction", KindToolCall: "tool_call"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MarshalText writes the kind's name; an unknown kind is an error rather
// than a name no reader could parse back.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("unknown item kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name; "" is KindExtraction.
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = KindExtraction
		return nil
	}
	for i, n := range kindNames {
		if string(b) == n {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown item kind %q (written by a newer reflect?)", b)
}

// Document is one item of a corpus: a source text, or a held tool call.
type Document struct {
	CorpusID string         `json:"corpus_id"`
	ID       string         `json:"id"`
	Kind     Kind           `json:"kind"`
	Seq      int            `json:"seq"` // position in the corpus, for stable order
	Text     string         `json:"text"`
	Expected map[string]any `json:"expected,omitempty"`
	// TraceID links a document to the result an MCP client got back.
	TraceID string `json:"trace_id,omitempty"`
}

// Action is what a reviewer did to a field.
type Action string

const (
	ActionAccept  Action = "accept"
	ActionCorrect Action = "correct"
	ActionSetNull Action = "set_null"
	ActionUndo    Action = "undo"
)

// Decision is a reviewer's settled value for one field of one document.
type Decision struct {
	CorpusID string    `json:"corpus_id"`
	DocID    string    `json:"doc_id"`
	Field    string    `json:"field"`
	Action   Action    `json:"action"`
	Value    any       `json:"value"`    // the settled value (nil for set_null)
	Original any       `json:"original"` // what the pipeline returned
	Reviewer string    `json:"reviewer"`
	At       time.Time `json:"at"`
	// Version is the pipeline run (version) whose result the decision was
	// made on, and Flagged whether that run flagged the field: statistics
	// and exports judge a decision against the run it settled, so opening
	// the corpus under another provider never turns an accept into a
	// correction nobody made. Empty on decisions stored before they existed.
	Version string `json:"version,omitempty"`
	Flagged bool   `json:"flagged,omitempty"`
}

// AuditEntry is one line of the append-only audit trail.
type AuditEntry struct {
	Seq      uint64    `json:"seq"`
	At       time.Time `json:"at"`
	Who      string    `json:"who"`
	CorpusID string    `json:"corpus_id"`
	DocID    string    `json:"doc_id"`
	Field    string    `json:"field"`
	Action   Action    `json:"action"`
	Before   any       `json:"before"`
	After    any       `json:"after"`
}

// Summary is the queue row of one document: small enough to load 100,000 of
// them for the first screen without decoding texts or results.
type Summary struct {
	DocID      string          `json:"doc_id"`
	Seq        int             `json:"seq"`
	Status     pipeline.Status `json:"status"` // "" when no result yet
	Confidence float64         `json:"confidence"`
	Flagged    int             `json:"flagged"`
	Reviewed   bool            `json:"reviewed"` // every flagged field (or the whole doc) decided
	Kind       Kind            `json:"kind"`
	Decisions  int             `json:"decisions"` // fields decided
	Corrected  int             `json:"corrected"` // fields whose settled value differs from the pipeline's
	Error      string          `json:"error,omitempty"`
	Snippet    string          `json:"snippet,omitempty"` // first line of text, for `/` filtering
	// FlagNames is the flagged fields' names, comma-separated in the
	// result's order (one string, so a row stays one allocation). Rows
	// written before it existed have "" until their document changes.
	FlagNames string `json:"flag_names,omitempty"`
	// Verdict is the document-level decision standing on the document
	// (ActionReject or ActionSkip), "" when none.
	Verdict Action `json:"verdict,omitempty"`
	// Expires is a held tool call's expiry in Unix seconds (0: none, or
	// not a held call), so the queue orders holds by it without reading
	// each call.
	Expires int64 `json:"expires,omitempty"`
}
