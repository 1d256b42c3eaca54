package tui

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

// presenceState is who else has which document open, as the last poll read
// it, what this workstation last wrote about itself, and which documents'
// texts changed in the corpus file. The root model
// owns it and changes it only in Update; the pages read it to draw "open by
// NAME".
type presenceState struct {
	others map[string][]string // docID -> other reviewers with it open
	// read is the last reading, kept so entries that go stale while the
	// store file stays unchanged can be dropped without reading it again.
	read []store.Presence
	// wrote is the item this workstation last said it has open ("" when it
	// said none), at wroteAt; a write is due when the open item differs or
	// the heartbeat is up.
	wrote   string
	wroteAt time.Time
	// textChanged is the documents whose text changed in the corpus file
	// since they were stored, read with the queue.
	textChanged map[string]store.TextChange
}

// textChangedIn reports whether docID's text in the corpus file is no
// longer the one stored (and reviewed).
func (p *presenceState) textChangedIn(docID string) bool {
	if p == nil {
		return false
	}
	_, ok := p.textChanged[docID]
	return ok
}

// openBy names the other reviewers who have docID open: "bob" or "bob, eve".
func (p *presenceState) openBy(docID string) string {
	if p == nil {
		return ""
	}
	return strings.Join(p.others[docID], ", ")
}

// due returns the item to write for this poll, or nil when nothing changed
// and the heartbeat is not up. It records the write as done; a failed write
// calls retry.
func (p *presenceState) due(open string, now time.Time) *string {
	if open == p.wrote && (open == "" || now.Sub(p.wroteAt) < store.PresenceHeartbeat) {
		return nil
	}
	p.wrote, p.wroteAt = open, now
	return &open
}

// expire drops the entries of the last reading that are stale at now.
func (p *presenceState) expire(me string, now time.Time) { p.set(p.read, me, now) }

// retry makes the next poll write again after a failed write.
func (p *presenceState) retry() { p.wrote, p.wroteAt = "\x00", time.Time{} }

// set takes the poll's reading, leaving out this reviewer and entries
// stale at now.
func (p *presenceState) set(ps []store.Presence, me string, now time.Time) {
	p.read = ps
	p.others = map[string][]string{}
	for _, e := range ps {
		if e.Reviewer != me && now.Sub(e.At) <= store.PresenceStale {
			p.others[e.DocID] = append(p.others[e.DocID], e.Reviewer)
		}
	}
	for _, names := range p.others {
		sort.Strings(names)
	}
}

// clearPresence says, on quit, that this reviewer has nothing open any
// more, so nobody sees "open by" for the 30 s until the entry goes stale.
// The program's context is cancelled by then: the write gets its own, short.
func clearPresence(cfg Config) {
	if cfg.Poll <= 0 {
		return // no poll, so nothing was written
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = cfg.Store.SetPresence(ctx, cfg.Corpus.ID, cfg.Reviewer, "", time.Now())
}
