package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

// TestPresenceOpenBy: a reviewer has at most one document open per corpus;
// moving to another replaces the entry, "" clears it, and an entry older
// than PresenceStale (a session killed without clearing it) is not read.
func TestPresenceOpenBy(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 3)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	read := func(at time.Time) map[string]string {
		t.Helper()
		ps, err := s.PresenceIn(ctx, "c", at)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, p := range ps {
			out[p.Reviewer] = p.DocID
		}
		return out
	}
	set := func(who, doc string, at time.Time) {
		t.Helper()
		if err := s.SetPresence(ctx, "c", who, doc, at); err != nil {
			t.Fatal(err)
		}
	}
	set("ann", "doc-000001", now)
	set("bob", "doc-000002", now)
	set("ann", "doc-000003", now.Add(time.Second))
	if got := read(now.Add(time.Second)); len(got) != 2 || got["ann"] != "doc-000003" || got["bob"] != "doc-000002" {
		t.Fatalf("presence %v, want ann on doc 3 (moved), bob on doc 2", got)
	}
	if got, _ := s.PresenceIn(ctx, "other", now); len(got) != 0 {
		t.Fatalf("another corpus sees %v", got)
	}
	set("ann", "", now.Add(2*time.Second))
	if got := read(now.Add(2 * time.Second)); len(got) != 1 || got["bob"] != "doc-000002" {
		t.Fatalf("after ann left: %v", got)
	}
	// bob's session died: no heartbeat for longer than PresenceStale.
	if got := read(now.Add(store.PresenceStale + time.Second)); len(got) != 0 {
		t.Fatalf("a stale entry is still read: %v", got)
	}
	if err := s.SetPresence(ctx, "c", "", "doc-000001", now); err == nil {
		t.Error("presence without a reviewer was accepted")
	}
}
