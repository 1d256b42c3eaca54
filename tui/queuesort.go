package tui

import (
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// statusRank is the status sort: needs review, errors, ok, then pending.
func statusRank(s pipeline.Status) int {
	switch s {
	case pipeline.StatusNeedsReview:
		return 0
	case pipeline.StatusError:
		return 1
	case pipeline.StatusOK:
		return 2
	default:
		return 3
	}
}

// sortKey is the queue's order; o cycles through them.
type sortKey int

const (
	// sortStatus: needs review first, then errors, ok, pending; lowest
	// confidence first within a status (what most needs a look).
	sortStatus sortKey = iota
	sortConfidence
	sortID
	// sortFlags: most flagged fields first.
	sortFlags
)

var sortNames = [...]string{"status", "confidence", "id", "flags"}

func (k sortKey) String() string { return sortNames[k] }

// less orders two rows by the key; every key falls back to confidence and
// then arrival, so the order is total and stable across reloads.
func (k sortKey) less(x, y *store.Summary) bool {
	switch k {
	case sortStatus:
		// Held tool calls first: an agent is waiting on each, and the one
		// whose hold runs out soonest is the most urgent.
		if hx, hy := pendingHold(x), pendingHold(y); hx != hy {
			return hx
		} else if hx && x.Expires != y.Expires {
			return x.Expires != 0 && (y.Expires == 0 || x.Expires < y.Expires)
		}
		if rx, ry := statusRank(x.Status), statusRank(y.Status); rx != ry {
			return rx < ry
		}
	case sortID:
		if x.DocID != y.DocID {
			return x.DocID < y.DocID
		}
	case sortFlags:
		if x.Flagged != y.Flagged {
			return x.Flagged > y.Flagged
		}
	}
	if x.Confidence != y.Confidence {
		return x.Confidence < y.Confidence
	}
	return x.Seq < y.Seq
}

// pendingHold is a held tool call nobody has resolved yet.
func pendingHold(s *store.Summary) bool { return s.Kind == store.KindToolCall && !s.Reviewed }
