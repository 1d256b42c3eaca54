package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

// statsPanel is the modal `s` panel showing store.Stats and store.Alarms
// for the corpus, in the words reflect stats uses.
type statsPanel struct {
	svc           *services
	loading       bool
	stats         store.Stats
	alarms        store.Alarms
	audit         golden.Audit
	err           error
	width, height int
}

func (p *statsPanel) Loaded(m StatsMsg) {
	p.loading, p.stats, p.alarms, p.audit, p.err = false, m.Stats, m.Alarms, m.Audit, m.Err
}

func (p *statsPanel) SetSize(w, h int)       { p.width, p.height = w, h }
func (p *statsPanel) Capturing() bool        { return false }
func (p *statsPanel) Update(tea.Msg) tea.Cmd { return nil }
func (p *statsPanel) ShortHelp() []key.Binding {
	return []key.Binding{p.svc.keys.Stats, p.svc.keys.Back}
}
func (p *statsPanel) FullHelp() [][]key.Binding {
	return [][]key.Binding{p.ShortHelp()}
}

func (p *statsPanel) View() string {
	st := p.svc.styles
	var body string
	switch {
	case p.loading:
		body = "loading statistics…"
	case p.err != nil:
		body = st.Error.Render(ansi.Truncate(oneLine(p.err.Error()), max(10, p.width-4), "…"))
	default:
		s := p.stats
		rows := [][2]string{
			{"documents", fmt.Sprint(s.Documents)},
			{"with a result", fmt.Sprint(s.WithResult)},
			{"reviewed", fmt.Sprint(s.Reviewed)},
			{"rejected / skipped with a note", fmt.Sprintf("%d / %d", s.Rejected, s.Skipped)},
			{"auto-accepted (ok)", fmt.Sprint(s.AutoAccepted)},
			{"needs review (pending)", fmt.Sprint(s.NeedsReview)},
			{"errors", fmt.Sprint(s.Errors)},
			{"decided fields", fmt.Sprint(s.DecidedFields)},
			{"corrected fields", fmt.Sprint(s.CorrectedFields)},
			{"flagged fields", fmt.Sprint(s.FlaggedFields)},
			{"wrong & flagged (caught)", fmt.Sprint(s.CaughtWrong)},
			{"wrong & not flagged (silent)", fmt.Sprint(s.SilentWrong)},
		}
		if s.Missed > 0 { // as reflect stats says: not silent-wrong, counted apart
			rows = append(rows, [2]string{"null filled in (missed, apart)", fmt.Sprint(s.Missed)})
		}
		rows = append(rows, [2]string{"catch rate", s.CatchText()}, [2]string{"false alarms", p.alarms.Text()})
		if a := p.audit; len(a.Draws) > 0 {
			all := a.Report.All
			verdict := auditWord(all)
			if a.Report.Breached {
				verdict = "BUDGET BREACHED"
			}
			rows = append(rows, [2]string{"audit: read / drawn", fmt.Sprintf("%d / %d · %s", a.Audited, a.Sample, verdict)},
				[2]string{"audit: wrong · upper · budget", fmt.Sprintf("%d/%d · %.2f%% · %.2f%%", all.SilentWrong, all.N, 100*all.Upper, 100*a.Report.Budget)})
		}
		var b strings.Builder
		for i, r := range rows {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(pad(r[0], 30) + " " + r[1])
		}
		body = b.String()
	}
	title := st.Title.Render("statistics · " + p.svc.title)
	panel := st.Panel.Render(title + "\n\n" + body)
	// Place centres but never shrinks: a panel wider than the window would
	// wrap in the terminal, so it is cut instead.
	return clipWidth(lipgloss.Place(max(1, p.width), max(1, p.height), lipgloss.Center, lipgloss.Center, panel), p.width)
}
