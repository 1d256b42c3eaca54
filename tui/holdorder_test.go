package tui

import (
	"context"
	"slices"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Held tool calls come first in needs review, the one whose hold runs out
// soonest on top, whatever order they were queued in; a hold without a
// readable expiry comes after those with one, and extraction documents
// after every hold. A resolved hold leaves the tab.
func TestHoldsOrderedByExpiry(t *testing.T) {
	expiring := func(id, at string) store.ToolCall {
		c := heldCall(id, "reeflex.policy/write_outside_sandbox")
		c.Expires = at
		return c
	}
	f := newHoldFixture(t,
		expiring("hold-late", "2026-12-01T12:00:00Z"),
		expiring("hold-none", ""),
		expiring("hold-soon", "2026-12-01T10:00:00Z"),
		expiring("hold-mid", "2026-12-01T11:00:00Z"),
	)
	ctx := context.Background()
	// An extraction in the same queue with a very low confidence: under
	// the status order it would otherwise lead.
	res := buildResult(t, "doc-1", textAcme, pipeline.Record{"vendor_name": "ACME Supplies", "total": 99.0},
		map[string]string{"total": "check me"}, 0.05)
	if _, _, err := f.st.Enqueue(ctx, "claude-ai", store.Document{ID: "doc-1", Text: textAcme}, "mcp", res); err != nil {
		t.Fatal(err)
	}
	m := holdModel(t, f, 80, 24)
	want := []string{"hold-soon", "hold-mid", "hold-late", "hold-none", "doc-1"}
	if got := queueIDs(m); !slices.Equal(got, want) {
		t.Fatalf("needs review = %v, want %v", got, want)
	}
	if _, err := f.st.ResolveToolCall(ctx, "claude-ai", "hold-soon", store.Resolution{Approved: true, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	m = apply(t, m, pollMsg{})
	if got := queueIDs(m); !slices.Equal(got, want[1:]) {
		t.Fatalf("after hold-soon was resolved: %v, want %v", got, want[1:])
	}
}
