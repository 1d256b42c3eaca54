package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// The gateway's guard reads what no human has settled in a client's queue:
// a needs_review result with its flagged values, one still in the outbox
// (another process held the store when it was queued), and, from the
// change log, the rows settled since it last asked.
func TestUnsettledFromTheStoreAndItsOutbox(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/reflect.db"
	s, err := store.Open(path, store.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	flaggedResult := func(trace string, total float64) pipeline.Result {
		return pipeline.Result{Schema: "invoice", Status: pipeline.StatusNeedsReview, TraceID: trace,
			Data:          pipeline.Record{"total": total},
			FlaggedFields: []pipeline.FlaggedField{{Field: "total", Value: total, Confidence: 0.01, Reason: "not in the text"}}}
	}
	corpusID, row, err := s.Enqueue(ctx, "claude-code", store.Document{Text: "Total 108.50"}, "v1", flaggedResult("trace-a", 683.2))
	if err != nil {
		t.Fatal(err)
	}
	open, closed, seq, err := s.UnsettledSince(ctx, corpusID, 0)
	if err != nil || len(open) != 1 || len(closed) != 0 || open[0].TraceID != "trace-a" || open[0].Flagged[0].Value != 683.2 {
		t.Fatalf("unsettled: %+v closed %v (%v)", open, closed, err)
	}

	cmd, stdin := startLockHolder(t, "hold-lock", path)
	if _, _, err := s.Enqueue(ctx, "claude-code", store.Document{Text: "Total 9.99"}, "v1", flaggedResult("trace-b", 99.9)); err != nil {
		t.Fatalf("Enqueue while locked: %v", err)
	}
	pending, err := s.OutboxUnsettled("claude-code")
	if err != nil || len(pending) != 1 || pending[0].TraceID != "trace-b" {
		t.Fatalf("outbox: %+v (%v)", pending, err)
	}
	if other, _ := s.OutboxUnsettled("another-client"); len(other) != 0 {
		t.Fatalf("another client's queue sees %+v", other)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}

	if _, err := s.Decide(ctx, store.Decision{CorpusID: corpusID, DocID: row.DocID, Field: "total", Action: store.ActionCorrect,
		Value: 108.5, Original: 683.2, Reviewer: "ana", At: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	open, closed, _, err = s.UnsettledSince(ctx, corpusID, seq)
	if err != nil {
		t.Fatal(err)
	}
	if len(closed) != 1 || closed[0] != row.DocID || len(open) != 1 || open[0].TraceID != "trace-b" {
		t.Fatalf("since %d: open %+v closed %v; want trace-a settled and trace-b (drained from the outbox) open", seq, open, closed)
	}
}
