package store

import "sync"

// outboxGroup group-commits the outbox appends of concurrent callers (MCP
// agents answered once their needs_review entry is on disk): the first
// caller appends every line waiting in one write and one fsync and answers
// the others; lines that arrive during that fsync go in the next append,
// led by the first of them. Before, each caller took the outbox's lock for
// its own write and fsync, so eight at once waited for up to eight fsyncs
// in a row (issue 11). One caller alone pays one append, as before.
type outboxGroup struct {
	mu      sync.Mutex
	waiting []*outboxWait
	busy    bool // a leader is appending
	// appends counts the appends made, each one write and one fsync.
	appends int
}

type outboxWait struct {
	line []byte
	turn chan outboxTurn // buffered: a leader never waits on a caller
}

// outboxTurn answers a waiting caller: its line's append failed or is on
// disk (err), or it leads the next append.
type outboxTurn struct {
	lead bool
	err  error
}

// append returns once line is on disk in the outbox of the store at path.
func (g *outboxGroup) append(path string, line []byte) error {
	w := &outboxWait{line: line, turn: make(chan outboxTurn, 1)}
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	lead := !g.busy
	g.busy = true
	g.mu.Unlock()
	if !lead {
		t := <-w.turn
		if !t.lead {
			return t.err
		}
	}
	return g.lead(path, w)
}

// lead appends every waiting line, w's among them (w waits until a leader
// takes it, and only the leader takes lines), answers their callers and
// hands the next append to the first line that arrived meanwhile.
func (g *outboxGroup) lead(path string, w *outboxWait) error {
	g.mu.Lock()
	batch := g.waiting
	g.waiting = nil
	g.appends++
	g.mu.Unlock()
	lines := make([][]byte, len(batch))
	for i, b := range batch {
		lines[i] = b.line
	}
	err := appendOutbox(path, lines)
	for _, b := range batch {
		if b != w {
			b.turn <- outboxTurn{err: err}
		}
	}
	g.mu.Lock()
	if len(g.waiting) > 0 {
		next := g.waiting[0]
		g.mu.Unlock()
		next.turn <- outboxTurn{lead: true}
	} else {
		g.busy = false
		g.mu.Unlock()
	}
	return err
}
