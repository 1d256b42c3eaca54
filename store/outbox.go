package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/reflect-mcp/reflect/pipeline"
	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The outbox is a file beside the store (path+".outbox") that keeps results
// and queue entries which could not reach the store in time because another
// process held it: one JSON line each, fsynced before the caller is told the
// write was made. Whoever next opens the store for writing replays it, in
// order, and empties it; until then FindTrace finds its traces.
//
// A line without its newline was being written when a process died; it was
// never acknowledged and is dropped. An entry the store refuses (its
// document is gone) is moved to path+".outbox.rejected", never lost.

type outboxEntry struct {
	Op       string          `json:"op"` // "enqueue", "result" or "line" (Saver)
	Corpus   *Corpus         `json:"corpus,omitempty"`
	Queue    string          `json:"queue,omitempty"`
	CorpusID string          `json:"corpus_id,omitempty"`
	Doc      *Document       `json:"doc,omitempty"`
	DocID    string          `json:"doc_id,omitempty"`
	Version  string          `json:"version"`
	TraceID  string          `json:"trace_id,omitempty"`
	Result   json.RawMessage `json:"result"`
}

func enqueueEntry(queue string, doc Document, version string, r pipeline.Result) ([]byte, error) {
	raw, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(outboxEntry{Op: "enqueue", Queue: queue, Doc: &doc, Version: version, TraceID: r.TraceID, Result: raw})
}

func jsonLine(e outboxEntry) ([]byte, error) { return json.Marshal(e) }

func resultEntry(corpusID, docID, version string, r pipeline.Result) ([]byte, error) {
	raw, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(outboxEntry{Op: "result", CorpusID: corpusID, DocID: docID, Version: version, TraceID: r.TraceID, Result: raw})
}

func outboxPath(path string) string { return path + ".outbox" }

// appendOutbox appends lines and fsyncs them (and the directory, when the
// file is new) before returning.
func appendOutbox(path string, lines [][]byte) error {
	p := outboxPath(path)
	_, statErr := os.Stat(p)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		return syncDir(dirOf(p))
	}
	return nil
}

func dirOf(p string) string {
	if i := bytes.LastIndexByte([]byte(p), os.PathSeparator); i >= 0 {
		if i == 0 {
			return string(os.PathSeparator)
		}
		return p[:i]
	}
	return "."
}

// outboxPending reports whether the outbox has entries.
func outboxPending(path string) bool {
	fi, err := os.Stat(outboxPath(path))
	return err == nil && fi.Size() > 0
}

// drainOutbox replays the outbox into db in one transaction and empties it.
// The caller holds the store's write lock.
func (s *Store) drainOutbox(db *bbolt.DB) error {
	if !outboxPending(s.path) {
		return nil
	}
	f, err := os.OpenFile(outboxPath(s.path), os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("outbox: %w", err)
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil || len(data) == 0 {
		return err
	}
	var rejected [][]byte
	err = db.Update(current(func(tx *bbolt.Tx) error {
		rejected = rejected[:0]
		for _, line := range completeLines(data) {
			if err := applyEntry(tx, line); err != nil {
				if isDiskErr(err) {
					return err
				}
				rejected = append(rejected, line)
			}
		}
		return nil
	}))
	if err != nil {
		return fmt.Errorf("drain outbox: %w", err)
	}
	if len(rejected) > 0 {
		if err := appendFile(outboxPath(s.path)+".rejected", rejected); err != nil {
			return fmt.Errorf("drain outbox: keep rejected entries: %w", err)
		}
	}
	// Replaying twice is harmless (a queued trace is skipped, a result is
	// rewritten), so a crash before this truncate loses nothing.
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("drain outbox: %w", err)
	}
	return f.Sync()
}

// isDiskErr is a failure of the transaction, not of the entry: the drain
// stops and the outbox is kept. Any other failure rejects only its entry, so
// one bad entry cannot block every later write.
func isDiskErr(err error) bool {
	return errors.Is(err, bolterrors.ErrTxNotWritable) || errors.Is(err, bolterrors.ErrTxClosed) || errors.Is(err, bolterrors.ErrDatabaseNotOpen)
}

func appendFile(p string, lines [][]byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.Write(append(l, '\n')); err != nil {
			return err
		}
	}
	return f.Sync()
}

// completeLines splits data into lines, dropping a last line that has no
// newline (torn by a crash while it was written, never acknowledged).
func completeLines(data []byte) [][]byte {
	var out [][]byte
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return out
		}
		if i > 0 {
			out = append(out, data[:i:i])
		}
		data = data[i+1:]
	}
}

func decodeOutboxEntry(line []byte) (outboxEntry, *pipeline.Result, error) {
	var e outboxEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return e, nil, fmt.Errorf("outbox entry: %w", err)
	}
	r, err := decodeResult(e.Result)
	return e, r, err
}

func applyEntry(tx *bbolt.Tx, line []byte) error {
	e, r, err := decodeOutboxEntry(line)
	if err != nil {
		return err
	}
	switch e.Op {
	case "enqueue":
		if e.Doc == nil {
			return errors.New("outbox enqueue without a document")
		}
		if r.TraceID != "" {
			tr, err := bucket(tx, bktTraces)
			if err != nil {
				return err
			}
			if v := tr.Get([]byte(r.TraceID)); v != nil && bytes.HasPrefix(v, prefix(QueueCorpusID(e.Queue))) {
				return nil // replayed before
			}
		}
		_, err = enqueueTx(tx, e.Queue, *e.Doc, e.Version, *r)
	case "result":
		_, err = putResult(tx, e.CorpusID, e.DocID, e.Version, *r)
	case "line":
		if e.Corpus == nil || e.Doc == nil {
			return errors.New("outbox line without its corpus or document")
		}
		if err = ensureCorpus(tx, *e.Corpus); err == nil {
			err = saveLineTx(tx, e.Corpus.ID, *e.Doc, e.Version, *r)
		}
	default:
		err = fmt.Errorf("outbox entry with op %q", e.Op)
	}
	return err
}

// outboxTrace finds a trace in the outbox: the corpus, and the document id
// when it is known before the entry is replayed ("" for a queue entry).
func outboxTrace(path, traceID string) (corpusID, docID string, ok bool) {
	data, err := os.ReadFile(outboxPath(path))
	if err != nil || !bytes.Contains(data, []byte(traceID)) {
		return "", "", false
	}
	for _, line := range completeLines(data) {
		var e outboxEntry
		if json.Unmarshal(line, &e) != nil || e.TraceID != traceID {
			continue
		}
		switch {
		case e.Op == "enqueue":
			return QueueCorpusID(e.Queue), "", true
		case e.Op == "line" && e.Corpus != nil && e.Doc != nil:
			return e.Corpus.ID, e.Doc.ID, true
		}
		return e.CorpusID, e.DocID, true
	}
	return "", "", false
}
