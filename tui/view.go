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
	b.WriteString(st.Title.Render(ansi.Truncate("reflect review · "+m.svc.corpus.Name+" · "+crumb+" · you: "+m.svc.reviewer, m.width, "…")))
	b.WriteByte('\n')
	b.WriteString(fitHeight(m.active().View(), m.bodyH))
	b.WriteByte('\n')
	b.WriteString(m.progress.View(idleLine(m.queue.Counts(), m.svc.runner != nil)))
	b.WriteByte('\n')
	if m.statusErr {
		b.WriteString(st.Error.Render(ansi.Truncate("! "+oneLine(m.status), m.width, "…")))
	} else {
		b.WriteString(st.Info.Render(ansi.Truncate(oneLine(m.status), m.width, "…")))
	}
	b.WriteByte('\n')
	b.WriteString(clipWidth(m.help.View(m.helpKeys()), m.width))
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.WindowTitle = "reflect review · " + m.svc.corpus.Name
	return v
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
