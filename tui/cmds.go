package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// SummariesMsg is the queue's data, loaded from the store.
type SummariesMsg struct {
	Rows []store.Summary
	// Seq is the store's change number read before the rows, so polling
	// from it misses nothing written after them.
	Seq uint64
	// Stamp is the store file's stamp taken before Seq: the live poll
	// reads only once the file no longer matches it.
	Stamp store.Stamp
	// TextChanged is the documents whose text in the corpus file is no
	// longer the stored one (store.TextChanges).
	TextChanged map[string]store.TextChange
	Err         error
}

// UndoneMsg reports store.UndoAction on the open document: the action taken
// back, the document's queue row as the store rewrote it, and the document's
// decisions after it, so the page can show them.
type UndoneMsg struct {
	store.UndoneAction
	DocID string
	// Now is the document's decisions after the undo, and Verdict its
	// document-level verdict (an undone reject may uncover an earlier skip).
	Now        map[string]store.Decision
	Verdict    store.Verdict
	HasVerdict bool
	Err        error
}

// ExportedMsg reports a golden export.
type ExportedMsg struct {
	Path string
	N    int
	// Rejected is how many rejected documents (not a document) it left out.
	Rejected int
	// ToolCalls is how many held tool calls (no golden documents) it left out.
	ToolCalls int
	Err       error
}

// StatsMsg carries store.Stats and store.Alarms for the stats panel, and
// the audit.
type StatsMsg struct {
	Stats  store.Stats
	Alarms store.Alarms
	Audit  golden.Audit
	Err    error
}

func (s *services) loadSummariesCmd() tea.Cmd {
	return func() tea.Msg {
		stamp, err := s.store.Stamp()
		if err != nil {
			return SummariesMsg{Err: err}
		}
		seq, err := s.store.ChangeSeq(s.ctx)
		if err != nil {
			return SummariesMsg{Err: err}
		}
		rows, err := s.store.Summaries(s.ctx, s.corpus.ID)
		if err != nil {
			return SummariesMsg{Err: err}
		}
		changed, err := s.store.TextChanges(s.ctx, s.corpus.ID)
		return SummariesMsg{Rows: rows, Seq: seq, Stamp: stamp, TextChanged: changed, Err: err}
	}
}

func (s *services) loadDocCmd(docID string) tea.Cmd {
	return func() tea.Msg {
		msg := DocLoadedMsg{DocID: docID}
		if msg.Doc, msg.Err = s.store.Document(s.ctx, s.corpus.ID, docID); msg.Err != nil {
			return msg
		}
		if msg.Result, msg.HasResult, msg.Err = s.store.Result(s.ctx, s.corpus.ID, docID); msg.Err != nil {
			return msg
		}
		if msg.Decisions, msg.Err = s.store.Decisions(s.ctx, s.corpus.ID, docID); msg.Err != nil {
			return msg
		}
		if msg.Verdict, msg.HasVerdict, msg.Err = s.store.Verdict(s.ctx, s.corpus.ID, docID); msg.Err != nil {
			return msg
		}
		msg.Spans = map[string][]pipeline.Span{}
		for f, d := range msg.Decisions {
			if d.Action == store.ActionCorrect {
				if sp, ok := s.reground(msg.Doc.Text, f, d.Value); ok {
					msg.Spans[f] = sp
				}
			}
		}
		return msg
	}
}

// reground looks for a corrected value in the source with the same heuristics
// the pipeline uses, on a record holding only that field.
func (s *services) reground(text, field string, v any) ([]pipeline.Span, bool) {
	if v == nil {
		return nil, false
	}
	rep := pipeline.RunHeuristics(text, s.schema, pipeline.Record{field: v})
	chk, ok := rep[field]
	if !ok || !chk.Grounded || len(chk.Spans) == 0 {
		return nil, false
	}
	return chk.Spans, true
}

func (s *services) decideCmd(docID, text string, ds []store.Decision, advance bool) tea.Cmd {
	return s.writeCmd(s.store.Decide, docID, text, ds, advance)
}

// redoCmd is decideCmd through store.Redo, which refuses when another
// reviewer decided a field since it was undone.
func (s *services) redoCmd(docID, text string, ds []store.Decision) tea.Cmd {
	return s.writeCmd(s.store.Redo, docID, text, ds, false)
}

func (s *services) writeCmd(write func(context.Context, ...store.Decision) ([]store.Summary, error), docID, text string, ds []store.Decision, advance bool) tea.Cmd {
	return func() tea.Msg {
		msg := DecidedMsg{DocID: docID, Decisions: ds, Advance: advance}
		if msg.Rows, msg.Err = write(s.ctx, ds...); msg.Err != nil {
			return msg
		}
		msg.Spans = map[string][]pipeline.Span{}
		for _, d := range ds {
			if d.Action != store.ActionCorrect {
				continue
			}
			if sp, ok := s.reground(text, d.Field, d.Value); ok {
				msg.Spans[d.Field] = sp
			}
		}
		return msg
	}
}

// undoCmd takes back the reviewer's last action in docID, never in another
// document: the reviewer sees what u undid.
func (s *services) undoCmd(docID string) tea.Cmd {
	return func() tea.Msg {
		msg := UndoneMsg{DocID: docID}
		msg.UndoneAction, msg.Err = s.store.UndoAction(s.ctx, s.corpus.ID, docID, s.reviewer)
		if msg.Err != nil || !msg.Found {
			return msg
		}
		if msg.Now, msg.Err = s.store.Decisions(s.ctx, s.corpus.ID, docID); msg.Err != nil {
			return msg
		}
		msg.Verdict, msg.HasVerdict, msg.Err = s.store.Verdict(s.ctx, s.corpus.ID, docID)
		return msg
	}
}

func (s *services) statsCmd() tea.Cmd {
	return func() tea.Msg {
		st, err := s.store.Stats(s.ctx, s.corpus.ID)
		if err != nil {
			return StatsMsg{Err: err}
		}
		al, err := s.store.Alarms(s.ctx, s.corpus.ID)
		if err != nil {
			return StatsMsg{Err: err}
		}
		a, err := golden.ReadAudit(s.ctx, s.store, s.corpus.ID)
		return StatsMsg{Stats: st, Alarms: al, Audit: a, Err: err}
	}
}

// exportCmd writes the golden file with golden.ExportFile, which replaces
// it atomically: an interrupted export never leaves a truncated file behind.
func (s *services) exportCmd() tea.Cmd {
	path := s.export
	return func() tea.Msg {
		if err := golden.CheckExportOwner(path, s.corpus.ID); err != nil {
			return ExportedMsg{Path: path, Err: err}
		}
		var rejected, calls int
		n, err := golden.ExportFile(s.ctx, s.store, path, golden.ExportOptions{CorpusID: s.corpus.ID, Rejected: &rejected, ToolCalls: &calls})
		return ExportedMsg{Path: path, N: n, Rejected: rejected, ToolCalls: calls, Err: err}
	}
}

// retryCmd runs one document through the pipeline again and stores the
// outcome, exactly as the background run does.
func (s *services) retryCmd(doc store.Document) tea.Cmd {
	return func() tea.Msg {
		msg := runOne(s.ctx, s, doc)
		msg.Retry = true
		return msg
	}
}
