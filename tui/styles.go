package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles is the one place the workstation's look is defined. Every style that
// carries meaning (selected, flagged, error) also sets an attribute that
// survives without colour (reverse, underline, bold), because NO_COLOR
// terminals and screen readers see only those.
type Styles struct {
	NoColor bool

	Title       lipgloss.Style
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	Header      lipgloss.Style
	RowSelected lipgloss.Style
	Muted       lipgloss.Style

	StatusOK      lipgloss.Style
	StatusReview  lipgloss.Style
	StatusError   lipgloss.Style
	StatusPending lipgloss.Style

	// Source-text highlights for provenance spans.
	Span         lipgloss.Style
	SpanFlagged  lipgloss.Style
	SpanSelected lipgloss.Style

	Flag    lipgloss.Style
	Error   lipgloss.Style
	Info    lipgloss.Style
	Saved   lipgloss.Style
	Panel   lipgloss.Style
	Divider lipgloss.Style
}

// NewStyles builds the styles; with noColor no style sets a colour at all.
func NewStyles(noColor bool) Styles {
	fg := func(s lipgloss.Style, c color.Color) lipgloss.Style {
		if noColor {
			return s
		}
		return s.Foreground(c)
	}
	n := lipgloss.NewStyle
	s := Styles{
		NoColor:     noColor,
		Title:       fg(n().Bold(true), lipgloss.BrightCyan),
		TabActive:   fg(n().Bold(true).Reverse(true), lipgloss.BrightWhite),
		TabInactive: fg(n(), lipgloss.BrightBlack),
		Header:      fg(n().Bold(true), lipgloss.White),
		RowSelected: n().Reverse(true),
		Muted:       fg(n(), lipgloss.BrightBlack),

		StatusOK:      fg(n(), lipgloss.Green),
		StatusReview:  fg(n().Bold(true), lipgloss.Yellow),
		StatusError:   fg(n().Bold(true), lipgloss.Red),
		StatusPending: fg(n(), lipgloss.BrightBlack),

		Span:         fg(n().Underline(true), lipgloss.Cyan),
		SpanFlagged:  fg(n().Underline(true).Bold(true), lipgloss.Yellow),
		SpanSelected: n().Reverse(true).Bold(true),

		Flag:    fg(n().Bold(true), lipgloss.Yellow),
		Error:   fg(n().Bold(true), lipgloss.Red),
		Info:    fg(n(), lipgloss.Cyan),
		Saved:   fg(n(), lipgloss.Green),
		Panel:   n().Border(lipgloss.NormalBorder()).Padding(0, 1),
		Divider: fg(n(), lipgloss.BrightBlack),
	}
	return s
}
