package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// DocLoadedMsg carries everything the document screen shows, read from the
// store inside a command.
type DocLoadedMsg struct {
	DocID     string
	Doc       store.Document
	Result    pipeline.Result
	HasResult bool
	Decisions map[string]store.Decision
	// Spans re-grounds corrected values, so a correction made in an earlier
	// session is still highlighted where it occurs in the source.
	Spans map[string][]pipeline.Span
	// Verdict is the document-level verdict standing on it (X, S).
	Verdict    store.Verdict
	HasVerdict bool
	Err        error
}

// DecidedMsg reports the outcome of one store.Decide call. The screen marks
// the decisions saved only when Err is nil; Rows are the queue rows the store
// rewrote in the same transaction.
type DecidedMsg struct {
	DocID     string
	Decisions []store.Decision
	Rows      []store.Summary
	Spans     map[string][]pipeline.Span
	// Advance is set on accept-all: once saved, the next document opens.
	Advance bool
	Err     error
	// redo marks a redo's save, which must not clear what is left to redo.
	redo bool
}

// statusMsg puts a line on the status bar.
type statusMsg struct {
	text  string
	isErr bool
}

// advanceMsg opens the document after DocID (accept-all on a document with
// nothing left to decide).
type advanceMsg struct{ DocID string }

// docPage is the document screen: source text with provenance highlights,
// the field table, and the reviewer's actions on the selected field.
type docPage struct {
	svc *services

	docID   string
	loading bool
	loadErr error
	doc     store.Document
	// orig is the stored pipeline result; res is it re-checked against the
	// reviewer's corrections (see recheck), and what the page shows.
	orig      pipeline.Result
	res       pipeline.Result
	rechecked bool
	hasResult bool
	// expanded shows the selected field's full reason and every note.
	expanded bool
	// showHistory puts the document's audit trail where the text was (h).
	showHistory    bool
	historyLoading bool
	history        []store.AuditEntry
	historyErr     error
	// redo holds the actions undone in this document, latest last; a new
	// decision clears it, as in any editor.
	redo      [][]store.Decision
	decisions map[string]store.Decision
	regrounds map[string][]pipeline.Span
	pending   map[string]bool
	running   bool // a retry is in flight
	// lateResult is a pipeline result that arrived while the document was
	// loading; the load may have read the store before it was written.
	lateResult *pipeline.Result

	fields []pipeline.Field
	sel    int
	text   textView
	edit   *editor
	// vnote is the note prompt of X or S, nil when closed; verdict the
	// document-level verdict standing on the document.
	vnote      *verdictPrompt
	verdict    store.Verdict
	hasVerdict bool

	width, height int
}

func newDocPage(svc *services) *docPage {
	return &docPage{svc: svc, fields: svc.schema.Fields}
}

// Open starts loading a document and returns the command that reads it.
func (d *docPage) Open(docID string) tea.Cmd {
	*d = docPage{svc: d.svc, fields: d.fields, width: d.width, height: d.height, docID: docID, loading: true}
	d.text.SetWidth(d.width)
	return d.svc.loadDocCmd(docID)
}

// DocID is the document shown (or loading).
func (d *docPage) DocID() string { return d.docID }

func (d *docPage) ItemID() string { return d.docID }
func (d *docPage) Crumb() string  { return "document " + d.docID }
func (d *docPage) Loading() bool  { return d.loading }
func (d *docPage) Saving() bool   { return d.saving() }

// Apply takes the messages about documents; see detail.
func (d *docPage) Apply(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case DocLoadedMsg:
		d.Loaded(msg)
		return msg.DocID == d.docID
	case DecidedMsg:
		return d.Decided(msg)
	case ResultMsg:
		if msg.DocID != d.docID {
			return false
		}
		if msg.StoreErr != nil {
			d.running = false // the retry is over; the stored result stands
		} else {
			d.SetResult(msg.DocID, msg.Result)
		}
		return true
	case HistoryMsg:
		return d.historyLoaded(msg)
	case UndoneMsg:
		if !msg.Found || msg.DocID != d.docID {
			return false
		}
		d.SetDecisions(msg.DocID, msg.Now)
		d.setVerdict(msg.Verdict, msg.HasVerdict)
		d.redo = append(d.redo, msg.Decisions)
		return true
	}
	return false
}

// Shows reports whether docID is open and loaded, so its decisions are known.
func (d *docPage) Shows(docID string) bool {
	return d.docID == docID && !d.loading && d.loadErr == nil
}

func (d *docPage) Loaded(msg DocLoadedMsg) {
	if msg.DocID != d.docID {
		return
	}
	d.loading = false
	d.loadErr = msg.Err
	if msg.Err != nil {
		return
	}
	d.doc, d.orig, d.hasResult = msg.Doc, msg.Result, msg.HasResult
	if d.lateResult != nil {
		d.orig, d.hasResult = *d.lateResult, true
		d.lateResult = nil
	}
	d.decisions = msg.Decisions
	d.setVerdict(msg.Verdict, msg.HasVerdict)
	if d.decisions == nil {
		d.decisions = map[string]store.Decision{}
	}
	d.regrounds = msg.Spans
	if d.regrounds == nil {
		d.regrounds = map[string][]pipeline.Span{}
	}
	d.pending = map[string]bool{}
	d.recheck()
	d.text.SetText(msg.Doc.Text)
	d.sel = 0
	if i := d.nextFlagged(-1, 1); i >= 0 {
		d.sel = i
	}
	d.refresh()
}

// SetResult shows a new pipeline result (a retry or the background run).
func (d *docPage) SetResult(docID string, r pipeline.Result) {
	if docID != d.docID {
		return
	}
	if d.loading {
		d.lateResult = &r
		return
	}
	d.orig, d.hasResult, d.running = r, true, false
	d.recheck()
	if !d.reviewable() {
		// An error result has no field table to edit in: an editor left
		// open would take every key while the screen no longer shows it.
		d.edit = nil
	}
	d.refresh()
}

// SetDecisions replaces the decisions after an undo.
func (d *docPage) SetDecisions(docID string, decs map[string]store.Decision) {
	if docID != d.docID || d.loading {
		return
	}
	if decs == nil {
		decs = map[string]store.Decision{} // Decided writes into it
	}
	d.decisions = decs
	// An undo can bring back a correction whose span was dropped when a
	// later decision replaced it, and another reviewer's correction arrives
	// without one: each correction standing is grounded again, as the load
	// does.
	d.regrounds = map[string][]pipeline.Span{}
	for f, dec := range decs {
		if dec.Action != store.ActionCorrect {
			continue
		}
		if sp, ok := d.svc.reground(d.doc.Text, f, dec.Value); ok {
			d.regrounds[f] = sp
		}
	}
	d.recheck()
	d.refresh()
}

// Decided applies a successful decision; it reports whether the message was
// for this document.
func (d *docPage) Decided(msg DecidedMsg) bool {
	if msg.DocID != d.docID || d.loading {
		return false
	}
	for _, dec := range msg.Decisions {
		delete(d.pending, dec.Field)
		if msg.Err != nil {
			continue
		}
		if dec.Field == store.VerdictField {
			d.setVerdict(verdictFromDecision(dec), true)
			continue
		}
		d.decisions[dec.Field] = dec
		delete(d.regrounds, dec.Field)
		if sp, ok := msg.Spans[dec.Field]; ok {
			d.regrounds[dec.Field] = sp
		}
	}
	if msg.Err == nil {
		d.recheck()
		if !msg.redo {
			d.redo = nil
		}
	}
	d.refresh()
	return true
}

// recheck recomputes the shown flags from the stored result and the
// decisions so far.
func (d *docPage) recheck() {
	d.res, d.rechecked = recheck(d.doc.Text, d.svc.schema, d.orig, d.decisions)
}

// nextOpen is the next flagged field nobody has decided after index from,
// wrapping; -1 when none is left.
func (d *docPage) nextOpen(from int) int {
	n := len(d.fields)
	for step := 1; step <= n; step++ {
		i := ((from+step)%n + n) % n
		name := d.fields[i].Name
		if _, done := d.decisions[name]; d.res.Flagged(name) && !done && !d.pending[name] {
			return i
		}
	}
	return -1
}

func (d *docPage) SetSize(w, h int) {
	d.width, d.height = w, h
	d.text.SetWidth(w)
	if d.edit != nil {
		setInputWidth(&d.edit.input, w)
	}
	if d.vnote != nil {
		setInputWidth(&d.vnote.input, w)
	}
	d.refresh()
}

func (d *docPage) Capturing() bool { return d.edit != nil || d.vnote != nil }

// saving reports whether a decision on this document is being written.
func (d *docPage) saving() bool { return len(d.pending) > 0 }

func (d *docPage) reviewable() bool {
	return !d.loading && d.loadErr == nil && d.hasResult && d.res.Status != pipeline.StatusError
}

func (d *docPage) selected() pipeline.Field {
	if d.sel < 0 || d.sel >= len(d.fields) {
		return pipeline.Field{}
	}
	return d.fields[d.sel]
}

// value is the field's settled value: the reviewer's when decided.
func (d *docPage) value(name string) any {
	if dec, ok := d.decisions[name]; ok {
		return dec.Value
	}
	return d.res.Data[name]
}

// nextFlagged finds the next flagged field from index `from` in direction dir,
// wrapping around; -1 when none is flagged.
func (d *docPage) nextFlagged(from, dir int) int {
	n := len(d.fields)
	for step := 1; step <= n; step++ {
		i := ((from+dir*step)%n + n) % n
		if d.res.Flagged(d.fields[i].Name) {
			return i
		}
	}
	return -1
}

func (d *docPage) Update(msg tea.Msg) tea.Cmd {
	if d.edit != nil {
		return d.updateEditor(msg)
	}
	if d.vnote != nil {
		return d.updateVerdictPrompt(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || d.loading {
		return nil
	}
	km := d.svc.keys
	switch {
	case key.Matches(k, km.NextField):
		d.sel = min(d.sel+1, len(d.fields)-1)
	case key.Matches(k, km.PrevField):
		d.sel = max(d.sel-1, 0)
	case key.Matches(k, km.NextFlagged), key.Matches(k, km.PrevFlagged):
		dir := 1
		if key.Matches(k, km.PrevFlagged) {
			dir = -1
		}
		if i := d.nextFlagged(d.sel, dir); i >= 0 {
			d.sel = i
		}
	case key.Matches(k, km.ScrollDown):
		d.text.Scroll(d.textHeight()/2, d.textHeight())
		return nil
	case key.Matches(k, km.ScrollUp):
		d.text.Scroll(-d.textHeight()/2, d.textHeight())
		return nil
	case key.Matches(k, km.Retry):
		return d.retry()
	case key.Matches(k, km.Skip):
		if i := d.nextOpen(d.sel); i >= 0 && i != d.sel {
			d.sel = i
		} else {
			return d.advance()
		}
	case key.Matches(k, km.Expand):
		d.expanded, d.showHistory = !d.expanded, false
		return nil
	case key.Matches(k, km.History):
		return d.toggleHistory()
	case key.Matches(k, km.Redo):
		return d.redoLast()
	case key.Matches(k, km.Reject, km.SkipDoc):
		return d.openVerdict(k)
	default:
		return d.decisionKey(k)
	}
	d.refresh()
	return nil
}

// refresh recomputes highlights for the selection and scrolls to it.
func (d *docPage) refresh() {
	if d.loading || d.loadErr != nil {
		return
	}
	sel := d.selected().Name
	hs := make([]fieldSpans, 0, len(d.fields))
	var selSpans []pipeline.Span
	for _, f := range d.fields {
		spans := d.spans(f.Name)
		c := classSpan
		if d.res.Flagged(f.Name) {
			if _, decided := d.decisions[f.Name]; !decided {
				c = classFlagged
			}
		}
		if f.Name == sel {
			c, selSpans = classSelected, spans
		}
		hs = append(hs, fieldSpans{class: c, spans: spans})
	}
	// The selected field goes last so its class wins where spans overlap.
	for i, h := range hs {
		if h.class == classSelected {
			hs[i], hs[len(hs)-1] = hs[len(hs)-1], hs[i]
			break
		}
	}
	d.text.SetHighlights(hs)
	if len(selSpans) > 0 {
		d.text.ScrollTo(selSpans[0], d.textHeight())
	}
}

// spans is the provenance shown for a field: none once set to null, the
// re-grounded span after a correction, else the pipeline's.
func (d *docPage) spans(field string) []pipeline.Span {
	if dec, ok := d.decisions[field]; ok {
		switch dec.Action {
		case store.ActionSetNull:
			return nil
		case store.ActionCorrect:
			return d.regrounds[field]
		}
	}
	return d.res.FieldProvenance[field]
}

func (d *docPage) reason(field string) string {
	for _, f := range d.res.FlaggedFields {
		if f.Field == field {
			return f.Reason
		}
	}
	return ""
}

func (d *docPage) ShortHelp() []key.Binding {
	km := d.svc.keys
	if d.edit != nil || d.vnote != nil {
		return []key.Binding{km.Submit, km.Cancel}
	}
	if !d.hasResult || d.res.Status == pipeline.StatusError {
		return []key.Binding{km.Retry, km.Reject, km.NextDoc, km.PrevDoc}
	}
	return []key.Binding{km.Accept, km.AcceptAll, km.Correct, km.Skip, km.Expand}
}

func (d *docPage) FullHelp() [][]key.Binding {
	km := d.svc.keys
	return [][]key.Binding{
		{km.NextField, km.PrevField, km.NextFlagged, km.PrevFlagged, km.ScrollDown, km.ScrollUp},
		{km.Accept, km.AcceptAll, km.Correct, km.SetNull, km.Skip, km.Expand, km.Retry},
		{km.Reject, km.SkipDoc, km.NextDoc, km.PrevDoc, km.History},
	}
}
