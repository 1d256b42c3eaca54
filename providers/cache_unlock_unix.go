//go:build unix

package providers

import (
	"os"
	"syscall"
)

// unlockFile drops the flock bbolt took on f. Closing f alone is not enough:
// bbolt's memory map of the file keeps the open file description, and so the
// lock, alive.
func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
