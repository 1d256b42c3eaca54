package providers

import (
	"errors"
	"sync"
	"time"

	berrors "go.etcd.io/bbolt/errors"
)

// writeBehind is the queue of replies a Cache has yet to commit.
//
// A model call used to wait for its reply's commit (open the file, take the
// exclusive flock, write, close) before returning: milliseconds on every
// call, on the critical path of every document. Now put only queues the
// reply and, when none is running, starts a writer goroutine; the writer
// commits everything queued in one transaction per round (group commit). A
// round starts commitLinger after its first reply was queued: replies come
// in bursts (a batch's documents wait on one model together), and a commit
// (open, exclusive flock, write, close) costs more CPU than the lookups of
// a burst, so a burst is one commit rather than several. The writer ends
// when the queue is empty, so an idle Cache holds no goroutine.
//
// A reply stays in pending from put until its commit is over, and lookups
// check pending first: a process never asks the model twice for a reply it
// already has, committed or not. Another process sees it once committed,
// as before.
type writeBehind struct {
	mu      sync.Mutex
	idle    sync.Cond // signalled when the writer ends; L is &mu
	queue   []*cacheOp
	pending map[string]pendingEntry
	running bool
	// now cuts the writer's linger short (Flush); buffered, never closed.
	now chan struct{}
}

// commitLinger is how long queued replies wait for others to share their
// commit; it bounds what a process killed outright loses (README: Cache).
const commitLinger = 20 * time.Millisecond

type pendingEntry struct {
	e  cacheEntry
	op *cacheOp // the write that carries it (a later put may replace it)
}

// put stores e under key: queued for the writer, or committed at once when
// the Cache is closed (a call past its lookup when Close came).
//
// The reply is encoded for the file by the writer, not here: put runs on
// the call's path, when a round of replies queues on the cores, and the
// writer commits commitLinger later.
func (c *Cache) put(key []byte, e cacheEntry) {
	if c.broken.Load() {
		return
	}
	op := &cacheOp{key: key, entry: e}
	w := &c.w
	w.mu.Lock()
	if c.closed.Load() {
		w.mu.Unlock()
		if len(encoded([]*cacheOp{op})) > 0 {
			c.do(op)
		}
		if op.err != nil {
			c.fault("store", op.err)
		}
		return
	}
	if w.pending == nil {
		w.pending = map[string]pendingEntry{}
	}
	w.pending[string(key)] = pendingEntry{e: e, op: op}
	w.queue = append(w.queue, op)
	start := !w.running
	w.running = true
	if w.now == nil {
		w.now = make(chan struct{}, 1)
	}
	w.mu.Unlock()
	if start {
		go c.write()
	}
}

// queued returns the reply put stored under key that is not committed yet.
func (c *Cache) queued(key []byte) (cacheEntry, bool) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	p, ok := c.w.pending[string(key)]
	return p.e, ok
}

// write is the writer: it commits the queue round after round until it is
// empty. A failed commit loses its replies as a failed synchronous write
// did (a fault, and the next run pays for them again).
func (c *Cache) write() {
	w := &c.w
	linger := time.NewTimer(commitLinger)
	defer linger.Stop()
	for {
		select {
		case <-linger.C:
		case <-w.now:
		}
		w.mu.Lock()
		batch := w.queue // never empty: a round starts only with replies queued
		w.queue = nil
		w.mu.Unlock()
		if ok := encoded(batch); len(ok) > 0 {
			c.commit(ok)
		}
		w.mu.Lock()
		for _, op := range batch {
			if p, ok := w.pending[string(op.key)]; ok && p.op == op {
				delete(w.pending, string(op.key))
			}
		}
		w.mu.Unlock()
		for _, op := range batch {
			if op.err != nil {
				c.fault("store", op.err)
			}
		}
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.running = false
			if w.idle.L != nil {
				w.idle.Broadcast()
			}
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		linger.Reset(commitLinger)
	}
}

// encoded encodes each write's entry for the file and returns the writes
// that could be; one that could not (a NaN cost) carries its error.
func encoded(batch []*cacheOp) []*cacheOp {
	ok := batch[:0:0]
	for _, op := range batch {
		if op.val, op.err = encodeEntry(op.entry); op.err == nil {
			ok = append(ok, op)
		}
	}
	return ok
}

// Flush waits until every reply queued so far is committed (or has failed
// and been counted as a fault). Close flushes; so can a caller that wants
// what it paid for on disk before it goes on (the file is then safe from
// the process being killed; an fsync is still the operating system's).
func (c *Cache) Flush() {
	w := &c.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle.L == nil {
		w.idle.L = &w.mu
	}
	for w.running {
		select {
		case w.now <- struct{}{}:
		default: // already told
		}
		w.idle.Wait()
	}
}

// How the writer waits for the file's exclusive lock: one try at a time
// (bbolt's Open tries once when its timeout is shorter than its own 50 ms
// between tries), writeRetry apart, until the lock timeout. It holds the
// batch lock only for a try and a commit, never while it waits, so this
// process's lookups go on while another process holds the file.
const (
	tryOnce    = time.Nanosecond
	writeRetry = 10 * time.Millisecond
)

// commit writes batch in one transaction, setting each op's err when it
// could not.
func (c *Cache) commit(batch []*cacheOp) {
	giveUp := time.Now().Add(c.timeout)
	for !c.broken.Load() {
		c.mu.Lock()
		err := c.guarded(func() error { return c.runBatch(batch, tryOnce) })
		c.mu.Unlock()
		if errors.Is(err, berrors.ErrTimeout) && time.Now().Before(giveUp) {
			time.Sleep(writeRetry)
			continue
		}
		if err != nil {
			for _, op := range batch {
				op.err = err
			}
		}
		return
	}
}
