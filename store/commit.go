package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/bbolt"
)

// outboxAfter is how long a result or queue entry waits for the file lock
// before it is kept in the outbox instead: well inside the second an agent
// should wait for an extract answer (issue 10 §1).
const outboxAfter = 250 * time.Millisecond

// committer group-commits results and queue entries: while one transaction
// is on its way to disk the next writes queue, and they all share the next
// transaction and its fsync (issue 11: one fsync per result made --save
// 2.5x slower and an MCP enqueue cost 1.2 ms).
type committer struct {
	mu       sync.Mutex
	queue    []*groupOp
	flushing bool
}

type groupOp struct {
	fn func(tx *bbolt.Tx) error
	// line encodes the write as an outbox entry, for when the file stays
	// locked.
	line func() ([]byte, error)
	done chan error
}

// groupWrite runs fn in a group-committed transaction and returns once it
// is on disk, or once its outbox entry is. It is not abandoned on ctx once
// queued: the write may still commit and the caller must not be told
// otherwise.
func (s *Store) groupWrite(ctx context.Context, fn func(tx *bbolt.Tx) error, line func() ([]byte, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	op := &groupOp{fn: fn, line: line, done: make(chan error, 1)}
	c := &s.group
	c.mu.Lock()
	c.queue = append(c.queue, op)
	if !c.flushing {
		c.flushing = true
		go s.flushGroup()
	}
	c.mu.Unlock()
	return <-op.done
}

func (s *Store) flushGroup() {
	c := &s.group
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue = nil
		if len(batch) == 0 {
			c.flushing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		s.commitGroup(batch)
	}
}

// commitGroup runs a batch in one transaction. One failing write is left
// out and gets its own error; the others are retried without it.
func (s *Store) commitGroup(batch []*groupOp) {
	for len(batch) > 0 {
		failed := -1
		err := s.runWait(context.Background(), true, outboxAfter, current(func(tx *bbolt.Tx) error {
			for i, op := range batch {
				if err := op.fn(tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		}))
		switch {
		case err == nil:
			for _, op := range batch {
				op.done <- nil
			}
			return
		case failed < 0 && errors.Is(err, ErrLocked):
			err := s.toOutbox(batch)
			for _, op := range batch {
				op.done <- err
			}
			return
		case failed < 0:
			for _, op := range batch {
				op.done <- err
			}
			return
		case failed > 0:
			s.commitGroup(batch[:failed])
		}
		batch[failed].done <- err
		batch = batch[failed+1:]
	}
}

// toOutbox keeps the batch in the outbox with one fsync.
func (s *Store) toOutbox(batch []*groupOp) error {
	lines := make([][]byte, 0, len(batch))
	for _, op := range batch {
		l, err := op.line()
		if err != nil {
			return fmt.Errorf("store %s is locked and the outbox entry cannot be made: %w", s.path, err)
		}
		lines = append(lines, l)
	}
	if err := appendOutbox(s.path, lines); err != nil {
		return fmt.Errorf("store %s is locked and its outbox cannot be written: %w", s.path, err)
	}
	return nil
}
