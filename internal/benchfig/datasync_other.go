//go:build !linux

package benchfig

import "os"

func datasync(f *os.File) error { return f.Sync() }
