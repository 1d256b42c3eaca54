//go:build !unix

package providers

import "os"

// unlockFile has nothing to do where bbolt's lock goes with the handle.
func unlockFile(*os.File) {}
