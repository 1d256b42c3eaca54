package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
)

// inFlightGrace bounds how long an interrupted batch waits for the documents
// already being verified.
const inFlightGrace = 2 * time.Minute

type batchJob struct {
	seq  int
	line golden.Line
}

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
	// On Ctrl-C the reader stops at once, but documents already in flight
	// finish on a context the interrupt does not cancel: their model calls
	// are paid for either way, so they must reach the cache and the output.
	// A second Ctrl-C kills the process (main restores the default handler).
	interrupted := ctx
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
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

	// window bounds lines read but not yet written, so one slow document cannot
	// make the reorder buffer grow without limit.
	window := make(chan struct{}, o.concurrency*4)
	jobs := make(chan batchJob)
	outs := make(chan struct {
		seq int
		out batchOut
	})
	var wg sync.WaitGroup
	for range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				outs <- struct {
					seq int
					out batchOut
				}{j.seq, verifyLine(work, name, env.p, j.line)}
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		seq := 0
		readErr <- golden.ReadLines(in, func(l golden.Line) error {
			select {
			case window <- struct{}{}:
			case <-interrupted.Done():
				return interrupted.Err()
			}
			if interrupted.Err() != nil {
				return interrupted.Err()
			}
			select {
			case jobs <- batchJob{seq: seq, line: l}:
			case <-interrupted.Done():
				return interrupted.Err()
			}
			seq++
			return nil
		})
	}()
	go func() { wg.Wait(); close(outs) }()

	worst := ExitOK
	pending := map[int]batchOut{}
	next := 0
	for o := range outs {
		pending[o.seq] = o.out
		for {
			out, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			if work.Err() != nil && out.res.Status == pipeline.StatusError {
				continue // aborted mid-call: the line was not verified, so print nothing for it
			}
			writeJSONLine(stdio.Out, out.res)
			if severity(out.code) > severity(worst) {
				worst = out.code
			}
		}
	}
	if err := <-readErr; err != nil && !errors.Is(err, context.Canceled) {
		writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", fmt.Errorf("reading input: %w", err)))
		worst = ExitPipeline
	}
	if err := env.finish(); err != nil {
		return err
	}
	if interrupted.Err() != nil {
		return interrupted.Err()
	}
	if worst == ExitUsage {
		worst = ExitPipeline // a batch reports any failed line as 3, like the seed
	}
	return resultErr(worst, nil)
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
			err = fmt.Errorf(`%w: line %d: validate needs "data" (or "expected")`, pipeline.ErrInput, l.No)
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
