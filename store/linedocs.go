package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// DocumentsWithIDPrefix reads the documents of a corpus whose id starts
// with idPrefix, in id order: a seek on the document index, so a corpus
// with none of them costs one look.
func (s *Store) DocumentsWithIDPrefix(ctx context.Context, corpusID, idPrefix string) ([]Document, error) {
	var out []Document
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		bs, err := buckets(tx, bktDocIndex, bktDocs)
		if err != nil {
			return err
		}
		p := docKey(corpusID, idPrefix)
		cur := bs[0].Cursor()
		for k, seq := cur.Seek(p); k != nil && bytes.HasPrefix(k, p); k, seq = cur.Next() {
			raw := bs[1].Get(append(prefix(corpusID), seq...))
			if raw == nil {
				continue
			}
			var d Document
			if err := json.Unmarshal(raw, &d); err != nil {
				return fmt.Errorf("decode document %q: %w", k[len(prefix(corpusID)):], err)
			}
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("documents of %q: %w", corpusID, err)
	}
	return out, nil
}
