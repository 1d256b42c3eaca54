package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func (m Model) View() tea.View {
	st := m.svc.styles
	var b strings.Builder
	crumb := "queue · " + m.queue.tab.String()
	switch {
	case m.showSkipped:
		crumb = "skipped lines"
	case m.page == pageDoc:
		crumb = m.detail.Crumb()
	}
	// Who I am is on every screen: with two reviewers on one store, the
	// decisions a reviewer sees arrive under names.
	b.WriteString(st.Title.Render(ansi.Truncate("reflect review · "+m.svc.title+" · "+crumb+" · you: "+m.svc.reviewer, m.width, "…")))
	b.WriteByte('\n')
	b.WriteString(fitHeight(m.active().View(), m.bodyH))
	b.WriteByte('\n')
	b.WriteString(m.progress.View(idleLine(m.queue.Counts(), m.svc.runner != nil)))
	b.WriteByte('\n')
	style := st.Info
	if m.statusErr {
		style = st.Error
	}
	for i, l := range m.statusLines() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(style.Render(l))
	}
	b.WriteByte('\n')
	b.WriteString(clipWidth(m.help.View(m.helpKeys()), m.width))
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.WindowTitle = "reflect review · " + m.svc.title
	return v
}

// maxStatusLines bounds how much of the screen a status message can take
// from the body; every message the workstation writes fits in two lines at 80
// columns.
const maxStatusLines = 3

// statusLines is the status message wrapped to the window: at spaces, else at
// a path's slashes, else anywhere. A message longer than maxStatusLines, or
// than a small window leaves beside a one-line body, ends in "…".
func (m *Model) statusLines() []string {
	text := oneLine(m.status)
	if m.statusErr {
		text = "! " + text
	}
	if m.width <= 0 || text == "" {
		return []string{text}
	}
	lines := strings.Split(ansi.Wrap(text, m.width, "/"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	room := min(maxStatusLines, max(1, m.height-3-m.helpH))
	if len(lines) > room {
		lines = lines[:room]
		lines[room-1] = ansi.Truncate(lines[room-1], m.width-1, "") + "…"
	}
	return lines
}

// clipWidth cuts every line of s to w cells. The help bar needs it: bubbles'
// help adds the next binding anyway when its "…" would not fit, so a narrow
// window gets the whole bar.
func clipWidth(s string, w int) string {
	if w <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	return strings.Join(lines, "\n")
}

// fitHeight cuts or pads s to exactly h lines, so the chrome below the body
// never moves.
func fitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
