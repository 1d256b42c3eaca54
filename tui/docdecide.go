package tui

// The document page's decisions: the keys that accept, correct, set null,
// accept the rest and redo, and the editor's outcome, each written to the
// store by a command.

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

func (d *docPage) retry() tea.Cmd {
	if d.svc.runner == nil || d.running || d.loading || d.loadErr != nil {
		return nil
	}
	if d.hasResult && d.res.Status != pipeline.StatusError {
		return nil
	}
	d.running = true
	return d.svc.retryCmd(d.doc)
}

func (d *docPage) decisionKey(k tea.KeyPressMsg) tea.Cmd {
	km := d.svc.keys
	isDecision := key.Matches(k, km.Accept) || key.Matches(k, km.Correct) ||
		key.Matches(k, km.SetNull) || key.Matches(k, km.AcceptAll)
	if !isDecision || !d.reviewable() || len(d.fields) == 0 {
		return nil
	}
	f := d.selected()
	switch {
	case key.Matches(k, km.Accept) && !d.res.Given(f.Name):
		return func() tea.Msg {
			return statusMsg{text: f.Name + " was not given by the caller: nothing to accept; e types its value, x sets it null"}
		}
	case key.Matches(k, km.Accept):
		// The store records an accept as the pipeline's value, so mirror that.
		cmd := d.decide(d.decision(f.Name, store.ActionAccept, d.res.Data[f.Name]))
		if i := d.nextOpen(d.sel); i >= 0 {
			d.sel = i
			d.refresh()
		}
		return cmd
	case key.Matches(k, km.SetNull):
		return d.decide(d.decision(f.Name, store.ActionSetNull, nil))
	case key.Matches(k, km.Correct):
		d.edit = newEditor(f, d.value(f.Name), d.svc.styles, d.svc.keys, d.width)
		return nil
	default: // accept all remaining, then the next document
		var ds []store.Decision
		for _, f := range d.fields {
			// A field validate's caller left out has no value to
			// accept: A leaves it open (new-user report #5).
			if _, done := d.decisions[f.Name]; !done && !d.pending[f.Name] && d.res.Given(f.Name) {
				ds = append(ds, d.decision(f.Name, store.ActionAccept, d.res.Data[f.Name]))
			}
		}
		if len(ds) == 0 {
			return d.advance()
		}
		for _, dec := range ds {
			d.pending[dec.Field] = true
		}
		return d.svc.decideCmd(d.docID, d.doc.Text, ds, true)
	}
}

// redoLast decides the last undone action again, as one action.
func (d *docPage) redoLast() tea.Cmd {
	if len(d.redo) == 0 || !(d.reviewable() || onlyVerdicts(d.redo[len(d.redo)-1]) && d.loadErr == nil && !d.loading) {
		return func() tea.Msg { return statusMsg{text: "nothing to redo in " + d.docID} }
	}
	last := d.redo[len(d.redo)-1]
	d.redo = d.redo[:len(d.redo)-1]
	ds := make([]store.Decision, len(last))
	now := time.Now().UTC()
	for i, dec := range last {
		dec.At, dec.Reviewer = now, d.svc.reviewer
		ds[i] = dec
		d.pending[dec.Field] = true
	}
	cmd := d.svc.redoCmd(d.docID, d.doc.Text, ds)
	return func() tea.Msg {
		msg := cmd().(DecidedMsg)
		msg.redo = true
		return msg
	}
}

// advance asks the root to open the next document.
func (d *docPage) advance() tea.Cmd {
	id := d.docID
	return func() tea.Msg { return advanceMsg{DocID: id} }
}

func (d *docPage) decision(field string, a store.Action, v any) store.Decision {
	return store.Decision{
		CorpusID: d.svc.corpus.ID, DocID: d.docID, Field: field, Action: a,
		Value: v, Original: d.res.Data[field], Reviewer: d.svc.reviewer, At: time.Now().UTC(),
	}
}

func (d *docPage) decide(ds ...store.Decision) tea.Cmd {
	if len(ds) == 0 {
		return nil
	}
	for _, dec := range ds {
		d.pending[dec.Field] = true
	}
	return d.svc.decideCmd(d.docID, d.doc.Text, ds, false)
}

func (d *docPage) updateEditor(msg tea.Msg) tea.Cmd {
	act, v, cmd := d.edit.Update(msg)
	switch act {
	case editCancel:
		d.edit = nil
	case editSubmit:
		f := d.edit.field
		d.edit = nil
		if orig := d.res.Data[f.Name]; orig != nil && store.SameValue(v, orig) {
			// The pipeline's own value typed again confirms it: an accept,
			// not a correction that would count the pipeline wrong.
			return d.decide(d.decision(f.Name, store.ActionAccept, orig))
		}
		return d.decide(d.decision(f.Name, store.ActionCorrect, v))
	}
	return cmd
}
