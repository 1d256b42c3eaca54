package tui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line text field. bubbles/textinput would do, but it pulls
// in a clipboard module this build does not carry; the review screen needs
// only typing, cursor movement and deletion.
type lineInput struct {
	Prompt      string
	Placeholder string
	value       []rune
	pos         int
	width       int
	focused     bool
	cursor      lipgloss.Style
	muted       lipgloss.Style
}

func newLineInput(st *Styles) lineInput {
	return lineInput{cursor: lipgloss.NewStyle().Reverse(true), muted: st.Muted}
}

func (in *lineInput) Value() string { return string(in.value) }

func (in *lineInput) SetValue(s string) {
	in.value = []rune(s)
	in.pos = len(in.value)
}

func (in *lineInput) SetWidth(w int) { in.width = w }
func (in *lineInput) Focus()         { in.focused = true }
func (in *lineInput) Blur()          { in.focused = false }

func (in *lineInput) insert(s string) {
	rs := []rune(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s))
	v := make([]rune, 0, len(in.value)+len(rs))
	v = append(v, in.value[:in.pos]...)
	v = append(v, rs...)
	in.value = append(v, in.value[in.pos:]...)
	in.pos += len(rs)
}

// Update edits the value; it reports whether the message was an edit key.
func (in *lineInput) Update(msg tea.Msg) bool {
	if !in.focused {
		return false
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
		return true
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if in.pos > 0 {
				in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
				in.pos--
			}
		case "delete", "ctrl+d":
			if in.pos < len(in.value) {
				in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
			}
		case "left", "ctrl+b":
			in.pos = max(0, in.pos-1)
		case "right", "ctrl+f":
			in.pos = min(len(in.value), in.pos+1)
		case "home", "ctrl+a":
			in.pos = 0
		case "end", "ctrl+e":
			in.pos = len(in.value)
		case "ctrl+u":
			in.value, in.pos = in.value[in.pos:], 0
		case "ctrl+k":
			in.value = in.value[:in.pos]
		case "ctrl+w":
			i := in.pos
			for i > 0 && in.value[i-1] == ' ' {
				i--
			}
			for i > 0 && in.value[i-1] != ' ' {
				i--
			}
			in.value = append(in.value[:i], in.value[in.pos:]...)
			in.pos = i
		default:
			if msg.Text == "" || msg.Mod.Contains(tea.ModCtrl) || msg.Mod.Contains(tea.ModAlt) {
				return false
			}
			in.insert(msg.Text)
		}
		return true
	}
	return false
}

// View draws prompt, value and a reverse-video cursor cell, keeping the cursor
// visible when the value is wider than the field.
func (in *lineInput) View() string {
	avail := max(4, in.width-ansi.StringWidth(in.Prompt)-1)
	if len(in.value) == 0 && !in.focused {
		return in.Prompt + in.muted.Render(ansi.Truncate(in.Placeholder, avail, "…"))
	}
	if len(in.value) == 0 && in.Placeholder != "" {
		ph := []rune(in.Placeholder)
		return in.Prompt + in.cursor.Render(string(ph[0])) + in.muted.Render(ansi.Truncate(string(ph[1:]), avail-1, "…"))
	}
	start := 0
	if in.pos >= avail {
		start = in.pos - avail + 1
	}
	end := min(len(in.value), start+avail)
	var b strings.Builder
	b.WriteString(in.Prompt)
	b.WriteString(string(in.value[start:min(in.pos, end)]))
	if in.focused {
		c := " "
		if in.pos < len(in.value) {
			c = string(in.value[in.pos])
		}
		b.WriteString(in.cursor.Render(c))
		if in.pos+1 < end {
			b.WriteString(string(in.value[in.pos+1 : end]))
		}
	} else if in.pos < end {
		b.WriteString(string(in.value[in.pos:end]))
	}
	return b.String()
}
