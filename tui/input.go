package tui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// newTextInput is the one-line field of the correction editor and the queue
// filter. The cursor does not blink: a blink is a timer message every half
// second, which would redraw an idle screen and make views depend on time.
// The virtual cursor renders in reverse video, so it stays visible without
// colour.
func newTextInput(st *Styles, prompt, placeholder string) textinput.Model {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.Placeholder = placeholder
	s := textinput.DefaultDarkStyles()
	s.Cursor.Blink = false
	if st.NoColor {
		plain := textinput.StyleState{}
		s.Focused, s.Blurred = plain, plain
		s.Cursor.Color = lipgloss.NoColor{}
	} else {
		s.Focused.Placeholder, s.Blurred.Placeholder = st.Muted, st.Muted
	}
	ti.SetStyles(s)
	return ti
}

// setInputWidth fits prompt, value and the cursor cell into total columns;
// textinput's own width counts only the value.
func setInputWidth(ti *textinput.Model, total int) {
	ti.SetWidth(max(4, total-ansi.StringWidth(ti.Prompt)-1))
}

// updateInput feeds msg to ti and reports whether the value changed.
func updateInput(ti *textinput.Model, msg tea.Msg) (changed bool, cmd tea.Cmd) {
	before := ti.Value()
	*ti, cmd = ti.Update(msg)
	return ti.Value() != before, cmd
}
