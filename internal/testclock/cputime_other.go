//go:build !unix

package testclock

import "time"

// CPUTime falls back to wall time where getrusage is missing (only
// differences of it are meaningful).
func CPUTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
