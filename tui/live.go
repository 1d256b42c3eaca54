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

// pollMsg is the tick that asks the store for changes.
type pollMsg struct{}

// ChangesMsg carries the queue rows changed since the last poll, and the
// open document's decisions when its row was among them.
type ChangesMsg struct {
	Rows []store.Summary
	Next uint64
	// DocID and Decisions: the open document's decisions, re-read because
	// its row changed (another reviewer decided on it).
	DocID     string
	Decisions map[string]store.Decision
	Err       error
	// Presence is who has which document open (PresenceRead when it was
	// read); PresenceErr is a failed read or write of it.
	Presence     []store.Presence
	PresenceRead bool
	PresenceErr  error
}

func (m *Model) pollTick() tea.Cmd {
	if m.svc.poll <= 0 {
		return nil
	}
	return tea.Tick(m.svc.poll, func(time.Time) tea.Msg { return pollMsg{} })
}

// pollCmd reads the rows changed since seq; openDoc is the document on
// screen, whose decisions are re-read when its row changed.
// presence, when not nil, is the item this reviewer now has open ("" for
// none), to be written to the store.
func (s *services) pollCmd(seq uint64, openDoc string, presence *string) tea.Cmd {
	return func() tea.Msg {
		rows, next, err := s.store.ChangedSince(s.ctx, s.corpus.ID, seq)
		msg := ChangesMsg{Rows: rows, Next: next, Err: err}
		if err == nil {
			s.pollPresence(&msg, presence)
		}
		if err != nil || openDoc == "" {
			return msg
		}
		for _, r := range rows {
			if r.DocID == openDoc {
				msg.DocID = openDoc
				msg.Decisions, msg.Err = s.store.Decisions(s.ctx, s.corpus.ID, openDoc)
				break
			}
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
		return m.pollTick()
	}
	m.changeSeq = max(m.changeSeq, msg.Next)
	if msg.PresenceErr != nil {
		m.svc.presence.retry()
		m.setStatus("presence: "+msg.PresenceErr.Error(), true)
	}
	if msg.PresenceRead {
		m.svc.presence.set(msg.Presence, m.svc.reviewer)
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
	return tea.Batch(m.pollTick(), history)
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
