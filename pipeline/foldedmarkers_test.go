package pipeline

import (
	"slices"
	"testing"
)

// The folded marker table holds, for every code and index, exactly what
// folding the marker then would give: currencyEvidence reads it instead.
func TestFoldedMarkersAreTheMarkersFolded(t *testing.T) {
	if len(foldedMarkers) != len(currencyMarkers) {
		t.Fatalf("%d codes folded, %d in currencyMarkers", len(foldedMarkers), len(currencyMarkers))
	}
	for code, ms := range currencyMarkers {
		fs := foldedMarkers[code]
		if len(fs) != len(ms) {
			t.Fatalf("%s: %d markers folded, %d listed", code, len(fs), len(ms))
		}
		for i, m := range ms {
			if want := foldNeedle(m.text, foldSpaces); !slices.Equal(fs[i], want) {
				t.Errorf("%s marker %q: folded %q, want %q", code, m.text, string(fs[i]), string(want))
			}
		}
	}
}
