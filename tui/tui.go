// Package tui is reflect's review workstation: a Bubble Tea program that runs
// a corpus through the pipeline in the background and lets a reviewer settle
// every flagged field, writing each decision to the store.
//
// One root Model routes messages to two pages (queue, document) and a stats
// panel. Update never does IO: store reads and writes and pipeline runs are
// tea.Cmds, and the background run reaches the program through Program.Send.
package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// Runner runs one document through the pipeline; *pipeline.Pipeline
// satisfies it.
type Runner interface {
	Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error)
}

// Config is everything the workstation needs.
type Config struct {
	Store  *store.Store
	Corpus store.Corpus
	Schema *pipeline.Schema
	// Runner runs documents that have no result yet; nil reviews only what is
	// stored.
	Runner          Runner
	PipelineVersion string
	Reviewer        string
	Concurrency     int
	// ExportPath is where E writes the golden file; default
	// "<corpus name>.golden.jsonl".
	ExportPath string
	NoColor    bool
	// Poll is how often the queue asks the store for rows changed by other
	// processes and reviewers; 0 turns it off (Run uses DefaultPoll).
	Poll time.Duration
	// Holds resolves held tool calls; nil shows them without approve and
	// reject keys.
	Holds HoldResolver
	// Gate is the gate profile the corpus is gated under (nil: hand-set
	// thresholds); its budget sizes the audit sample.
	Gate *pipeline.GateProfile
	// Title names the corpus on screen; default its name. Two files with
	// one base name need more of their path to be told apart.
	Title string
}

func (c Config) withDefaults() Config {
	if c.Schema == nil {
		c.Schema = pipeline.Invoice()
		if s, ok := pipeline.BuiltinSchema(c.Corpus.Schema); ok {
			c.Schema = s
		}
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if c.Reviewer == "" {
		c.Reviewer = "reviewer"
	}
	if c.PipelineVersion == "" {
		c.PipelineVersion = "dev"
	}
	if c.Title == "" {
		c.Title = c.Corpus.Name
	}
	if c.ExportPath == "" {
		name := c.Corpus.Name
		if name == "" {
			name = "corpus"
		}
		c.ExportPath = name + ".golden.jsonl"
	}
	return c
}

type pageID int

const (
	pageQueue pageID = iota
	// pageDoc is an item's detail page, whatever the item's kind.
	pageDoc
)

// resortMsg rebuilds the queue order after a burst of results.
type resortMsg struct{}

// resortDelay bounds how often streaming results re-sort the queue.
const resortDelay = 250 * time.Millisecond

// maxTypeahead bounds the keys held while a page loads: enough for a fast
// "open, then act" burst, small enough that a load that never finishes
// cannot make a stream of held keys replay long after the reviewer gave up.
const maxTypeahead = 16

// Model is the root of the workstation.
type Model struct {
	svc   *services
	help  help.Model
	queue *queuePage
	// detail is the page of the item opened last (shown when page is
	// pageDoc); details holds one page per kind of item.
	detail  detail
	details map[store.Kind]detail
	// doc is the extraction documents' page, details[KindExtraction].
	doc      *docPage
	stats    *statsPanel
	progress *runProgress
	// skipped is the L panel, shown while showSkipped.
	skipped     *skippedPanel
	showSkipped bool

	page          pageID
	showStats     bool
	status        string
	statusErr     bool
	width, height int
	bodyH         int // lines left for the active component, set by layout
	helpH         int // lines of the help bar when layout ran
	statusH       int // lines of the status message when layout ran
	resortPending bool
	// summariesDone is set by the first SummariesMsg, loaded or failed.
	summariesDone bool
	// changeSeq is the store's change number the queue is current to.
	changeSeq uint64
	// pollStamp is the store file's stamp from before the last read of it;
	// the zero Stamp makes the next poll read.
	pollStamp store.Stamp
	// undoing is set while an undo is in flight; see busy.
	undoing bool
	// typeahead holds keys pressed while the model is busy; they are
	// replayed in order once it is not, so "enter e" typed at once opens the
	// document and then the editor, and "a u" undoes that accept.
	typeahead []tea.KeyPressMsg
	// lastVerdict is the document this reviewer last rejected or skipped
	// here and its verdict's word: X and S move on to the next document,
	// where u has nothing to take back, so u says where the verdict is.
	lastVerdict, lastVerdictWord string
}

// New builds the model; Init loads the queue from the store.
func New(cfg Config) Model { return newModel(context.Background(), cfg) }

func newModel(ctx context.Context, cfg Config) Model {
	cfg = cfg.withDefaults()
	if os.Getenv("NO_COLOR") != "" {
		cfg.NoColor = true
	}
	st := NewStyles(cfg.NoColor)
	km := DefaultKeyMap()
	svc := &services{
		ctx: ctx, store: cfg.Store, corpus: cfg.Corpus, schema: cfg.Schema, runner: cfg.Runner,
		version: cfg.PipelineVersion, reviewer: cfg.Reviewer, export: cfg.ExportPath, title: cfg.Title, styles: &st, keys: &km,
		poll: cfg.Poll, presence: &presenceState{}, audit: golden.AuditSpecFor(cfg.Schema, cfg.Gate, cfg.Reviewer),
	}
	h := help.New()
	if cfg.NoColor {
		h.Styles = help.Styles{}
	}
	doc := newDocPage(svc)
	m := Model{
		svc: svc, help: h, queue: newQueuePage(svc), doc: doc,
		details: map[store.Kind]detail{store.KindExtraction: doc, store.KindToolCall: newHoldPage(svc, cfg.Holds)}, detail: doc,
		stats: &statsPanel{svc: svc}, progress: newRunProgress(&st), skipped: &skippedPanel{svc: svc},
		width: 80, height: 24,
	}
	m.layout()
	return m
}

// Run opens the workstation on the terminal and blocks until the reviewer
// quits. The background run (when cfg.Runner is set) is cancelled and waited
// for before Run returns.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Store == nil {
		return errors.New("review: no store")
	}
	if cfg.Reviewer == "" {
		cfg.Reviewer = os.Getenv("USER")
	}
	cfg = cfg.withDefaults()
	if cfg.Poll == 0 {
		cfg.Poll = DefaultPoll
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The renderer (third_party/bubbletea, patched) draws when the view
	// changes: at once after a pause, so a key's frame is written as soon as
	// its Update and View are done, not at the next tick of a fixed 60 or
	// 120 fps ticker (issue 11: key -> frame p99 18-20 ms at 60 fps, p50 8
	// ms at 120). The fps caps bursts, such as a background run's results;
	// an idle workstation sleeps instead of waking 120 times a second.
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(120)}
	if cfg.NoColor || os.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(newModel(ctx, cfg), opts...)
	var done <-chan struct{}
	if cfg.Runner != nil {
		done = StartRun(ctx, cfg, p.Send)
	}
	_, err := p.Run()
	cancel()
	clearPresence(cfg)
	if done != nil {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			// A Runner that ignores cancellation must not keep the terminal.
		}
	}
	if errors.Is(err, tea.ErrInterrupted) {
		// SIGINT: the run is already cancelled and waited for; a clean exit.
		return nil
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return fmt.Errorf("review: %w", context.Cause(ctx))
	}
	if err != nil {
		return fmt.Errorf("review: %w", err)
	}
	return nil
}

func (m Model) Init() tea.Cmd { return m.svc.loadSummariesCmd() }

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyPressMsg:
		cmd := m.handleKey(msg)
		m.fitHelp()
		return m, cmd
	}
	if am, ok := msg.(AuditMsg); ok {
		return m, m.queue.applyAudit(am)
	}
	if cmd, ok := m.handleData(msg); ok {
		m.fitHelp()
		return m, tea.Batch(cmd, m.queue.followAudit(msg))
	}
	if dm, ok := msg.(deepMatchMsg); ok {
		// The reviewer may have opened a document while the search ran.
		m.queue.applyDeep(dm)
		return m, nil
	}
	return m, m.active().Update(msg)
}

// fitHelp redoes the layout when the help bar changed height: the full help
// of a page and of its text input differ, and opening an editor or a filter
// must not move the chrome off the screen.
func (m *Model) fitHelp() {
	if m.helpHeight() != m.helpH {
		m.layout()
	}
}

func (m *Model) helpHeight() int {
	return strings.Count(m.help.View(m.helpKeys()), "\n") + 1
}

func (m *Model) active() Component {
	switch {
	case m.showStats:
		return m.stats
	case m.showSkipped:
		return m.skipped
	case m.page == pageDoc:
		return m.detail
	default:
		return m.queue
	}
}

// setStatus shows a message under the body. A message is wrapped, not cut,
// so its end (often the command or path it names) stays on screen; the body
// gives up the lines it takes.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
	if len(m.statusLines()) != m.statusH {
		m.layout()
	}
}

func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.svc.keys
	if key.Matches(k, km.Quit) {
		return tea.Quit
	}
	if m.busy() {
		return m.holdKey(k)
	}
	cur := m.active()
	if cur.Capturing() {
		return cur.Update(k)
	}
	m.setStatus("", false)
	switch {
	case m.showStats:
		if key.Matches(k, km.Stats, km.Back) {
			m.showStats = false
			m.layout()
		}
		return nil
	case m.showSkipped:
		if key.Matches(k, km.Skipped, km.Back) {
			m.showSkipped = false
			return nil
		}
		return m.skipped.Update(k)
	case m.page == pageQueue && key.Matches(k, km.Skipped):
		m.showSkipped = true
		m.layout()
		return m.skipped.Open()
	case key.Matches(k, km.Help):
		m.help.ShowAll = !m.help.ShowAll
		m.layout()
	case key.Matches(k, km.Back):
		return m.back()
	case key.Matches(k, km.Stats):
		m.showStats, m.stats.loading = true, true
		m.layout()
		return m.svc.statsCmd()
	case key.Matches(k, km.Undo):
		if m.page != pageDoc || m.detail != detail(m.doc) {
			m.setStatus("u undoes your last action in the open document: open one first", false)
			return nil
		}
		m.undoing = true
		m.setStatus("undoing…", false)
		return m.svc.undoCmd(m.doc.DocID())
	case key.Matches(k, km.Export):
		m.setStatus("exporting to "+m.svc.export+"…", false)
		return m.svc.exportCmd()
	// Opening and stepping documents change the page here, not through a
	// message round trip, so a key replayed right after them already reaches
	// the page it was typed for.
	case m.page == pageQueue && key.Matches(k, km.Open):
		if id, ok := m.queue.Selected(); ok {
			return m.openDoc(id)
		}
	case m.page == pageDoc && key.Matches(k, km.NextDoc, km.PrevDoc):
		delta := 1
		if key.Matches(k, km.PrevDoc) {
			delta = -1
		}
		return m.stepDoc(m.detail.ItemID(), delta)
	default:
		return cur.Update(k)
	}
	return nil
}

// back closes the full help, then leaves the document, then clears a queue
// filter, then quits: q after ? must not quit.
func (m *Model) back() tea.Cmd {
	switch {
	case m.help.ShowAll:
		m.help.ShowAll = false
		m.layout()
	case m.page == pageDoc:
		m.page = pageQueue
		m.layout()
	case m.queue.ClearFilter():
	default:
		return tea.Quit
	}
	return nil
}

// busy reports whether a key must wait: the page it is meant for is still
// loading, or a store write is in flight. Commands run concurrently, so
// without the wait "a u" could undo before the accept is written (undoing an
// older decision instead), and "A ]" could leave the document before its save
// lands, so the queue row would never learn the document was reviewed. A
// write takes milliseconds; a held key is replayed as soon as it lands.
func (m *Model) busy() bool {
	if m.undoing || m.detail.Saving() {
		return true
	}
	switch {
	case m.showStats:
		return false
	case m.page == pageDoc:
		return m.detail.Loading()
	default:
		return !m.summariesDone
	}
}

// holdKey queues a key for replayTypeahead. Past the bound a key is dropped
// and the reviewer told so, except Back, which always leaves a document that
// does not finish loading.
func (m *Model) holdKey(k tea.KeyPressMsg) tea.Cmd {
	if len(m.typeahead) < maxTypeahead {
		m.typeahead = append(m.typeahead, k)
		return nil
	}
	if m.page == pageDoc && key.Matches(k, m.svc.keys.Back) {
		m.typeahead = nil
		m.page = pageQueue
		m.layout()
		m.setStatus("left "+m.detail.ItemID()+" before it loaded; keys typed meanwhile dropped", true)
		return nil
	}
	m.setStatus(fmt.Sprintf("still loading or saving: only the first %d keys are kept", maxTypeahead), true)
	return nil
}

// replayTypeahead applies held keys in order until one of them opens a page
// that must load first or starts a store write; the rest wait for that. Their commands run in
// sequence, so decisions and undos reach the store in the order typed.
func (m *Model) replayTypeahead() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.typeahead) > 0 && !m.busy() {
		k := m.typeahead[0]
		m.typeahead = m.typeahead[1:]
		cmds = append(cmds, m.handleKey(k))
	}
	if len(m.typeahead) == 0 {
		m.typeahead = nil
	}
	return tea.Sequence(cmds...)
}

// stepDoc opens the next (delta 1) or previous document of the queue's view.
func (m *Model) stepDoc(from string, delta int) tea.Cmd {
	if id, ok := m.queue.Step(from, delta); ok {
		return m.openDoc(id)
	}
	m.setStatus("no more documents in "+m.queue.tab.String(), false)
	return nil
}

// openDoc opens an item on the page for its kind.
func (m *Model) openDoc(id string) tea.Cmd {
	row, _ := m.queue.Row(id)
	m.detail = m.detailFor(row.Kind)
	m.page = pageDoc
	m.queue.Select(id)
	m.layout()
	return m.detail.Open(id)
}

func (m *Model) scheduleResort() tea.Cmd {
	if m.resortPending {
		return nil
	}
	m.resortPending = true
	return tea.Tick(resortDelay, func(time.Time) tea.Msg { return resortMsg{} })
}

func (m *Model) layout() {
	m.help.SetWidth(m.width)
	m.helpH = m.helpHeight()
	m.statusH = len(m.statusLines())
	// The body shrinks to one line before the chrome around it does, so a
	// tiny window still shows the status and help lines.
	body := max(1, m.height-2-m.statusH-m.helpH)
	m.bodyH = body
	m.queue.SetSize(m.width, body)
	for _, d := range m.details {
		d.SetSize(m.width, body)
	}
	m.stats.SetSize(m.width, body)
	m.skipped.SetSize(m.width, body)
	m.progress.SetWidth(m.width)
}
