package pipeline

// FieldCheck is what the deterministic heuristics found for one field.
type FieldCheck struct {
	// Factor is the product of every heuristic's factor, in [0,1]. Heuristics
	// can only lower confidence.
	Factor float64
	// Reasons explains every factor below 1, and notes worth a human's eye that
	// did not lower it (an ambiguous day/month order).
	Reasons []string
	// Spans is the field's provenance: where its value occurs in the source.
	Spans []Span
	// Grounded is true when the value was found in the source.
	Grounded bool
}

// HeuristicReport holds a FieldCheck for every non-null field of a record.
type HeuristicReport map[string]FieldCheck
