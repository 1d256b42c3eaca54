package pipeline

import "context"

// stopper lets the passes over a text give up when their context is done. It
// looks at the context once every 4096 steps, so checking costs nothing.
type stopper struct {
	ctx  context.Context
	n    int
	done bool
}

// stop reports whether the pass should give up; nil never stops. It is
// small enough to inline: the passes ask it once per rune.
func (s *stopper) stop() bool {
	if s == nil {
		return false
	}
	s.n++
	if s.n&4095 != 0 {
		return s.done
	}
	return s.look()
}

// look is the context check of every 4096th step, kept out of line so stop
// stays small.
//
//go:noinline
func (s *stopper) look() bool {
	if !s.done && s.ctx.Err() != nil {
		s.done = true
	}
	return s.done
}

func (s *stopper) err() error {
	if s == nil {
		return nil
	}
	return s.ctx.Err()
}

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

// setPrimary moves the span starting at start to the front: it is the
// occurrence the checks accepted.
func (c *FieldCheck) setPrimary(start int) {
	for i, sp := range c.Spans {
		if sp.Start == start {
			copy(c.Spans[1:i+1], c.Spans[:i])
			c.Spans[0] = sp
			return
		}
	}
}

// markPrimary marks the first of several spans primary.
func (c *FieldCheck) markPrimary() {
	if len(c.Spans) > 1 {
		c.Spans[0].Primary = true
	}
}
