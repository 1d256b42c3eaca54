package providers

import (
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// How long one read-only open of the file serves lookups, and how long
// lookups then go back to taking the file's lock each before the next
// lease. Opening the file (flock, mmap, meta pages) cost more than the
// lookups of a batch; a cached rerun is nothing but lookups. A lease holds
// a shared flock, so a writer in another process can wait for it: leaseMax
// bounds that wait, and leaseRest (longer than bbolt's 50 ms between tries
// for the flock) gives a waiting writer its turn. A writer tries for its
// 1 s lock timeout, so it needs several rests in that second: lookups in a
// rest take the shared flock for a moment each, and on a loaded machine the
// writer's tries can miss a rest. At 250 ms a period (3 rests a second)
// TestCacheLeaseLetsAWriterIn lost all 5 writes under make test at load 10.
const (
	leaseMax  = 100 * time.Millisecond
	leaseRest = 60 * time.Millisecond
)

// readLease is a read-only open of the file that successive lookup batches
// share; guarded by Cache.mu. A lease period runs leaseMax from opened,
// holding the file's shared flock, then rests leaseRest, when each batch
// takes the flock only for its own lookups; this process's own writes give
// the flock back without ending the period (yieldLease), so they do not
// stretch it either.
//
// The open itself outlives its lock: a period's end, a rest's batch and our
// own write give back only the flock, and the next batch takes it again on
// the same open (lockLease). A batch at concurrency 32 with nothing cached
// opened the file for about 300 of its 1,000 lookups, each open a memory
// map made, faulted in page by page and torn down again. Taking the lock
// again is as good as opening again as long as the file at path is still
// the one mapped and its size is what it was: bbolt keeps no state for a
// read-only open but the map, and reads the meta pages through it at every
// transaction, so a commit made elsewhere in between is seen; a file that
// grew (pages beyond the map), was replaced or set aside is opened afresh.
// Another process sees no difference: the flock is held exactly when an
// open per batch held it.
//
// tx is one read transaction for all the batches of a locked stretch:
// while the lease holds the file's shared flock no process (nor another
// Cache here) can commit, and this Cache's own writes end the stretch
// first, so it sees what a transaction per batch would, without beginning
// one for every lookup.
type readLease struct {
	db     *bolt.DB
	file   *os.File // db's file, whose flock lockLease takes again
	size   int64    // the file's size when db mapped it
	locked bool     // file holds the shared flock
	tx     *bolt.Tx
	// cur is a cursor on the calls bucket in curTx, kept for the lookups of
	// every batch in that transaction: Tx.Bucket and Bucket.Get each build
	// a bucket or a cursor anew (seven allocations a lookup), and a cursor
	// seeks with the stack it already has.
	cur   *bolt.Cursor
	curTx *bolt.Tx
	// opened: zero between periods; resting: when the last period ended
	opened, resting time.Time
}

// viewLeased runs fn in a read transaction on the lease, starting a period
// when none runs and the rest after the last is over; a batch in a rest
// gives the lock back when done. Caller holds c.mu.
func (c *Cache) viewLeased(fn func(*bolt.Tx) error) error {
	now := time.Now()
	l := &c.lease
	if !l.opened.IsZero() && now.Sub(l.opened) >= leaseMax {
		c.dropLease()
	}
	if err := c.lockLease(); err != nil {
		return err
	}
	if l.opened.IsZero() {
		if now.Sub(l.resting) < leaseRest {
			defer c.unlockLease()
		} else {
			l.opened = now
			// The period ends within leaseMax even when no lookup comes to end it.
			time.AfterFunc(leaseMax, func() {
				c.mu.Lock()
				defer c.mu.Unlock()
				if l.opened.Equal(now) {
					c.dropLease()
				}
			})
		}
	}
	if l.tx == nil {
		tx, err := l.db.Begin(false)
		if err != nil {
			return err
		}
		l.tx = tx
	}
	return fn(l.tx)
}

// cursor returns the lease's cursor on the calls bucket in tx, or nil
// when the file has no such bucket. Caller holds c.mu.
func (l *readLease) cursor(tx *bolt.Tx) *bolt.Cursor {
	if l.curTx != tx {
		l.cur, l.curTx = nil, tx
		if b := tx.Bucket(callsBucket); b != nil {
			l.cur = b.Cursor()
		}
	}
	return l.cur
}

// lockLease makes the lease hold the file's shared flock: on the open it
// kept when that is still the file at path, mapped whole, else on a fresh
// open. Caller holds c.mu.
func (c *Cache) lockLease() error {
	l := &c.lease
	if l.locked {
		return nil
	}
	if l.db != nil && lockShared(l.file) {
		if c.leaseCurrent() {
			l.locked = true
			return nil
		}
		unlockFile(l.file)
	}
	// Kept open but busy (a writer has it: the fresh open waits for it as
	// any open does), grown, or replaced.
	c.closeLease()
	db, f, err := c.open(true, c.timeout)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = db.Close()
		return err
	}
	l.db, l.file, l.size, l.locked = db, f, fi.Size(), true
	return nil
}

// leaseCurrent reports whether the lease's open still maps the whole of
// the file at path. Caller holds c.mu and the lease's flock.
func (c *Cache) leaseCurrent() bool {
	mapped, err := c.lease.file.Stat()
	if err != nil || mapped.Size() != c.lease.size {
		return false
	}
	now, err := os.Stat(c.path)
	return err == nil && os.SameFile(mapped, now)
}

// unlockLease ends the lease's read transaction and gives its flock back,
// keeping the open where the lock can be taken again on it. Caller holds
// c.mu.
func (c *Cache) unlockLease() {
	l := &c.lease
	if l.tx != nil {
		_ = l.tx.Rollback()
		l.tx = nil
	}
	if !l.locked {
		return
	}
	if !leaseKeepsOpen {
		c.closeLease()
		return
	}
	unlockFile(l.file)
	l.locked = false
}

// closeLease closes the lease's open, if any. Caller holds c.mu.
func (c *Cache) closeLease() {
	l := &c.lease
	if l.tx != nil {
		_ = l.tx.Rollback()
		l.tx = nil
	}
	if l.db != nil {
		_ = l.db.Close()
		l.db, l.file, l.locked = nil, nil, false
	}
}

// dropLease gives the lease's flock back and ends the lease period:
// lookups take the lock each for leaseRest. Caller holds c.mu.
func (c *Cache) dropLease() {
	c.unlockLease()
	if !c.lease.opened.IsZero() {
		c.lease.opened = time.Time{}
		c.lease.resting = time.Now()
	}
}

// relockLease gives the lease its flock and read transaction back right
// after this Cache's own commit, while a lease period runs. The commit had
// to yield them (yieldLease), and the next lookup would take them again
// anyway: a flock, a stat of the open and one of the path, a new read
// transaction, all on the path of a model call, since a lookup comes
// before every call. The writer does it instead, once per commit, as the
// lookup would have: the same checks that the open still maps the file at
// path (another process may have written between our commit and this
// lock). A period that is over, or a lock another process holds, is left
// for the next lookup, as before. Caller holds c.mu.
func (c *Cache) relockLease() {
	l := &c.lease
	if !leaseKeepsOpen || l.db == nil || l.locked || l.opened.IsZero() || time.Since(l.opened) >= leaseMax {
		return
	}
	if !lockShared(l.file) {
		return
	}
	if !c.leaseCurrent() {
		unlockFile(l.file)
		return
	}
	l.locked = true
	if tx, err := l.db.Begin(false); err == nil {
		l.tx = tx
	}
}

// yieldLease gives the lease's flock back for this process's own write
// (our shared flock would keep our exclusive one out), leaving the lease
// period running. Caller holds c.mu.
func (c *Cache) yieldLease() { c.unlockLease() }
