package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
)

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
	st, err := sf.openExisting()
	if err != nil {
		return err
	}
	ids, err := corpusIDs(ctx, st, *corpusID)
	if err != nil {
		return err
	}
	opts := make([]golden.ExportOptions, len(ids))
	rejected, calls := 0, 0
	for i, id := range ids {
		opts[i] = golden.ExportOptions{CorpusID: id, OnlyCorrected: *only, Rejected: &rejected, ToolCalls: &calls}
	}
	if *out == "-" {
		for _, o := range opts {
			if _, err := golden.Export(ctx, st, stdio.Out, o); err != nil {
				return err
			}
		}
		if rejected > 0 || calls > 0 {
			fmt.Fprintf(stdio.Err, "reflect export%s\n", leftOut(rejected, calls))
		}
		return nil
	}
	total, err := golden.ExportFile(ctx, st, *out, opts...)
	if fe := (*golden.FileError)(nil); errors.As(err, &fe) {
		return usageErr(fmt.Errorf("--golden: %w", fe.Err))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Err, "reflect export: wrote %d reviewed document(s) to %s%s\n", total, *out, leftOut(rejected, calls))
	return nil
}

// leftOut says how many rejected documents and held tool calls an export
// did not write.
func leftOut(rejected, calls int) string {
	s := ""
	if rejected > 0 {
		s += fmt.Sprintf("; left out %d rejected (not a document)", rejected)
	}
	if calls > 0 {
		s += fmt.Sprintf("; left out %d held tool call(s) (not extraction items)", calls)
	}
	return s
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
		if c.ID == ref || (c.Path != "" && c.Path == abs) || c.ID == store.QueueCorpusID(ref) {
			return []string{c.ID}, nil
		}
	}
	// A name is what reflect queues shows, and two files in different
	// directories share one ("invoices"): a name that is not one corpus's
	// is refused rather than read as the first.
	var named []store.Corpus
	for _, c := range all {
		if c.Name == ref {
			named = append(named, c)
		}
	}
	switch {
	case len(named) == 1:
		return []string{named[0].ID}, nil
	case len(named) > 1:
		return nil, usageErr(fmt.Errorf("%q names %d corpora: %s; give --corpus the path of the one you mean", ref, len(named), strings.Join(corpusRefs(named), ", ")))
	case len(all) == 0:
		return nil, usageErr(fmt.Errorf("no corpus %q: the store %s holds none yet", ref, st.Path()))
	}
	return nil, usageErr(fmt.Errorf("no corpus %q in the store (have: %s)", ref, strings.Join(corpusRefs(all), ", ")))
}

// corpusRefs are what --corpus takes for each corpus: its path, not an
// opaque file: id (new user report #6), else its id.
func corpusRefs(cs []store.Corpus) []string {
	refs := make([]string, len(cs))
	for i, c := range cs {
		refs[i] = c.ID
		if c.Path != "" {
			refs[i] = c.Path
		}
	}
	return refs
}
