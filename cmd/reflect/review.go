package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/internal/heapheadroom"
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

// where is the store's path, and whether it is the built-in default (no
// --store, no REFLECT_STORE): only that one's data directory is created.
func (s *storeFlags) where() (path string, builtin bool) {
	if s.path != "" {
		return s.path, false
	}
	if p := os.Getenv("REFLECT_STORE"); p != "" {
		return p, false
	}
	return store.DefaultPath(), true
}

// open opens the store, creating its file. A path someone typed whose
// directory does not exist is refused, not created: a mistyped --store
// must not silently grow a tree of directories with a new store in it.
func (s *storeFlags) open() (*store.Store, error) {
	path, builtin := s.where()
	if dir := filepath.Dir(path); !builtin {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return nil, usageErr(fmt.Errorf("store %s: directory %s does not exist; create it, or name another --store (only the default store's directory is created for you)", path, dir))
		}
	}
	return store.Open(path, store.Options{}) // its errors already name the store
}

// openExisting opens the store for a verb that only reads it (stats,
// queues, audit, export): a store that is not there is a mistyped path,
// said as such, and nothing is created (an empty store and its .lock
// printed zeros, exit 0).
func (s *storeFlags) openExisting() (*store.Store, error) {
	if path, builtin := s.where(); !builtin {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, usageErr(fmt.Errorf("store %s does not exist: nothing has been saved there (check --store / REFLECT_STORE)", path))
		}
	}
	return s.open()
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
	queue := fs.String("queue", "", "review an MCP client's queue, named for its clientInfo.name (claude-ai for Claude Desktop; reflect queues lists them), instead of a corpus file")
	conc := fs.Int("concurrency", 4, "documents run through the pipeline at once")
	noRun := fs.Bool("no-run", false, "only review stored results; run nothing")
	holdPack := fs.String("policy", "", "with --queue: the operator policy pack the gateway decides with, so the queue's held calls resolve under its rules")
	coreURL := fs.String("core-url", os.Getenv("REEFLEX_CORE_URL"), "with --queue: resolve the queue's held calls on this running core, the remote engine the gateway decides with (env REEFLEX_CORE_URL; bearer, a resolver token, from REEFLEX_CORE_TOKEN)")
	exportPath := fs.String("export", "", "where the export key writes golden JSONL (default <corpus>.<corpus id>.golden.jsonl next to the store, never in the working directory)")
	pf.logLevel = "error"
	fs.Lookup("log-level").DefValue = "error"
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if (len(pos) == 1) == (*queue != "") {
		return usageErr(errors.New("review takes one corpus (a .jsonl file or a directory of .txt files) or --queue NAME"))
	}
	if *holdPack != "" && *queue == "" {
		return usageErr(errors.New("--policy is for a client's queue (--queue NAME): only queues hold tool calls"))
	}
	if flagWasSet(fs, "core-url") && *queue == "" {
		return usageErr(errors.New("--core-url is for a client's queue (--queue NAME): only queues hold tool calls"))
	}
	if *holdPack != "" && flagWasSet(fs, "core-url") {
		return usageErr(errors.New("--policy and --core-url do not go together: a remote engine decides with its own pack"))
	}
	if *holdPack != "" {
		*coreURL = "" // the pack named on the command line is this store's engine's, whatever REEFLEX_CORE_URL says
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
	st, err := sf.openForWrite(ctx)
	if err != nil {
		return err
	}
	corpus, err := openReviewCorpus(ctx, st, *queue, pos, schemaRef(pf.schema), stdio)
	if err != nil {
		return err
	}
	if *queue != "" {
		*noRun = true // queued results came from the MCP server; there is nothing to run
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
	if *exportPath == "" {
		// Next to the store, not the working directory: `make run` from a
		// checkout must not drop a golden file into the source tree.
		*exportPath = filepath.Join(filepath.Dir(st.Path()), golden.DefaultExportName(corpus))
	}
	cfg := tui.Config{Store: st, Corpus: corpus, Reviewer: sf.reviewerName(), Concurrency: *conc, ExportPath: *exportPath,
		NoColor: os.Getenv("NO_COLOR") != "", Title: corpusTitle(ctx, st, corpus)}
	if pf.gateFile != "" {
		// The profile's budget sizes the audit tab's sample.
		if cfg.Gate, err = pipeline.LoadGateProfile(pf.gateFile); err != nil {
			return usageErr(fmt.Errorf("--gate: %w", err))
		}
	}
	switch {
	case *queue != "" && *coreURL != "":
		// The gateway decides with a remote engine: its holds are there,
		// and only their queue items are in this store.
		c, err := newCoreClient(*coreURL)
		if err != nil {
			return err
		}
		cfg.Holds = holdResolver{d: holdDecider{b: &remoteHolds{c: c}, st: st}, reviewer: cfg.Reviewer}
	case *queue != "":
		// A client's queue holds its gateway's held calls too: they
		// resolve on this store's engine, as `reflect holds` does.
		ef := engineFlags{store: storeFlags{path: st.Path(), reviewer: sf.reviewer}, pack: *holdPack}
		e, _, err := ef.engine(log, nil)
		if err != nil {
			return err
		}
		defer e.Close()
		cfg.Holds = holdResolver{d: holdDecider{b: &localHolds{e: e, path: st.Path()}, st: st}, reviewer: cfg.Reviewer}
	}
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
	pf.concurrency = *conc
	env, err := buildEnv(ctx, &pf, true, log)
	if err != nil {
		return err
	}
	defer env.Close()
	cfg.Runner, cfg.Schema, cfg.PipelineVersion = env.p, env.p.Schema(), env.p.Version()
	if err := needTerminal(stdio); err != nil {
		return err
	}
	// The results of the run asked for are shown; documents without one
	// are run (tui.StartRun).
	if _, err := st.ShowVersion(ctx, corpus.ID, cfg.PipelineVersion); err != nil {
		return err
	}
	err = tui.Run(ctx, cfg)
	if ferr := env.finish(); ferr != nil && err == nil {
		err = ferr
	}
	return err
}

// corpusTitle is how the workstation names a corpus: its name, unless
// another stored corpus has that name too (march/invoices.jsonl and
// april/invoices.jsonl), then as much of its path as tells them apart.
func corpusTitle(ctx context.Context, st *store.Store, c store.Corpus) string {
	if c.Path == "" {
		return c.Name
	}
	all, err := st.Corpora(ctx)
	if err != nil {
		return c.Name
	}
	short := func(p string) string { return filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p)) }
	title := c.Name
	for _, o := range all {
		switch {
		case o.ID == c.ID || o.Name != c.Name:
		case o.Path != "" && short(o.Path) == short(c.Path):
			return c.Path
		default:
			title = short(c.Path)
		}
	}
	return title
}

// openReviewCorpus is the corpus a review opens: an MCP client's queue, or
// a corpus file (or directory) stored with its documents, which resumes an
// earlier review of the same file.
func openReviewCorpus(ctx context.Context, st *store.Store, queue string, pos []string, schema string, stdio Stdio) (store.Corpus, error) {
	if queue != "" {
		corpus, err := st.Corpus(ctx, store.QueueCorpusID(queue))
		if errors.Is(err, store.ErrNotFound) {
			// Say which queues exist: a client's queue is named for its
			// clientInfo.name (Claude Desktop's is "claude-ai"), not for
			// what the user calls it.
			qs, lerr := listQueues(ctx, st)
			if lerr != nil {
				return corpus, usageErr(fmt.Errorf("queue %q: %w", queue, err))
			}
			// reflect queues lists corpus files by name too: a user who
			// copies that name gets the file's own command, or each
			// file's when two in different directories share it.
			var files []queueInfo
			for _, q := range qs {
				if q.Queue == "" && q.Name == queue && q.Path != "" {
					files = append(files, q)
				}
			}
			if len(files) > 1 {
				cmds := make([]string, len(files))
				for i, q := range files {
					cmds[i] = "reflect review " + shellQuote(q.Path)
				}
				return corpus, usageErr(fmt.Errorf("%q is not an MCP queue but %d corpus files' name: %s", queue, len(files), strings.Join(cmds, "; ")))
			}
			if len(files) == 1 {
				q := files[0]
				if _, serr := os.Stat(q.Path); serr != nil {
					return corpus, usageErr(fmt.Errorf("%q is a corpus file, not an MCP queue, and %s is not there now: reflect review NEW-PATH finds it by its content", queue, q.Path))
				}
				return corpus, usageErr(fmt.Errorf("%q is a corpus file, not an MCP queue: reflect review %s", queue, shellQuote(q.Path)))
			}
			return corpus, usageErr(fmt.Errorf("queue %q: %w; %s (reflect queues lists them); to review a corpus file, give its path instead: reflect review FILE.jsonl", queue, err, queueNames(qs)))
		}
		return corpus, err
	}
	if !isTerminal(stdio.Out) {
		return peekCorpus(ctx, st, pos[0], schema)
	}
	// Streamed, and not read at all when the stored fingerprint matches.
	restore := heapheadroom.Keep(golden.OpenHeapHeadroom)
	corpus, lineErrs, err := golden.OpenCorpus(ctx, st, pos[0], schema)
	restore()
	if errors.Is(err, golden.ErrCorpusFile) {
		return corpus, usageErr(err)
	}
	for _, le := range lineErrs {
		if corpus.Kind == "dir" {
			// A directory has no lines: the reason names the file.
			fmt.Fprintf(stdio.Err, "reflect review: skipping %v\n", le.Err)
			continue
		}
		fmt.Fprintf(stdio.Err, "reflect review: skipping %v\n", le.Error())
	}
	if err != nil {
		return corpus, err
	}
	changed, err := st.TextChanges(ctx, corpus.ID)
	if n := len(changed); n > 0 {
		fmt.Fprintf(stdio.Err, "reflect review: %d document(s) of %s have another text in the file than the one stored and reviewed; the stored text and its decisions are kept, marked \"text changed\" in the queue\n", n, corpus.Path)
	}
	return corpus, err
}

// peekCorpus is the corpus a review without a terminal would open, found
// without storing anything: the review stops at the terminal check, and
// it used to leave an empty corpus registered behind (new user report
// #14). The flags and the corpus's schema are still checked first.
func peekCorpus(ctx context.Context, st *store.Store, path, schema string) (store.Corpus, error) {
	if _, err := os.Stat(path); err != nil {
		return store.Corpus{}, usageErr(fmt.Errorf("%w: %w", golden.ErrCorpusFile, err))
	}
	c, err := golden.ResolveCorpusFile(ctx, st, path, schema)
	if errors.Is(err, golden.ErrCorpusFile) {
		return c, usageErr(err)
	} else if err != nil {
		return c, err
	}
	if stored, err := st.Corpus(ctx, c.ID); err == nil {
		return stored, nil
	}
	return c, nil
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

// isTerminal reports whether v is a terminal. A character device is not
// enough: /dev/null is one, and a script's `< /dev/null` must not prompt.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// holdResolver is the workstation's tui.HoldResolver: the code `reflect
// holds approve|reject` runs, with the reviewer as the approver.
type holdResolver struct {
	d        holdDecider
	reviewer string
}

func (r holdResolver) Resolve(ctx context.Context, holdID string, approve bool, note string) (store.Summary, error) {
	_, row, err := r.d.decide(ctx, holdID, approve, r.reviewer, note)
	return row, err
}
