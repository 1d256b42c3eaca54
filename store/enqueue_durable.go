package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// drainDelay is how long entries EnqueueDurable wrote wait in the outbox
// before they are committed to the store together: a drain holds the
// outbox while it commits, so draining after every entry would make the
// next caller's append wait for it.
const drainDelay = 20 * time.Millisecond

// drainer schedules one commit of the outbox behind the entries written to
// it (EnqueueDurable); guarded by mu.
type drainer struct {
	mu        sync.Mutex
	scheduled bool
	// running counts the drains scheduled or under way; idle are the Flush
	// calls waiting for it to reach 0. (A WaitGroup here let EnqueueDurable
	// Add from 0 while Flush Waited, which WaitGroup forbids.)
	running int
	idle    []chan struct{}
}

// finished ends one drain and releases the waiters once none is left.
func (d *drainer) finished() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running--
	if d.running == 0 {
		for _, c := range d.idle {
			close(c)
		}
		d.idle = nil
	}
}

// wait returns once no drain is scheduled or under way.
func (d *drainer) wait() {
	d.mu.Lock()
	if d.running == 0 {
		d.mu.Unlock()
		return
	}
	c := make(chan struct{})
	d.idle = append(d.idle, c)
	d.mu.Unlock()
	<-c
}

// EnqueueDurable is Enqueue for a caller waiting on the answer (an MCP
// agent told its result is queued for review): it returns as soon as the
// entry is on disk in the outbox, one append and one fsync shared with the
// callers that arrived meanwhile (outboxGroup), and commits it
// to the store shortly after, behind the answer, together with whatever
// else arrived meanwhile. Until then FindTrace and review_status find it
// in the outbox, and if the process dies first the next writer replays it.
// The queue row is known only once committed, so none is returned.
// Enqueue's transaction cost about 1 ms more per call (issue 11).
func (s *Store) EnqueueDurable(ctx context.Context, queue string, doc Document, pipelineVersion string, r pipeline.Result) (string, error) {
	corpusID := QueueCorpusID(queue)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := checkID("queue", queue); err != nil {
		return "", fmt.Errorf("enqueue: %w", err)
	}
	if doc.ID != "" {
		// Refused now, not when it is replayed into the rejected file.
		if err := checkID("document id", doc.ID); err != nil {
			return "", fmt.Errorf("enqueue: %w", err)
		}
	}
	doc.TraceID = r.TraceID
	line, err := enqueueEntry(queue, doc, pipelineVersion, r)
	if err != nil {
		return "", fmt.Errorf("enqueue to %q: %w", corpusID, err)
	}
	if err := s.appends.append(s.path, line); err != nil {
		return "", fmt.Errorf("enqueue to %q: outbox: %w", corpusID, err)
	}
	s.drainSoon()
	return corpusID, nil
}

// drainSoon commits the outbox to the store drainDelay from now, unless a
// commit is already scheduled (it will take this entry too). A failure
// (the store held by another process past its timeout) leaves the entries
// in the outbox for the next writer.
func (s *Store) drainSoon() {
	d := &s.drain
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.scheduled {
		return
	}
	d.scheduled = true
	d.running++
	time.AfterFunc(drainDelay, func() {
		defer d.finished()
		d.mu.Lock()
		d.scheduled = false
		d.mu.Unlock()
		_ = s.flushOutbox(context.Background())
	})
}

// Flush commits whatever waits in the outbox to the store now, after any
// commit EnqueueDurable scheduled; a process that wrote entries calls it
// before it exits, so a reader sees them without waiting for the next
// writer.
func (s *Store) Flush(ctx context.Context) error {
	s.drain.wait()
	return s.flushOutbox(ctx)
}

// flushOutbox drains the outbox in a write open of its own (runWait with
// no transaction after the drain).
func (s *Store) flushOutbox(ctx context.Context) error {
	if !outboxPending(s.path) {
		return nil
	}
	return s.runWait(ctx, true, s.timeout, nil)
}
