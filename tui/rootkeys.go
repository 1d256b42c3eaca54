package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// helpKeys is the active component's bindings plus the global ones.
func (m *Model) helpKeys() help.KeyMap {
	return rootKeys{page: m.active(), km: m.svc.keys, helpOpen: m.help.ShowAll}
}

type rootKeys struct {
	page     Component
	km       *KeyMap
	helpOpen bool
}

// modal reports whether the page's own keys are all that work: while it reads
// text, ? and q are typed into it, and the stats panel takes only s and q.
func (r rootKeys) modal() bool {
	_, stats := r.page.(*statsPanel)
	_, skipped := r.page.(*skippedPanel)
	return stats || skipped || r.page.Capturing()
}

func (r rootKeys) ShortHelp() []key.Binding {
	if r.modal() {
		return r.page.ShortHelp()
	}
	return append(r.page.ShortHelp(), r.km.Help, r.back())
}

// back is what q does on this page: leave a document; on the queue, clear
// the filter when there is one, else quit.
func (r rootKeys) back() key.Binding {
	q, onQueue := r.page.(*queuePage)
	switch {
	case r.helpOpen:
		return r.km.CloseHelp
	case !onQueue:
		return r.km.Back
	case q.query != "":
		return r.km.ClearFilterHelp
	default:
		return r.km.QuitHelp
	}
}

func (r rootKeys) FullHelp() [][]key.Binding {
	if r.modal() {
		return [][]key.Binding{r.page.ShortHelp()}
	}
	global := r.km.globalHelp()
	global[len(global)-1] = r.back()
	return append(r.page.FullHelp(), append(global, r.km.Quit))
}
