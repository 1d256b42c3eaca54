package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// handleData applies the results of commands and of the background run. It
// reports false for messages it does not know (cursor blinks and the like),
// which go to the active component.
func (m *Model) handleData(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case SummariesMsg:
		first := !m.summariesDone
		m.summariesDone = true
		if msg.Err != nil {
			m.setStatus("cannot load the queue: "+msg.Err.Error(), true)
		} else {
			m.queue.SetRows(msg.Rows)
			m.changeSeq = msg.Seq
			m.pollStamp = msg.Stamp
			m.svc.presence.textChanged = msg.TextChanged
		}
		if first {
			return tea.Batch(m.replayTypeahead(), m.pollLoop()), true
		}
		return m.replayTypeahead(), true
	case pollMsg:
		open, item := "", ""
		if m.page == pageDoc {
			open, item = m.doc.DocID(), m.detail.ItemID()
		}
		now := time.Now()
		write := m.svc.presence.due(item, now)
		if msg.Quiet && write == nil {
			// Nothing in the file changed: only others' entries can have
			// gone stale meanwhile.
			m.svc.presence.expire(m.svc.reviewer, now)
			return m.pollLoop(), true
		}
		return m.svc.pollCmd(m.changeSeq, open, write), true
	case ChangesMsg:
		return m.onChanges(msg), true
	case RunStartedMsg:
		m.progress.Started(msg)
	case ResultMsg:
		return m.onResult(msg), true
	case RunDoneMsg:
		m.progress.Done(msg)
		m.resortPending = false
		m.queue.Resort()
	case resortMsg:
		m.resortPending = false
		m.queue.Resort()
	case OpenDocMsg:
		return m.openDoc(msg.DocID), true
	case DecidedMsg:
		m.onDecided(msg)
		if msg.Advance && msg.Err == nil && m.page == pageDoc && m.detail.ItemID() == msg.DocID {
			return tea.Sequence(m.advanceFrom(msg.DocID), m.replayTypeahead()), true
		}
		return tea.Batch(m.replayTypeahead(), m.doc.reloadHistory()), true
	case statusMsg:
		m.setStatus(msg.text, msg.isErr)
	case advanceMsg:
		if m.page != pageDoc || m.detail.ItemID() != msg.DocID {
			return nil, true // the reviewer moved on meanwhile
		}
		return tea.Sequence(m.advanceFrom(msg.DocID), m.replayTypeahead()), true
	case UndoneMsg:
		m.undoing = false
		m.onUndone(msg)
		return tea.Batch(m.replayTypeahead(), m.doc.reloadHistory()), true
	case ExportedMsg:
		if msg.Err != nil {
			m.setStatus(msg.Err.Error(), true)
		} else {
			line := fmt.Sprintf("exported %d reviewed documents to %s", msg.N, msg.Path)
			if msg.Rejected > 0 {
				line += fmt.Sprintf(" · left out %d rejected (not a document)", msg.Rejected)
			}
			if msg.ToolCalls > 0 {
				line += fmt.Sprintf(" · left out %d held tool call(s)", msg.ToolCalls)
			}
			m.setStatus(line, false)
		}
	case StatsMsg:
		m.stats.Loaded(msg)
	case SkippedMsg:
		m.skipped.Loaded(msg)
	default:
		// A message about an item (its load) goes to the page that
		// shows items, whichever page is in front.
		if m.detail.Apply(msg) {
			if s, ok := msg.(savedStatus); ok {
				m.onSaved(s)
			}
			return m.replayTypeahead(), true
		}
		return nil, false
	}
	return nil, true
}

func (m *Model) onResult(msg ResultMsg) tea.Cmd {
	m.progress.Result(msg)
	m.detail.Apply(msg)
	if msg.StoreErr != nil {
		if !errors.Is(msg.StoreErr, context.Canceled) {
			// Like a decision, a result the store did not take is not shown.
			m.setStatus(fmt.Sprintf("%s: result not saved: %v", msg.DocID, msg.StoreErr), true)
		}
		return nil
	}
	res := msg.Result
	m.queue.Upsert(msg.Row)
	if !msg.Retry {
		return m.scheduleResort()
	}
	m.queue.Resort()
	if res.Status == pipeline.StatusError {
		m.setStatus(msg.DocID+": still failing: "+res.ErrorMessage, true)
	} else {
		m.setStatus(fmt.Sprintf("%s: re-run → %s", msg.DocID, res.Status), false)
	}
	return nil
}

func (m *Model) onDecided(msg DecidedMsg) {
	mine := m.detail.Apply(msg)
	if since := (*store.DecidedSinceError)(nil); errors.As(msg.Err, &since) {
		m.setStatus("not redone: "+since.Error(), true)
		return
	}
	if msg.Err != nil {
		m.setStatus("not saved: "+msg.Err.Error(), true)
		return
	}
	// Keys are held while a save is in flight (see busy), so the document
	// it was made on is still the open one.
	if mine {
		for _, row := range msg.Rows {
			m.queue.Upsert(row)
		}
		m.queue.Refilter()
	}
	if onlyVerdicts(msg.Decisions) {
		d := msg.Decisions[0]
		if mine {
			m.lastVerdict, m.lastVerdictWord = msg.DocID, actionWord(string(d.Action))
		}
		line := "saved: " + msg.DocID + " " + actionWord(string(d.Action))
		if note, _ := d.Value.(string); note != "" {
			line += ": " + note
		}
		m.setStatus(line, false)
		return
	}
	names := make([]string, 0, len(msg.Decisions))
	for _, d := range msg.Decisions {
		names = append(names, d.Field)
	}
	action := "accepted"
	if len(msg.Decisions) == 1 {
		action = actionWord(string(msg.Decisions[0].Action))
	}
	m.setStatus(fmt.Sprintf("saved: %s %s %v", msg.DocID, action, names), false)
}

func actionWord(a string) string {
	switch a {
	case "correct":
		return "corrected"
	case "set_null":
		return "set null"
	case "reject":
		return "rejected (not a document)"
	case "skip":
		return "skipped"
	default:
		return "accepted"
	}
}

func (m *Model) onUndone(msg UndoneMsg) {
	since := (*store.DecidedSinceError)(nil)
	switch {
	case errors.As(msg.Err, &since):
		m.setStatus("not undone: "+since.Error(), true)
		return
	case msg.Err != nil:
		m.setStatus("undo failed: "+msg.Err.Error(), true)
		return
	case !msg.Found && m.lastVerdict != "" && m.lastVerdict != msg.DocID:
		// New user report #15: after X the next document opens, and u
		// here said only "nothing to undo".
		// A skipped document stays in needs review (marked »); a rejected
		// one counts as reviewed (new-user report, session 6).
		where := "the reviewed tab (4)"
		if m.lastVerdictWord == actionWord(string(store.ActionSkip)) {
			where = "needs review (1), marked »,"
		}
		m.setStatus(fmt.Sprintf("nothing to undo on %s; %s was %s: open it in %s and press u there to take it back",
			msg.DocID, m.lastVerdict, m.lastVerdictWord, where), false)
		return
	case !msg.Found:
		m.setStatus("nothing to undo", false)
		return
	}
	m.queue.Upsert(msg.Row)
	m.queue.Refilter()
	m.detail.Apply(msg)
	m.setStatus("undone: "+describeAction(msg.Decisions)+" on "+msg.DocID+" (U redoes)", false)
}

// describeAction names what one action did: "accepted total", or "accepted
// 7 fields" for an accept-all.
func describeAction(ds []store.Decision) string {
	if onlyVerdicts(ds) {
		return "the document " + actionWord(string(ds[0].Action))
	}
	if len(ds) == 1 {
		return actionWord(string(ds[0].Action)) + " " + ds[0].Field
	}
	return fmt.Sprintf("%s %d fields", actionWord(string(ds[0].Action)), len(ds))
}

// advanceFrom opens the document after from in the queue's view (the one
// that took its place once it was reviewed); when none is left the queue
// comes back, saying so.
func (m *Model) advanceFrom(from string) tea.Cmd {
	if id, ok := m.queue.Step(from, 1); ok && id != from {
		return m.openDoc(id)
	}
	m.page = pageQueue
	m.layout()
	m.setStatus("saved "+from+" · no more documents in "+m.queue.tab.String(), false)
	return nil
}
