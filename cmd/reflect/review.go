package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/tui"
)

// storeFlags are shared by the verbs that use the review store.
type storeFlags struct {
	path     string
	reviewer string
}

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.path, "store", "", "review store file (env REFLECT_STORE; default $XDG_DATA_HOME/reflect/reflect.db)")
	fs.StringVar(&s.reviewer, "reviewer", "", "reviewer name recorded with every decision (default: the OS user)")
}

func (s *storeFlags) open() (*store.Store, error) {
	path := s.path
	if path == "" {
		path = store.DefaultPath()
	}
	return store.Open(path, store.Options{}) // its errors already name the store
}

func (s *storeFlags) reviewerName() string {
	if s.reviewer != "" {
		return s.reviewer
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return envOr("USER", "reviewer")
}

func runReview(ctx context.Context, args []string, stdio Stdio) error {
	var pf pipelineFlags
	var sf storeFlags
	fs := newFlagSet("review", "CORPUS.jsonl | DIR | --queue NAME [flags]", stdio)
	pf.register(fs)
	sf.register(fs)
	queue := fs.String("queue", "", "review an MCP client's queue (e.g. --queue mcp) instead of a corpus file")
	conc := fs.Int("concurrency", 4, "documents run through the pipeline at once")
	noRun := fs.Bool("no-run", false, "only review stored results; run nothing")
	exportPath := fs.String("export", "", "where the export key writes golden JSONL (default <corpus>.golden.jsonl)")
	pf.logLevel = "error"
	fs.Lookup("log-level").DefValue = "error"
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if (len(pos) == 1) == (*queue != "") {
		return usageErr(errors.New("review takes one corpus (a .jsonl file or a directory of .txt files) or --queue NAME"))
	}
	if *conc < 1 {
		return usageErr(fmt.Errorf("--concurrency must be at least 1, got %d", *conc))
	}
	if *queue != "" || *noRun {
		// Nothing runs, so a pipeline flag would be silently ignored.
		if name := setPipelineFlag(fs); name != "" {
			return usageErr(fmt.Errorf("--%s does nothing with --queue or --no-run: no pipeline runs", name))
		}
	}
	st, err := sf.open()
	if err != nil {
		return err
	}
	var corpus store.Corpus
	if *queue != "" {
		corpus, err = st.Corpus(ctx, store.QueueCorpusID(*queue))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err != nil {
			return usageErr(fmt.Errorf("queue %q: %w (an MCP client's needs_review results appear here once `reflect mcp` has served one)", *queue, err))
		}
		*noRun = true // queued results came from the MCP server; there is nothing to run
	} else {
		var lineErrs []tui.LineError
		var docs []store.Document
		corpus, docs, lineErrs, err = tui.LoadCorpus(pos[0], schemaRef(pf.schema))
		if err != nil {
			return usageErr(err)
		}
		for _, le := range lineErrs {
			fmt.Fprintf(stdio.Err, "reflect review: skipping %v\n", le.Error())
		}
		if err := st.PutCorpus(ctx, corpus, docs); err != nil {
			return err
		}
	}
	// Logs would scribble over the screen: send them to a file next to the store.
	logw := io.Discard
	if f, err := os.OpenFile(filepath.Join(filepath.Dir(st.Path()), "review.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		defer f.Close()
		logw = f
	}
	log, err := newLogger(logw, pf.logLevel)
	if err != nil {
		return err
	}
	cfg := tui.Config{Store: st, Corpus: corpus, Reviewer: sf.reviewerName(), Concurrency: *conc, ExportPath: *exportPath,
		NoColor: os.Getenv("NO_COLOR") != ""}
	if *noRun {
		// Nothing runs, but corrections are still checked against the
		// fields' kinds: --schema, else the schema the corpus was opened with.
		ref := pf.schema
		if !flagWasSet(fs, "schema") && corpus.Schema != "" {
			ref = corpus.Schema
		}
		if cfg.Schema, err = pipeline.LoadSchema(ref); err != nil {
			return usageErr(err)
		}
		if err := needTerminal(stdio); err != nil {
			return err
		}
		return tui.Run(ctx, cfg)
	}
	env, err := buildEnv(ctx, &pf, true, log)
	if err != nil {
		return err
	}
	defer env.Close()
	cfg.Runner, cfg.Schema, cfg.PipelineVersion = env.p, env.p.Schema(), env.p.Version()
	if err := needTerminal(stdio); err != nil {
		return err
	}
	err = tui.Run(ctx, cfg)
	if ferr := env.finish(); ferr != nil && err == nil {
		err = ferr
	}
	return err
}

func runExport(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("export", "--golden OUT.jsonl [--corpus ID] [--only-corrected]", stdio)
	sf.register(fs)
	out := fs.String("golden", "", "write golden JSONL here (- for stdout)")
	corpusID := fs.String("corpus", "", "corpus id, path or queue (mcp:NAME); default: every corpus")
	only := fs.Bool("only-corrected", false, "only documents where the reviewer changed a value")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	if *out == "" {
		return usageErr(errors.New("export needs --golden OUT.jsonl"))
	}
	st, err := sf.open()
	if err != nil {
		return err
	}
	ids, err := corpusIDs(ctx, st, *corpusID)
	if err != nil {
		return err
	}
	w := stdio.Out
	var f *os.File
	if *out != "-" {
		if f, err = os.Create(*out); err != nil {
			return usageErr(fmt.Errorf("--golden: %w", err))
		}
		w = f
	}
	total := 0
	for _, id := range ids {
		n, err := golden.Export(ctx, st, w, golden.ExportOptions{CorpusID: id, OnlyCorrected: *only})
		total += n
		if err != nil {
			if f != nil {
				f.Close()
			}
			return err
		}
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return fmt.Errorf("--golden: %w", err)
		}
		fmt.Fprintf(stdio.Err, "reflect export: wrote %d reviewed document(s) to %s\n", total, *out)
	}
	return nil
}

// corpusIDs resolves --corpus (an id, a corpus file path, or empty for all).
func corpusIDs(ctx context.Context, st *store.Store, ref string) ([]string, error) {
	all, err := st.Corpora(ctx)
	if err != nil {
		return nil, err
	}
	if ref == "" {
		ids := make([]string, len(all))
		for i, c := range all {
			ids[i] = c.ID
		}
		return ids, nil
	}
	abs, _ := filepath.Abs(ref)
	for _, c := range all {
		if c.ID == ref || c.Name == ref || (c.Path != "" && c.Path == abs) || c.ID == store.QueueCorpusID(ref) {
			return []string{c.ID}, nil
		}
	}
	if len(all) == 0 {
		return nil, usageErr(fmt.Errorf("no corpus %q: the store %s holds none yet", ref, st.Path()))
	}
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = c.ID
	}
	return nil, usageErr(fmt.Errorf("no corpus %q in the store (have: %s)", ref, strings.Join(names, ", ")))
}

func runStats(ctx context.Context, args []string, stdio Stdio) error {
	var sf storeFlags
	fs := newFlagSet("stats", "[--corpus ID] [--json]", stdio)
	sf.register(fs)
	corpusID := fs.String("corpus", "", "corpus id, path or queue; default: every corpus")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	st, err := sf.open()
	if err != nil {
		return err
	}
	id := ""
	if *corpusID != "" {
		ids, err := corpusIDs(ctx, st, *corpusID)
		if err != nil {
			return err
		}
		id = ids[0]
	}
	s, err := st.Stats(ctx, id)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return fmt.Errorf("encode stats: %w", err)
		}
		fmt.Fprintln(stdio.Out, string(b))
		return nil
	}
	fmt.Fprintf(stdio.Out, "documents         : %d (%d with a result, %d errors)\n", s.Documents, s.WithResult, s.Errors)
	fmt.Fprintf(stdio.Out, "reviewed          : %d\n", s.Reviewed)
	fmt.Fprintf(stdio.Out, "auto-accepted     : %d (ok, not reviewed)\n", s.AutoAccepted)
	fmt.Fprintf(stdio.Out, "awaiting review   : %d\n", s.NeedsReview)
	fmt.Fprintf(stdio.Out, "decided fields    : %d (%d corrected)\n", s.DecidedFields, s.CorrectedFields)
	// With no wrong value found by a reviewer yet there is nothing the gate
	// could have caught: a rate would claim a success that was never tested.
	catch := "n/a (no reviewer has corrected a value yet)"
	if s.CaughtWrong+s.SilentWrong > 0 {
		catch = fmt.Sprintf("%.1f%% (%d of %d wrong values flagged)", s.CatchRate*100, s.CaughtWrong, s.CaughtWrong+s.SilentWrong)
	}
	fmt.Fprintf(stdio.Out, "gate vs reviewers : catch rate %s, silent-wrong %d\n", catch, s.SilentWrong)
	return nil
}

// schemaRef is how a corpus remembers its schema: a built-in name, or the
// absolute path of a schema file, so reopening from another directory works.
func schemaRef(ref string) string {
	if _, ok := pipeline.BuiltinSchema(ref); ok {
		return ref
	}
	if abs, err := filepath.Abs(ref); err == nil {
		return abs
	}
	return ref
}

func flagWasSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// needTerminal refuses to start the workstation where nobody could see it.
func needTerminal(stdio Stdio) error {
	if isTerminal(stdio.Out) {
		return nil
	}
	return usageErr(errors.New("reflect review is interactive and needs a terminal; to run a corpus headless use 'reflect extract --batch --save --file CORPUS', then review it"))
}

// isTerminal reports whether v is a character device (a terminal).
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
