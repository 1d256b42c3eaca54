package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Component is a page or panel the root model routes to. Components mutate in
// place (pointer receivers) so the root Update stays a short router; they do
// no IO themselves: anything that touches the store or the pipeline comes back
// as a tea.Cmd.
type Component interface {
	help.KeyMap
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
	// Capturing reports whether the component is reading text input, so the
	// root must not treat letters as global commands.
	Capturing() bool
}

// services is what the components need to build their commands. It is shared
// by pointer and read-only after New.
type services struct {
	// ctx bounds every command's IO; Run cancels it on quit, which also stops
	// the background run.
	ctx      context.Context
	store    *store.Store
	corpus   store.Corpus
	schema   *pipeline.Schema
	runner   Runner
	version  string
	reviewer string
	export   string
	title    string // the corpus as the screen names it
	styles   *Styles
	keys     *KeyMap
	poll     time.Duration
	// presence is the one mutable part: the root changes it in Update from
	// the poll, the pages read it to draw "open by NAME".
	presence *presenceState
	// audit sizes the audit tab's draws (the gate profile's budget).
	audit golden.AuditSpec
}
