package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/runner"
	"github.com/reflect-mcp/reflect/store"
)

// inFlightGrace bounds how long an interrupted batch waits for the documents
// already being verified.
const inFlightGrace = 2 * time.Minute

type batchOut struct {
	res  pipeline.Result
	code int
}

// runBatch verifies JSONL lines with o.concurrency workers and writes one
// result per line in input order. A bad line becomes an error line; the batch
// goes on. The exit code is the worst line's.
func runBatch(ctx context.Context, name string, env *runEnv, o verifyOpts, stdio Stdio) error {
	in := stdio.In
	if o.file != "" && o.file != "-" {
		f, err := os.Open(o.file)
		if err != nil {
			writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", err))
			return usageErr(fmt.Errorf("--file: %w", err))
		}
		defer f.Close()
		in = f
	}
	var sink *resultSink
	if o.save {
		var err error
		if sink, err = openSink(ctx, o, env); err != nil {
			writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", err))
			return err
		}
	}

	interrupted := ctx
	work, cancel := inFlight(ctx, stdio)
	defer cancel()

	// Lines are read by the runner, which abandons a read of stdin that an
	// interrupt cannot wake (a producer that has not closed the pipe), so
	// the batch never waits for input it no longer wants.
	var readErr error
	lines := func(yield func(golden.Line) bool) {
		readErr = golden.ReadLines(in, func(l golden.Line) error {
			if !yield(l) {
				return interrupted.Err()
			}
			return nil
		})
	}
	worst := ExitOK
	runner.Run(interrupted, runner.Options{Workers: o.concurrency, Ordered: true}, lines,
		func(l golden.Line) batchOut { return sink.save(work, l, verifyLine(work, name, env.p, l), stdio) },
		func(_ golden.Line, out batchOut) {
			if work.Err() != nil && out.res.Status == pipeline.StatusError {
				return // aborted mid-call: the line was not verified, so print nothing for it
			}
			writeJSONLine(stdio.Out, out.res)
			if severity(out.code) > severity(worst) {
				worst = out.code
			}
		})
	if interrupted.Err() != nil {
		if err := env.finish(); err != nil {
			return err
		}
		return interrupted.Err()
	}
	// Not interrupted, so the runner read every line and readErr is set.
	if err := readErr; err != nil {
		writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", fmt.Errorf("reading input: %w", err)))
		worst = ExitPipeline
	}
	if err := env.finish(); err != nil {
		return err
	}
	if worst == ExitUsage {
		worst = ExitPipeline // a batch reports any failed line as 3, as documented
	}
	return resultErr(worst, nil)
}

// inFlight is the context documents are verified on. On Ctrl-C the reader
// stops at once, but documents already in flight finish on this context,
// which the interrupt does not cancel: their model calls are paid for either
// way, so they must reach the cache and the output. It is cancelled
// inFlightGrace after the interrupt; a second Ctrl-C kills the process (main
// restores the default handler).
func inFlight(interrupted context.Context, stdio Stdio) (context.Context, context.CancelFunc) {
	work, cancel := context.WithCancel(context.WithoutCancel(interrupted))
	go func() {
		select {
		case <-interrupted.Done():
			fmt.Fprintln(stdio.Err, "reflect: interrupted: finishing the documents in flight (Ctrl-C again to abort)")
			select {
			case <-time.After(inFlightGrace):
				cancel()
			case <-work.Done():
			}
		case <-work.Done():
		}
	}()
	return work, cancel
}

func verifyLine(ctx context.Context, name string, p *pipeline.Pipeline, l golden.Line) batchOut {
	if l.Err != nil {
		return batchOut{res: pipeline.ErrorResult(l.ID, "", l.Err), code: ExitPipeline}
	}
	doc := pipeline.Document{ID: l.ID, Text: l.Text}
	var res pipeline.Result
	var err error
	if name == "extract" {
		res, err = p.Extract(ctx, doc)
	} else {
		data := l.Data
		if data == nil {
			data = l.Expected
		}
		if data == nil {
			err = fmt.Errorf(`%w: validate needs "data" (or "expected")`, pipeline.ErrInput)
			res = pipeline.ErrorResult(l.ID, "", err)
		} else {
			res, err = p.Validate(ctx, doc, data)
		}
	}
	if err != nil && res.ErrorMessage != "" && l.No > 0 {
		res.ErrorMessage = fmt.Sprintf("line %d: %s", l.No, res.ErrorMessage)
	}
	return batchOut{res: res, code: codeFor(res.Status, err)}
}

// resultSink stores batch results in the review store under the corpus of
// the input file: the same corpus and document ids `reflect review FILE`
// uses, so the workstation opens them without running anything again.
type resultSink struct {
	st       *store.Store
	corpusID string
	version  string
	// docs maps each stored document's id to its text's digest. A line the
	// corpus loader rejected (empty text, a duplicate id) has no document of
	// its own: its result must not land on another line's document.
	docs map[string][sha256.Size]byte
}

func openSink(ctx context.Context, o verifyOpts, env *runEnv) (*resultSink, error) {
	st, err := o.sf.open()
	if err != nil {
		return nil, err
	}
	corpus, docs, _, err := golden.LoadCorpus(o.file, schemaRef(o.pf.schema))
	if err != nil {
		return nil, usageErr(fmt.Errorf("--save: %w", err))
	}
	if err := st.PutCorpus(ctx, corpus, docs); err != nil {
		return nil, fmt.Errorf("--save: %w", err)
	}
	sums := make(map[string][sha256.Size]byte, len(docs))
	for _, d := range docs {
		sums[d.ID] = sha256.Sum256([]byte(d.Text))
	}
	return &resultSink{st: st, corpusID: corpus.ID, version: env.p.Version(), docs: sums}, nil
}

// save stores out's result (nil sink: nothing to do). A verified document
// whose result cannot be stored is reported on stderr; its line still prints.
// A line that is not the stored document of its id is not stored.
func (s *resultSink) save(ctx context.Context, l golden.Line, out batchOut, stdio Stdio) batchOut {
	if s == nil || l.Err != nil || ctx.Err() != nil {
		return out
	}
	id := l.ID
	if id == "" {
		id = "line-" + strconv.Itoa(l.No)
	}
	if sum, ok := s.docs[id]; !ok || sum != sha256.Sum256([]byte(l.Text)) {
		return out
	}
	// Other reflect processes may hold the store for a moment at a time;
	// a verified result is worth waiting a few seconds for.
	var err error
	for attempt := range saveAttempts {
		if _, err = s.st.PutResult(ctx, s.corpusID, id, s.version, out.res); err == nil || !errors.Is(err, store.ErrLocked) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
	if err != nil {
		// The line still prints, but the batch must not exit as if every
		// result were kept.
		fmt.Fprintf(stdio.Err, "reflect: --save: line %d: %v\n", l.No, err)
		out.code = ExitPipeline
	}
	return out
}

// saveAttempts bounds the waits for a busy store (about 5 s in all).
const saveAttempts = 10
