package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// DocumentAudit is one document's audit trail, newest first: what the
// workstation's history pane shows. It walks the trail backwards and decodes
// only the entries whose bytes contain the document id, so a long trail of
// other documents costs a byte search per entry, not a JSON decode.
func (s *Store) DocumentAudit(ctx context.Context, corpusID, docID string) ([]AuditEntry, error) {
	var out []AuditEntry
	// Both ids are JSON strings in the entry; an entry that does not
	// contain the document id's encoding cannot be the document's.
	needle, err := json.Marshal(docID)
	if err != nil {
		return nil, fmt.Errorf("audit of %q: %w", docID, err)
	}
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bktAudit)
		if err != nil {
			return err
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			if !bytes.Contains(v, needle) {
				continue
			}
			var e AuditEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("decode audit entry %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if e.CorpusID == corpusID && e.DocID == docID {
				out = append(out, e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("audit of %q/%q: %w", corpusID, docID, err)
	}
	return out, nil
}
