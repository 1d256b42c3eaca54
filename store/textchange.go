package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
	"go.etcd.io/bbolt"
)

// A corpus file can change under a stored corpus: a line keeps its id but
// its text is edited. The store keeps the text it has (results and
// decisions were made on it) and marks the document, so the workstation
// says so instead of silently showing the old text as the file's.
var bktTextChanged = []byte("textchanged") // corpusID\x00docID -> TextChange JSON

// TextChange is the mark on a document whose text in the corpus file is no
// longer the stored one.
type TextChange struct {
	// FileTextHash is the sha256 of the text the file has now.
	FileTextHash string    `json:"file_text_hash"`
	Seen         time.Time `json:"seen"`
}

// textMatch reports whether a stored document's JSON holds a text, without
// decoding it: both are encoded as json.Marshal encodes (appendDocumentJSON
// is held to it), so equal texts are equal bytes after the key. It encodes
// into one buffer for every document it is asked about.
type textMatch struct{ buf []byte }

func (m *textMatch) same(raw []byte, text string) bool {
	m.buf = append(m.buf[:0], `"text":"`...)
	m.buf = jsonstr.AppendChars(m.buf, text, true)
	m.buf = append(m.buf, '"')
	return bytes.Contains(raw, m.buf)
}

func markTextChanges(tx *bbolt.Tx, corpusID string, changed, unchanged []Document) error {
	if len(changed) == 0 && len(unchanged) == 0 {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bktTextChanged)
	if err != nil {
		return fmt.Errorf("text changes: %w", err)
	}
	now := time.Now().UTC()
	for _, d := range changed {
		sum := sha256.Sum256([]byte(d.Text))
		k := docKey(corpusID, d.ID)
		var old TextChange
		if raw := b.Get(k); raw != nil && json.Unmarshal(raw, &old) == nil && old.FileTextHash == hex.EncodeToString(sum[:]) {
			continue // already marked for this text
		}
		if err := putJSON(b, k, TextChange{FileTextHash: hex.EncodeToString(sum[:]), Seen: now}); err != nil {
			return err
		}
	}
	for _, d := range unchanged {
		if err := b.Delete(docKey(corpusID, d.ID)); err != nil {
			return err
		}
	}
	return nil
}

// TextChanges lists the corpus's documents whose text in the corpus file
// differs from the stored text, by document id.
func (s *Store) TextChanges(ctx context.Context, corpusID string) (map[string]TextChange, error) {
	out := map[string]TextChange{}
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bktTextChanged)
		if b == nil {
			return nil
		}
		p := prefix(corpusID)
		return scanPrefix(b, p, func(k, v []byte) error {
			var tc TextChange
			if err := json.Unmarshal(v, &tc); err != nil {
				return fmt.Errorf("decode text change %q: %w", k, err)
			}
			out[string(k[len(p):])] = tc
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("text changes of %q: %w", corpusID, err)
	}
	return out, nil
}
