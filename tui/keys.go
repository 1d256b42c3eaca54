package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every binding of the workstation in one place, so the help bar,
// the pages and the tests agree on what a key does.
type KeyMap struct {
	// Global.
	Quit   key.Binding
	Back   key.Binding
	Help   key.Binding
	Stats  key.Binding
	Undo   key.Binding
	Redo   key.Binding
	Export key.Binding

	// Queue.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Open     key.Binding
	NextTab  key.Binding
	PrevTab  key.Binding
	Tabs     [len(tabNames)]key.Binding
	Filter   key.Binding
	Sort     key.Binding
	SortHelp key.Binding
	Bulk     key.Binding
	BulkHelp key.Binding
	Skipped  key.Binding
	DrawMore key.Binding

	// Document.
	NextField   key.Binding
	PrevField   key.Binding
	NextFlagged key.Binding
	PrevFlagged key.Binding
	Accept      key.Binding
	Correct     key.Binding
	SetNull     key.Binding
	AcceptAll   key.Binding
	Skip        key.Binding
	Reject      key.Binding // the whole document: not a document
	SkipDoc     key.Binding // the whole document: set aside with a note
	Expand      key.Binding
	NextDoc     key.Binding
	PrevDoc     key.Binding
	Retry       key.Binding
	ScrollDown  key.Binding
	ScrollUp    key.Binding
	History     key.Binding

	// Correction editor.
	Submit key.Binding
	Cancel key.Binding

	// Confirmation (bulk accept).
	Confirm key.Binding
	Deny    key.Binding

	// Filter line.
	ApplyFilter key.Binding
	ClearFilter key.Binding

	// Help-only summaries of several bindings, so the one-line help bar fits
	// 80 columns; the full help (?) lists every binding.
	MoveHelp key.Binding
	TabsHelp key.Binding
	QuitHelp key.Binding
	// CloseHelp is q while the full help is open: it closes the help.
	CloseHelp key.Binding
	// ClearFilterHelp is q on a filtered queue: it clears the filter first.
	ClearFilterHelp key.Binding
}

// DefaultKeyMap is the workstation's bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	km := KeyMap{
		Quit:   b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Back:   b([]string{"q", "esc"}, "q", "back"),
		Help:   b([]string{"?"}, "?", "help"),
		Stats:  b([]string{"s"}, "s", "stats"),
		Undo:   b([]string{"u"}, "u", "undo action"),
		Redo:   b([]string{"U", "ctrl+r"}, "U", "redo"),
		Export: b([]string{"E"}, "E", "export golden"),

		Up:       b([]string{"k", "up"}, "↑/k", "up"),
		Down:     b([]string{"j", "down"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:      b([]string{"g", "home"}, "g", "top"),
		Bottom:   b([]string{"G", "end"}, "G", "bottom"),
		Open:     b([]string{"enter"}, "enter", "open"),
		NextTab:  b([]string{"tab"}, "tab", "next tab"),
		PrevTab:  b([]string{"shift+tab"}, "shift+tab", "prev tab"),
		Filter:   b([]string{"/"}, "/", "filter"),
		Sort:     b([]string{"o"}, "o", "sort"),
		Bulk:     b([]string{"B"}, "B", "bulk accept"),
		BulkHelp: b([]string{"B"}, "B", "bulk accept ≥ conf"),
		SortHelp: b([]string{"o"}, "o", "sort status,conf,id,flags"),
		Skipped:  b([]string{"L"}, "L", "skipped lines"),
		DrawMore: b([]string{"D"}, "D", "draw more"),

		NextField:   b([]string{"j", "down"}, "↓/j", "next field"),
		PrevField:   b([]string{"k", "up"}, "↑/k", "prev field"),
		NextFlagged: b([]string{"n"}, "n", "flagged"),
		PrevFlagged: b([]string{"N"}, "N", "prev flagged"),
		Accept:      b([]string{"a"}, "a", "accept"),
		Correct:     b([]string{"e"}, "e", "correct"),
		SetNull:     b([]string{"x"}, "x", "null"),
		AcceptAll:   b([]string{"A"}, "A", "accept rest"),
		Skip:        b([]string{"space"}, "space", "skip"),
		Reject:      b([]string{"X"}, "X", "not a doc"),
		SkipDoc:     b([]string{"S"}, "S", "skip doc"),
		Expand:      b([]string{"enter"}, "enter", "why"),
		NextDoc:     b([]string{"]"}, "]", "next doc"),
		PrevDoc:     b([]string{"["}, "[", "prev"),
		Retry:       b([]string{"r"}, "r", "retry"),
		ScrollDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", "scroll text"),
		ScrollUp:    b([]string{"pgup", "ctrl+u"}, "pgup", "scroll text"),
		History:     b([]string{"h"}, "h", "history"),

		Confirm: b([]string{"y"}, "y", "yes, accept"),
		Deny:    b([]string{"n", "esc"}, "n", "no"),

		Submit: b([]string{"enter"}, "enter", "save"),
		Cancel: b([]string{"esc"}, "esc", "cancel"),

		ApplyFilter: b([]string{"enter"}, "enter", "apply"),
		ClearFilter: b([]string{"esc"}, "esc", "clear"),

		MoveHelp:  b([]string{"j", "k"}, "↑↓", "move"),
		TabsHelp:  b([]string{"tab"}, "tab/1-6", "tabs"),
		QuitHelp:  b([]string{"q"}, "q", "quit"),
		CloseHelp: b([]string{"q"}, "q", "close help"),

		ClearFilterHelp: b([]string{"q"}, "q", "unfilter"),
	}
	for i, name := range tabNames {
		k := string(rune('1' + i))
		km.Tabs[i] = b([]string{k}, k, name)
	}
	return km
}

// globalHelp is what every page adds to its own bindings.
func (k KeyMap) globalHelp() []key.Binding {
	return []key.Binding{k.Undo, k.Redo, k.Stats, k.Export, k.Help, k.Back}
}
