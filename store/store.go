package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrLocked is wrapped when another process holds the store's file lock for
// longer than Options.Timeout.
var ErrLocked = errors.New("locked by another reflect process")

// ErrNotFound is wrapped when a corpus or document does not exist.
var ErrNotFound = errors.New("not found")

// DefaultTimeout is how long an operation waits for the file lock.
const DefaultTimeout = time.Second

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
	}
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

// Open creates the file (and its directory) if needed and migrates it to the
// current schema version. The file is closed again before Open returns.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty path")
	}
	t := opts.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store: create directory for %s: %w", path, err)
	}
	s := &Store{path: path, timeout: t}
	err := s.update(context.Background(), func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bktMeta)
		if err != nil {
			return fmt.Errorf("create meta bucket: %w", err)
		}
		var have uint64
		if v := meta.Get(keyVersion); v != nil {
			if len(v) != 8 {
				return fmt.Errorf("schema version is %d bytes, want 8", len(v))
			}
			have = binary.BigEndian.Uint64(v)
		}
		ms := migrations()
		if have > uint64(len(ms)) {
			return fmt.Errorf("schema version %d is newer than this reflect understands (%d): upgrade reflect", have, len(ms))
		}
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
	return s, nil
}

// Path is the file this store uses.
func (s *Store) Path() string { return s.path }

// open opens the file for exactly one transaction. A lock wait longer than the
// timeout becomes ErrLocked so the caller can say which process is in the way.
func (s *Store) open(ctx context.Context, readOnly bool) (*bbolt.DB, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.path, err)
	}
	if readOnly {
		// bbolt cannot open a missing file read-only; a deleted store should
		// say so plainly.
		if _, err := os.Stat(s.path); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.path, err)
		}
	}
	db, err := bbolt.Open(s.path, 0o600, &bbolt.Options{Timeout: s.timeout, ReadOnly: readOnly})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("store %s is busy (%w)", s.path, ErrLocked)
		}
		return nil, fmt.Errorf("store %s: open: %w", s.path, err)
	}
	return db, nil
}

// update runs fn in one write transaction; bbolt fsyncs on commit, so when
// update returns nil the change is on disk.
func (s *Store) update(ctx context.Context, fn func(tx *bbolt.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	db, err := s.open(ctx, false)
	if err != nil {
		return err
	}
	err = db.Update(fn)
	if cerr := db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("store %s: close: %w", s.path, cerr)
	}
	return err
}

// view runs fn in one read transaction under a shared lock.
func (s *Store) view(ctx context.Context, fn func(tx *bbolt.Tx) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	db, err := s.open(ctx, true)
	if err != nil {
		return err
	}
	err = db.View(fn)
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

func seqKey(corpusID string, seq int) []byte {
	return append(prefix(corpusID), u64(uint64(seq))...)
}

func docKey(corpusID, docID string) []byte {
	return append(prefix(corpusID), docID...)
}

func subKey(corpusID, docID, sub string) []byte {
	k := append(docKey(corpusID, docID), 0)
	return append(k, sub...)
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

// scanPrefixReverse is scanPrefix from the last key backwards.
func scanPrefixReverse(b *bbolt.Bucket, p []byte, fn func(k, v []byte) (bool, error)) error {
	upper := append([]byte(nil), p...)
	upper[len(upper)-1]++ // p always ends in \x00, so this cannot overflow
	c := b.Cursor()
	var k, v []byte
	if k, _ = c.Seek(upper); k == nil {
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
