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
	if m.page == pageDoc {
		crumb = "document " + m.doc.DocID()
	}
	b.WriteString(st.Title.Render(ansi.Truncate("reflect review · "+m.svc.corpus.Name+" · "+crumb, m.width, "…")))
	b.WriteByte('\n')
	b.WriteString(fitHeight(m.active().View(), m.bodyH))
	b.WriteByte('\n')
	b.WriteString(m.progress.View(idleLine(m.queue.Counts(), m.svc.runner != nil)))
	b.WriteByte('\n')
	status := ansi.Truncate(m.status, m.width, "…")
	if m.statusErr {
		status = st.Error.Render("! " + status)
	} else {
		status = st.Info.Render(status)
	}
	b.WriteString(status)
	b.WriteByte('\n')
	b.WriteString(m.help.View(m.helpKeys()))
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.WindowTitle = "reflect review · " + m.svc.corpus.Name
	return v
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
