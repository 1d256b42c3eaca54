package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// DefaultPoll is how often an open workstation asks the store what changed:
// often enough that a result queued by `reflect mcp` in another process, or a
// colleague's decision, shows within a second.
const DefaultPoll = 500 * time.Millisecond

// pollQuiet is the longest the poll goes without waking Update while the
// store file stays as it was: often enough to write this reviewer's presence
// heartbeat and to drop others' stale entries well inside PresenceStale.
const pollQuiet = store.PresenceHeartbeat / 2

// pollMsg asks Update for a poll of the store. Quiet is set when the store
// file has not changed since the last read (pollLoop woke only for the
// heartbeat): then nothing is read unless this reviewer's presence is due.
type pollMsg struct{ Quiet bool }

// ChangesMsg carries the queue rows changed since the last poll, and the
// open document's decisions when its row was among them.
type ChangesMsg struct {
	Rows []store.Summary
	Next uint64
	// DocID and Decisions: the open document's decisions, re-read because
	// its row changed (another reviewer decided on it).
	DocID     string
	Decisions map[string]store.Decision
	// Stamp is the store file's stamp taken before the reads: the next
	// poll reads again only when the file no longer matches it.
	Stamp store.Stamp
	Err   error
	// Presence is who has which document open (PresenceRead when it was
	// read); PresenceErr is a failed write of this reviewer's.
	Presence     []store.Presence
	PresenceRead bool
	PresenceErr  error
}

// pollLoop waits in its own goroutine until the store file changes from
// m.pollStamp (checked every poll interval with one stat, no open, no lock)
// or pollQuiet passes, and only then sends pollMsg. An idle store thus costs
// no read and no message: each message is an Update and a frame, and a key
// pressed just after a frame waits for the renderer's next one.
func (m *Model) pollLoop() tea.Cmd {
	if m.svc.poll <= 0 {
		return nil
	}
	s, since, every := m.svc, m.pollStamp, m.svc.poll
	return func() tea.Msg {
		t := time.NewTicker(every)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-s.ctx.Done():
				return nil
			case now := <-t.C:
				st, err := s.store.Stamp()
				if err != nil || !st.Unchanged(since) {
					return pollMsg{} // an unreadable file is reported by the read
				}
				if now.Sub(start) >= pollQuiet {
					return pollMsg{Quiet: true}
				}
			}
		}
	}
}

// pollCmd reads the rows changed since seq; openDoc is the document on
// screen, whose decisions are re-read when its row changed.
// presence, when not nil, is the item this reviewer now has open ("" for
// none), to be written to the store first. Everything is read in one
// transaction (store.Poll).
func (s *services) pollCmd(seq uint64, openDoc string, presence *string) tea.Cmd {
	return func() tea.Msg {
		var msg ChangesMsg
		if presence != nil {
			if err := s.store.SetPresence(s.ctx, s.corpus.ID, s.reviewer, *presence, time.Now()); err != nil {
				msg.PresenceErr = err
			}
		}
		// After this workstation's own write, so the write alone does not
		// make the next poll read again.
		stamp, err := s.store.Stamp()
		if err != nil {
			return ChangesMsg{Next: seq, Err: err}
		}
		p, err := s.store.Poll(s.ctx, s.corpus.ID, seq, openDoc, time.Now())
		if err != nil {
			return ChangesMsg{Next: seq, Err: err}
		}
		msg.Rows, msg.Next, msg.Stamp = p.Rows, p.Next, stamp
		msg.Presence, msg.PresenceRead = p.Presence, true
		if p.DecisionsRead {
			msg.DocID, msg.Decisions = openDoc, p.Decisions
		}
		return msg
	}
}

// onChanges puts changed rows in the queue without moving the cursor (Resort
// keeps the selected document selected) and shows other reviewers' decisions
// on the open document, with their names.
func (m *Model) onChanges(msg ChangesMsg) tea.Cmd {
	if msg.Err != nil {
		// A busy or briefly unreadable store: say so and keep polling.
		m.setStatus("live queue: "+msg.Err.Error(), true)
		m.pollStamp = store.Stamp{}
		return m.pollLoop()
	}
	m.changeSeq = max(m.changeSeq, msg.Next)
	m.pollStamp = msg.Stamp
	if msg.PresenceErr != nil {
		// Read again next time, so the reading comes back with the write.
		m.pollStamp = store.Stamp{}
		m.svc.presence.retry()
		m.setStatus("presence: "+msg.PresenceErr.Error(), true)
	}
	if msg.PresenceRead {
		m.svc.presence.set(msg.Presence, m.svc.reviewer, time.Now())
	}
	if len(msg.Rows) > 0 {
		for _, r := range msg.Rows {
			m.queue.Upsert(r)
		}
		m.queue.Resort()
	}
	var history tea.Cmd
	if msg.DocID != "" && m.page == pageDoc && m.doc.Shows(msg.DocID) && !m.doc.Saving() {
		if names := m.doc.othersChanged(msg.Decisions); names != "" {
			m.doc.SetDecisions(msg.DocID, msg.Decisions)
			m.setStatus(names, false)
		}
		history = m.doc.reloadHistory()
	}
	return tea.Batch(m.pollLoop(), history)
}

// othersChanged describes the decisions in now that differ from what the
// page shows and were made by another reviewer: "bob accepted total".
func (d *docPage) othersChanged(now map[string]store.Decision) string {
	var parts []string
	for f, dec := range now {
		old, had := d.decisions[f]
		if had && old.At.Equal(dec.At) && old.Reviewer == dec.Reviewer {
			continue
		}
		if dec.Reviewer != d.svc.reviewer {
			parts = append(parts, fmt.Sprintf("%s %s %s", dec.Reviewer, actionWord(string(dec.Action)), f))
		}
	}
	for f, old := range d.decisions {
		if _, still := now[f]; !still && old.Reviewer != d.svc.reviewer {
			parts = append(parts, fmt.Sprintf("%s's %s on %s was undone", old.Reviewer, actionWord(string(old.Action)), f))
		}
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return ""
	}
	return "live: " + strings.Join(parts, ", ") + " on " + d.docID
}
