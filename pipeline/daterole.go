package pipeline

import (
	"context"
	"time"
)

// RunHeuristicsAt is RunHeuristicsContext judged at the moment now rather
// than at time.Now: the document's own date (RoleDocumentDate) more than a
// year after now is flagged, so a caller that verifies stored results, or a
// test, fixes the clock as Config.Now does for a Pipeline.
func RunHeuristicsAt(ctx context.Context, now time.Time, text string, s *Schema, rec Record) (HeuristicReport, error) {
	return runHeuristics(ctx, nil, text, s, rec, nil, nil, now.Year())
}
