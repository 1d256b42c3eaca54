package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

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

// sameText reports whether a stored document's JSON holds text, without
// decoding it: both were encoded by encoding/json, so equal texts are equal
// bytes after the key.
func sameText(raw []byte, text string) bool {
	enc, err := json.Marshal(text)
	if err != nil {
		return false
	}
	return bytes.Contains(raw, append([]byte(`"text":`), enc...))
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
