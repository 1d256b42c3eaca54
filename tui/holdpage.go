package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// HoldResolver settles a hold the gateway made: the workstation's answer
// takes the code path of `reflect holds approve/reject` (the engine, with
// the reviewer as the approver, then the queue item), and returns the
// item's queue row. It is consumed here and implemented in cmd.
type HoldResolver interface {
	Resolve(ctx context.Context, holdID string, approve bool, note string) (store.Summary, error)
}

// DecidedElsewhereError is a HoldResolver's answer for a hold someone
// decided since the page loaded (another workstation, `reflect holds`):
// nothing was sent, and Resolution says who decided it.
type DecidedElsewhereError struct {
	HoldID     string
	Status     string // the engine's: approved, rejected, expired, consumed
	Resolution store.Resolution
}

func (e *DecidedElsewhereError) Error() string {
	by := e.Resolution.Reviewer
	if by == "" {
		by = "nobody (it " + e.Status + ")"
	}
	return fmt.Sprintf("%s was already %s by %s: nothing sent", e.HoldID, e.Status, by)
}

// holdPage is the detail page of a held tool call (store.KindToolCall).
type holdPage struct {
	svc      *services
	resolver HoldResolver
	now      func() time.Time
	keys     holdKeys

	width, height int
	id            string
	loading       bool
	saving        bool
	loadErr       error
	call          store.ToolCall
	// linkedSettled says whether the linked extraction is settled, read
	// from the store when the page loads.
	linkedSettled bool
	// note is the reject note being typed; nil when no modal is open.
	note *textinput.Model
	// unfold shows the arguments whole; scroll is the first argument line shown.
	unfold bool
	scroll int
}

type holdKeys struct {
	Approve, Reject, Unfold, Down, Up key.Binding
	NoteSubmit, NoteCancel            key.Binding
}

func newHoldPage(svc *services, r HoldResolver) *holdPage {
	b := func(keys []string, h, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(h, desc))
	}
	return &holdPage{svc: svc, resolver: r, now: time.Now, keys: holdKeys{
		Approve:    b([]string{"y", "a"}, "y/a", "approve"),
		Reject:     b([]string{"n", "r"}, "n/r", "reject"),
		Unfold:     b([]string{"f"}, "f", "unfold args"),
		Down:       b([]string{"j", "down", "pgdown"}, "↓/j", "scroll"),
		Up:         b([]string{"k", "up", "pgup"}, "↑/k", "scroll"),
		NoteSubmit: b([]string{"enter"}, "enter", "reject"),
		NoteCancel: b([]string{"esc"}, "esc", "cancel"),
	}}
}

// holdLoadedMsg is the held call read from the store.
type holdLoadedMsg struct {
	id      string
	call    store.ToolCall
	settled bool
	err     error
}

// HoldResolvedMsg reports a resolution: engineDone says the engine took
// it, Row is the queue row once the store has it too.
type HoldResolvedMsg struct {
	ID         string
	Resolution store.Resolution
	Row        store.Summary
	EngineDone bool
	Err        error
}

func (p *holdPage) Open(id string) tea.Cmd {
	*p = holdPage{svc: p.svc, resolver: p.resolver, now: p.now, keys: p.keys, width: p.width, height: p.height,
		id: id, loading: true}
	svc := p.svc
	return func() tea.Msg {
		d, err := svc.store.Document(svc.ctx, svc.corpus.ID, id)
		if err != nil {
			return holdLoadedMsg{id: id, err: err}
		}
		c, err := store.ParseToolCall(d)
		msg := holdLoadedMsg{id: id, call: c, err: err}
		if err == nil && c.Linked != nil {
			msg.settled, msg.err = linkedSettled(svc, c.Linked.TraceID)
		}
		return msg
	}
}

func (p *holdPage) ItemID() string  { return p.id }
func (p *holdPage) Crumb() string   { return "held call " + p.id }
func (p *holdPage) Loading() bool   { return p.loading }
func (p *holdPage) Saving() bool    { return p.saving }
func (p *holdPage) Capturing() bool { return p.note != nil }

func (p *holdPage) SetSize(w, h int) {
	p.width, p.height = w, h
	if p.note != nil {
		setInputWidth(p.note, w)
	}
}

func (p *holdPage) Apply(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case holdLoadedMsg:
		if msg.id != p.id {
			return false
		}
		p.loading, p.call, p.linkedSettled, p.loadErr = false, msg.call, msg.settled, msg.err
		return true
	case HoldResolvedMsg:
		if msg.ID != p.id {
			return false
		}
		p.saving = false
		var elsewhere *DecidedElsewhereError
		if errors.As(msg.Err, &elsewhere) {
			r := elsewhere.Resolution
			p.call.Resolution = &r
		} else if msg.EngineDone {
			r := msg.Resolution
			p.call.Resolution = &r
		}
		return true
	}
	return false
}

// finalDeny: R3 (irreversible systemic change in production) is denied
// even with approval, so no key may look like it could let it through.
func finalDeny(rule string) bool {
	return strings.HasSuffix(rule, "irreversible_systemic_prod")
}

func (p *holdPage) expires() (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, p.call.Expires)
	return t, err == nil
}

func (p *holdPage) expired() bool {
	t, ok := p.expires()
	return ok && !p.now().Before(t)
}

// resolvable reports whether the approve and reject keys act.
func (p *holdPage) resolvable() bool {
	return !p.loading && p.loadErr == nil && p.resolver != nil && p.call.Resolution == nil &&
		!p.expired() && !finalDeny(p.call.Rule)
}

func (p *holdPage) Update(msg tea.Msg) tea.Cmd {
	if p.note != nil {
		return p.updateNote(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || p.loading {
		return nil
	}
	switch {
	case key.Matches(k, p.keys.Approve, p.keys.Reject):
		if !p.resolvable() {
			return statusCmd(p.why(), true)
		}
		if key.Matches(k, p.keys.Approve) {
			return p.resolve(true, "")
		}
		ti := newTextInput(p.svc.styles, "reject "+p.id+", note (optional): ", "why, for the agent's operator")
		setInputWidth(&ti, p.width)
		ti.Focus()
		p.note = &ti
	case key.Matches(k, p.keys.Unfold):
		p.unfold, p.scroll = !p.unfold, 0
	case key.Matches(k, p.keys.Down):
		p.scroll++
	case key.Matches(k, p.keys.Up):
		p.scroll = max(0, p.scroll-1)
	}
	return nil
}

func (p *holdPage) updateNote(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.keys.NoteCancel):
			p.note = nil
			return statusCmd("not rejected: "+p.id+" is still held", false)
		case key.Matches(k, p.keys.NoteSubmit):
			note := strings.TrimSpace(p.note.Value())
			p.note = nil
			return p.resolve(false, note)
		}
	}
	_, cmd := updateInput(p.note, msg)
	return cmd
}

// why says why the keys do nothing on this call.
func (p *holdPage) why() string {
	switch {
	case p.loadErr != nil:
		return "cannot resolve " + p.id + ": it did not load"
	case p.call.Resolution != nil:
		return p.id + " is already " + verdict(p.call.Resolution.Approved)
	case finalDeny(p.call.Rule):
		return p.call.Rule + " is denied even with approval: nothing to resolve"
	case p.expired():
		return p.id + " has expired: the agent's next try is held anew"
	default:
		return "this workstation cannot resolve holds: reflect holds approve|reject " + p.id
	}
}

func verdict(approved bool) string {
	if approved {
		return "approved"
	}
	return "rejected"
}

func statusCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return statusMsg{text: text, isErr: isErr} }
}

// resolve hands the answer to the resolver, which decides in the engine and
// marks the queue item; the page says it is done only when both are on disk.
func (p *holdPage) resolve(approve bool, note string) tea.Cmd {
	p.saving = true
	svc, r, id := p.svc, p.resolver, p.id
	return func() tea.Msg {
		msg := HoldResolvedMsg{ID: id, Resolution: store.Resolution{Approved: approve, Reviewer: svc.reviewer, Note: note, At: time.Now().UTC()}}
		msg.Row, msg.Err = r.Resolve(svc.ctx, id, approve, note)
		msg.EngineDone = msg.Err == nil
		return msg
	}
}

// linkedSettled reads whether the extraction with this trace id is settled.
func linkedSettled(svc *services, traceID string) (bool, error) {
	corpus, doc, ok, err := svc.store.FindTrace(svc.ctx, traceID)
	if err != nil || !ok {
		return false, err
	}
	_, settled, err := svc.store.Settled(svc.ctx, corpus, doc)
	return settled, err
}

// SavedStatus is what the root shows once the message is applied.
func (m HoldResolvedMsg) SavedStatus() (row store.Summary, text string, err error) {
	var elsewhere *DecidedElsewhereError
	switch {
	case errors.As(m.Err, &elsewhere):
		return row, "", elsewhere
	case m.Err != nil:
		return row, "", fmt.Errorf("not resolved: %w", m.Err)
	}
	text = "saved: " + m.ID + " " + verdict(m.Resolution.Approved) + " by " + m.Resolution.Reviewer
	if m.Resolution.Note != "" {
		text += " (" + m.Resolution.Note + ")"
	}
	return m.Row, text, nil
}

// savedStatus is a page's message about a write it made: the queue row the
// store now has and the line to show, or why nothing was saved.
type savedStatus interface {
	SavedStatus() (row store.Summary, text string, err error)
}

func (m *Model) onSaved(s savedStatus) {
	row, text, err := s.SavedStatus()
	if err != nil {
		m.setStatus(err.Error(), true)
		return
	}
	m.queue.Upsert(row)
	m.queue.Refilter()
	m.setStatus(text, false)
}
