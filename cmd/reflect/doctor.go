package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

// doctorReport is `reflect doctor --json`.
type doctorReport struct {
	Store *store.CheckReport    `json:"store,omitempty"`
	Cache *providers.CacheCheck `json:"cache,omitempty"`
	OK    bool                  `json:"ok"`
}

// runDoctor runs bbolt's consistency check over the review store and the
// model-call cache, reading only: a damaged file is reported, never
// repaired or moved. Exit 0 when both pass (or do not exist yet), 3 when
// either fails.
func runDoctor(ctx context.Context, args []string, stdio Stdio) error {
	fset := newFlagSet("doctor", "[--store FILE] [--cache FILE] [--json]", stdio)
	storePath := fset.String("store", "", "review store file (env REFLECT_STORE; default $XDG_DATA_HOME/reflect/reflect.db)")
	cachePath := fset.String("cache", "", "model-call cache file (env REFLECT_CACHE; default $XDG_CACHE_HOME/reflect/calls.db)")
	asJSON := fset.Bool("json", false, "print JSON")
	if _, err := parseFlags(fset, args, stdio); err != nil {
		return helpOK(err)
	}
	if *storePath == "" {
		*storePath = store.DefaultPath()
	}
	if *cachePath == "" {
		*cachePath = defaultCachePath()
	}
	rep := doctorReport{OK: true}
	var lines []string
	srep, err := store.CheckFile(ctx, *storePath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		lines = append(lines, fmt.Sprintf("store %s: none yet", *storePath))
	case err != nil:
		return fmt.Errorf("doctor: %w", err)
	default:
		rep.Store = &srep
		rep.OK = rep.OK && srep.OK()
		lines = append(lines, fileVerdict("store", srep.Path, srep.Bytes, srep.Problems, srep.More)...)
	}
	crep, err := providers.CheckCache(*cachePath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		lines = append(lines, fmt.Sprintf("cache %s: none yet", *cachePath))
	case err != nil:
		return fmt.Errorf("doctor: %w", err)
	default:
		rep.Cache = &crep
		rep.OK = rep.OK && crep.OK()
		lines = append(lines, fileVerdict("cache", crep.Path, crep.Bytes, crep.Problems, crep.More)...)
	}
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fmt.Errorf("doctor: %w", err)
		}
		fmt.Fprintln(stdio.Out, string(b))
	} else {
		for _, l := range lines {
			fmt.Fprintln(stdio.Out, l)
		}
	}
	if !rep.OK {
		return &exitError{code: ExitPipeline, err: errors.New("a file failed its consistency check"), loud: !*asJSON}
	}
	return nil
}

func fileVerdict(what, path string, size int64, problems []string, more int) []string {
	if len(problems) == 0 {
		return []string{fmt.Sprintf("%s %s: ok (%d bytes, bbolt consistency check passed)", what, path, size)}
	}
	out := []string{fmt.Sprintf("%s %s: DAMAGED (%d problem(s))", what, path, len(problems)+more)}
	for _, p := range problems {
		out = append(out, "  - "+p)
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("  … and %d more", more))
	}
	hint := "restore a backup, or move the file aside (the next run starts a new one)"
	if what == "cache" {
		hint = "delete it or leave it: the next run sets a damaged cache aside and starts afresh"
	}
	return append(out, "  "+hint)
}
