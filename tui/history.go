package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// HistoryMsg carries one document's audit trail, newest first, for the
// history pane (h).
type HistoryMsg struct {
	DocID   string
	Entries []store.AuditEntry
	Err     error
}

func (s *services) historyCmd(docID string) tea.Cmd {
	return func() tea.Msg {
		es, err := s.store.DocumentAudit(s.ctx, s.corpus.ID, docID)
		return HistoryMsg{DocID: docID, Entries: es, Err: err}
	}
}

// toggleHistory shows or hides the history pane; showing it reads the
// trail afresh.
func (d *docPage) toggleHistory() tea.Cmd {
	d.showHistory = !d.showHistory
	if !d.showHistory {
		return nil
	}
	d.expanded = false
	d.historyLoading = true
	return d.svc.historyCmd(d.docID)
}

// reloadHistory re-reads the trail while the pane is open: after this
// reviewer's decision or undo, and when the poll saw the document change
// (another reviewer's decision), so the pane is live.
func (d *docPage) reloadHistory() tea.Cmd {
	if !d.showHistory || d.docID == "" {
		return nil
	}
	return d.svc.historyCmd(d.docID)
}

func (d *docPage) historyLoaded(msg HistoryMsg) bool {
	if msg.DocID != d.docID {
		return false
	}
	d.historyLoading = false
	d.history, d.historyErr = msg.Entries, msg.Err
	return true
}

// historyView takes the source text's place while h is toggled on: every
// decision on the document, newest first, with who, when and the value
// before and after.
func (d *docPage) historyView(h int) string {
	st := d.svc.styles
	w := max(10, d.width)
	lines := []string{st.Header.Render(ansi.Truncate(fmt.Sprintf("history of %s · newest first · %d entries (h: back to the source text)", d.docID, len(d.history)), w, "…"))}
	switch {
	case d.historyErr != nil:
		lines = append(lines, st.Error.Render(ansi.Truncate("cannot read the history: "+oneLine(d.historyErr.Error()), w, "…")))
	case d.historyLoading && d.history == nil:
		lines = append(lines, st.Muted.Render("loading…"))
	case len(d.history) == 0:
		lines = append(lines, st.Muted.Render("no decisions on this document yet"))
	}
	for _, e := range d.history {
		if len(lines) == h-1 && len(d.history) > h-1 {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("… %d older entries (reflect audit --document %s)", len(d.history)-(h-2), d.docID)))
			break
		}
		lines = append(lines, ansi.Truncate(historyLine(e), w, "…"))
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

// historyStamp is how the history pane writes a time: UTC, like `reflect audit`.
const historyStamp = "2006-01-02 15:04:05Z"

// historyLine is one entry, in UTC like `reflect audit`: "2026-12-01 13:04:05Z  bob  corrected total  683.20 → 583.20".
func historyLine(e store.AuditEntry) string {
	if e.Field == store.VerdictField {
		return verdictHistoryLine(e)
	}
	what := actionWord(string(e.Action))
	if e.Action == store.ActionUndo {
		what = "undid"
	}
	field := e.Field
	if field == "" {
		field = "(document)"
	}
	return fmt.Sprintf("%s  %s  %s %s  %s → %s", e.At.UTC().Format(historyStamp), e.Who, what, field,
		auditText(e.Before), auditText(e.After))
}

func auditText(v any) string {
	if v == nil {
		return "null"
	}
	return oneLine(pipeline.FormatValue(v))
}
