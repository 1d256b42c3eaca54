//go:build !unix

package store

import (
	"os"
	"time"
)

// fileLock is a no-op where flock is missing: bbolt's own lock serialises.
func fileLock(string, bool, time.Duration) (func(), error) { return func() {}, nil }

func lockFile(*os.File) error { return nil }
