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

// lockShared takes the shared flock on f again without waiting, false when
// a writer holds the file.
func lockShared(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) == nil
}

// leaseKeepsOpen: here a lease's flock can be given back and taken again
// while its open stays.
const leaseKeepsOpen = true

// lockExclusive takes the exclusive flock on f again without waiting,
// false when another open holds the file.
func lockExclusive(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
