package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reflect-mcp/reflect/mcp"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

func runMCP(ctx context.Context, args []string, stdio Stdio) (err error) {
	var pf pipelineFlags
	var sf storeFlags
	fs := newFlagSet("mcp", "[--http ADDR [--auth-token-env NAME]] [--print-config CLIENT] [flags]", stdio)
	pf.register(fs)
	sf.register(fs)
	httpAddr := fs.String("http", "", "serve streamable HTTP on ADDR (e.g. 127.0.0.1:8765) instead of stdio")
	tokenEnv := fs.String("auth-token-env", "", "with --http: require 'Authorization: Bearer $NAME' on every request (needed off loopback)")
	printCfg := fs.String("print-config", "", "print the client config block for claude-desktop, claude-code or cursor, and exit")
	noStore := fs.Bool("no-store", false, "do not queue needs_review results for human review")
	allowOrigin := fs.String("allow-origin", "", "with --http: comma-separated browser origins allowed besides loopback ones (others get 403)")
	maxSessions := fs.Int("max-sessions", mcp.DefaultMaxSessions, "with --http: most live sessions; initialize beyond it is refused until one ends or idles out")
	sessionIdle := fs.Duration("session-idle", mcp.DefaultSessionIdle, "with --http: close a session that sent nothing for this long")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	var setThreshold string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "field-threshold" || f.Name == "overall-threshold" {
			setThreshold = f.Name
		}
	})
	if setThreshold != "" {
		return usageErr(fmt.Errorf("--%s does not apply to reflect mcp: the operator's floor is %s / %s, and agents may only raise it",
			setThreshold, mcp.EnvFieldThreshold, mcp.EnvOverallThreshold))
	}
	if *printCfg != "" {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.Abs(exe)
		}
		if err != nil {
			return fmt.Errorf("locate the reflect binary: %w", err)
		}
		if err := mcp.PrintConfig(stdio.Out, stdio.Err, *printCfg, exe); err != nil {
			return usageErr(err)
		}
		return nil
	}
	// Pipelines are built on the first call; a bad flag must stop the server
	// now, not fail every call.
	if err := pf.validate(); err != nil {
		return err
	}
	token := ""
	if *tokenEnv != "" {
		if *httpAddr == "" {
			return usageErr(errors.New("--auth-token-env goes with --http"))
		}
		if token = os.Getenv(*tokenEnv); token == "" {
			return usageErr(fmt.Errorf("--auth-token-env %s: the variable is empty", *tokenEnv))
		}
	}
	if *httpAddr != "" && token == "" && !mcp.IsLoopbackAddr(*httpAddr) {
		return usageErr(fmt.Errorf("--http %s is not a loopback address: set --auth-token-env NAME so every request must carry a bearer token", *httpAddr))
	}
	// stdout is the protocol on stdio: logs go to stderr only.
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	schema, err := pipeline.LoadSchema(pf.schema)
	if err != nil {
		return usageErr(err)
	}
	var st *store.Store
	if !*noStore {
		if st, err = sf.open(); err != nil {
			return err
		}
		// The server promises agents their needs_review results are queued:
		// it must not start writing them into a damaged file.
		if err := st.CheckWritable(ctx); err != nil {
			return err
		}
		// Queue entries are committed behind the answers that promised
		// them; the last ones before the server stops are committed now, so
		// a reader sees them without waiting for the next writer.
		defer func() { _ = st.Flush(context.Background()) }()
	}
	envs := &envCache{pf: pf, log: log, res: &runRes{record: pf.record, budget: providers.NewBudget(pf.maxTokensPerDoc, pf.maxCost)}}
	defer func() {
		if ferr := envs.Close(); ferr != nil && err == nil {
			err = ferr
		}
	}()
	httpOpts := mcp.HTTPOptions{MaxSessions: *maxSessions, SessionIdle: *sessionIdle, AllowedOrigins: originList(*allowOrigin)}
	srv, err := mcp.NewServer(mcp.Config{Build: envs.build, Store: st, Logger: log, Version: version, Getenv: os.Getenv, Schema: schema, HTTP: httpOpts})
	if err != nil {
		return err
	}
	if *httpAddr != "" {
		return srv.ServeHTTP(ctx, *httpAddr, token)
	}
	return srv.ServeStdio(ctx)
}

// envCache builds each kind of stage set once, on first use, and shares its
// clients, cache, budget and recorder across tool calls. A heuristics-only
// validate never builds a provider client, so it needs no key.
type envCache struct {
	pf   pipelineFlags
	log  *slog.Logger
	res  *runRes
	mu   sync.Mutex
	envs map[[2]bool]*runEnv
}

func (c *envCache) build(ctx context.Context, o mcp.BuildOptions) (*pipeline.Pipeline, error) {
	key := [2]bool{o.NeedGenerator, o.HeuristicsOnly}
	c.mu.Lock()
	defer c.mu.Unlock()
	env, ok := c.envs[key]
	if !ok {
		pf := c.pf
		pf.heuristicsOnly = pf.heuristicsOnly || o.HeuristicsOnly
		var err error
		if env, err = buildEnvShared(ctx, &pf, o.NeedGenerator, c.log, c.res); err != nil {
			return nil, err
		}
		if c.envs == nil {
			c.envs = map[[2]bool]*runEnv{}
		}
		c.envs[key] = env
	}
	return env.pipelineFor(o.Schema, o.Gate, o.HeuristicsOnly)
}

// Close writes the --record fixture and releases the cache.
func (c *envCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.res.Close()
	return c.res.finish()
}

// originList is --allow-origin's comma-separated value, as reflect mcp
// --http and reflect gateway both take it: blanks dropped.
func originList(flag string) []string {
	var out []string
	for _, o := range strings.Split(flag, ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}
