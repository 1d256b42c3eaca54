package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

func needsReview(trace string) pipeline.Result {
	return pipeline.Result{Status: pipeline.StatusNeedsReview, TraceID: trace, Schema: "invoice",
		Data: pipeline.Record{"total": 3.0}, FlaggedFields: []pipeline.FlaggedField{{Field: "total"}}}
}

// EnqueueDurable answers once the entry is fsynced in the outbox, and the
// entry reaches the queue behind the answer: found by trace while it waits,
// in the queue (in arrival order) after, the outbox empty.
func TestEnqueueDurableLandsInTheQueue(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, trace := range []string{"t-1", "t-2", "t-3"} {
		corpus, err := s.EnqueueDurable(ctx, "claude-ai", Document{Text: "Total 3.00 " + trace}, "v1", needsReview(trace))
		if err != nil || corpus != QueueCorpusID("claude-ai") {
			t.Fatalf("enqueue %d: %q, %v", i, corpus, err)
		}
		// On disk before the answer: the outbox holds it now (unless a
		// scheduled commit already took it into the store).
		out, _ := os.ReadFile(outboxPath(path))
		if _, _, ok, err := s.FindTrace(ctx, trace); !ok || err != nil {
			t.Fatalf("trace %s not found right after its answer (outbox %d bytes): %v", trace, len(out), err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if outboxPending(path) {
		t.Fatal("the outbox still holds entries after Flush")
	}
	rows, err := s.Summaries(ctx, QueueCorpusID("claude-ai"))
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d queued, %v; want 3", len(rows), err)
	}
	for i, r := range rows {
		d, err := s.Document(ctx, QueueCorpusID("claude-ai"), r.DocID)
		if err != nil || !strings.HasSuffix(d.Text, []string{"t-1", "t-2", "t-3"}[i]) || r.Status != pipeline.StatusNeedsReview {
			t.Fatalf("row %d: %+v, text %q, %v", i, r, d.Text, err)
		}
	}
	if _, err := s.EnqueueDurable(ctx, "", Document{Text: "x"}, "v1", needsReview("t-9")); err == nil {
		t.Fatal("an empty queue name was accepted")
	}
}

// Without Flush the entries are committed shortly after their answers,
// a batch of them in one drain.
func TestEnqueueDurableCommitsBehindTheAnswer(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "reflect.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := s.EnqueueDurable(ctx, "q", Document{Text: "Total 3.00"}, "v1", needsReview("t-"+string(rune('a'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		rows, err := s.Summaries(ctx, QueueCorpusID("q"))
		if err == nil && len(rows) == 20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 20 entries reached the queue without a Flush (%v)", len(rows), err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The rows are visible once the drain commits, before it has removed
	// its files: wait for it, or the temporary directory's removal races
	// the drain (CI saw "directory not empty").
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if outboxPending(s.path) {
		t.Fatal("entries left waiting after the scheduled drain")
	}
}

// A drain cut short (the process died mid-replay) left its file: the next
// drain replays it first, then the outbox, so entries keep arrival order,
// and nothing is left behind.
func TestDrainCutShortIsReplayedFirst(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	line := func(trace string) []byte {
		l, err := enqueueEntry("q", Document{Text: "Total 3.00 " + trace}, "v1", needsReview(trace))
		if err != nil {
			t.Fatal(err)
		}
		return append(l, '\n')
	}
	if err := os.WriteFile(drainingPath(path), append(line("older-1"), line("older-2")...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := appendOutbox(path, [][]byte{line("newer")[:len(line("newer"))-1]}); err != nil {
		t.Fatal(err)
	}
	if u, err := s.OutboxUnsettled("q"); err != nil || len(u) != 3 {
		t.Fatalf("waiting entries seen: %d, %v; want 3", len(u), err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Summaries(ctx, QueueCorpusID("q"))
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d queued, %v", len(rows), err)
	}
	for i, want := range []string{"older-1", "older-2", "newer"} {
		d, err := s.Document(ctx, QueueCorpusID("q"), rows[i].DocID)
		if err != nil || !strings.HasSuffix(d.Text, want) {
			t.Fatalf("row %d: %q (%v), want %s", i, d.Text, err, want)
		}
	}
	if outboxPending(path) {
		t.Fatal("entries left waiting after the drain")
	}
}

// Concurrent EnqueueDurable calls share appends: while one append waits for
// the outbox (here held by another writer, as another process's append or
// a drain holds it), the callers that arrive all go in the next one, one
// write and one fsync for all of them. Each is still answered only once
// its own entry is in the outbox, and every one reaches the queue.
func TestEnqueueDurableGroupsConcurrentCallers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(outboxPath(path), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockFile(held); err != nil {
		t.Fatal(err)
	}
	const callers = 16
	errs := make(chan error, callers)
	for i := range callers {
		go func() {
			trace := fmt.Sprintf("t-%d", i)
			if _, err := s.EnqueueDurable(ctx, "claude-ai", Document{Text: "Total 3.00 " + trace}, "v1", needsReview(trace)); err != nil {
				errs <- err
				return
			}
			if _, _, ok, err := s.FindTrace(ctx, trace); !ok || err != nil {
				errs <- fmt.Errorf("trace %s not found right after its answer: %v", trace, err)
				return
			}
			errs <- nil
		}()
	}
	// One caller leads and waits for the held outbox; the rest queue
	// behind it.
	for waiting := 0; waiting < callers-1; {
		s.appends.mu.Lock()
		waiting = len(s.appends.waiting)
		s.appends.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	for range callers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s.appends.mu.Lock()
	got := s.appends.appends
	s.appends.mu.Unlock()
	if got != 2 {
		t.Errorf("%d callers made %d appends; want 2 (the leader's, then the %d that waited, together)", callers, got, callers-1)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Summaries(ctx, QueueCorpusID("claude-ai"))
	if err != nil || len(rows) != callers {
		t.Fatalf("%d queued, %v; want %d", len(rows), err, callers)
	}
}

// Flush may run while the same handle goes on enqueueing (reflect mcp
// exiting with a call in flight): it waits for the scheduled drains and
// every entry still reaches the queue. Under -race this caught a WaitGroup
// that EnqueueDurable added to while Flush waited on it.
func TestFlushWhileEnqueueing(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const perCaller, callers = 40, 2
	errs := make(chan error, callers)
	for c := range callers {
		go func() {
			for i := range perCaller {
				trace := fmt.Sprintf("t-%d-%d", c, i)
				if _, err := s.EnqueueDurable(ctx, "claude-ai", Document{Text: "Total 3.00 " + trace}, "v1", needsReview(trace)); err != nil {
					errs <- err
					return
				}
				if i%10 == 9 {
					if err := s.Flush(ctx); err != nil {
						errs <- err
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range callers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if rows, err := s.Summaries(ctx, QueueCorpusID("claude-ai")); err != nil || len(rows) != perCaller*callers {
		t.Fatalf("%d queued, %v; want %d", len(rows), err, perCaller*callers)
	}
}
