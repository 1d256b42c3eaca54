package tui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Tab is one of the queue's filters.
type Tab int

const (
	TabNeedsReview Tab = iota
	TabOK
	TabErrors
	TabReviewed
	TabAll
	// TabAudit is the audit sample (audit.go): not a filter of the
	// summaries but the documents the corpus's audit drew.
	TabAudit
)

var tabNames = [...]string{"needs review", "ok", "errors", "reviewed", "all", "audit"}

func (t Tab) String() string { return tabNames[t] }

func (t Tab) match(s *store.Summary) bool {
	switch t {
	case TabNeedsReview:
		return s.Status == pipeline.StatusNeedsReview && !s.Reviewed
	case TabOK:
		return s.Status == pipeline.StatusOK && !s.Reviewed
	case TabErrors:
		return s.Status == pipeline.StatusError && s.Verdict != store.ActionReject
	case TabReviewed:
		return s.Reviewed
	default:
		return true
	}
}

// inTab says whether a row belongs on tab t.
func (q *queuePage) inTab(t Tab, s *store.Summary) bool {
	if t == TabAudit {
		return q.audit.ids[s.DocID]
	}
	return t.match(s)
}

// OpenDocMsg asks the root to open a document. Enter on the queue opens the
// selected one directly (see Model.handleKey); the message is for callers
// outside the key path.
type OpenDocMsg struct{ DocID string }

// queuePage lists the corpus. It keeps layers so a keypress costs only the
// visible window: rows (as loaded), order (sorted indices, rebuilt when data
// changes), matched (order filtered by the text query) and one view per tab
// (matched filtered by the tab). Switching tabs picks a view; typing more of
// a query scans only what the shorter query matched.
type queuePage struct {
	svc *services

	rows    []store.Summary
	byID    map[string]int
	order   []int
	loaded  bool
	pending []store.Summary // upserts that arrived before the first load
	hay     []string        // lower-cased "id snippet", built on first filter

	// matched is order when there is no query, else matchBuf; matchedFor is
	// the query it was built for, "" after a data change (so a longer query
	// must rescan order).
	matched    []int
	matchBuf   []int
	matchedFor string
	views      [len(tabNames)][]int
	view       []int // views[tab]

	tab       Tab
	sortBy    sortKey
	filter    textinput.Model
	filtering bool
	query     string
	// bulk is the open bulk accept (B), nil when none; note is its last
	// outcome, shown until the next key.
	bulk *bulkState
	note string
	// deep holds the ids the background search (enter on the filter) found
	// for deepFor in text, values or reasons; searching is the query it is
	// running for.
	deep      map[string]bool
	deepFor   string
	searching string

	cursor, offset int
	width, height  int
	// longestID is the widest document id loaded, so the ID column grows
	// with the terminal only as far as an id needs.
	longestID int
	audit     auditState
}

func newQueuePage(svc *services) *queuePage {
	ti := newTextInput(svc.styles, "/", "id or first line; enter also searches text, values, reasons")
	return &queuePage{svc: svc, byID: map[string]int{}, filter: ti}
}

// SetRows replaces the data with a fresh load from the store.
func (q *queuePage) SetRows(rows []store.Summary) {
	q.rows = rows
	q.byID = make(map[string]int, len(rows))
	q.longestID = 0
	for i := range rows {
		q.byID[rows[i].DocID] = i
		q.noteID(rows[i].DocID)
	}
	q.hay = nil
	q.loaded = true
	for _, s := range q.pending {
		q.Upsert(s)
	}
	q.pending = nil
	q.Resort()
}

// Upsert changes one row in place; order and view are rebuilt later by
// Resort, so a stream of results does not sort 100,000 rows per message.
func (q *queuePage) Upsert(s store.Summary) {
	if !q.loaded {
		q.pending = append(q.pending, s)
		return
	}
	q.matchedFor = ""
	if i, ok := q.byID[s.DocID]; ok {
		q.rows[i] = s
		if q.hay != nil {
			q.hay[i] = haystack(&s)
		}
		return
	}
	q.byID[s.DocID] = len(q.rows)
	q.noteID(s.DocID)
	q.rows = append(q.rows, s)
	if q.hay != nil {
		q.hay = append(q.hay, haystack(&s))
	}
}

// Row returns the current summary of a document.
func (q *queuePage) Row(docID string) (store.Summary, bool) {
	i, ok := q.byID[docID]
	if !ok {
		return store.Summary{}, false
	}
	return q.rows[i], true
}

func (q *queuePage) noteID(id string) {
	q.longestID = max(q.longestID, ansi.StringWidth(id))
}

// idWidth is the ID column: at least minIDWidth, growing with the terminal
// (up to a third of it) as far as the longest id needs.
func (q *queuePage) idWidth() int {
	return max(minIDWidth, min(q.longestID, q.width/3))
}

// Resort rebuilds the sorted order (by q.sortBy) and then the view.
func (q *queuePage) Resort() {
	if cap(q.order) >= len(q.rows) {
		q.order = q.order[:len(q.rows)]
	} else {
		q.order = make([]int, len(q.rows))
	}
	for i := range q.order {
		q.order[i] = i
	}
	rows := q.rows
	sort.Slice(q.order, func(a, b int) bool {
		return q.sortBy.less(&rows[q.order[a]], &rows[q.order[b]])
	})
	q.Refilter()
}

func haystack(s *store.Summary) string {
	return strings.ToLower(s.DocID + " " + s.Snippet + " " + s.FlagNames)
}

// needle is the query as matched against haystacks.
func (q *queuePage) needle() string { return strings.ToLower(strings.TrimSpace(q.query)) }

// Refilter rebuilds matched and the views from order, keeping the selected
// document selected when it still matches, else the same position.
func (q *queuePage) Refilter() {
	q.matchedFor = ""
	q.rebuild()
}

// rebuild refilters by text and tab. A query that extends the one matched
// last can only match a subset, so only that subset is scanned.
func (q *queuePage) rebuild() {
	selected, hadSel := q.Selected()
	needle := q.needle()
	switch {
	case needle == "":
		q.matched = q.order
	case q.matchedFor != "" && strings.Contains(needle, q.matchedFor):
		q.matched = q.match(q.matched, needle)
	default:
		q.matched = q.match(q.order, needle)
	}
	q.matchedFor = needle
	for t := range Tab(len(tabNames)) {
		if t == TabAll {
			continue
		}
		v := q.views[t][:0]
		for _, i := range q.matched {
			if q.inTab(t, &q.rows[i]) {
				v = append(v, i)
			}
		}
		q.views[t] = v
	}
	q.views[TabAll] = q.matched
	q.view = q.views[q.tab]
	if hadSel {
		for vi, i := range q.view {
			if q.rows[i].DocID == selected {
				q.cursor = vi
				break
			}
		}
	}
	q.clamp()
}

// match filters src (order or matchBuf itself) into matchBuf.
func (q *queuePage) match(src []int, needle string) []int {
	if q.hay == nil {
		q.hay = make([]string, len(q.rows))
		for i := range q.rows {
			q.hay[i] = haystack(&q.rows[i])
		}
	}
	deep := q.deep
	if q.deepFor != needle {
		deep = nil
	}
	out := q.matchBuf[:0]
	for _, i := range src {
		if strings.Contains(q.hay[i], needle) || deep[q.rows[i].DocID] {
			out = append(out, i)
		}
	}
	q.matchBuf = out
	return out
}

// Selected is the document under the cursor.
func (q *queuePage) Selected() (string, bool) {
	if q.cursor < 0 || q.cursor >= len(q.view) {
		return "", false
	}
	return q.rows[q.view[q.cursor]].DocID, true
}

// Step moves from the document `from` by delta in the current view and
// returns the document there. When `from` left the view (it was just
// reviewed), the cursor already sits on its successor.
func (q *queuePage) Step(from string, delta int) (string, bool) {
	if cur, ok := q.Selected(); ok && cur == from {
		q.cursor += delta
	} else if delta < 0 {
		q.cursor += delta
	}
	if q.cursor < 0 || q.cursor >= len(q.view) {
		q.clamp()
		return "", false
	}
	q.clamp()
	return q.Selected()
}

// Select puts the cursor on docID when it is in the view.
func (q *queuePage) Select(docID string) {
	for vi, i := range q.view {
		if q.rows[i].DocID == docID {
			q.cursor = vi
			q.clamp()
			return
		}
	}
}

func (q *queuePage) clamp() {
	q.cursor = max(0, min(q.cursor, len(q.view)-1))
	h := q.listHeight()
	if q.cursor < q.offset {
		q.offset = q.cursor
	}
	if q.cursor >= q.offset+h {
		q.offset = q.cursor - h + 1
	}
	q.offset = max(0, min(q.offset, len(q.view)-h))
}

// listHeight is the rows left after the tab bar, filter line and header.
func (q *queuePage) listHeight() int { return max(1, q.height-3) }

func (q *queuePage) SetSize(w, h int) {
	q.width, q.height = w, h
	setInputWidth(&q.filter, max(10, w-4))
	q.clamp()
}

func (q *queuePage) Capturing() bool { return q.filtering || q.bulk != nil }

// Counts returns how many documents (text filter applied) each tab holds.
func (q *queuePage) Counts() (n [len(tabNames)]int) {
	for t, v := range q.views {
		n[t] = len(v)
	}
	return n
}

func (q *queuePage) setTab(t Tab) tea.Cmd {
	if t == q.tab {
		return nil
	}
	q.tab = t
	q.view = q.views[t]
	q.cursor, q.offset = 0, 0
	q.clamp()
	if t == TabAudit {
		return q.openAudit()
	}
	return nil
}

func (q *queuePage) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(deepMatchMsg); ok {
		q.applyDeep(m)
		return nil
	}
	if q.bulk != nil {
		return q.updateBulk(msg)
	}
	if q.filtering {
		return q.updateFilter(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	q.note = ""
	km := q.svc.keys
	for i, b := range km.Tabs {
		if key.Matches(k, b) {
			return q.setTab(Tab(i))
		}
	}
	switch {
	case key.Matches(k, km.Down):
		q.cursor++
	case key.Matches(k, km.Up):
		q.cursor--
	case key.Matches(k, km.PageDown):
		q.cursor += q.listHeight()
	case key.Matches(k, km.PageUp):
		q.cursor -= q.listHeight()
	case key.Matches(k, km.Top):
		q.cursor = 0
	case key.Matches(k, km.Bottom):
		q.cursor = len(q.view) - 1
	case key.Matches(k, km.NextTab):
		return q.setTab((q.tab + 1) % Tab(len(tabNames)))
	case key.Matches(k, km.PrevTab):
		return q.setTab((q.tab + Tab(len(tabNames)) - 1) % Tab(len(tabNames)))
	case key.Matches(k, km.DrawMore) && q.tab == TabAudit:
		return q.drawMore()
	case key.Matches(k, km.Bulk):
		if len(q.view) > 0 {
			q.startBulk()
		}
		return nil
	case key.Matches(k, km.Sort):
		q.sortBy = (q.sortBy + 1) % sortKey(len(sortNames))
		q.Resort()
		return nil
	case key.Matches(k, km.Filter):
		q.filtering = true
		q.filter.SetValue(q.query)
		q.filter.Focus()
		return nil
	}
	q.clamp()
	return nil
}

// ClearFilter drops the text filter; it reports whether there was one.
func (q *queuePage) ClearFilter() bool {
	if q.query == "" {
		return false
	}
	q.query = ""
	q.filter.SetValue("")
	q.Refilter()
	return true
}

func (q *queuePage) updateFilter(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, q.svc.keys.ApplyFilter):
			q.filtering = false
			q.filter.Blur()
			return q.startDeepSearch()
		case key.Matches(k, q.svc.keys.ClearFilter):
			q.filtering = false
			q.filter.Blur()
			q.ClearFilter()
			return nil
		}
	}
	changed, cmd := updateInput(&q.filter, msg)
	if changed {
		q.query = q.filter.Value()
		q.cursor, q.offset = 0, 0
		q.rebuild()
	}
	return cmd
}

func (q *queuePage) ShortHelp() []key.Binding {
	km := q.svc.keys
	if q.bulk != nil {
		return q.bulkHelp()
	}
	if q.filtering {
		return []key.Binding{km.ApplyFilter, km.ClearFilter}
	}
	if q.tab == TabAudit {
		return []key.Binding{km.Open, km.MoveHelp, km.TabsHelp, km.DrawMore, km.Stats}
	}
	return []key.Binding{km.Open, km.MoveHelp, km.TabsHelp, km.Filter, km.Stats}
}

func (q *queuePage) FullHelp() [][]key.Binding {
	km := q.svc.keys
	return [][]key.Binding{
		{km.Open, km.Down, km.Up, km.PageDown, km.PageUp, km.Top, km.Bottom},
		append([]key.Binding{km.NextTab, km.PrevTab, km.Filter, km.SortHelp, km.BulkHelp, km.Skipped, km.DrawMore}, km.Tabs[:]...),
	}
}
