package providers

import (
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// writerOpen is the read-write open of the file that this Cache's commits
// share; guarded by Cache.mu. It holds the file's exclusive flock only
// while a commit runs, as an open per commit did, and keeps the open in
// between: a batch at concurrency 32 with nothing cached committed about
// 60 times, each commit opening the file (flock, memory map, freelist),
// faulting its pages in and tearing it down again.
//
// Taking the lock again on the kept open is as good as opening again while
// nothing else changed the file: the same file at path, the same size, and
// no commit since our last (the meta page's transaction id is ours). A
// read-write open keeps the freelist in memory, which a commit elsewhere
// would make stale, so any change at all means a fresh open.
type writerOpen struct {
	db   *bolt.DB
	file *os.File
	size int64 // the file's size after our last commit
	txid int   // the transaction id of our last commit
}

// lockWriter returns the read-write open holding the exclusive flock,
// waiting up to lockWait for it when a fresh open is needed. Caller holds
// c.mu.
func (c *Cache) lockWriter(lockWait time.Duration) (*bolt.DB, error) {
	w := &c.wr
	if w.db != nil && lockExclusive(w.file) {
		if w.current(c.path) {
			return w.db, nil
		}
		unlockFile(w.file)
	}
	_ = c.closeWriter()
	db, f, err := c.open(false, lockWait)
	if err != nil {
		return nil, err
	}
	w.db, w.file = db, f
	return db, nil
}

// current reports whether nothing but our own commits changed the file
// since w's last commit. Caller holds the exclusive flock.
func (w *writerOpen) current(path string) bool {
	if w.txid == 0 {
		return false
	}
	mapped, err := w.file.Stat()
	if err != nil || mapped.Size() != w.size {
		return false
	}
	if now, err := os.Stat(path); err != nil || !os.SameFile(mapped, now) {
		return false
	}
	tx, err := w.db.Begin(false)
	if err != nil {
		return false
	}
	defer func() { _ = tx.Rollback() }()
	return tx.ID() == w.txid
}

// committed records the commit just made on w, so the next can tell
// whether anything else wrote in between. Caller holds the flock.
func (w *writerOpen) committed(txid int) {
	w.txid = 0
	if fi, err := w.file.Stat(); err == nil {
		w.size, w.txid = fi.Size(), txid
	}
}

// unlockWriter gives the exclusive flock back after a commit, keeping the
// open where the lock can be taken again on it. Caller holds c.mu.
func (c *Cache) unlockWriter() {
	if !leaseKeepsOpen {
		_ = c.closeWriter()
		return
	}
	unlockFile(c.wr.file)
}

// closeWriter closes the read-write open, if any, releasing its flock.
// Caller holds c.mu.
func (c *Cache) closeWriter() error {
	w := &c.wr
	if w.db == nil {
		return nil
	}
	err := w.db.Close()
	*w = writerOpen{}
	return err
}
