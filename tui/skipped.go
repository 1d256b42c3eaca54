package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/store"
)

// SkippedMsg carries the corpus file's skipped lines as the store kept them
// with the file's fingerprint.
type SkippedMsg struct {
	Lines []store.SkippedLine
	Total int
	// Known is false when the store holds no fingerprint for the corpus (a
	// client's queue, a directory, a file stored by an older reflect).
	Known bool
	Err   error
}

func (s *services) skippedCmd() tea.Cmd {
	return func() tea.Msg {
		fp, ok, err := s.store.CorpusFingerprint(s.ctx, s.corpus.ID)
		return SkippedMsg{Lines: fp.Skipped, Total: fp.SkippedTotal, Known: ok, Err: err}
	}
}

// skippedPanel is the modal L panel: the corpus lines that were not stored
// (bad JSON, empty text, duplicate id), so a reviewer sees in the
// workstation what was left out, not only on stderr after quitting.
type skippedPanel struct {
	svc           *services
	loading       bool
	msg           SkippedMsg
	offset        int
	width, height int
}

func (p *skippedPanel) Open() tea.Cmd {
	p.loading, p.offset = true, 0
	return p.svc.skippedCmd()
}

func (p *skippedPanel) Loaded(m SkippedMsg) { p.loading, p.msg = false, m }

func (p *skippedPanel) SetSize(w, h int) { p.width, p.height = w, h }
func (p *skippedPanel) Capturing() bool  { return false }

func (p *skippedPanel) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	km := p.svc.keys
	page := max(1, p.height-2)
	switch {
	case key.Matches(k, km.Down):
		p.offset++
	case key.Matches(k, km.Up):
		p.offset--
	case key.Matches(k, km.PageDown):
		p.offset += page
	case key.Matches(k, km.PageUp):
		p.offset -= page
	}
	p.offset = max(0, min(p.offset, len(p.msg.Lines)-page))
	return nil
}

func (p *skippedPanel) ShortHelp() []key.Binding {
	km := p.svc.keys
	return []key.Binding{km.MoveHelp, km.Skipped, km.Back}
}

func (p *skippedPanel) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *skippedPanel) View() string {
	st := p.svc.styles
	w := max(10, p.width)
	c := p.svc.corpus
	// A directory corpus skips files; its "line" is the file's position.
	unit := "line"
	if c.Kind == "dir" {
		unit = "file"
	}
	var head string
	switch {
	case p.loading:
		head = "reading the skipped lines…"
	case p.msg.Err != nil:
		return st.Error.Render(ansi.Truncate("cannot read the skipped lines: "+oneLine(p.msg.Err.Error()), w, "…"))
	case !p.msg.Known:
		head = "no corpus file is recorded for " + c.Name + " (a client's queue, or a file stored by an older reflect): no skipped lines to list"
	case p.msg.Total == 0:
		head = "every " + unit + " of " + c.Path + " was stored: none skipped"
	default:
		verb := "were"
		if p.msg.Total == 1 {
			verb = "was"
		}
		head = fmt.Sprintf("%s of %s %s skipped on load, not in the queue:", plural(p.msg.Total, unit), c.Path, verb)
	}
	lines := []string{st.Header.Render(ansi.Truncate(head, w, "…"))}
	page := max(1, p.height-2)
	end := min(len(p.msg.Lines), p.offset+page)
	for _, s := range p.msg.Lines[min(p.offset, end):end] {
		row := fmt.Sprintf("  %s %-7d %s", unit, s.Line, s.Reason)
		if c.Kind == "dir" {
			row = "  " + s.Reason // the reason names the file; its position says nothing
		}
		lines = append(lines, ansi.Truncate(row, w, "…"))
	}
	if more := p.msg.Total - len(p.msg.Lines); more > 0 && end == len(p.msg.Lines) {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  … and %d more not kept (the first %d are)", more, len(p.msg.Lines))))
	}
	return fitHeight(strings.Join(lines, "\n"), p.height)
}
