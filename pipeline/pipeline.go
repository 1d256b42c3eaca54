package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// DefaultMaxTextBytes bounds one document. Invoices are kilobytes; a megabyte
// of text is a mistake (a PDF dumped as bytes, a whole mailbox) that would only
// burn model tokens.
const DefaultMaxTextBytes = 1 << 20

// Config assembles a pipeline.
type Config struct {
	Schema *Schema
	// Generator is nil for a validate-only pipeline.
	Generator Generator
	// Critic is nil in heuristics-only mode.
	Critic       Critic
	Gate         GateConfig
	Logger       *slog.Logger
	MaxTextBytes int
	// Version names the models and settings behind the stages (e.g.
	// "local" or "openai:gpt-4o-mini/openai:gpt-4.1-mini"), so stored results
	// are reused only for the same pipeline.
	Version string
	// Now is the verifying moment a date is judged against (an invoice
	// dated decades ahead is another calendar's date copied as Gregorian);
	// nil is time.Now. Tests set it so their verdicts do not age.
	Now func() time.Time
}

// Pipeline runs Generator → heuristics → Critic → gate.
type Pipeline struct {
	cfg Config
	log *slog.Logger
	// scratch lends each document's arrays to the heuristics.
	scratch scratchPool
	// reports lends verify a HeuristicReport, emptied, and takes it back
	// once the gate has read it: a map of a FieldCheck per field was a
	// tenth of a document's garbage.
	reports sync.Pool
}

// New validates cfg and returns a pipeline.
func New(cfg Config) (*Pipeline, error) {
	if cfg.Schema == nil {
		cfg.Schema = Invoice()
	}
	if err := cfg.Gate.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxTextBytes <= 0 {
		cfg.MaxTextBytes = DefaultMaxTextBytes
	}
	log := cfg.Logger
	if log == nil {
		// A handler that formats every line into io.Discard spends verify's
		// CPU for nothing; the discard handler skips the formatting.
		log = slog.New(slog.DiscardHandler)
	}
	return &Pipeline{cfg: cfg, log: log}, nil
}

// Schema is the pipeline's schema.
func (p *Pipeline) Schema() *Schema { return p.cfg.Schema }

// Prepare builds what the first document's heuristics would otherwise build
// (the schema's label index, a few milliseconds of CPU), so that a caller
// can build it while the CPU waits for other things, such as a batch's
// first round of model calls. Safe to call at any time, from any goroutine,
// any number of times; documents verified meanwhile wait for the one build.
func (p *Pipeline) Prepare() { p.cfg.Schema.labelSets() }

// HeuristicsOnly reports whether the Critic is skipped.
func (p *Pipeline) HeuristicsOnly() bool { return p.cfg.Critic == nil }

// Version identifies the pipeline's behaviour for result reuse: schema,
// prompts, stages and thresholds.
func (p *Pipeline) Version() string {
	mode := "critic"
	if p.cfg.Critic == nil {
		mode = "heuristics-only"
	}
	return fmt.Sprintf("%s@%s/%s/%s/%s/%s/f%.2f/o%.2f", p.cfg.Schema.Name, p.cfg.Schema.Version, p.cfg.Version,
		GeneratorPrompt, CriticPrompt, mode, p.cfg.Gate.FieldThreshold, p.cfg.Gate.OverallThreshold)
}

// CheckText rejects text no stage should see: empty, not UTF-8, or too large.
func CheckText(text string, maxBytes int) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: text is empty", ErrInput)
	}
	if !utf8.ValidString(text) {
		off := 0
		for off < len(text) {
			r, size := utf8.DecodeRuneInString(text[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return fmt.Errorf("%w: text is not valid UTF-8 (first bad byte at offset %d)", ErrInput, off)
	}
	if maxBytes > 0 && len(text) > maxBytes {
		return fmt.Errorf("%w: text is %d bytes, over the %d-byte limit", ErrInput, len(text), maxBytes)
	}
	return checkTextChars(text)
}

// NewTraceID returns a fresh random trace id.
func NewTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "trace-" + hex.EncodeToString(b[:])
}

// Extract runs the whole pipeline on doc. On failure the returned Result is
// the error envelope and err says why (ErrInput, *GeneratorError, *CriticError
// or the context's error).
func (p *Pipeline) Extract(ctx context.Context, doc Document) (Result, error) {
	// Per-document budgets count this document's calls, retries included,
	// even when another document has the same text.
	ctx = llm.WithDocument(ctx)
	doc, log := p.begin(doc)
	if err := CheckText(doc.Text, p.cfg.MaxTextBytes); err != nil {
		return p.fail(log, doc, err, nil)
	}
	if p.cfg.Generator == nil {
		return p.fail(log, doc, errors.New("this pipeline is validate-only: it has no Generator"), nil)
	}
	start := time.Now()
	ext, err := p.cfg.Generator.Generate(ctx, doc, p.cfg.Schema)
	if err != nil {
		log.Error("generate failed", "stage", "generate", "error", err.Error(), "duration_ms", ms(start))
		return p.fail(log, doc, err, &ext.Usage)
	}
	if log.Enabled(ctx, slog.LevelInfo) { // its arguments are boxed even for a logger that drops it
		log.Info("generated", "stage", "generate", "fields", countNonNull(ext.Record), "calls", ext.Usage.Calls,
			"cached_calls", ext.Usage.CachedCalls, "duration_ms", ms(start))
	}
	return p.verify(ctx, log, doc, ext, nil, false)
}

// Validate verifies data that was extracted elsewhere: heuristics, Critic and
// gate, no Generator. data must fit the schema: unknown fields and values of
// the wrong type are input errors.
func (p *Pipeline) Validate(ctx context.Context, doc Document, data map[string]any) (Result, error) {
	// Per-document budgets count this document's calls, retries included,
	// even when another document has the same text.
	ctx = llm.WithDocument(ctx)
	doc, log := p.begin(doc)
	if err := CheckText(doc.Text, p.cfg.MaxTextBytes); err != nil {
		return p.fail(log, doc, err, nil)
	}
	if data == nil {
		return p.fail(log, doc, fmt.Errorf("%w: data is missing", ErrInput), nil)
	}
	rec, err := p.cfg.Schema.NormalizeRecord(data, Strict)
	if err != nil {
		return p.fail(log, doc, fmt.Errorf("%w: data does not fit schema %q: %w", ErrInput, p.cfg.Schema.Name, err), nil)
	}
	// A key the caller left out is not a claim that the document has no
	// value: only an explicit null is checked for an omission.
	var unstated map[string]bool
	for _, f := range p.cfg.Schema.Fields {
		if _, ok := data[f.Name]; !ok {
			if unstated == nil {
				unstated = map[string]bool{}
			}
			unstated[f.Name] = true
		}
	}
	res, err := p.verify(ctx, log, doc, Extraction{Record: rec}, unstated, true)
	if err == nil && res.Status != StatusError && len(unstated) > 0 {
		res.NotGiven = slices.Grow(res.NotGiven, len(unstated))
		for _, f := range p.cfg.Schema.Fields {
			if unstated[f.Name] {
				res.NotGiven = append(res.NotGiven, f.Name)
			}
		}
	}
	return res, err
}

// begin gives doc a trace id and returns the logger every stage line of it
// carries.
func (p *Pipeline) begin(doc Document) (Document, *slog.Logger) {
	if doc.TraceID == "" {
		doc.TraceID = NewTraceID()
	}
	if p.log.Handler() == slog.DiscardHandler {
		return doc, p.log // its lines go nowhere: no attributes to copy
	}
	if doc.ID == "" {
		return doc, withDoc(p.log, slog.String("trace_id", doc.TraceID))
	}
	return doc, withDoc(p.log, slog.String("trace_id", doc.TraceID), slog.String("doc_id", doc.ID))
}

// unstated names fields the record does not state at all (validate's data
// left them out): their nulls are not checked as omissions.
// ownRecord says ext.Record is verify's to give away (Validate's
// NormalizeRecord copy): the result keeps it as its Data.
func (p *Pipeline) verify(ctx context.Context, log *slog.Logger, doc Document, ext Extraction, unstated map[string]bool, ownRecord bool) (Result, error) {
	usage := ext.Usage
	start := time.Now()
	now := time.Now
	if p.cfg.Now != nil {
		now = p.cfg.Now
	}
	hd, cd := p.heuristicsAndCritique(ctx, doc, ext.Record, unstated, start, now().Year())
	// The critic's call was made, and maybe billed, whichever stage failed.
	usage.Add(cd.critique.Usage)
	h := hd.report
	if err := hd.err; err != nil {
		log.Error("heuristics stopped", "stage", "heuristics", "error", err.Error(), "duration_ms", hd.took.Milliseconds())
		u := usage // a copy escapes, on this path only
		return p.fail(log, doc, err, &u)
	}
	// The stage lines' arguments are boxed even for a logger that drops
	// them: built only when a handler takes Info lines.
	logInfo := log.Enabled(ctx, slog.LevelInfo)
	if logInfo {
		lowered := 0
		for _, c := range h {
			if c.Factor < 1 {
				lowered++
			}
		}
		log.Info("heuristics", "stage", "heuristics", "fields_lowered", lowered, "duration_ms", hd.took.Milliseconds())
	}

	var crit *Critique
	if p.cfg.Critic != nil {
		if err := cd.err; err != nil {
			log.Error("critique failed", "stage", "critique", "error", err.Error(), "duration_ms", cd.took.Milliseconds())
			u := usage
			return p.fail(log, doc, err, &u)
		}
		c := cd.critique
		crit = &c
		if logInfo {
			log.Info("critiqued", "stage", "critique", "overall_confidence", c.OverallConfidence, "verdicts", len(c.FieldVerdicts),
				"duration_ms", cd.took.Milliseconds())
		}
	}

	res := gate(p.cfg.Schema, ext.Record, crit, h, ext.Evidence, p.cfg.Gate, ownRecord)
	// The result holds h's spans and reasons, never h itself.
	p.reports.Put(h)
	res.ID = doc.ID
	res.TraceID = doc.TraceID
	res.PromptVersions = p.promptVersions()
	if crit == nil {
		res.CriticSummary = "critic skipped (heuristics-only)"
	}
	if usage.Calls > 0 {
		u := usage
		res.Usage = &u
	}
	if logInfo {
		flagged := make([]string, len(res.FlaggedFields))
		for i, f := range res.FlaggedFields {
			flagged[i] = f.Field
		}
		log.Info("gated", "stage", "gate", "status", string(res.Status), "overall_confidence", res.OverallConfidence,
			"flagged", flagged)
	}
	return res, nil
}

// heuristicsDone is one document's heuristics; took counts from the
// start of verify.
type heuristicsDone struct {
	report HeuristicReport
	err    error
	took   time.Duration
}

// critiqueDone is one document's critique (zero without a critic).
type critiqueDone struct {
	critique Critique
	err      error
	took     time.Duration
}

// heuristicsAndCritique runs the heuristics on rec and, when the pipeline
// has a critic, the critique of rec. With a critic, the heuristics run
// while its call is out: they need only the record, and the call spends
// its time waiting for the model, so the critic's request leaves without
// waiting for them (they were on every document's critical path, between
// the generator's reply and the critic's request: issue 11). verify
// reports the stages in the order they ran before, a heuristics failure
// first.
func (p *Pipeline) heuristicsAndCritique(ctx context.Context, doc Document, rec Record, unstated map[string]bool, start time.Time, year int) (heuristicsDone, critiqueDone) {
	heuristics := func() heuristicsDone {
		lent, _ := p.reports.Get().(HeuristicReport)
		clear(lent)
		h, err := runHeuristics(ctx, lent, doc.Text, p.cfg.Schema, rec, unstated, &p.scratch, year)
		return heuristicsDone{report: h, err: err, took: time.Since(start)}
	}
	if p.cfg.Critic == nil {
		return heuristics(), critiqueDone{}
	}
	wait := goHeuristics(heuristics)
	critStart := time.Now()
	c, err := p.cfg.Critic.Critique(ctx, doc, p.cfg.Schema, rec)
	cd := critiqueDone{critique: c, err: err, took: time.Since(critStart)}
	return wait(), cd
}

// goHeuristics runs run on a goroutine of its own and returns the wait for
// its result. A panic in run is raised again by the wait, on the caller's
// goroutine, where a caller that recovers from a stage's panic (the MCP
// server) catches it as it did when the heuristics ran inline.
func goHeuristics(run func() heuristicsDone) (wait func() heuristicsDone) {
	type outcome struct {
		done     heuristicsDone
		panicked any
	}
	ch := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o.panicked = r
			}
			ch <- o
		}()
		o.done = run()
	}()
	return func() heuristicsDone {
		o := <-ch
		if o.panicked != nil {
			panic(o.panicked)
		}
		return o.done
	}
}

func (p *Pipeline) promptVersions() map[string]string {
	pv := map[string]string{}
	if p.cfg.Generator != nil {
		if _, ok := p.cfg.Generator.(*LLMGenerator); ok {
			pv["generator"] = GeneratorPrompt
		}
	}
	if _, ok := p.cfg.Critic.(*LLMCritic); ok {
		pv["critic"] = CriticPrompt
	}
	return pv
}

func (p *Pipeline) fail(log *slog.Logger, doc Document, err error, usage *Usage) (Result, error) {
	if errors.Is(err, ErrInput) {
		log.Warn("input rejected", "stage", "input", "error", err.Error())
	}
	res := ErrorResult(doc.ID, doc.TraceID, err)
	if usage != nil && usage.Calls > 0 {
		res.Usage = usage
	}
	return res, err
}

func countNonNull(r Record) int {
	n := 0
	for _, v := range r {
		if v != nil {
			n++
		}
	}
	return n
}

func ms(t time.Time) int64 { return time.Since(t).Milliseconds() }
