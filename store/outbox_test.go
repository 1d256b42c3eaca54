package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// While another process holds the store, a queue entry and a result are
// kept in the fsynced outbox and reported made (no "busy"); FindTrace sees
// them at once, and the next write replays them in order and empties it.
func TestOutboxWhileLocked(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/reflect.db"
	s, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutCorpus(ctx, store.Corpus{ID: "c", Name: "c", Schema: "invoice"}, []store.Document{{ID: "d1", Text: "one"}}); err != nil {
		t.Fatal(err)
	}
	cmd, stdin := startLockHolder(t, "hold-lock", path)

	res := func(trace string) pipeline.Result {
		return pipeline.Result{Schema: "invoice", Status: pipeline.StatusNeedsReview, TraceID: trace, Data: pipeline.Record{"total": 1.0}}
	}
	start := time.Now()
	corpusID, _, err := s.Enqueue(ctx, "agent", store.Document{Text: "queued text"}, "v1", res("trace-q"))
	if err != nil {
		t.Fatalf("Enqueue while locked: %v", err)
	}
	if _, err := s.PutResult(ctx, "c", "d1", "v1", res("trace-r")); err != nil {
		t.Fatalf("PutResult while locked: %v", err)
	}
	if fi, err := os.Stat(path + ".outbox"); err != nil || fi.Size() == 0 {
		t.Fatalf("outbox after writes under a held lock: %v %v", fi, err)
	}
	// The agent's review_status must not say "unknown" for a queued trace.
	got, doc, ok, err := s.FindTrace(ctx, "trace-q")
	if err != nil || !ok || got != corpusID {
		t.Fatalf("FindTrace(trace-q) from the outbox = %q %q %v %v", got, doc, ok, err)
	}
	if _, reviewed, err := s.Settled(ctx, got, doc); err != nil || reviewed {
		t.Fatalf("Settled of an outbox entry = %v %v", reviewed, err)
	}
	t.Logf("two writes under a held lock took %v", time.Since(start))

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	// A fresh handle (another process would be the same) drains on Open.
	s2, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path + ".outbox", path + ".outbox.draining"} {
		if fi, err := os.Stat(p); err == nil && fi.Size() != 0 {
			t.Fatalf("%s not emptied: %d bytes", p, fi.Size())
		}
	}
	got, doc, ok, err = s2.FindTrace(ctx, "trace-q")
	if err != nil || !ok || got != corpusID || doc == "" {
		t.Fatalf("FindTrace(trace-q) after the drain = %q %q %v %v", got, doc, ok, err)
	}
	if r, ok, err := s2.Result(ctx, "c", "d1"); err != nil || !ok || r.TraceID != "trace-r" {
		t.Fatalf("result after the drain = %+v %v %v", r, ok, err)
	}
	rows, err := s2.Summaries(ctx, corpusID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("queue after the drain: %d rows, %v (replayed twice?)", len(rows), err)
	}
}

// Reopening a stored corpus writes nothing (issue 11): it succeeds while
// another process holds a read lock, which a write transaction cannot.
func TestPutCorpusUnchangedDoesNotWrite(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/reflect.db"
	if _, err := store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path, store.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := store.Corpus{ID: "c", Name: "c", Kind: "file", Schema: "invoice", ContentHash: "h1"}
	docs := []store.Document{{ID: "a", Text: "one", Seq: 0}, {ID: "b", Text: "two", Seq: 1}}
	if err := s.PutCorpus(ctx, c, docs); err != nil {
		t.Fatal(err)
	}
	_, stdin := startLockHolder(t, "hold-read-lock", path)
	c.Created = time.Now()
	if err := s.PutCorpus(ctx, c, docs); err != nil {
		t.Fatalf("reopening an unchanged corpus under a reader: %v", err)
	}
	stdin.Close()
	// A new document is still added, after the others.
	if err := s.PutCorpus(ctx, c, append(docs, store.Document{ID: "c", Text: "three", Seq: 2})); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Summaries(ctx, "c")
	if err != nil || len(rows) != 3 || rows[2].DocID != "c" {
		t.Fatalf("rows after adding one: %+v %v", rows, err)
	}
}
