package store

import (
	"context"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// bktFileprints holds, per corpus, what its file looked like when it was
// last stored. It is created on first write, so a file made by an older
// reflect needs no migration (a missing bucket reads as "never stored").
var bktFileprints = []byte("corpus_fileprints")

// Fingerprint is a corpus file's size, modification time and the content
// hash computed while it was streamed. Reopening a file whose size and
// mtime match is served from the store without reading the file (issue 11:
// review FILE on a stored 100k corpus read and decoded the whole file).
type Fingerprint struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtime_ns"`
	Hash    string `json:"hash"`
	// Skipped is the file's lines that were not stored (bad JSON, empty
	// text, duplicate id), at most MaxSkippedLines of them, and
	// SkippedTotal how many there were: kept with the fingerprint so a
	// reopen that reads nothing still lists them.
	Skipped      []SkippedLine `json:"skipped,omitempty"`
	SkippedTotal int           `json:"skipped_total,omitempty"`
}

// SkippedLine is one line of a corpus file that was not stored, and why.
type SkippedLine struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// MaxSkippedLines bounds the skipped lines kept with a fingerprint: a file
// of 100,000 broken lines is described by its first ones and a count, not
// stored again as reasons.
const MaxSkippedLines = 1000

// SameFile says whether the file is, by size and mtime, the one stored.
func (f Fingerprint) SameFile(size, mtimeNs int64) bool {
	return f.Hash != "" && f.Size == size && f.MtimeNs == mtimeNs
}

// CorpusFingerprint returns the fingerprint stored with a corpus; ok is
// false when there is none (never stored, or stored by an older reflect).
func (s *Store) CorpusFingerprint(ctx context.Context, corpusID string) (Fingerprint, bool, error) {
	var fp Fingerprint
	ok := false
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bktFileprints)
		if b == nil {
			return nil
		}
		raw := b.Get([]byte(corpusID))
		if raw == nil {
			return nil
		}
		ok = true
		return json.Unmarshal(raw, &fp)
	})
	if err != nil {
		return Fingerprint{}, false, fmt.Errorf("fingerprint of %q: %w", corpusID, err)
	}
	return fp, ok, nil
}

// PutCorpusFingerprint records the file a corpus was last stored from. Call
// it only after every document of that file is stored: a fingerprint on
// disk promises the store holds the whole file.
func (s *Store) PutCorpusFingerprint(ctx context.Context, corpusID string, fp Fingerprint) error {
	raw, err := json.Marshal(fp)
	if err != nil {
		return fmt.Errorf("encode fingerprint: %w", err)
	}
	err = s.update(ctx, func(tx *bbolt.Tx) error {
		if _, err := getCorpus(tx, corpusID); err != nil {
			return err
		}
		return putFingerprint(tx, corpusID, raw)
	})
	if err != nil {
		return fmt.Errorf("put fingerprint of %q: %w", corpusID, err)
	}
	return nil
}

func putFingerprint(tx *bbolt.Tx, corpusID string, raw []byte) error {
	b, err := tx.CreateBucketIfNotExists(bktFileprints)
	if err != nil {
		return err
	}
	return b.Put([]byte(corpusID), raw)
}

// FinishCorpusFile records a corpus's record and the fingerprint of the
// file it was stored from in one transaction (one commit where PutCorpus
// and PutCorpusFingerprint make two). Like PutCorpusFingerprint, call it
// only after every document of that file is stored.
func (s *Store) FinishCorpusFile(ctx context.Context, c Corpus, fp Fingerprint) error {
	if err := checkID("corpus id", c.ID); err != nil {
		return fmt.Errorf("finish corpus: %w", err)
	}
	raw, err := json.Marshal(fp)
	if err != nil {
		return fmt.Errorf("encode fingerprint: %w", err)
	}
	err = s.update(ctx, func(tx *bbolt.Tx) error {
		if err := putCorpus(tx, c); err != nil {
			return err
		}
		return putFingerprint(tx, c.ID, raw)
	})
	if err != nil {
		return fmt.Errorf("finish corpus %q: %w", c.ID, err)
	}
	return nil
}
