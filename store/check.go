package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"go.etcd.io/bbolt"
)

// CheckReport is what Check found in a store file.
type CheckReport struct {
	Path string `json:"path"`
	// Bytes is the file's size; PagesBytes what its pages need (the two
	// differ when a copy was cut short).
	Bytes      int64 `json:"bytes"`
	PagesBytes int64 `json:"pages_bytes"`
	// Problems lists what bbolt's consistency check reported, at most
	// maxProblems of them; More counts the rest.
	Problems []string `json:"problems,omitempty"`
	More     int      `json:"more,omitempty"`
}

// OK reports whether the file passed.
func (r CheckReport) OK() bool { return len(r.Problems) == 0 }

const maxProblems = 20

// Check runs bbolt's consistency check over the whole file (every page
// reachable exactly once, no page both free and in use, keys in order in
// every bucket). Random bytes over pages that nothing reads yet go unnoticed
// by Open, stats and every write until bbolt trips on them, possibly after
// more work was written into the damaged file; this finds them now.
//
// A file that bbolt cannot even open (both meta pages damaged) is a report
// with one problem, not an error: the error is for a file that cannot be
// checked (missing, busy).
func (s *Store) Check(ctx context.Context) (CheckReport, error) {
	rep := CheckReport{Path: s.path}
	fi, err := os.Stat(s.path)
	if err != nil {
		return rep, fmt.Errorf("store %s: %w", s.path, err)
	}
	rep.Bytes = fi.Size()
	err = s.run(ctx, false, func(tx *bbolt.Tx) error {
		// The size again, under the lock: a writer may have grown the file
		// since the look above, and its pages are not a file cut short.
		if fi, err := os.Stat(s.path); err == nil {
			rep.Bytes = fi.Size()
		}
		rep.PagesBytes = tx.Size()
		if rep.PagesBytes > rep.Bytes {
			// bbolt's check reads every page: past the end of the file that
			// is a fault in its own goroutine, which nothing can recover.
			rep.Problems = append(rep.Problems, fmt.Sprintf("the file is %d bytes but its pages need %d: it was cut short", rep.Bytes, rep.PagesBytes))
			return nil
		}
		// bbolt's check runs in a goroutine of its own, where a page id
		// that points outside the file is a fault nothing can recover. Walk
		// every bucket here first, under run's fault guard: a reference
		// out of bounds then becomes ErrCorrupt (reported below) before
		// bbolt's check can follow it.
		if err := walkAll(tx); err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			return nil
		}
		for cerr := range tx.Check() {
			if len(rep.Problems) < maxProblems {
				rep.Problems = append(rep.Problems, cerr.Error())
			} else {
				rep.More++ // drained so that the checking goroutine ends
			}
		}
		return nil
	})
	switch {
	case err == nil:
		return rep, nil
	case errors.Is(err, ErrCorrupt):
		rep.Problems = append(rep.Problems, err.Error())
		return rep, nil
	}
	return rep, err
}

// ErrCheckFailed is wrapped (with ErrCorrupt) by OpenChecked when the file
// fails the consistency check.
var ErrCheckFailed = errors.New("fails its consistency check")

// OpenChecked is Open followed by Check, for a process about to write: a
// damaged file must be refused before a promised write goes into it (where
// it could be lost with the rest), not after. Reading processes (stats,
// export) can still Open it to save what can be saved.
func OpenChecked(ctx context.Context, path string, opts Options) (*Store, error) {
	st, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	if err := st.CheckWritable(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// CheckWritable runs Check and turns a failed check into an error wrapping
// ErrCheckFailed and ErrCorrupt, for a process to refuse to start writing.
func (s *Store) CheckWritable(ctx context.Context) error {
	rep, err := s.Check(ctx)
	if err != nil {
		return err
	}
	if !rep.OK() {
		return fmt.Errorf("store %s %w (%w): %s; run `reflect doctor` for the full report, then restore a backup or move the file aside",
			s.path, ErrCheckFailed, ErrCorrupt, rep.Problems[0])
	}
	return nil
}

// CheckFile checks the store file at path without opening it as a store:
// no migration, no directory or file created, nothing written.
func CheckFile(ctx context.Context, path string) (CheckReport, error) {
	return (&Store{path: path, timeout: DefaultTimeout}).Check(ctx)
}

// walkAll reads every key and value of every bucket, nested ones included,
// so that each page the buckets reach is touched in this goroutine.
func walkAll(tx *bbolt.Tx) error {
	var walk func(b *bbolt.Bucket, depth int) error
	walk = func(b *bbolt.Bucket, depth int) error {
		if depth > 64 {
			return fmt.Errorf("buckets nested more than 64 deep")
		}
		return b.ForEach(func(k, v []byte) error {
			if v != nil {
				return nil
			}
			child := b.Bucket(k)
			if child == nil {
				return fmt.Errorf("bucket entry %q has no bucket", k)
			}
			return walk(child, depth+1)
		})
	}
	return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		if err := walk(b, 1); err != nil {
			return fmt.Errorf("bucket %s: %w", name, err)
		}
		return nil
	})
}
