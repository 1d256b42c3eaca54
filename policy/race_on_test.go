//go:build race

package policy

// The race detector allocates on its own; allocation counts are skipped.
const raceEnabled = true
