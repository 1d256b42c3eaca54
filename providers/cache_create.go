package providers

import (
	"errors"
	"io/fs"
	"os"

	bolt "go.etcd.io/bbolt"
)

// createInBackground makes the cache file when none is at c.path yet, and
// reports whether it did: the file is created empty and its exclusive
// flock taken before OpenCache returns, and bbolt writes its first pages
// behind it, while the run builds its pipeline and reads its first
// documents.
//
// Writing a new bbolt file costs two syncs (its meta pages on open, the
// file's growth to cacheMapSize on the first commit), 1 to 27 ms on this
// shared disk, and every cold run of a batch with a new cache paid them
// before its first model call. Nothing is lost by not waiting: lookups
// meanwhile are misses, as they must be in a file that did not exist
// (lookupsMiss), and everything else (commits, Close) waits for c.mu, which
// the creation holds. Another process finds the file locked, as while
// bbolt created it in the foreground, never empty and unlocked.
//
// A file that exists, or one another process creates first, is left to
// prepare as before, as is a platform where the lock cannot be taken on
// the file before bbolt opens it. An error creating the file (a directory
// that is not writable) is reported at once, as before.
func (c *Cache) createInBackground() (bool, error) {
	f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !lockExclusive(f) {
		// Another process holds it already (it opened the file we just
		// made), or no lock can be taken here: bbolt's open waits for it.
		f.Close()
		return false, nil
	}
	c.mu.Lock()
	c.fresh = f
	c.creating.Store(true)
	wait := c.timeout // the caller may set it (and Logger) once OpenCache returns
	go func() {
		defer c.mu.Unlock()
		defer c.creating.Store(false)
		err := c.guarded(func() error {
			return c.updateLocked(wait, func(tx *bolt.Tx) error {
				_, err := tx.CreateBucketIfNotExists(callsBucket)
				return err
			})
		})
		if c.fresh != nil { // bbolt never opened it
			unlockFile(c.fresh)
			c.fresh.Close()
			c.fresh = nil
		}
		if err != nil {
			// Counted now, logged at first use: Logger is set after OpenCache.
			c.faults.Add(1)
			c.createErr.Store(&err)
			return
		}
		c.setIdent()
	}()
	return true, nil
}

// reportCreate logs, once, why createInBackground failed (the lookups and
// commits after it try the file again as any would).
func (c *Cache) reportCreate() {
	err := c.createErr.Load()
	if err == nil {
		return
	}
	c.createOnce.Do(func() {
		if c.Logger != nil {
			c.Logger.Warn("model call cache create failed", "path", c.path, "err", *err)
		}
	})
}

// freshFile hands open the file createInBackground made and locked, once,
// for bbolt's read-write open. Caller holds c.mu.
func (c *Cache) freshFile(readOnly bool) *os.File {
	if readOnly || c.fresh == nil {
		return nil
	}
	f := c.fresh
	c.fresh = nil
	return f
}
