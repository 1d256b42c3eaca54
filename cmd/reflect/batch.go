package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/internal/heapheadroom"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/runner"
	"github.com/reflect-mcp/reflect/store"
)

// inFlightGrace bounds how long an interrupted batch waits for the documents
// already being verified.
const inFlightGrace = 2 * time.Minute

// batchHeapHeadroom is how much a batch run lets its heap grow past what
// the last collection found live before the next collection starts.
//
// A batch keeps little alive (about 4 MB at 32 workers: the label index,
// the documents in flight), so the Go default (collect when the heap doubles,
// from 4 MB) collected about 13 times in 500 documents, a ninth of the run's
// CPU, right when a round of model replies queues on the cores. With 32 MiB
// of headroom the same run collects once or twice. It costs at most 32 MiB
// more memory than the default, and a heap already larger than 32 MiB
// collects exactly as by default (GOGC 100), so no batch collects more
// often than before or holds more than twice its live heap.
const batchHeapHeadroom = 32 << 20

type batchOut struct {
	res  pipeline.Result
	code int
}

// runBatch verifies JSONL lines with o.concurrency workers and writes one
// result per line in input order. A bad line becomes an error line; the batch
// goes on. The exit code is the worst line's.
func runBatch(ctx context.Context, name string, env *runEnv, o verifyOpts, stdio Stdio) error {
	defer heapheadroom.Keep(batchHeapHeadroom)()
	// The label index is built beside the first documents rather than by the
	// first heuristics: at --batch-concurrency 32 its build fell in the burst
	// of the first round of replies, when every core is busy sending the next
	// requests; built now, it uses the wait for the first replies.
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		env.p.Prepare()
	}()
	defer func() { <-prepared }()
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

	if sink != nil {
		in = io.TeeReader(in, sink.hash)
	}
	interrupted := ctx
	work, cancel := inFlight(ctx, stdio)
	defer cancel()

	// Lines are read by the runner, which abandons a read of stdin that an
	// interrupt cannot wake (a producer that has not closed the pipe), so
	// the batch never waits for input it no longer wants.
	var readErr error
	read := 0
	firstLine := map[string]int{} // by id
	lines := func(yield func(golden.Line) bool) {
		readErr = golden.ReadLines(in, func(l golden.Line) error {
			read++
			refuseDuplicate(&l, firstLine)
			if !yield(l) {
				return interrupted.Err()
			}
			return nil
		})
	}
	// A line without an id is printed under the id review and --save give
	// it (text- and 12 hex digits of its sha256, or its stored legacy id),
	// named in input order so a repeated text gets the same -2, -3.
	ids := golden.NewDocIDs(nil)
	if sink != nil {
		ids = sink.ids
	}
	worst := ExitOK
	runner.Run(interrupted, runner.Options{Workers: o.concurrency, Ordered: true}, lines,
		func(l golden.Line) batchOut { return verifyLine(work, name, env.p, l) },
		func(l golden.Line, out batchOut) {
			if work.Err() != nil && out.res.Status == pipeline.StatusError {
				return // aborted mid-call: the line was not verified, so print nothing for it
			}
			// Encoded once, for the line printed and the store. Saved in
			// input order and in the background: the exit status, not the
			// line, says whether it was stored.
			id := ""
			if l.Err == nil && strings.TrimSpace(l.Text) != "" {
				id = ids.ID(l)
				if out.res.ID == "" {
					out.res.ID = id
				}
			}
			line, err := out.res.MarshalJSON()
			if err != nil {
				line = nil // the store encodes it and reports the same error
			}
			sink.save(l, id, out.res, line, stdio)
			if line == nil {
				writeJSONLine(stdio.Out, out.res)
			} else {
				_, _ = stdio.Out.Write(append(line, '\n'))
			}
			if severity(out.code) > severity(worst) {
				worst = out.code
			}
		})
	if sink.close() && severity(ExitPipeline) > severity(worst) {
		worst = ExitPipeline // a verified result was not kept
	}
	if interrupted.Err() != nil {
		if err := env.finish(); err != nil {
			return err
		}
		return interrupted.Err()
	}
	// Not interrupted, so the runner read every line and readErr is set.
	if readErr == nil && read == 0 {
		// No output at all must not read as success on nothing said.
		fmt.Fprintf(stdio.Err, "reflect %s --batch: %s holds no line (empty or only blank lines): nothing to do\n", name, inputName(o.file))
	}
	if err := readErr; err != nil {
		writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", fmt.Errorf("reading input: %w", err)))
		worst = ExitPipeline
	} else if err := sink.recordContent(ctx); err != nil {
		fmt.Fprintf(stdio.Err, "reflect: --save: %v\n", err)
	}
	if err := env.finish(); err != nil {
		return err
	}
	if worst == ExitUsage {
		worst = ExitPipeline // a batch reports any failed line as 3, as documented
	}
	return resultErr(worst, nil)
}

// refuseDuplicate makes a line whose id an earlier document line already
// used an error line, as review and eval skip it: its result could be
// neither stored nor told apart from the first one's. It is refused before
// it is verified, so it costs no model call. first maps ids to their lines.
func refuseDuplicate(l *golden.Line, first map[string]int) {
	if l.Err != nil || l.ID == "" || strings.TrimSpace(l.Text) == "" {
		return // not a document: an empty text does not claim its id either
	}
	if no, dup := first[l.ID]; dup {
		l.Err = &golden.LineError{Line: l.No, Err: fmt.Errorf("duplicate id %q (first on line %d): this line was not verified", l.ID, no)}
		return
	}
	first[l.ID] = l.No
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
// Documents are stored as their lines come, with their results (issue 10
// §4: the file is never loaded whole), by a store.Saver that group-commits
// them.
type resultSink struct {
	saver  *store.Saver
	mu     sync.Mutex
	failed bool
	// st, corpus and hash record the file's content hash once every line
	// was read, so the corpus is found by its content when the file moves.
	st     *store.Store
	corpus store.Corpus
	hash   hash.Hash
	// ids names id-less lines as the workstation does (by their text).
	ids *golden.DocIDs
}

func openSink(ctx context.Context, o verifyOpts, env *runEnv) (*resultSink, error) {
	if o.file == "" || o.file == "-" {
		return nil, usageErr(errors.New("--save needs --file: results are stored under the file's corpus"))
	}
	corpus, err := sinkCorpus(o.file, schemaRef(o.pf.schema))
	if err != nil {
		return nil, usageErr(fmt.Errorf("--save: %w", err))
	}
	st, err := o.sf.openForWrite(ctx)
	if err != nil {
		return nil, err
	}
	// The corpus is the file's content, not only its path: a stored corpus
	// moved or renamed keeps its results and decisions.
	found, err := golden.ResolveCorpusFile(ctx, st, o.file, corpus.Schema)
	if err != nil {
		return nil, fmt.Errorf("--save: %w", err)
	}
	corpus.ID = found.ID
	if !found.Created.IsZero() {
		corpus.Created = found.Created
	}
	legacy, err := golden.LegacyLineIDs(ctx, st, corpus.ID)
	if err != nil {
		return nil, fmt.Errorf("--save: %w", err)
	}
	saver, err := st.NewSaver(corpus, env.p.Version())
	if err != nil {
		return nil, fmt.Errorf("--save: %w", err)
	}
	return &resultSink{saver: saver, st: st, corpus: corpus, hash: sha256.New(), ids: golden.NewDocIDs(legacy)}, nil
}

// inputName is how a message names the batch's input.
func inputName(file string) string {
	if file == "" || file == "-" {
		return "stdin"
	}
	return file
}

// sinkCorpus is the corpus record golden.LoadCorpus makes for a JSONL file,
// without reading the file (TestSinkCorpusMatchesLoadCorpus keeps them one).
func sinkCorpus(path, schema string) (store.Corpus, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return store.Corpus{}, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return store.Corpus{}, err
	} else if fi.IsDir() {
		return store.Corpus{}, fmt.Errorf("%s is a directory; --batch reads a JSONL file", path)
	}
	sum := sha256.Sum256([]byte(abs))
	return store.Corpus{ID: "file:" + hex.EncodeToString(sum[:8]),
		Name: strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs)), Kind: "file", Path: abs,
		Schema: schema, Created: time.Now().UTC()}, nil
}

// save queues l's result under id (s.ids named it; "" for a line with no
// document), encoded as res.MarshalJSON returns it or nil (nil sink:
// nothing to do). A line the corpus
// loader would reject (bad JSON, empty text) has no document of its own;
// one whose id is stored with another text is refused by the store. A
// result that cannot be stored is reported on stderr.
func (s *resultSink) save(l golden.Line, id string, res pipeline.Result, encoded []byte, stdio Stdio) {
	if s == nil || id == "" {
		return
	}
	if strings.IndexByte(id, 0) >= 0 {
		return
	}
	no := l.No
	s.saver.Add(store.Document{ID: id, Text: l.Text, Expected: l.Expected}, res, encoded, func(err error) {
		if err == nil || errors.Is(err, store.ErrOtherDocument) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.failed = true
		fmt.Fprintf(stdio.Err, "reflect: --save: line %d: %v\n", no, err)
	})
}

// recordContent stores the corpus record with the hash of the whole file
// read (and its current path): the same hash OpenCorpus records.
func (s *resultSink) recordContent(ctx context.Context) error {
	if s == nil {
		return nil
	}
	c := s.corpus
	c.ContentHash = hex.EncodeToString(s.hash.Sum(nil))
	return s.st.PutCorpus(ctx, c, nil)
}

// close waits for every queued result and says whether any was not stored.
func (s *resultSink) close() bool {
	if s == nil {
		return false
	}
	s.saver.Close()
	return s.failed
}
