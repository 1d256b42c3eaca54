package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
)

type verifyOpts struct {
	pf          pipelineFlags
	file        string
	data        string
	batch       bool
	concurrency int
	save        bool
	sf          storeFlags
}

func runExtract(ctx context.Context, args []string, stdio Stdio) error {
	return runVerify(ctx, "extract", args, stdio)
}

func runValidate(ctx context.Context, args []string, stdio Stdio) error {
	return runVerify(ctx, "validate", args, stdio)
}

func runVerify(ctx context.Context, name string, args []string, stdio Stdio) error {
	var o verifyOpts
	usage := "[--file F | stdin] [flags]"
	if name == "validate" {
		usage = "--file F --data JSON [flags]   |   validate --batch [--file F.jsonl | stdin]"
	}
	fs := newFlagSet(name, usage, stdio)
	o.pf.register(fs)
	// A user's command, often piped: stderr carries warnings and errors
	// only. The per-stage lines (--log-level info) are a server's log, the
	// default of mcp and gateway.
	fs.Lookup("log-level").DefValue = "warn"
	o.pf.logLevel = "warn"
	fs.StringVar(&o.file, "file", "", "read the document (or, with --batch, JSONL) from this file instead of stdin")
	if name == "validate" {
		fs.StringVar(&o.data, "data", "", "the record to verify, as JSON (or @FILE to read it from a file)")
	}
	fs.BoolVar(&o.batch, "batch", false, `JSONL in, one JSON result per line out, in order: {"id"?,"text"`+map[bool]string{true: `,"data"|"expected"}`, false: "}"}[name == "validate"])
	fs.IntVar(&o.concurrency, "batch-concurrency", 1, "with --batch: documents verified at once")
	fs.BoolVar(&o.save, "save", false, "with --batch --file: also store every result in the review store, so reflect review FILE opens them without re-running")
	o.sf.register(fs)
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) && slices.ContainsFunc(args, func(a string) bool { return a == "--batch" || a == "-batch" }) {
			// A batch reader expects one JSON line per outcome, even this one.
			writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", err))
		}
		return helpOK(err)
	}
	if len(pos) > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q (use --file)", pos[0]))
	}
	if o.save && (!o.batch || o.file == "" || o.file == "-") {
		return usageErr(errors.New("--save goes with --batch --file FILE (the corpus is the file)"))
	}
	if o.concurrency < 1 {
		return usageErr(fmt.Errorf("--batch-concurrency must be at least 1, got %d", o.concurrency))
	}
	if name == "validate" && !o.batch && o.data == "" {
		return usageErr(errors.New("validate needs --data JSON (or --batch)"))
	}
	if name == "validate" && o.batch && o.data != "" {
		return usageErr(errors.New("--data does not go with --batch: each line carries its own data"))
	}
	log, err := newLogger(stdio.Err, o.pf.logLevel)
	if err != nil {
		return err
	}
	if o.batch {
		o.pf.concurrency = o.concurrency
	}
	env, err := buildEnv(ctx, &o.pf, name == "extract", log)
	if err != nil {
		if o.batch {
			writeJSONLine(stdio.Out, pipeline.ErrorResult("", "", err))
		}
		if ExitCode(err) == ExitUsage {
			return err
		}
		return &exitError{code: ExitPipeline, err: err, loud: true}
	}
	defer env.Close()
	if o.batch {
		return runBatch(ctx, name, env, o, stdio)
	}
	return runSingle(ctx, name, env, o, stdio)
}

func runSingle(ctx context.Context, name string, env *runEnv, o verifyOpts, stdio Stdio) error {
	text, err := readDocument(ctx, o.file, stdio, o.pf.maxTextBytes)
	if errors.Is(err, context.Canceled) {
		return err // Ctrl-C while reading: no document, no result
	}
	if err != nil {
		return writeErrorEnvelope(stdio.Out, err)
	}
	doc := pipeline.Document{Text: text}
	var res pipeline.Result
	if name == "extract" {
		res, err = env.p.Extract(ctx, doc)
	} else {
		data, derr := parseData(o.data)
		if derr != nil {
			return writeErrorEnvelope(stdio.Out, derr)
		}
		res, err = env.p.Validate(ctx, doc, data)
	}
	if cerr := env.finish(); cerr != nil && err == nil {
		err = cerr
	}
	if merr := encodeJSON(stdio.Out, res, true); merr != nil {
		return fmt.Errorf("encode result: %w", merr)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return resultErr(codeFor(res.Status, err), err)
}

func writeErrorEnvelope(w io.Writer, err error) error {
	_ = encodeJSON(w, pipeline.ErrorResult("", "", err), true)
	code := ExitPipeline
	if errors.Is(err, pipeline.ErrInput) {
		code = ExitUsage
	}
	return &exitError{code: code, err: err}
}

// readDocument reads one document, refusing more than max bytes without
// reading an arbitrarily large input into memory. Reading stdin from a
// terminal, it says so on stderr (a bare `reflect extract` otherwise sat
// silent, waiting), and Ctrl-C (ctx) ends the wait at once: a read of a
// terminal or a pipe nobody closes is not woken by the interrupt, so it is
// left to the exiting process.
func readDocument(ctx context.Context, file string, stdio Stdio, max int) (string, error) {
	r := stdio.In
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return "", fmt.Errorf("%w: %w", pipeline.ErrInput, err)
		}
		defer f.Close()
		r = f
	} else if isTerminal(stdio.In) {
		fmt.Fprintln(stdio.Err, "reflect: reading the document from stdin; end with Ctrl-D (or give --file FILE)")
	}
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(bufio.NewReader(r), int64(max)+1))
		done <- read{b, err}
	}()
	var b []byte
	var err error
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case got := <-done:
		b, err = got.b, got.err
	}
	if err != nil {
		return "", fmt.Errorf("%w: reading the document: %w", pipeline.ErrInput, err)
	}
	if len(b) > max {
		return "", fmt.Errorf("%w: the document is over the %d-byte limit (--max-text-bytes)", pipeline.ErrInput, max)
	}
	return string(b), nil
}

// parseData reads --data: inline JSON, or @FILE.
func parseData(s string) (map[string]any, error) {
	raw := []byte(s)
	if strings.HasPrefix(s, "@") {
		b, err := os.ReadFile(s[1:])
		if err != nil {
			return nil, fmt.Errorf("%w: --data: %w", pipeline.ErrInput, err)
		}
		raw = b
	}
	if err := pipeline.CheckJSONText(raw); err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: --data is not a JSON object: %w", pipeline.ErrInput, err)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: --data must be a JSON object", pipeline.ErrInput)
	}
	return m, nil
}

// writeJSONLine writes v as one line of JSON, or an error result saying
// why it could not.
func writeJSONLine(w io.Writer, v any) {
	if err := encodeLine(w, v); err != nil {
		_ = encodeJSON(w, pipeline.ErrorResult("", "", fmt.Errorf("encode result: %w", err)), false)
	}
}

// encodeLine is encodeJSON(w, v, false). A pipeline.Result (a batch's every
// line) is written as its MarshalJSON makes it, already compact and
// unescaped: encoding/json would only scan and copy it once more. The bytes
// and errors are the same (TestWriteJSONLineSameBytes).
func encodeLine(w io.Writer, v any) error {
	r, ok := v.(pipeline.Result)
	if !ok {
		return encodeJSON(w, v, false)
	}
	b, err := r.MarshalJSON()
	if err != nil {
		return &json.MarshalerError{Type: reflect.TypeFor[pipeline.Result](), Err: err}
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// encodeJSON writes v and a newline, without HTML escaping.
func encodeJSON(w io.Writer, v any, indent bool) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
