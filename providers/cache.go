package providers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

var callsBucket = []byte("calls")

// ErrCacheCorrupt marks a cache file bbolt could not read.
var ErrCacheCorrupt = errors.New("cache file is corrupt")

// DefaultCacheLockTimeout is how long one cache operation waits for the file
// lock another process holds before giving up (a miss, or a skipped write).
const DefaultCacheLockTimeout = time.Second

// Cache is a content-addressed store of model replies in a bbolt file.
//
// The file's lock is taken for each operation and given back straight after,
// never held for a run: bbolt takes a flock on open (shared for read-only,
// exclusive for read-write), so a process holding it would lock every other
// reflect process out of the cache for as long as it runs. Each operation
// takes the lock for milliseconds; an operation that cannot get it within the
// lock timeout degrades to a miss or a skipped write rather than failing the
// model call. Within a process, concurrent operations are batched into one
// transaction, since goroutines competing for the flock would only poll for
// it; back-to-back lookups share one read-only lock for at most leaseMax
// (viewLeased). The opens themselves, one read-only for lookups and one
// read-write for commits, are kept between locks and taken again while
// nothing else changed the file (cache_lease.go, cache_writeopen.go).
//
// Replies are stored write-behind (cache_write.go): a call returns as soon
// as its reply is queued, and a writer commits what is queued in one
// transaction. Close waits for every queued write. The one durability cost:
// a process killed outright (kill -9, a crash) loses the replies it had not
// yet committed, about commitLinger's worth; they are paid for again on the
// next run, and never answered wrongly.
type Cache struct {
	path    string
	timeout time.Duration
	mu      sync.Mutex // held while a batch runs
	qmu     sync.Mutex // guards queue
	queue   []*cacheOp
	// closed (by Close) and broken (the file turned out damaged) send calls
	// straight to the model; a broken file is not touched again at all.
	closed, broken atomic.Bool

	// Logger receives cache faults (lock timeouts, unreadable entries); nil
	// discards them. Set it before use.
	Logger *slog.Logger

	// w is the write-behind queue (cache_write.go).
	w writeBehind

	// creating is set while createInBackground writes a new file, which
	// holds no reply yet; fresh is that file, made and locked, for bbolt's
	// open (guarded by mu).
	creating   atomic.Bool
	fresh      *os.File
	createErr  atomic.Pointer[error]
	createOnce sync.Once

	hits, misses, faults atomic.Int64
	opens                atomic.Int64 // of the file, for the lease's tests and benchmarks

	// schemas spares each call compacting a schema it has seen before.
	schemas schemaMemo
	// lease is the read-only open lookups share for a while (viewLeased).
	lease readLease
	// wr is the read-write open commits share (lockWriter).
	wr writerOpen

	// ident is the file this Cache opened: a damaged file is moved aside
	// only while it is still the one at path (another process may already
	// have moved it and started a fresh one there).
	ident os.FileInfo
	// damage is why OpenCache moved the file it found aside; reported once,
	// through Logger, at first use.
	damage     error
	reportOnce sync.Once
}

// CacheStats counts what a Cache did since it was opened.
type CacheStats struct {
	Hits, Misses int64
	// Faults are lookups or writes that failed (lock timeout, I/O) and so fell
	// back to calling the model or to not storing its reply.
	Faults int64
}

// OpenCache prepares the cache file at path, creating it and its directory
// when missing, and checks that it is a bbolt database.
//
// A bbolt file that is damaged (cut short, pages overwritten) is moved aside
// to path.damaged-TIME and a fresh cache takes its place: the cache only
// saves money, so a damaged one must cost neither the run nor a crash, and
// the next start must not meet it again. Damage says so and the Logger hears
// it once. A file that is not a bbolt file at all is refused and left alone:
// it may be something else the user pointed --cache at.
func OpenCache(path string) (*Cache, error) {
	if path == "" {
		return nil, errors.New("cache: empty path")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
	}
	c := &Cache{path: path, timeout: DefaultCacheLockTimeout}
	if created, err := c.createInBackground(); err != nil {
		return nil, fmt.Errorf("cache %s: %w", path, err)
	} else if created {
		return c, nil
	}
	found, _ := os.Stat(path)
	err := c.prepare()
	if err == nil {
		return c, nil
	}
	c.ident = found
	if !errors.Is(err, ErrCacheCorrupt) && !errors.Is(err, berrors.ErrChecksum) {
		return nil, fmt.Errorf("cache %s: %w", path, err)
	}
	aside, merr := c.setAside()
	if merr != nil {
		return nil, fmt.Errorf("cache %s: %w; moving it aside failed: %w", path, err, merr)
	}
	fresh := &Cache{path: path, timeout: DefaultCacheLockTimeout,
		damage: fmt.Errorf("%w: %v: set aside as %s, starting a fresh cache", ErrCacheCorrupt, err, aside)}
	if err := fresh.prepare(); err != nil {
		return nil, fmt.Errorf("cache %s: a fresh cache after setting the damaged one aside: %w", path, err)
	}
	return fresh, nil
}

// prepare creates the bucket and reads its first entry, so a file damaged
// there is found now rather than at the first lookup. A file that already
// has the bucket (every start but the first) is only read: a read-write
// open would take the exclusive lock, which every other reflect process
// using the file waits for, and commit a transaction that changes nothing.
func (c *Cache) prepare() error {
	found := false
	err := c.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(callsBucket); b != nil {
			found = true
			b.Cursor().First()
		}
		return nil
	})
	if err == nil && found {
		c.setIdent()
		return nil
	}
	if errors.Is(err, ErrCacheCorrupt) || errors.Is(err, berrors.ErrChecksum) {
		return err
	}
	// Missing, empty, without the bucket, or busy: the read-write open
	// creates what is missing and tells a file that is not bbolt from one
	// that is.
	err = c.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(callsBucket)
		if err == nil {
			b.Cursor().First()
		}
		return err
	})
	c.setIdent()
	// Another process writing right now proves the file is a usable cache.
	if err != nil && !errors.Is(err, berrors.ErrTimeout) {
		return err
	}
	return nil
}

// setIdent records the file at path as the one this Cache opened.
func (c *Cache) setIdent() {
	if fi, err := os.Stat(c.path); err == nil && !c.broken.Load() {
		c.ident = fi
	}
}

// Damage is why OpenCache set the file it found aside, or nil.
func (c *Cache) Damage() error { return c.damage }

// setAside renames the damaged file out of the way, if it is still the one
// this Cache opened, and returns its new name.
func (c *Cache) setAside() (string, error) {
	now, err := os.Stat(c.path)
	if err != nil {
		return "", err
	}
	if c.ident != nil && !os.SameFile(c.ident, now) {
		return "", nil // someone else already replaced it
	}
	aside := fmt.Sprintf("%s.damaged-%s", c.path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := os.Rename(c.path, aside); err != nil {
		return "", err
	}
	return aside, nil
}

func (c *Cache) reportDamage() {
	if c.damage == nil {
		return
	}
	c.reportOnce.Do(func() {
		if c.Logger != nil {
			c.Logger.Error("model call cache was damaged", "path", c.path, "err", c.damage.Error())
		}
	})
}

// Close ends use of the cache; later calls through wrapped clients go
// straight to the model. It waits until every queued reply is committed,
// then closes the read lease's open, the only file handle held between
// operations. A call already past its lookup still stores its reply (at
// once, not queued): it was paid for.
func (c *Cache) Close() error {
	c.w.mu.Lock()
	c.closed.Store(true)
	c.w.mu.Unlock()
	c.Flush()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLease()
	c.closeLease()
	return c.closeWriter()
}

// Stats returns the counters.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Faults: c.faults.Load()}
}

// Wrap returns a Client that answers from the cache when it can and otherwise
// calls next, storing successful replies. provider is part of the key, so
// the same model name at two vendors never shares entries.
func (c *Cache) Wrap(provider string, next llm.Client) llm.Client {
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		c.reportDamage()
		c.reportCreate()
		if c.closed.Load() || c.broken.Load() {
			return next.Complete(ctx, req)
		}
		start := time.Now()
		key := c.schemas.key(provider, req)
		if e, ok := c.get(key); ok {
			c.hits.Add(1)
			// A hit spent nothing: the usage of this call is zero tokens at
			// zero cost (the stored usage stays in the file for reference).
			return llm.Response{Text: e.Text, Model: e.Model, Cached: true, Usage: llm.Usage{Latency: time.Since(start)}}, nil
		}
		c.misses.Add(1)
		resp, err := next.Complete(ctx, req)
		if err != nil {
			return resp, err
		}
		c.put(key, cacheEntry{
			Text: resp.Text, Model: resp.Model,
			InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens, CostUSD: resp.Usage.CostUSD,
			Stored: time.Now().UTC(),
		})
		return resp, nil
	})
}

type cacheEntry struct {
	Text         string    `json:"text"`
	Model        string    `json:"model"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	CostUSD      float64   `json:"cost_usd"`
	Stored       time.Time `json:"stored"`
}

func (c *Cache) get(key []byte) (cacheEntry, bool) {
	if e, ok := c.queued(key); ok {
		return e, true
	}
	if c.creating.Load() {
		return cacheEntry{}, false // a file still being created holds nothing
	}
	op := &cacheOp{key: key}
	c.do(op)
	if op.err != nil {
		c.fault("lookup", op.err)
		return cacheEntry{}, false
	}
	return op.entry, op.found
}

// cacheOp is one lookup (val nil) or write waiting for a batch. A lookup's
// entry is decoded inside the transaction, straight from the file's pages,
// so the value is not copied out first; a write's entry is encoded into val
// by the writer (encoded).
type cacheOp struct {
	key, val []byte
	entry    cacheEntry
	found    bool
	err      error
}

// do runs ops in the next batch and returns once they ran. Opening the file
// costs far more than a lookup, so concurrent callers share one open and one
// transaction: whoever holds the batch lock takes every queued op.
func (c *Cache) do(ops ...*cacheOp) {
	c.qmu.Lock()
	c.queue = append(c.queue, ops...)
	c.qmu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.qmu.Lock()
	batch := c.queue
	c.queue = nil
	c.qmu.Unlock()
	if len(batch) == 0 {
		return // an earlier batch already ran op
	}
	if err := c.guarded(func() error { return c.runBatch(batch, c.timeout) }); err != nil {
		for _, o := range batch {
			o.err = err
		}
	}
}

// runBatch runs a batch in one transaction; one with writes waits up to
// lockWait for the file's exclusive lock. Caller holds c.mu.
func (c *Cache) runBatch(batch []*cacheOp, lockWait time.Duration) error {
	writes := false
	for _, o := range batch {
		writes = writes || o.val != nil
	}
	if writes {
		return c.updateLocked(lockWait, func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(callsBucket)
			if err != nil {
				return err
			}
			for _, o := range batch {
				if o.val == nil {
					lookup(b.Cursor(), o)
				} else if err := b.Put(o.key, o.val); err != nil {
					o.err = err
				}
			}
			return nil
		})
	}
	return c.viewLeased(func(tx *bolt.Tx) error {
		if cur := c.lease.cursor(tx); cur != nil {
			for _, o := range batch {
				lookup(cur, o)
			}
		}
		return nil
	})
}

// lookup finds o's entry with cur, as Bucket.Get would (a key holding a
// nested bucket is no entry), and decodes it straight from the file's pages.
func lookup(cur *bolt.Cursor, o *cacheOp) {
	k, v := cur.Seek(o.key)
	if v == nil || !bytes.Equal(k, o.key) {
		return
	}
	if e, err := decodeEntry(v); err != nil {
		o.err = fmt.Errorf("entry %x: %w", o.key[:min(6, len(o.key))], err)
	} else {
		o.entry, o.found = e, true
	}
}

// guarded runs fn, an operation on the file. bbolt panics on a damaged file
// (a page that is not what its parent says) rather than returning an error;
// the panic becomes ErrCacheCorrupt and switches the cache off, so a corrupt
// cache file costs repeated model calls, never a crash.
//
// A file shorter than its pages say (a copy cut short, a full disk) does not
// even panic: reading past its end inside bbolt's memory map is a SIGBUS or
// SIGSEGV that kills the process. SetPanicOnFault turns that fault into a
// panic too, for this goroutine, the way store.run does.
//
// A file found damaged after it opened well is set aside once it is no
// longer in use here, so that the next run starts afresh instead of meeting
// it again.
func (c *Cache) guarded(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrCacheCorrupt, p)
			if c.lease.tx != nil {
				// Ended first: Close waits for the lease's transaction.
				func() {
					defer func() { _ = recover() }()
					_ = c.lease.tx.Rollback()
				}()
				c.lease.tx = nil
			}
			if c.lease.db != nil {
				// The damage may be in the lease's own mapping: close it
				// only for its flock, never to read through it again.
				func() {
					defer func() { _ = recover() }()
					c.lease.db.Close()
				}()
				c.lease.db, c.lease.file, c.lease.locked = nil, nil, false
			}
			if c.broken.Swap(true) {
				return
			}
			if c.ident == nil {
				return // OpenCache reports and moves it
			}
			aside, merr := c.setAside()
			if c.Logger != nil {
				if merr == nil && aside != "" {
					c.Logger.Error("model call cache off for the rest of the run; set aside as "+aside, "path", c.path, "err", err)
				} else {
					c.Logger.Error("model call cache off for the rest of the run (delete the file to start a fresh cache)", "path", c.path, "err", err, "set_aside_err", fmt.Sprint(merr))
				}
			}
		}
	}()
	return fn()
}

func (c *Cache) view(fn func(*bolt.Tx) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.guarded(func() error { return c.viewLocked(fn) })
}

func (c *Cache) update(fn func(*bolt.Tx) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.guarded(func() error { return c.updateLocked(c.timeout, fn) })
}

func (c *Cache) fault(op string, err error) {
	c.faults.Add(1)
	if c.Logger != nil {
		c.Logger.Warn("model call cache "+op+" failed", "path", c.path, "err", err)
	}
}

func (c *Cache) viewLocked(fn func(*bolt.Tx) error) error {
	db, _, err := c.open(true, c.timeout)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.View(fn)
}

func (c *Cache) updateLocked(lockWait time.Duration, fn func(*bolt.Tx) error) (err error) {
	// NoSync: an entry reaches the OS page cache on commit, so it survives the
	// process being killed (the case a resumed run cares about); only a machine
	// crash could lose the newest entries, which costs a repeated call, never a
	// wrong answer. An fsync per model call would cost more than many calls.
	//
	// The freelist is synced (no NoFreelistSync): without it every read-write
	// open rebuilds the freelist by walking every page of the file, so each
	// write would cost time in proportion to the whole cache, and the walk
	// panics on a damaged page in a goroutine where no recover can reach it.
	// Our own shared flock would keep the exclusive one from this process too.
	c.yieldLease()
	db, err := c.lockWriter(lockWait)
	if err != nil {
		return err
	}
	// Deferred so that a panic inside the transaction (a damaged file) still
	// releases the flock other processes are waiting for: the open is closed
	// unless the commit went through.
	committed := false
	defer func() {
		if committed {
			c.unlockWriter()
			c.relockLease()
			return
		}
		if cerr := c.closeWriter(); err == nil {
			err = cerr
		}
	}()
	db.NoSync = true
	var txid int
	if err := db.Update(func(tx *bolt.Tx) error {
		txid = tx.ID()
		return fn(tx)
	}); err != nil {
		return err
	}
	committed = true
	c.wr.committed(txid)
	return nil
}

// cacheMapSize is the memory map each open of the cache file starts with.
//
// bbolt grows a file to its map's size when a commit needs pages past the
// end, and the map doubles from 32 KiB: a batch of 1,000 calls with nothing
// cached grew its 1 MiB cache six times. Each growth is a truncate and an
// fsync inside the commit (1-12 ms on a busy disk here), while the commit
// holds the batch lock every lookup waits for, and each sends the lease
// and the writer to open the file again (it is no longer the size they
// mapped). Mapped at 4 MiB from the start, the file grows once, to 4 MiB,
// until it holds more than that. The map costs address space, not memory,
// and the growth leaves a hole in the file, not written blocks. It changes
// nothing of what is promised: the growth's fsync still runs, once.
const cacheMapSize = 4 << 20

// open opens the file for one operation, or for a lease, and returns the
// file bbolt opened (whose flock a lease gives back and takes again).
// bbolt can panic inside Open (a
// damaged freelist page) after taking the flock and before it could hand back
// a DB to close; the lock other processes wait for is then dropped here, and
// the panic goes on to guarded. (The memory map bbolt made stays until the
// process ends; the cache is off from then on, so that happens once.)
func (c *Cache) open(readOnly bool, lockWait time.Duration) (*bolt.DB, *os.File, error) {
	c.opens.Add(1)
	var f *os.File
	fresh := c.freshFile(readOnly)
	opts := &bolt.Options{Timeout: lockWait, ReadOnly: readOnly, InitialMmapSize: cacheMapSize,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			if fresh != nil {
				f = fresh
				return f, nil
			}
			var err error
			f, err = os.OpenFile(name, flag, perm)
			return f, err
		}}
	defer func() {
		if p := recover(); p != nil {
			if f != nil {
				unlockFile(f)
				f.Close()
			}
			panic(p)
		}
	}()
	db, err := bolt.Open(c.path, 0o600, opts)
	return db, f, err
}
