package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/store"
)

// detail is a page that shows one queue item. The root opens an item on the
// page registered for its Kind and talks to the page only through this
// interface, so a page for another kind of item (a held tool call with
// approve and reject keys) is added by registering it in newModel, without
// touching the root's routing.
type detail interface {
	Component
	// Open shows the item and returns the command that loads it.
	Open(id string) tea.Cmd
	// ItemID is the item shown, or loading.
	ItemID() string
	// Crumb names the item in the title line.
	Crumb() string
	// Loading reports whether the item is still being read; keys typed
	// meanwhile are held for it.
	Loading() bool
	// Saving reports whether a decision on the item is being written; keys
	// wait for it so they act in the order typed.
	Saving() bool
	// Apply takes a message about items (a load, a decision saved, a new
	// pipeline result, an undo) and reports whether it was about this
	// page's item. The root has already updated the queue and status line.
	Apply(msg tea.Msg) bool
}

// detailFor is the page that shows items of kind k; extraction documents'
// page when no page is registered for k.
func (m *Model) detailFor(k store.Kind) detail {
	if d, ok := m.details[k]; ok {
		return d
	}
	return m.details[store.KindExtraction]
}
