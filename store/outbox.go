package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

// entryLine is e as one outbox line, carrying r as its result.
func entryLine(e outboxEntry, r pipeline.Result) ([]byte, error) {
	return encodedEntryLine(e, r, nil)
}

// encodedEntryLine is entryLine with r already encoded as raw (nil: encoded
// here).
func encodedEntryLine(e outboxEntry, r pipeline.Result, raw []byte) ([]byte, error) {
	if raw == nil {
		var err error
		if raw, err = r.MarshalJSON(); err != nil {
			return nil, err
		}
	}
	e.TraceID, e.Result = r.TraceID, raw
	return json.Marshal(e)
}

func enqueueEntry(queue string, doc Document, version string, r pipeline.Result) ([]byte, error) {
	return entryLine(outboxEntry{Op: "enqueue", Queue: queue, Doc: &doc, Version: version}, r)
}

func resultEntry(corpusID, docID, version string, r pipeline.Result) ([]byte, error) {
	return entryLine(outboxEntry{Op: "result", CorpusID: corpusID, DocID: docID, Version: version}, r)
}

func outboxPath(path string) string { return path + ".outbox" }

// drainingPath is where a drain moves the outbox before replaying it, so
// that appends go on into a fresh outbox instead of waiting for the
// replay's commit (issue 11: an MCP answer waited for the drain). A file
// left there by a drain cut short is replayed first by the next one.
func drainingPath(path string) string { return path + ".outbox.draining" }

// appendOutbox appends lines and fsyncs them (and the directory, when the
// file is new) before returning.
func appendOutbox(path string, lines [][]byte) error {
	p := outboxPath(path)
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	for {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		done, err := appendLocked(f, p, buf.Bytes())
		if cerr := f.Close(); err == nil && cerr != nil {
			return cerr
		}
		if done || err != nil {
			return err
		}
		// A drain took the file away between the open and the lock: write
		// to the outbox now at p.
	}
}

// appendLocked writes data to f, the outbox opened at p, once it holds its
// lock; done is false when f is no longer the file at p.
func appendLocked(f *os.File, p string, data []byte) (done bool, err error) {
	if err := lockFile(f); err != nil {
		return false, err
	}
	have, err := f.Stat()
	if err != nil {
		return false, err
	}
	if now, err := os.Stat(p); err != nil || !os.SameFile(have, now) {
		return false, nil
	}
	if _, err := f.Write(data); err != nil {
		return false, err
	}
	if err := f.Sync(); err != nil {
		return false, err
	}
	if have.Size() == 0 {
		// Possibly a file this append created: its name must survive too.
		return true, syncDir(dirOf(p))
	}
	return true, nil
}

// readOutboxes is every line waiting to be replayed: the outbox read first,
// then the file a drain is replaying, so an entry a drain moves between the
// two reads is seen (possibly twice) rather than missed; once a drain
// removes its file the entries are in the store.
func readOutboxes(path string) ([][]byte, error) {
	var out [][]byte
	for _, p := range []string{outboxPath(path), drainingPath(path)} {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("outbox: %w", err)
		}
		out = append(out, completeLines(data)...)
	}
	return out, nil
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

// outboxPending reports whether the outbox, or a drain cut short, has
// entries.
func outboxPending(path string) bool {
	for _, p := range []string{outboxPath(path), drainingPath(path)} {
		if fi, err := os.Stat(p); err == nil && fi.Size() > 0 {
			return true
		}
	}
	return false
}

// drainOutbox replays the outbox into db and empties it. The caller holds
// the store's write lock, so no other drain runs. The outbox is moved aside
// under its own lock and replayed from there, so appends go on meanwhile
// into a fresh one; a drain cut short left its file, replayed first (older
// entries), and replaying an entry twice is harmless.
func (s *Store) drainOutbox(db *bbolt.DB) error {
	if err := s.replayFile(db, drainingPath(s.path)); err != nil {
		return err
	}
	if fi, err := os.Stat(outboxPath(s.path)); err != nil || fi.Size() == 0 {
		return nil
	}
	if err := takeOutbox(s.path); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	return s.replayFile(db, drainingPath(s.path))
}

// takeOutbox renames the outbox to the draining file once no append is
// half done (under the outbox's lock).
func takeOutbox(path string) error {
	f, err := os.OpenFile(outboxPath(path), os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return err
	}
	if err := os.Rename(outboxPath(path), drainingPath(path)); err != nil {
		return err
	}
	return syncDir(dirOf(path))
}

// replayFile replays the outbox entries in file p into db in one
// transaction, then removes p. Entries the store refuses go to the
// rejected file, never lost.
func (s *Store) replayFile(db *bbolt.DB, p string) error {
	data, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("outbox: %w", err)
	}
	var rejected [][]byte
	if len(data) > 0 {
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
	}
	if len(rejected) > 0 {
		if err := appendFile(outboxPath(s.path)+".rejected", rejected); err != nil {
			return fmt.Errorf("drain outbox: keep rejected entries: %w", err)
		}
	}
	// Replaying twice is harmless (a queued trace is skipped, a result is
	// rewritten), so a crash before this remove loses nothing.
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("drain outbox: %w", err)
	}
	return syncDir(dirOf(p))
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
			err = saveLineTx(tx, e.Corpus.ID, *e.Doc, e.Version, *r, nil)
		}
	default:
		err = fmt.Errorf("outbox entry with op %q", e.Op)
	}
	return err
}

// outboxTrace finds a trace in the outbox: the corpus, and the document id
// when it is known before the entry is replayed ("" for a queue entry).
func outboxTrace(path, traceID string) (corpusID, docID string, ok bool) {
	lines, err := readOutboxes(path)
	if err != nil {
		return "", "", false
	}
	for _, line := range lines {
		if !bytes.Contains(line, []byte(traceID)) {
			continue
		}
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
