package providers

import (
	"errors"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// CacheCheck is what CheckCache found in a cache file.
type CacheCheck struct {
	Path       string   `json:"path"`
	Bytes      int64    `json:"bytes"`
	PagesBytes int64    `json:"pages_bytes"`
	Entries    int      `json:"entries"`
	Problems   []string `json:"problems,omitempty"`
	More       int      `json:"more,omitempty"`
}

// OK reports whether the file passed.
func (r CacheCheck) OK() bool { return len(r.Problems) == 0 }

// CheckCache runs bbolt's consistency check over a cache file, read-only
// and under the same fault guard as every other cache operation. A damaged
// file is a report, not an error; the error is for a file that cannot be
// checked (missing, busy past the lock timeout, not a bbolt file).
func CheckCache(path string) (CacheCheck, error) {
	rep := CacheCheck{Path: path}
	fi, err := os.Stat(path)
	if err != nil {
		return rep, fmt.Errorf("cache %s: %w", path, err)
	}
	rep.Bytes = fi.Size()
	c := &Cache{path: path, timeout: DefaultCacheLockTimeout}
	err = c.guarded(func() error {
		return c.viewLocked(func(tx *bolt.Tx) error {
			rep.PagesBytes = tx.Size()
			if rep.PagesBytes > rep.Bytes {
				// The check reads every page in its own goroutine, where a
				// read past the end of the file cannot be recovered.
				rep.Problems = append(rep.Problems, fmt.Sprintf("the file is %d bytes but its pages need %d: it was cut short", rep.Bytes, rep.PagesBytes))
				return nil
			}
			for cerr := range tx.Check() {
				if len(rep.Problems) < 20 {
					rep.Problems = append(rep.Problems, cerr.Error())
				} else {
					rep.More++
				}
			}
			if b := tx.Bucket(callsBucket); b != nil && rep.OK() {
				rep.Entries = b.Stats().KeyN
			}
			return nil
		})
	})
	if errors.Is(err, ErrCacheCorrupt) {
		rep.Problems = append(rep.Problems, err.Error())
		return rep, nil
	}
	if err != nil {
		return rep, fmt.Errorf("cache %s: %w", path, err)
	}
	return rep, nil
}
