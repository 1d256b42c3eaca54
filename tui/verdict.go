package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// verdictPrompt is the one-line note typed after X (reject: not a document,
// note optional, so "X enter" is the whole action) or S (skip the document:
// a note is required, so whoever opens it next knows why it was set aside).
type verdictPrompt struct {
	action store.Action
	input  textinput.Model
}

func newVerdictPrompt(a store.Action, docID string, st *Styles, width int) *verdictPrompt {
	prompt, hint := "not a document ("+docID+"), note: ", "optional; enter rejects"
	if a == store.ActionSkip {
		prompt, hint = "skip "+docID+", note: ", "required: why, for whoever opens it next"
	}
	ti := newTextInput(st, prompt, hint)
	setInputWidth(&ti, width)
	ti.Focus()
	return &verdictPrompt{action: a, input: ti}
}

func (p *verdictPrompt) View() string { return p.input.View() }

// openVerdict starts X or S on the document shown. It works on an error page
// too: a page the pipeline could not read is often not a document at all.
func (d *docPage) openVerdict(k tea.KeyPressMsg) tea.Cmd {
	if d.loading || d.loadErr != nil {
		return nil
	}
	a := store.ActionReject
	if key.Matches(k, d.svc.keys.SkipDoc) {
		a = store.ActionSkip
	}
	d.edit = nil
	d.vnote = newVerdictPrompt(a, d.docID, d.svc.styles, d.width)
	return nil
}

func (d *docPage) updateVerdictPrompt(msg tea.Msg) tea.Cmd {
	p := d.vnote
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, d.svc.keys.Cancel):
			d.vnote = nil
			return nil
		case key.Matches(k, d.svc.keys.Submit):
			note := strings.TrimSpace(p.input.Value())
			if p.action == store.ActionSkip && note == "" {
				// The note is empty, so the placeholder's place is free
				// to say why nothing happened.
				p.input.Placeholder = "a skip needs a note (esc cancels)"
				return nil
			}
			d.vnote = nil
			dec := store.VerdictDecision(d.svc.corpus.ID, d.docID, d.svc.reviewer, p.action, note)
			d.pending[dec.Field] = true
			// Like A: once it is on disk, the next document opens.
			return d.svc.decideCmd(d.docID, d.doc.Text, []store.Decision{dec}, true)
		}
	}
	_, cmd := updateInput(&p.input, msg)
	return cmd
}

// setVerdict records the verdict the store holds now (none when ok is false).
func (d *docPage) setVerdict(v store.Verdict, ok bool) {
	d.verdict, d.hasVerdict = v, ok
}

// verdictFromDecision is the verdict a saved decision on VerdictField made.
func verdictFromDecision(dec store.Decision) store.Verdict {
	note, _ := dec.Value.(string)
	return store.Verdict{Action: dec.Action, Note: note, Reviewer: dec.Reviewer, Decision: dec}
}

// verdictText is the header's word on the document's verdict, "" when none.
func (d *docPage) verdictText() string {
	if !d.hasVerdict {
		return ""
	}
	s := "REJECTED (not a document)"
	if d.verdict.Action == store.ActionSkip {
		s = "SKIPPED"
	}
	if d.verdict.Reviewer != d.svc.reviewer {
		s += " by " + d.verdict.Reviewer
	}
	if d.verdict.Note != "" {
		s += ": " + oneLine(d.verdict.Note)
	}
	return s
}

// onlyVerdicts reports whether ds are document-level decisions only, which
// need no field table (they can be redone on an error page).
func onlyVerdicts(ds []store.Decision) bool {
	for _, d := range ds {
		if d.Field != store.VerdictField {
			return false
		}
	}
	return len(ds) > 0
}

// verdictHistoryLine is a verdict's entry in the history pane: "document
// rejected (not a document): blank page", "undid the document's verdict".
func verdictHistoryLine(e store.AuditEntry) string {
	at := e.At.UTC().Format(historyStamp)
	if e.Action == store.ActionUndo {
		return fmt.Sprintf("%s  %s  undid the document's verdict (note was %q)", at, e.Who, auditText(e.Before))
	}
	line := fmt.Sprintf("%s  %s  document %s", at, e.Who, actionWord(string(e.Action)))
	if note, _ := e.After.(string); note != "" {
		line += ": " + oneLine(note)
	}
	return line
}
