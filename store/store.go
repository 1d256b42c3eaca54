package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrLocked is wrapped when another process holds the store's file lock for
// longer than Options.Timeout. Results and queue entries never surface it:
// they go to the outbox instead (outbox.go).
var ErrLocked = errors.New("locked by another reflect process")

// ErrNotFound is wrapped when a corpus or document does not exist.
var ErrNotFound = errors.New("not found")

// DefaultTimeout is how long an operation waits for the file lock. Waiters
// queue fairly (lock_unix.go) and transactions are short, so a wait this
// long means a process is stuck, not busy.
const DefaultTimeout = 10 * time.Second

// Options tune how a Store opens its file.
type Options struct {
	// Timeout is how long one operation waits for the file lock; 0 means
	// DefaultTimeout.
	Timeout time.Duration
}

// Store is a handle on one bbolt file. It holds no open file between calls,
// so several reflect processes (TUI, MCP server, CLI) can share the file; each
// call opens it, runs one transaction and closes it.
type Store struct {
	path    string
	timeout time.Duration
	// mu serialises this process's own operations so they queue here instead
	// of polling the flock against each other.
	mu sync.RWMutex
	// broken is set, under mu, when bbolt panicked while opening the file
	// for writing: the half-open file still holds this process's lock.
	broken error
	// group batches results and queue entries into shared transactions.
	group committer
	// drain commits the outbox behind EnqueueDurable's answers.
	drain drainer
	// appends group-commits EnqueueDurable's outbox appends.
	appends outboxGroup
}

// Bucket names. docs and summaries share the key corpusID\x00seq(8 bytes BE)
// so both iterate in Seq order; summaries stay small so the review queue
// loads without touching texts or results.
var (
	bktMeta      = []byte("meta")
	bktCorpora   = []byte("corpora")   // corpusID -> Corpus JSON
	bktDocs      = []byte("docs")      // corpusID\x00seq -> Document JSON
	bktDocIndex  = []byte("docindex")  // corpusID\x00docID -> seq (8 bytes BE)
	bktSummaries = []byte("summaries") // corpusID\x00seq -> binary summary
	bktResults   = []byte("results")   // corpusID\x00docID\x00version -> Result JSON
	bktLatest    = []byte("latest")    // corpusID\x00docID -> latest version
	bktDecisions = []byte("decisions") // corpusID\x00docID\x00field -> Decision JSON
	bktHistory   = []byte("history")   // corpusID\x00auditSeq -> decide step, for Undo
	bktAudit     = []byte("audit")     // auditSeq (8 bytes BE) -> AuditEntry JSON
	bktTraces    = []byte("traces")    // traceID -> corpusID\x00docID
)

var keyVersion = []byte("schema_version")

// migration upgrades the file from one schema version to the next.
type migration func(tx *bbolt.Tx) error

// migrations is applied in order; the file records how many have run. Append
// only: a released migration never changes.
func migrations() []migration {
	return []migration{
		func(tx *bbolt.Tx) error {
			for _, name := range [][]byte{bktCorpora, bktDocs, bktDocIndex, bktSummaries, bktResults,
				bktLatest, bktDecisions, bktHistory, bktAudit, bktTraces} {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return fmt.Errorf("create bucket %s: %w", name, err)
				}
			}
			return nil
		},
		migrateKinds,
		migratePolicy, // version 3: decision engine ledger, nonces, holds, audit (policystate.go)
	}
}

// migrateKinds (version 2) gives every stored document and queue row a Kind:
// everything stored before kinds existed is an extraction.
func migrateKinds(tx *bbolt.Tx) error {
	bs, err := buckets(tx, bktDocs, bktSummaries)
	if err != nil {
		return err
	}
	docs, sums := bs[0], bs[1]
	kind, err := json.Marshal(KindExtraction)
	if err != nil {
		return err
	}
	type kv struct{ k, v []byte }
	var out []kv
	err = docs.ForEach(func(k, v []byte) error {
		// Only the new key is added: a decode into Document and back
		// could change how other values are written.
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(v, &fields); err != nil {
			return fmt.Errorf("decode document %x: %w", k, err)
		}
		if _, ok := fields["kind"]; ok {
			return nil
		}
		fields["kind"] = kind
		raw, err := json.Marshal(fields)
		if err != nil {
			return fmt.Errorf("encode document %x: %w", k, err)
		}
		out = append(out, kv{bytes.Clone(k), raw})
		return nil
	})
	if err != nil {
		return err
	}
	// Rewritten after the scan: bbolt does not promise a cursor survives
	// writes to its own bucket.
	for _, e := range out {
		if err := docs.Put(e.k, e.v); err != nil {
			return err
		}
	}
	out = out[:0]
	err = sums.ForEach(func(k, v []byte) error {
		r, err := decodeSummary(v)
		if err != nil {
			return fmt.Errorf("summary %x: %w", k, err)
		}
		out = append(out, kv{bytes.Clone(k), encodeSummary(r)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range out {
		if err := sums.Put(e.k, e.v); err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the on-disk version this build writes.
func SchemaVersion() uint64 { return uint64(len(migrations())) }

// DefaultPath is $REFLECT_STORE, else $XDG_DATA_HOME/reflect/reflect.db, else
// ~/.local/share/reflect/reflect.db.
func DefaultPath() string {
	if p := os.Getenv("REFLECT_STORE"); p != "" {
		return p
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "reflect", "reflect.db")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(".", "reflect.db")
	}
	return filepath.Join(home, ".local", "share", "reflect", "reflect.db")
}

// ErrCorrupt is wrapped when the file is damaged or is not a bbolt file at
// all: bbolt panics on pages it cannot parse, and a reviewer should read "the
// store is damaged", not a stack trace.
var ErrCorrupt = errors.New("damaged or not a reflect store")

// Open creates the file (and its directory) if needed and migrates it to the
// current schema version. The file is closed again before Open returns.
//
// A file already at the current version is only read, under a shared lock:
// a store on a read-only file or mount still serves stats and export, and
// opening never waits behind another process's write.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty path")
	}
	t := opts.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	s := &Store{path: path, timeout: t}
	ctx := context.Background()
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		var have uint64
		err := s.run(ctx, false, func(tx *bbolt.Tx) error {
			var err error
			have, err = fileVersion(tx)
			return err
		})
		if err != nil {
			return nil, err
		}
		if have == SchemaVersion() {
			if outboxPending(path) {
				// Replay what an earlier process left in the outbox; if the
				// store is held, its holder or the next writer will.
				_ = s.runWait(ctx, true, outboxAfter, func(*bbolt.Tx) error { return nil })
			}
			return s, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store: create directory for %s: %w", path, err)
	}
	_, statErr := os.Stat(path)
	err := s.run(ctx, true, func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bktMeta)
		if err != nil {
			return fmt.Errorf("create meta bucket: %w", err)
		}
		have, err := fileVersion(tx)
		if err != nil {
			return err
		}
		ms := migrations()
		for i := have; i < uint64(len(ms)); i++ {
			if err := ms[i](tx); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			if err := meta.Put(keyVersion, u64(i+1)); err != nil {
				return fmt.Errorf("record schema version: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// bbolt fsyncs the file but not its directory: without this a power
		// cut could lose a brand-new store, decisions and all.
		if err := syncDir(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	return s, nil
}

// fileVersion reads the file's schema version (0 for a bare bbolt file) and
// refuses one written by a newer reflect, whose layout this build would
// misread or damage.
func fileVersion(tx *bbolt.Tx) (uint64, error) {
	meta := tx.Bucket(bktMeta)
	if meta == nil {
		return 0, nil
	}
	v := meta.Get(keyVersion)
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("schema version is %d bytes, want 8: %w", len(v), ErrCorrupt)
	}
	have := binary.BigEndian.Uint64(v)
	if want := SchemaVersion(); have > want {
		return 0, fmt.Errorf("schema version %d is newer than this reflect understands (%d): upgrade reflect", have, want)
	}
	return have, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// Path is the file this store uses.
func (s *Store) Path() string { return s.path }

// update runs fn in one write transaction; bbolt fsyncs on commit, so when
// update returns nil the change is on disk.
func (s *Store) update(ctx context.Context, fn func(tx *bbolt.Tx) error) error {
	return s.run(ctx, true, current(fn))
}

// view runs fn in one read transaction under a shared lock.
func (s *Store) view(ctx context.Context, fn func(tx *bbolt.Tx) error) error {
	return s.run(ctx, false, current(fn))
}

// current guards fn with a version check. Processes keep no file open, so a
// newer reflect may migrate the file under a long-running older one (a TUI
// left open); the older one must stop rather than write the old layout.
func current(fn func(tx *bbolt.Tx) error) func(tx *bbolt.Tx) error {
	return func(tx *bbolt.Tx) error {
		have, err := fileVersion(tx)
		if err != nil {
			return err
		}
		if want := SchemaVersion(); have != want {
			return fmt.Errorf("schema version %d, want %d (not opened with store.Open?)", have, want)
		}
		return fn(tx)
	}
}

// run opens the file for exactly one transaction and closes it again. A lock
// wait longer than the timeout becomes ErrLocked so the caller can say which
// process is in the way; a panic from bbolt on a damaged page, or a fault
// reading past the end of a truncated file, becomes ErrCorrupt.
func (s *Store) run(ctx context.Context, write bool, fn func(tx *bbolt.Tx) error) (err error) {
	return s.runWait(ctx, write, s.timeout, fn)
}

// runWait is run with its own lock wait: a write that has the outbox to
// fall back on waits less than one that must reach the file. A write with
// fn nil only drains the outbox.
func (s *Store) runWait(ctx context.Context, write bool, wait time.Duration, fn func(tx *bbolt.Tx) error) (err error) {
	return s.runMapped(ctx, write, wait, 0, fn)
}

// updateGrowing is update for a transaction that adds about grow bytes to
// the file. The file is mapped with that room from the start: bbolt
// otherwise remaps a file that outgrows its map mid-transaction, and a
// remap first copies every key and value the transaction has touched out of
// the old map (a tenth of a corpus open's CPU).
func (s *Store) updateGrowing(ctx context.Context, grow int, fn func(tx *bbolt.Tx) error) error {
	return s.runMapped(ctx, true, s.timeout, grow, current(fn))
}

// runMapped is runWait mapping grow bytes beyond the file's size.
func (s *Store) runMapped(ctx context.Context, write bool, wait time.Duration, grow int, fn func(tx *bbolt.Tx) error) (err error) {
	if write {
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store %s: %w", s.path, err)
	}
	if !write {
		// bbolt cannot open a missing file read-only; a deleted store should
		// say so plainly.
		if _, err := os.Stat(s.path); err != nil {
			return fmt.Errorf("store %s: %w", s.path, err)
		}
	}
	release, err := fileLock(s.path, write, wait)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return fmt.Errorf("store %s is busy (%w)", s.path, ErrLocked)
		}
		return fmt.Errorf("store %s: %w", s.path, err)
	}
	defer release()
	// A file shorter than its pages say (a cut-short copy) faults inside
	// the mmap; this turns the fault into a panic the recover below sees.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var file *os.File
	var db *bbolt.DB
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		err = fmt.Errorf("store %s: %w: %v", s.path, ErrCorrupt, p)
		if db != nil {
			// The transaction has been rolled back by bbolt's own defer,
			// so closing unmaps the file and drops the flock.
			_ = db.Close()
			return
		}
		// bbolt.Open itself failed half way and its mapping, which pins
		// the flock, cannot be reached: later calls repeat this error
		// rather than blame "another process" for the lock. Only a write
		// open loads the freelist, so only it gets here, under mu.Lock.
		if file != nil {
			_ = file.Close()
		}
		if write {
			s.broken = err
		}
	}()
	if s.broken != nil {
		return s.broken
	}
	mapSize := 0
	if grow > 0 {
		if fi, err := os.Stat(s.path); err == nil {
			mapSize = int(fi.Size()) + grow
		}
	}
	db, err = bbolt.Open(s.path, 0o600, &bbolt.Options{Timeout: wait, ReadOnly: !write, InitialMmapSize: mapSize,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			f, err := os.OpenFile(name, flag, perm)
			file = f
			return f, err
		}})
	if err != nil {
		db = nil
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return fmt.Errorf("store %s is busy (%w)", s.path, ErrLocked)
		case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, bolterrors.ErrVersionMismatch):
			return fmt.Errorf("store %s: %w (%w)", s.path, ErrCorrupt, err)
		}
		return fmt.Errorf("store %s: open: %w", s.path, err)
	}
	if write {
		// Whoever gets the lock first drains what others could not write,
		// before its own write, so the outbox keeps arrival order.
		if err = s.drainOutbox(db); err == nil && fn != nil {
			err = db.Update(fn)
		}
	} else {
		err = db.View(fn)
	}
	if cerr := db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("store %s: close: %w", s.path, cerr)
	}
	return err
}

// buckets fetches the named buckets, failing rather than panicking on a file
// that was never migrated.
func buckets(tx *bbolt.Tx, names ...[]byte) ([]*bbolt.Bucket, error) {
	out := make([]*bbolt.Bucket, len(names))
	for i, n := range names {
		b := tx.Bucket(n)
		if b == nil {
			return nil, fmt.Errorf("store is missing bucket %q (not opened with store.Open?)", n)
		}
		out[i] = b
	}
	return out, nil
}

func bucket(tx *bbolt.Tx, name []byte) (*bbolt.Bucket, error) {
	bs, err := buckets(tx, name)
	if err != nil {
		return nil, err
	}
	return bs[0], nil
}

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// checkID rejects IDs that would break the \x00-separated key layout.
func checkID(what, id string) error {
	if id == "" {
		return fmt.Errorf("empty %s", what)
	}
	if strings.IndexByte(id, 0) >= 0 {
		return fmt.Errorf("%s %q contains a NUL byte", what, id)
	}
	return nil
}

func prefix(corpusID string) []byte {
	b := make([]byte, 0, len(corpusID)+1)
	b = append(b, corpusID...)
	return append(b, 0)
}

// The keys are built in one allocation each: a corpus open builds several
// per document.

func seqKey(corpusID string, seq int) []byte {
	b := make([]byte, len(corpusID)+1+8)
	copy(b, corpusID)
	binary.BigEndian.PutUint64(b[len(corpusID)+1:], uint64(seq))
	return b
}

func docKey(corpusID, docID string) []byte {
	b := make([]byte, 0, len(corpusID)+1+len(docID))
	b = append(b, corpusID...)
	b = append(b, 0)
	return append(b, docID...)
}

func subKey(corpusID, docID, sub string) []byte {
	b := make([]byte, 0, len(corpusID)+len(docID)+len(sub)+2)
	b = append(b, corpusID...)
	b = append(b, 0)
	b = append(b, docID...)
	b = append(b, 0)
	return append(b, sub...)
}

// scanPrefix calls fn for every key with the given prefix, in key order.
func scanPrefix(b *bbolt.Bucket, p []byte, fn func(k, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// scanPrefixReverse is scanPrefix from the last key backwards, or from the
// last key before `before` when that is not nil.
func scanPrefixReverse(b *bbolt.Bucket, p, before []byte, fn func(k, v []byte) (bool, error)) error {
	if before == nil {
		before = append([]byte(nil), p...)
		before[len(before)-1]++ // p always ends in \x00, so this cannot overflow
	}
	c := b.Cursor()
	var k, v []byte
	if k, _ = c.Seek(before); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, p); k, v = c.Prev() {
		more, err := fn(k, v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}
