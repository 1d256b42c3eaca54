package tui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
)

// editAction is what the inline correction editor asks its owner to do.
type editAction int

const (
	editNone   editAction = iota // keep editing
	editSubmit                   // Value holds the validated, normalized value
	editCancel                   // close without a decision
)

// editor is the modal inline textinput of the `e` (correct) action. It owns
// validation so the document page only ever sees a value of the field's kind.
type editor struct {
	field pipeline.Field
	input textinput.Model
	err   string
	keys  *KeyMap
	// selected: the current value is selected, so the first character typed
	// replaces it (a correction is usually a new value, not an edit) and
	// backspace clears it; an arrow key keeps it for editing.
	selected bool
}

func newEditor(f pipeline.Field, current any, st *Styles, keys *KeyMap, width int) *editor {
	ti := newTextInput(st, fmt.Sprintf("correct %s (%s): ", f.Name, f.Kind), placeholder(f.Kind))
	if current != nil {
		ti.SetValue(editText(current))
	}
	setInputWidth(&ti, width)
	// A static cursor: Focus returns no blink command.
	ti.Focus()
	return &editor{field: f, input: ti, keys: keys, selected: current != nil}
}

func placeholder(k pipeline.Kind) string {
	switch k {
	case pipeline.KindMoney:
		return "amount, e.g. 583.20"
	case pipeline.KindDate:
		return "YYYY-MM-DD"
	case pipeline.KindCurrency:
		return "3-letter code, e.g. USD"
	default:
		return "value"
	}
}

// editText is the value as the reviewer would type it (no thousands
// separators, so a money value round-trips through ParseAmount).
func editText(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.2f", f)
	}
	return pipeline.FormatValue(v)
}

// Update returns the action and, on editSubmit, the normalized value; cmd is
// the text input's own follow-up (a clipboard read on ctrl+v).
func (e *editor) Update(msg tea.Msg) (act editAction, value any, cmd tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, e.keys.Cancel):
			return editCancel, nil, nil
		case key.Matches(k, e.keys.Submit):
			v, err := parseCorrection(e.field, e.input.Value())
			if err != nil {
				e.err = err.Error()
				return editNone, nil, nil
			}
			return editSubmit, v, nil
		}
		if e.selected {
			e.selected = false
			switch {
			case k.Text != "":
				e.input.SetValue("")
			case k.Code == tea.KeyBackspace || k.Code == tea.KeyDelete:
				e.input.SetValue("")
				e.err = ""
				return editNone, nil, nil
			}
		}
	}
	changed, cmd := updateInput(&e.input, msg)
	if changed {
		e.err = ""
	}
	if e.input.Err != nil {
		// A failed clipboard read is the only error the input reports itself.
		e.err = "paste: " + e.input.Err.Error()
		e.input.Err = nil
	}
	return editNone, nil, cmd
}

func (e *editor) View() string {
	if e.selected {
		// The selection shown the way terminals show one: reverse video.
		return e.input.Prompt + "\x1b[7m" + e.input.Value() + "\x1b[27m  (type to replace, → to edit)"
	}
	return e.input.View()
}

// parseCorrection validates typed text against the field's kind and returns
// the value in the Record's representation (float64 for money, strings
// otherwise). Setting a field to null is its own action (x), so empty input is
// an error here rather than a silent null.
func parseCorrection(f pipeline.Field, s string) (any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("empty value (use x to set null)")
	}
	switch f.Kind {
	case pipeline.KindMoney:
		v, ok := pipeline.ParseAmount(s)
		if !ok {
			return nil, fmt.Errorf("%q is not an amount", s)
		}
		return v, nil
	case pipeline.KindDate:
		if pipeline.ValidISODate(s) {
			return s, nil
		}
		// Any form the heuristics read in a document (15.03.2024, 15 Mar
		// 2024, 2024/03/15), as long as it means one day.
		iso, ok := pipeline.ParseDate(s)
		switch {
		case !ok:
			return nil, fmt.Errorf("%q is not a date (e.g. 2024-03-15, 15.03.2024, 15 Mar 2024)", s)
		case len(iso) > 1:
			return nil, fmt.Errorf("%q could be %s or %s: type YYYY-MM-DD", s, iso[0], iso[1])
		}
		return iso[0], nil
	case pipeline.KindCurrency:
		return parseCurrency(s)
	default:
		return s, nil
	}
}
