//go:build !unix

package providers

import "os"

// unlockFile has nothing to do where bbolt's lock goes with the handle.
func unlockFile(*os.File) {}

// lockShared cannot take the lock again on an open here.
func lockShared(*os.File) bool { return false }

// leaseKeepsOpen: here bbolt's lock goes with the handle, so a lease gives
// its lock back by closing.
const leaseKeepsOpen = false

// lockExclusive cannot take the lock again on an open here.
func lockExclusive(*os.File) bool { return false }
