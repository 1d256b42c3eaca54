package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// firstN picks the first n eligible ids: the store records whatever the
// caller's sampler chose, so a plain pick keeps these tests about the store.
func firstN(n int) store.AuditPick {
	return func(eligible []string) []string { return eligible[:min(n, len(eligible))] }
}

// The first draw is recorded with what sized it, only auto-accepted
// documents nobody reviewed are eligible, and asking again returns the same
// draw rather than drawing anew; D (more) adds a second draw of documents
// the first did not take.
func TestAuditDrawRecordedOnceAndKept(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 20) // every 5th needs review, the rest ok
	rows, err := s.Summaries(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	var ok []string
	for _, r := range rows {
		if r.Status == pipeline.StatusOK {
			ok = append(ok, r.DocID)
		}
	}
	// One ok document reviewed before the audit: not eligible.
	if _, err := s.Decide(ctx, store.Decision{CorpusID: "c", DocID: ok[0], Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	spec := store.AuditDraw{Seed: 7, Budget: 0.005, Confidence: 0.95, Profile: "gp-test", Reviewer: "ann"}
	d, drawn, err := s.DrawAudit(ctx, "c", spec, firstN(3), false)
	if err != nil || !drawn {
		t.Fatalf("first draw: drawn %v, err %v", drawn, err)
	}
	if d.N != 1 || d.Eligible != len(ok)-1 || !slices.Equal(d.IDs, ok[1:4]) || d.Seed != 7 || d.Profile != "gp-test" || d.Budget != 0.005 {
		t.Fatalf("first draw = %+v; want n 1, %d eligible, ids %v", d, len(ok)-1, ok[1:4])
	}
	again, drawn, err := s.DrawAudit(ctx, "c", store.AuditDraw{Seed: 99}, firstN(10), false)
	if err != nil || drawn {
		t.Fatalf("second open drew again (drawn %v, err %v)", drawn, err)
	}
	if again.Seed != 7 || !slices.Equal(again.IDs, d.IDs) {
		t.Fatalf("second open got %+v, want the first draw %+v", again, d)
	}
	more, drawn, err := s.DrawAudit(ctx, "c", spec, firstN(2), true)
	if err != nil || !drawn || more.N != 2 || !slices.Equal(more.IDs, ok[4:6]) {
		t.Fatalf("more: %+v drawn %v err %v; want draw 2 of %v", more, drawn, err, ok[4:6])
	}
	draws, err := s.AuditDraws(ctx, "c")
	if err != nil || len(draws) != 2 {
		t.Fatalf("AuditDraws = %d draws, %v", len(draws), err)
	}
	if ids := store.AuditSampleIDs(draws); len(ids) != 5 || !ids[ok[1]] || ids[ok[0]] {
		t.Fatalf("sample ids %v", ids)
	}
	if _, _, err := s.DrawAudit(ctx, "nope", spec, firstN(1), false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("draw on a missing corpus: %v, want ErrNotFound", err)
	}
}

// Two handles on one file (two processes' worth: each call opens the file
// for one transaction) asking for the first draw at once record one draw,
// and both get it.
func TestAuditDrawOncePerCorpusAcrossHandles(t *testing.T) {
	ctx := context.Background()
	s := populated(t, 30)
	other, err := store.Open(s.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]store.AuditDraw, 8)
	errs := make([]error, 8)
	for i := range got {
		h := s
		if i%2 == 1 {
			h = other
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each asker would pick differently: only one pick may stand.
			pick := func(e []string) []string { return e[i%len(e) : i%len(e)+1] }
			got[i], _, errs[i] = h.DrawAudit(ctx, "c", store.AuditDraw{Seed: uint64(i)}, pick, false)
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if got[i].N != 1 || got[i].Seed != got[0].Seed || !slices.Equal(got[i].IDs, got[0].IDs) {
			t.Fatalf("asker %d got draw %+v, asker 0 %+v", i, got[i], got[0])
		}
	}
	for _, h := range []*store.Store{s, other} {
		draws, err := h.AuditDraws(ctx, "c")
		if err != nil || len(draws) != 1 {
			t.Fatalf("recorded %d draws (%v), want 1", len(draws), err)
		}
	}
}
