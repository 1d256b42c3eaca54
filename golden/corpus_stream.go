package golden

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

// CorpusStore is what OpenCorpus needs of the store.
type CorpusStore interface {
	Corpus(ctx context.Context, id string) (store.Corpus, error)
	PutCorpus(ctx context.Context, c store.Corpus, docs []store.Document) error
	Corpora(ctx context.Context) ([]store.Corpus, error)
	CorpusFingerprint(ctx context.Context, corpusID string) (store.Fingerprint, bool, error)
	PutCorpusFingerprint(ctx context.Context, corpusID string, fp store.Fingerprint) error
	FinishCorpusFile(ctx context.Context, c store.Corpus, fp store.Fingerprint) error
	LegacyStore
}

// ErrCorpusFile marks an OpenCorpus error that is the file's (missing,
// unreadable, a line past the limit), not the store's: the user's to fix.
var ErrCorpusFile = errors.New("corpus file")

// streamBatch and streamBatchBytes bound the documents held at once while a
// file is streamed into the store: memory stays flat in corpus size. Each
// batch is one write transaction (two fsyncs, and the pages it appends to
// written again), so batches are large: at 512 documents a 100k open made
// 196 commits and spent about a third of its CPU in them; at 8,192 it makes
// 13, and larger batches only grow bbolt's in-memory nodes.
const (
	streamBatch      = 8192
	streamBatchBytes = 4 << 20
)

// OpenHeapHeadroom is the collector headroom (heapheadroom.Keep) a process
// should give OpenCorpus on a large file, as review does. Storing a file
// keeps about 30 MB alive (three batches, one write transaction) but
// allocates about 2.7 KB a document, most of it bbolt's, so with the Go
// default a 100k open collected a dozen times, a fifth of its CPU; with this
// headroom it collects a few times. It costs at most this much more memory.
const OpenHeapHeadroom = 128 << 20

// OpenCorpus stores a corpus file (or directory) and returns its record.
// A JSONL file whose size and mtime match the fingerprint stored with the
// corpus is not read at all; otherwise it is streamed line by line and only
// documents the store does not have are written (issue 11: review FILE on a
// stored 100k corpus read and decoded the whole file on every open).
// A directory is loaded as LoadCorpus does.
func OpenCorpus(ctx context.Context, st CorpusStore, path, schema string) (store.Corpus, []LineError, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return store.Corpus{}, nil, fmt.Errorf("%w %s: %w", ErrCorpusFile, path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return store.Corpus{}, nil, fmt.Errorf("%w: %w", ErrCorpusFile, err)
	}
	if fi.IsDir() {
		c, docs, bad, err := LoadCorpus(abs, schema)
		if err != nil {
			return c, nil, fmt.Errorf("%w: %w", ErrCorpusFile, err)
		}
		if err := st.PutCorpus(ctx, c, docs); err != nil {
			return c, bad, err
		}
		// A directory is always read, so its fingerprint only carries the
		// skipped files for the workstation's L list.
		return c, bad, st.PutCorpusFingerprint(ctx, c.ID, withSkips(store.Fingerprint{Hash: c.ContentHash}, bad))
	}
	fc, err := resolveFile(ctx, st, abs, schema)
	if err != nil {
		return store.Corpus{}, nil, err
	}
	c := fc.c
	switch {
	case fc.prev != nil && !fc.moved:
		prev := *fc.prev
		fp, ok, err := st.CorpusFingerprint(ctx, c.ID)
		if err != nil {
			return c, nil, err
		}
		if ok && fp.SameFile(fi.Size(), fi.ModTime().UnixNano()) && prev.ContentHash == fp.Hash && prev.Schema == schema {
			return prev, storedSkips(fp), nil
		}
		c.ContentHash = prev.ContentHash
	case fc.prev != nil:
		// Found by content under another path: read it here and store the
		// record with this path and a fingerprint of this file.
		c.ContentHash = fc.prev.ContentHash
	default:
		c.Created = time.Now().UTC()
	}
	f, err := os.Open(abs)
	if err != nil {
		return c, nil, fmt.Errorf("%w: %w", ErrCorpusFile, err)
	}
	defer f.Close()
	// Stat the open file: the fingerprint must describe what was read.
	if fi, err = f.Stat(); err != nil {
		return c, nil, fmt.Errorf("%w: %w", ErrCorpusFile, err)
	}
	var legacy map[string][]string
	if fc.prev != nil {
		if legacy, err = LegacyLineIDs(ctx, st, c.ID); err != nil {
			return c, nil, err
		}
	}
	h := sha256.New()
	// The record keeps its old hash until the whole file is stored.
	rec := c
	bh := putBehind(func(batch []store.Document) error { return st.PutCorpus(ctx, rec, batch) })
	bad, err := streamJSONL(io.TeeReader(f, h), NewDocIDs(legacy), bh.put)
	if putErr := bh.wait(); putErr != nil {
		return c, nil, putErr
	}
	if err != nil {
		return c, nil, fmt.Errorf("%w %s: %w", ErrCorpusFile, abs, err)
	}
	c.ContentHash = hex.EncodeToString(h.Sum(nil))
	fp := withSkips(store.Fingerprint{Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano(), Hash: c.ContentHash}, bad)
	if err := st.FinishCorpusFile(ctx, c, fp); err != nil {
		return c, nil, err
	}
	return c, bad, nil
}

// streamJSONL is loadJSONL without holding the texts: documents are handed
// to put a batch at a time, and put keeps the batch. Only ids are kept, to
// find duplicates.
func streamJSONL(r io.Reader, ids *DocIDs, put func([]store.Document) error) ([]LineError, error) {
	var bad []LineError
	seen := map[string]int{}
	batch := make([]store.Document, 0, streamBatch)
	seq, held := 0, 0
	err := ReadLines(r, func(l Line) error {
		if l.Err != nil {
			var le *LineError
			if errors.As(l.Err, &le) {
				bad = append(bad, *le)
			} else {
				bad = append(bad, LineError{Line: l.No, Err: l.Err})
			}
			return nil
		}
		if strings.TrimSpace(l.Text) == "" {
			bad = append(bad, LineError{Line: l.No, Err: errEmptyText})
			return nil
		}
		id := ids.ID(l)
		if err := checkDoc(id, l.Text, seen, l.No); err != nil {
			bad = append(bad, LineError{Line: l.No, Err: err})
			return nil
		}
		batch = append(batch, store.Document{ID: id, Text: l.Text, Expected: l.Expected, Seq: seq})
		seq++
		held += len(l.Text)
		if len(batch) == streamBatch || held >= streamBatchBytes {
			if err := put(batch); err != nil {
				return err
			}
			batch, held = make([]store.Document, 0, streamBatch), 0
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(batch) > 0 {
		if err := put(batch); err != nil {
			return nil, err
		}
	}
	return bad, nil
}

// behind stores batches in a goroutine of its own, one batch behind the
// reader: reading, hashing and decoding the next batch overlaps storing
// this one and its fsyncs. At most three batches are held: one being
// stored, one handed over, one being read.
type behind struct {
	batches chan []store.Document
	failed  chan struct{}
	done    chan struct{}
	err     error
}

// errStopped stops the reader once a batch could not be stored; wait
// returns that batch's error.
var errStopped = errors.New("stopped: a batch could not be stored")

func putBehind(put func([]store.Document) error) *behind {
	b := &behind{batches: make(chan []store.Document, 1), failed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		for batch := range b.batches {
			if b.err != nil {
				continue // nothing after a failed batch is stored
			}
			if b.err = put(batch); b.err != nil {
				close(b.failed)
			}
		}
	}()
	return b
}

// put hands a batch over.
func (b *behind) put(batch []store.Document) error {
	select {
	case <-b.failed:
		return errStopped
	case b.batches <- batch:
		return nil
	}
}

// wait stores what was handed over and returns the first batch's error.
func (b *behind) wait() error {
	close(b.batches)
	<-b.done
	return b.err
}

// withSkips adds the skipped lines (at most store.MaxSkippedLines of them)
// and their count to a fingerprint.
func withSkips(fp store.Fingerprint, bad []LineError) store.Fingerprint {
	fp.SkippedTotal = len(bad)
	for _, le := range bad[:min(len(bad), store.MaxSkippedLines)] {
		fp.Skipped = append(fp.Skipped, store.SkippedLine{Line: le.Line, Reason: skipReason(le.Err)})
	}
	return fp
}

// skipReason is a skipped line's reason as stored: one line, bounded, since
// a bad JSON line's error can quote the line.
func skipReason(err error) string {
	r := strings.Join(strings.Fields(err.Error()), " ")
	if rs := []rune(r); len(rs) > 200 {
		r = string(rs[:199]) + "…"
	}
	return r
}

// storedSkips is the skipped lines a fingerprint kept, as OpenCorpus
// reports them when it does not read the file.
func storedSkips(fp store.Fingerprint) []LineError {
	out := make([]LineError, 0, len(fp.Skipped))
	for _, s := range fp.Skipped {
		out = append(out, LineError{Line: s.Line, Err: errors.New(s.Reason)})
	}
	return out
}
