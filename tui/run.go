package tui

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/runner"
	"github.com/reflect-mcp/reflect/store"
)

// RunStartedMsg says the background run found Total documents without a
// result for this pipeline version.
type RunStartedMsg struct {
	Total int
	At    time.Time
}

// ResultMsg is one document's pipeline outcome, already written to the store
// (StoreErr says when that write failed), with the queue row the store
// rewrote for it.
type ResultMsg struct {
	DocID    string
	Result   pipeline.Result
	Row      store.Summary
	StoreErr error
	At       time.Time
	// Retry marks a single re-run asked for with r; it does not count toward
	// the background run's progress.
	Retry bool
}

// RunDoneMsg ends the background run; Err is set when it could not start or
// was cancelled.
type RunDoneMsg struct {
	At  time.Time
	Err error
}

// StartRun runs every document that has no result for cfg.PipelineVersion
// through cfg.Runner with cfg.Concurrency workers, stores each result and
// sends progress to the program through send (tea.Program.Send). The returned
// channel closes once every worker has stopped; cancelling ctx stops them.
func StartRun(ctx context.Context, cfg Config, send func(tea.Msg)) <-chan struct{} {
	done := make(chan struct{})
	cfg = cfg.withDefaults()
	svc := &services{ctx: ctx, store: cfg.Store, corpus: cfg.Corpus, schema: cfg.Schema, runner: cfg.Runner, version: cfg.PipelineVersion}
	go func() {
		defer close(done)
		if cfg.Runner == nil {
			send(RunDoneMsg{At: time.Now(), Err: errors.New("no pipeline configured")})
			return
		}
		// Ids only: a resume of a large corpus must not hold every text
		// left to run (issue 11); texts are read a batch at a time.
		ids, err := cfg.Store.MissingResultIDs(ctx, cfg.Corpus.ID, cfg.PipelineVersion)
		if err != nil {
			send(RunDoneMsg{At: time.Now(), Err: fmt.Errorf("background run: %w", err)})
			return
		}
		send(RunStartedMsg{Total: len(ids), At: time.Now()})
		opts := runner.Options{Workers: min(cfg.Concurrency, len(ids))}
		var loadErr lockedErr
		runner.Run(ctx, opts, loadDocs(ctx, cfg.Store, cfg.Corpus.ID, ids, &loadErr),
			func(d store.Document) ResultMsg { return runOne(ctx, svc, d) },
			func(_ store.Document, msg ResultMsg) {
				if ctx.Err() == nil {
					send(msg)
				}
			})
		err = ctx.Err()
		if e := loadErr.get(); e != nil && err == nil {
			err = fmt.Errorf("background run: %w", e)
		}
		send(RunDoneMsg{At: time.Now(), Err: err})
	}()
	return done
}

// resumeBatch is how many texts the background run reads per transaction.
const resumeBatch = 256

// loadDocs yields the documents ids names, reading resumeBatch texts at a
// time; a failed read ends the sequence and is kept in errp.
func loadDocs(ctx context.Context, st *store.Store, corpusID string, ids []string, errp *lockedErr) iter.Seq[store.Document] {
	return func(yield func(store.Document) bool) {
		for start := 0; start < len(ids); start += resumeBatch {
			docs, err := st.Documents(ctx, corpusID, ids[start:min(len(ids), start+resumeBatch)])
			if err != nil {
				errp.set(err)
				return
			}
			for _, d := range docs {
				if !yield(d) {
					return
				}
			}
		}
	}
}

// lockedErr is an error set by the goroutine that feeds the runner (which
// the runner may abandon) and read once the run is over.
type lockedErr struct {
	mu  sync.Mutex
	err error
}

func (e *lockedErr) set(err error) { e.mu.Lock(); e.err = err; e.mu.Unlock() }
func (e *lockedErr) get() error    { e.mu.Lock(); defer e.mu.Unlock(); return e.err }

// runOne extracts one document and stores the result. A pipeline failure is
// stored as an error result, so the document shows up under "errors" with a
// retry key instead of being silently re-run on every launch.
func runOne(ctx context.Context, s *services, d store.Document) ResultMsg {
	res, err := s.runner.Extract(ctx, pipeline.Document{ID: d.ID, Text: d.Text, TraceID: d.TraceID})
	if err != nil {
		if ctx.Err() != nil {
			return ResultMsg{DocID: d.ID, StoreErr: ctx.Err(), At: time.Now()}
		}
		res = pipeline.ErrorResult(d.ID, d.TraceID, err)
	}
	if res.ID == "" {
		res.ID = d.ID
	}
	msg := ResultMsg{DocID: d.ID, Result: res, At: time.Now()}
	msg.Row, msg.StoreErr = s.store.PutResult(ctx, s.corpus.ID, d.ID, s.version, res)
	return msg
}

// runProgress is the progress line: a bar, counts by outcome, rate and ETA.
type runProgress struct {
	started, finished  bool
	total, done        int
	ok, review, failed int
	start, last        time.Time
	err                error
	width              int
	styles             *Styles
	// bar is drawn statically with ViewAs: results arrive in bursts, and a
	// spring animation would only add frame messages to the program.
	bar progress.Model
}

func newRunProgress(st *Styles) *runProgress {
	// Full blocks rather than the default half blocks: a half block needs a
	// background colour to read as filled, and without colour the filled and
	// empty cells must still differ by shape.
	bar := progress.New(progress.WithoutPercentage(), progress.WithFillCharacters('█', '░'))
	bar.FullColor, bar.EmptyColor = lipgloss.Green, lipgloss.BrightBlack
	if st.NoColor {
		bar.FullColor, bar.EmptyColor = lipgloss.NoColor{}, lipgloss.NoColor{}
	}
	return &runProgress{styles: st, bar: bar}
}

func (p *runProgress) Started(m RunStartedMsg) {
	p.started, p.total, p.start, p.last = true, m.Total, m.At, m.At
}

func (p *runProgress) Result(m ResultMsg) {
	if m.Retry {
		return
	}
	p.done++
	p.last = m.At
	switch {
	case m.StoreErr != nil:
		// Not saved, so not in the queue: an error, whatever the pipeline said.
		p.failed++
	case m.Result.Status == pipeline.StatusOK:
		p.ok++
	case m.Result.Status == pipeline.StatusNeedsReview:
		p.review++
	default:
		p.failed++
	}
}

func (p *runProgress) Done(m RunDoneMsg) {
	p.finished, p.err = true, m.Err
	if !m.At.IsZero() {
		p.last = m.At
	}
}

func (p *runProgress) SetWidth(w int) { p.width = w }

// Running reports whether the background run is still going.
func (p *runProgress) Running() bool { return p.started && !p.finished }

// View renders the line; idle is what to show when no run is going on.
func (p *runProgress) View(idle string) string {
	st := p.styles
	switch {
	case !p.started && !p.finished:
		return st.Muted.Render(fitWidth(idle, p.width))
	case p.finished && (p.total == 0 || p.err != nil && !errors.Is(p.err, context.Canceled)):
		if p.err != nil {
			return st.Error.Render(fitWidth("run: "+p.err.Error(), p.width))
		}
		return st.Muted.Render(fitWidth(idle, p.width))
	}
	counts := fmt.Sprintf(" %d/%d ok %d · review %d · err %d", p.done, p.total, p.ok, p.review, p.failed)
	var tail string
	if p.finished {
		tail = " · done"
		if p.err != nil {
			tail = " · stopped"
		}
	} else if el := p.last.Sub(p.start).Seconds(); p.done > 0 && el > 0 {
		rate := float64(p.done) / el
		eta := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
		tail = fmt.Sprintf(" · %.1f/s · ETA %s", rate, fmtETA(eta))
	}
	barW := max(10, min(30, p.width-len([]rune(counts+tail))))
	pct := 0.0
	if p.total > 0 {
		pct = float64(p.done) / float64(p.total)
	}
	p.bar.SetWidth(barW)
	return p.bar.ViewAs(pct) + pad(counts+tail, max(0, p.width-barW))
}

func fmtETA(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// idleLine summarises the corpus when no run is going on.
func idleLine(counts [len(tabNames)]int, runner bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d docs · %d need review · %d ok · %d errors · %d reviewed",
		counts[TabAll], counts[TabNeedsReview], counts[TabOK], counts[TabErrors], counts[TabReviewed])
	if !runner {
		b.WriteString(" · review only")
	}
	return b.String()
}
