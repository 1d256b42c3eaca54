//go:build unix

package local_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time. Growth tests compare
// it rather than wall time, so other processes on a shared machine do not
// decide the ratio.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
