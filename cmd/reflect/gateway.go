package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/reflect-mcp/reflect/gateway"
	"github.com/reflect-mcp/reflect/gateway/clientconfig"
	"github.com/reflect-mcp/reflect/mcp"
	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

const gatewayUsage = "[--config FILE] [--transport stdio|streamable-http] [--host H] [--port P] [flags]\n" +
	"       reflect gateway check     fail-closed self-probe (exit 0 pass, 1 fail)\n" +
	"       reflect gateway pins [accept|remove NAME]   pinned tool definitions; accept a changed one, forget a tool's or upstream's\n" +
	"       reflect gateway setup|restore|add|import|doctor   client configs and the registry (see --help of each)"

// gatewayFlags are reflect gateway's own flags; the REEFLEX_* variables
// give their defaults and a flag given on the command line wins.
type gatewayFlags struct {
	config, transport, host, tokenEnv string
	policy                            string
	port                              int
	holdWait                          time.Duration
	noReflect, noStore                bool
	// The HTTP front's bounds, as reflect mcp --http takes them.
	allowOrigin string
	maxSessions int
}

func runGateway(ctx context.Context, args []string, stdio Stdio) error {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runGatewayCheck(ctx, args[1:], stdio)
		case "decoy":
			return serveDecoy(ctx)
		case "pins":
			return runGatewayPins(ctx, args[1:], stdio)
		default:
			if run := gatewayLifecycleVerb(args[0]); run != nil {
				return run(ctx, args[1:], stdio)
			}
		}
	}
	set := gateway.SettingsFromEnv(os.Getenv)
	var gf gatewayFlags
	var pf pipelineFlags
	var sf storeFlags
	fs := newFlagSet("gateway", gatewayUsage, stdio)
	pf.register(fs)
	sf.register(fs)
	fs.StringVar(&gf.config, "config", "", "registry YAML, reeflex-mcp.yaml's schema (default $REEFLEX_MCP_CONFIG, ./reeflex-mcp.yaml if it exists, else ~/.config/reflect/reeflex-mcp.yaml: where setup and add write it)")
	fs.StringVar(&gf.transport, "transport", set.Transport, "front transport: stdio or streamable-http (env REEFLEX_MCP_TRANSPORT)")
	fs.StringVar(&gf.host, "host", set.Host, "streamable-http bind host; off loopback needs --auth-token-env (env REEFLEX_MCP_HOST)")
	fs.IntVar(&gf.port, "port", set.Port, "streamable-http port (env REEFLEX_MCP_PORT)")
	fs.StringVar(&gf.tokenEnv, "auth-token-env", "", "streamable-http: require 'Authorization: Bearer $NAME' (or a clients: token) on every request")
	fs.DurationVar(&gf.holdWait, "hold-wait", 20*time.Second, "how long a held call waits for a human (sending progress) before it returns the held result")
	fs.StringVar(&gf.policy, "policy", "", "operator policy pack (YAML or JSON) over the base pack; re-read on reload (SIGHUP, POST /admin/reload)")
	fs.BoolVar(&gf.noReflect, "no-reflect-tools", false, "do not offer reflect's own tools as the built-in upstream reflect__*")
	fs.BoolVar(&gf.noStore, "no-store", false, "keep holds, pins and the engine's ledger in memory only, and queue no needs_review results")
	fs.StringVar(&gf.allowOrigin, "allow-origin", "", "streamable-http: comma-separated browser origins allowed besides loopback ones (others get 403)")
	fs.IntVar(&gf.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "streamable-http: most live sessions; initialize beyond it is refused until one ends or idles out")
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	if name := setThresholdFlag(fs); name != "" {
		return usageErr(fmt.Errorf("--%s does not apply to reflect gateway: the operator's floor is %s / %s", name, mcp.EnvFieldThreshold, mcp.EnvOverallThreshold))
	}
	log, err := newLogger(stdio.Err, pf.logLevel)
	if err != nil {
		return err
	}
	for _, w := range set.Warnings {
		log.Warn(w)
	}
	if gf.config, err = gatewayRegistry(gf.config); err != nil {
		return err
	}
	opts, cleanup, err := gatewayOptions(ctx, &gf, &pf, &sf, set, log)
	if err != nil {
		return err
	}
	defer cleanup()
	// The single-path check: a server a client reaches directly is
	// ungoverned. Findings go to stderr; they never stop the gateway (and
	// come after the registry loaded, so they never bury its error).
	if env, err := clientconfig.OSEnv(); err == nil {
		clientconfig.ReportDrift(stdio.Err, env)
	}
	return serveGateway(ctx, &gf, opts, log)
}

// gatewayRegistry is the registry the gateway serves: --config, else the
// one setup and add write (registryPath's order), so `reflect gateway` run
// from any directory finds what they wrote (user report: it looked only in
// ./reeflex-mcp.yaml). Not found, the error names every place it looked.
func gatewayRegistry(flagVal string) (string, error) {
	p, err := registryPath(flagVal)
	if err != nil || flagVal != "" {
		return p, err
	}
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		env := os.Getenv("REEFLEX_MCP_CONFIG")
		if env != "" {
			return "", usageErr(fmt.Errorf("no registry at %s (from REEFLEX_MCP_CONFIG)", p))
		}
		cwd, _ := os.Getwd()
		return "", usageErr(fmt.Errorf("no registry: REEFLEX_MCP_CONFIG is unset, there is no reeflex-mcp.yaml in %s, and none at %s "+
			"(where `reflect gateway setup` and `reflect gateway add` write it): run one of them, or pass --config FILE", cwd, p))
	}
	return p, nil
}

func setThresholdFlag(fs *flag.FlagSet) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "field-threshold" || f.Name == "overall-threshold" {
			name = f.Name
		}
	})
	return name
}

// gatewayOptions reads the registry and mappings and builds the engine and
// the built-in upstream.
func gatewayOptions(ctx context.Context, gf *gatewayFlags, pf *pipelineFlags, sf *storeFlags, set gateway.Settings,
	log *slog.Logger) (gateway.Options, func(), error) {
	nop := func() {}
	reg, maps, err := loadGatewayRegistry(gf, set, log)
	if err != nil {
		return gateway.Options{}, nop, usageErr(err)
	}
	mode := gateway.ModeObserve
	if reg.Mode != "" {
		mode = reg.Mode
	}
	if set.Mode != "" {
		mode = set.Mode
	}
	httpOpts := mcp.HTTPOptions{MaxSessions: gf.maxSessions, AllowedOrigins: originList(gf.allowOrigin)}
	opts := gateway.Options{Upstreams: reg.Upstreams, Clients: reg.Clients, Mode: mode, Mappings: maps, HTTP: httpOpts,
		ConnectTimeout: set.ConnectTimeout, CallTimeout: set.CallTimeout, HoldWait: gf.holdWait, Logger: log,
		Version: version, Getenv: os.Getenv,
		// SIGHUP and POST /admin/reload re-read the same files. The mode
		// and clients: stay as started.
		Reload: func() (gateway.ReloadConfig, error) {
			r, m, err := loadGatewayRegistry(gf, set, log)
			if err != nil {
				return gateway.ReloadConfig{}, err
			}
			rc := gateway.ReloadConfig{Upstreams: r.Upstreams, Mappings: m}
			if gf.policy != "" && set.CoreURL == "" {
				if rc.Pack, err = loadPackFile(gf.policy); err != nil {
					return rc, fmt.Errorf("%w: %w (the pack loaded before keeps deciding)", gateway.ErrInvalidPolicy, err)
				}
			}
			return rc, nil
		}}
	var closers []func()
	cleanup := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	// The store keeps the engine's holds and ledger, the tool pins and the
	// tracked holds, so a restart loses none of them and `reflect holds`
	// resolves what this gateway held.
	var st *store.Store
	if !gf.noStore {
		if st, err = sf.open(); err != nil {
			return opts, nop, err
		}
		opts.Pins, opts.Holds = storePins{st}, storeHolds{st}
		opts.OnHold = queueHold(st, log)
	}
	if set.CoreURL != "" {
		r, err := gateway.NewRemote(set.CoreURL, set.CoreToken, set.CoreTimeout, set.VerifySSL)
		if err != nil {
			return opts, nop, usageErr(err)
		}
		opts.Decider = r
		log.Info("decisions from a remote engine", "url", set.CoreURL)
	} else {
		po := policy.Options{Logger: log, Getenv: os.Getenv, AuditPath: os.Getenv("REEFLEX_AUDIT_LOG")}
		if gf.policy != "" {
			if po.Pack, err = loadPackFile(gf.policy); err != nil {
				return opts, nop, err
			}
		}
		if st != nil {
			po.State = st.PolicyState()
		}
		eng, err := policy.New(po)
		if err != nil {
			return opts, nop, err
		}
		closers = append(closers, func() { _ = eng.Close() })
		opts.Decider = gateway.InProcess(eng)
	}
	if !gf.noReflect {
		b, closeB, err := reflectBuiltin(pf, st, log)
		if err != nil {
			cleanup()
			return opts, nop, err
		}
		closers = append(closers, closeB)
		opts.Builtins = []gateway.Builtin{b}
		if st != nil {
			opts.Guard = gateway.NewUnreviewedGuard(b.Name, settledIn(st), newStoreUnsettled(st))
		}
	}
	return opts, cleanup, nil
}

// loadGatewayRegistry reads the registry and its mappings, at start and on
// every reload.
func loadGatewayRegistry(gf *gatewayFlags, set gateway.Settings, log *slog.Logger) (*gateway.Registry, gateway.Mappings, error) {
	reg, err := gateway.LoadRegistry(gf.config)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range reg.Warnings {
		log.Warn("registry "+gf.config+": "+w, "config", gf.config)
	}
	dir := set.MappingsDir
	if dir == "" && reg.MappingsDir != "" {
		dir = reg.MappingsDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(gf.config), dir)
		}
	}
	maps, warns, err := gateway.LoadMappings(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warns {
		log.Warn("registry "+gf.config+": "+w, "config", gf.config)
	}
	if _, ok := maps["reflect"]; !ok && !gf.noReflect {
		maps["reflect"] = gateway.BundledMapping("reflect")
	}
	return reg, maps, nil
}

// reloadOnHangup re-reads the registry, mappings and pack on every SIGHUP,
// for either front, until ctx ends. A refused reload is logged and changes
// nothing.
func reloadOnHangup(ctx context.Context, g *gateway.Gateway, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				res, err := g.ReloadFromConfig(ctx)
				if err != nil {
					log.Error("SIGHUP: reload refused, nothing changed", "error", err.Error())
					continue
				}
				log.Info("SIGHUP: reloaded", "added", res.Added, "replaced", res.Replaced, "removed", res.Removed,
					"failed", len(res.Failed), "pack", res.Pack)
			}
		}
	}()
}

// reflectBuiltin is reflect's own MCP server (extract, validate,
// review_status) served in process as the upstream "reflect".
func reflectBuiltin(pf *pipelineFlags, st *store.Store, log *slog.Logger) (gateway.Builtin, func(), error) {
	var none gateway.Builtin
	if err := pf.validate(); err != nil {
		return none, nil, err
	}
	schema, err := pipeline.LoadSchema(pf.schema)
	if err != nil {
		return none, nil, usageErr(err)
	}
	envs := &envCache{pf: *pf, log: log, res: &runRes{record: pf.record, budget: providers.NewBudget(pf.maxTokensPerDoc, pf.maxCost)}}
	srv, err := mcp.NewServer(mcp.Config{Build: envs.build, Store: st, Logger: log, Version: version, Getenv: os.Getenv, Schema: schema,
		BehindGateway: true})
	if err != nil {
		_ = envs.Close()
		return none, nil, err
	}
	return gateway.Builtin{Name: "reflect", System: "reflect", Environment: "production", Server: srv.SDK()},
		func() { _ = envs.Close() }, nil
}

// settledIn asks the review store whether a needs_review result has been
// settled by a human; one the store never received is not settled.
func settledIn(st *store.Store) gateway.SettledFunc {
	return func(ctx context.Context, traceID string) (bool, error) {
		corpus, doc, ok, err := st.FindTrace(ctx, traceID)
		if err != nil || !ok {
			return false, err
		}
		_, reviewed, err := st.Settled(ctx, corpus, doc)
		return reviewed, err
	}
}

func serveGateway(ctx context.Context, gf *gatewayFlags, opts gateway.Options, log *slog.Logger) error {
	token := ""
	if gf.tokenEnv != "" {
		if token = os.Getenv(gf.tokenEnv); token == "" {
			return usageErr(fmt.Errorf("--auth-token-env %s: the variable is empty", gf.tokenEnv))
		}
	}
	switch gf.transport {
	case "stdio":
	case "streamable-http":
		if token == "" && !gateway.IsLoopback(gf.host) {
			return usageErr(fmt.Errorf("--host %s is not loopback: set --auth-token-env NAME so every request must carry a bearer token", gf.host))
		}
	default:
		return usageErr(fmt.Errorf("--transport %q: want stdio or streamable-http", gf.transport))
	}
	g, err := gateway.New(opts)
	if err != nil {
		return usageErr(err)
	}
	if err := g.Start(ctx); err != nil {
		return err
	}
	defer g.Close()
	rctx, stopReload := context.WithCancel(ctx)
	defer stopReload()
	reloadOnHangup(rctx, g, log)
	log.Info("gateway ready", "mode", string(opts.Mode), "tools", len(g.ToolNames()), "transport", gf.transport)
	if gf.transport == "stdio" {
		return g.ServeStdio(ctx)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(gf.host, strconv.Itoa(gf.port)))
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	log.Info("serving the gateway over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "auth", token != "")
	if err := g.ServeHTTP(ctx, ln, token); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
