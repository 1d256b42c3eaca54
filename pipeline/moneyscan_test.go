package pipeline

import "testing"

// carriedBalance passes over amounts without a key before looking their
// key up: no previous-balance label has an empty key.
func TestPreviousBalanceKeysHoldNoEmptyKey(t *testing.T) {
	if previousBalanceKeys[""] {
		t.Fatal(`previousBalanceKeys holds "": carriedBalance must look up unlabelled amounts too`)
	}
}
