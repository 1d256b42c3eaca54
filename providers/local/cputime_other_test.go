//go:build !unix

package local_test

import "time"

var epoch = time.Now()

// cpuTime falls back to wall time where getrusage is missing.
func cpuTime() time.Duration { return time.Since(epoch) }
