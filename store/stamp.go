package store

import (
	"fmt"
	"os"
	"time"
)

// stampRacy is how close to the stat a modification time must be for the
// stamp not to vouch for later writes. File systems keep modification times
// at the kernel's tick (a few milliseconds) or coarser, so a commit in the
// same tick as the one a stamp saw, into a file that did not grow, would
// leave the stamp as it was (git calls this the racy-clean case). A second
// covers any tick and some clock skew on a network file system.
const stampRacy = time.Second

// Stamp is what the store file looks like from outside (which file, its size
// and modification time), read without opening it or taking a lock. Every
// committed transaction writes its pages and meta page into the file, so a
// file whose stamp has not changed has had no commit since: a poller can ask
// for a stamp each time and open the store only when it changed. The zero
// Stamp matches nothing.
type Stamp struct {
	fi os.FileInfo
	// settled is set when the modification time was at least stampRacy
	// older than the stat: any later commit then shows as a newer time.
	settled bool
}

// Stamp stats the store's file. Read it before reading the store, so a
// commit between the two shows as a changed stamp next time.
func (s *Store) Stamp() (Stamp, error) {
	fi, err := os.Stat(s.path)
	if err != nil {
		return Stamp{}, fmt.Errorf("store %s: %w", s.path, err)
	}
	age := time.Since(fi.ModTime())
	return Stamp{fi: fi, settled: age >= stampRacy}, nil
}

// Unchanged reports whether no transaction can have committed between the
// stamp since, taken before an earlier read, and st. It reports false, so
// the caller reads, whenever it cannot be sure: since was taken too soon
// after a write, or either stamp is the zero Stamp.
func (st Stamp) Unchanged(since Stamp) bool {
	if st.fi == nil || since.fi == nil || !since.settled {
		return false
	}
	return os.SameFile(st.fi, since.fi) && st.fi.Size() == since.fi.Size() && st.fi.ModTime().Equal(since.fi.ModTime())
}
