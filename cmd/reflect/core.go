package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/policy/coreapi"
	"github.com/reflect-mcp/reflect/store"
)

const coreUsage = `serve [--host H] [--port P] [--store FILE | --memory] [--budgets FILE] [--policy FILE]
       reflect core freeze on|off|status [--core-url URL]`

func runCore(ctx context.Context, args []string, stdio Stdio) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stdio.Out
		if len(args) == 0 {
			w = stdio.Err
		}
		fmt.Fprintf(w, "Usage: reflect core %s\n\nThe decision engine, wire-compatible with reeflex-core's REST API.\n", coreUsage)
		if len(args) == 0 {
			return usageErr(errors.New("core needs serve or freeze"))
		}
		return nil
	}
	switch args[0] {
	case "serve":
		return runCoreServe(ctx, args[1:], stdio)
	case "freeze":
		return runCoreFreeze(ctx, args[1:], stdio)
	}
	return usageErr(fmt.Errorf("unknown core command %q (want serve or freeze)", args[0]))
}

// engineFlags build a policy.Engine the way reeflex-core is configured:
// REEFLEX_* variables, with flags overriding them.
type engineFlags struct {
	store   storeFlags
	memory  bool
	budgets string
	pack    string
}

func (f *engineFlags) register(fs *flag.FlagSet, memory bool) {
	fs.StringVar(&f.store.path, "store", "", "store file for holds, ledger and nonces (env REFLECT_STORE; default $XDG_DATA_HOME/reflect/reflect.db)")
	if memory {
		fs.BoolVar(&f.memory, "memory", false, "keep holds, ledger and nonces in memory only (lost on exit, like reeflex-core)")
	}
	fs.StringVar(&f.budgets, "budgets", "", `budget JSON {"default_budgets": {...}, "principal_budgets": {...}} over the pack's budgets`)
	fs.StringVar(&f.pack, "policy", "", "operator policy pack (YAML or JSON) over the base pack")
}

// envSeconds reads a positive integer number of seconds; anything else is
// the default, as in reeflex-core.
func envSeconds(name string, def int) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(name)))
	if err != nil || n <= 0 {
		n = def
	}
	return time.Duration(n) * time.Second
}

func loadPackFile(path string) (*policy.Pack, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr(fmt.Errorf("--policy: %w", err))
	}
	p, err := policy.LoadPack(path, data)
	if err != nil {
		return nil, usageErr(err)
	}
	return p, nil
}

// engine builds the engine; st is nil with --memory.
func (f *engineFlags) engine(log *slog.Logger, onEvent func(policy.Event)) (*policy.Engine, *store.Store, error) {
	o := policy.Options{
		OnEvent:   onEvent,
		Window:    envSeconds("REEFLEX_WINDOW_SECONDS", 3600),
		HoldTTL:   envSeconds("REEFLEX_HOLD_TTL_SECONDS", 14400),
		Getenv:    os.Getenv,
		AuditPath: os.Getenv("REEFLEX_AUDIT_LOG"),
		Logger:    log,
	}
	if f.pack != "" {
		p, err := loadPackFile(f.pack)
		if err != nil {
			return nil, nil, err
		}
		o.Pack = p
	}
	if f.budgets != "" {
		data, err := os.ReadFile(f.budgets)
		if err != nil {
			return nil, nil, usageErr(fmt.Errorf("--budgets: %w", err))
		}
		b, err := policy.ParseBudgets(data)
		if err != nil {
			return nil, nil, usageErr(fmt.Errorf("--budgets %s: %w", f.budgets, err))
		}
		o.Budgets = &b
	}
	var st *store.Store
	if !f.memory {
		path := f.store.path
		if path == "" {
			path = store.DefaultPath()
		}
		var err error
		// Decisions queue on the store's lock; give a busy workstation time.
		if st, err = store.Open(path, store.Options{Timeout: 5 * time.Second}); err != nil {
			return nil, nil, err
		}
		o.State = st.PolicyState()
	}
	e, err := policy.New(o)
	if err != nil {
		return nil, nil, usageErr(err)
	}
	return e, st, nil
}

func runCoreServe(ctx context.Context, args []string, stdio Stdio) error {
	var ef engineFlags
	fs := newFlagSet("core serve", "[--host H] [--port P] [--store FILE | --memory] [--budgets FILE] [--policy FILE]", stdio)
	ef.register(fs, true)
	host := fs.String("host", envOr("REEFLEX_HOST", "127.0.0.1"), "bind host (env REEFLEX_HOST)")
	port := fs.Int("port", 8080, "bind port (env REEFLEX_PORT)")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn, error")
	if p, err := strconv.Atoi(os.Getenv("REEFLEX_PORT")); err == nil && p > 0 {
		*port = p
	}
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) > 0 {
		return usageErr(fmt.Errorf("core serve takes no arguments, got %q", pos[0]))
	}
	log, err := newLogger(stdio.Err, *logLevel)
	if err != nil {
		return err
	}
	maxBody := int64(coreapi.DefaultMaxBody)
	if v, err := strconv.ParseInt(strings.TrimSpace(os.Getenv("REEFLEX_MAX_BODY_BYTES")), 10, 64); err == nil && v > 0 {
		maxBody = v
	}
	var onEvent func(policy.Event)
	if u := strings.TrimSpace(os.Getenv("REEFLEX_WEBHOOK_URL")); u != "" {
		n, _ := strconv.Atoi(os.Getenv("REEFLEX_WEBHOOK_QUEUE_SIZE"))
		wh := coreapi.NewWebhook(u, n, log)
		defer wh.Close() // after Shutdown: the last events still go out
		onEvent = wh.Send
	}
	e, st, err := ef.engine(log, onEvent)
	if err != nil {
		return err
	}
	defer e.Close()
	if st != nil {
		// Entries and nonces a previous run left behind leave the window now.
		now := time.Now()
		if err := st.PolicyState().Prune(ctx, now.Add(-e.Window()), now.Add(-e.NonceRetention())); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return usageErr(fmt.Errorf("listen: %w", err))
	}
	srv := &http.Server{Handler: coreapi.Handler(e, coreapi.Config{AuthToken: os.Getenv("REEFLEX_AUTH_TOKEN"), MaxBody: maxBody}),
		ReadHeaderTimeout: 10 * time.Second}
	where := "in memory"
	if st != nil {
		where = st.Path()
	}
	fmt.Fprintf(stdio.Out, "reflect core listening on http://%s (state: %s)\n", ln.Addr(), where)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// SIGTERM: finish in-flight decisions (their ledger and audit writes)
	// before exiting.
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	fmt.Fprintln(stdio.Err, "reflect core: stopped")
	return nil
}

// coreClient talks to a running reflect core (or reeflex-core).
type coreClient struct {
	url   string
	token string
	http  *http.Client
}

// coreURLHint names where a running core's address comes from, for every
// error that a wrong or missing one explains.
const coreURLHint = "--core-url URL (or REEFLEX_CORE_URL)"

// newCoreClient refuses an address that is not an http(s) URL ("127.0.0.1:8080"
// would be a path of the scheme "127.0.0.1").
func newCoreClient(raw string) (*coreClient, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usageErr(fmt.Errorf("core URL %q: want the running core's http(s) URL, like http://127.0.0.1:8080 (%s)", raw, coreURLHint))
	}
	tok := os.Getenv("REEFLEX_CORE_TOKEN")
	if tok == "" {
		tok = os.Getenv("REEFLEX_AUTH_TOKEN")
	}
	return &coreClient{url: strings.TrimRight(raw, "/"), token: tok, http: &http.Client{Timeout: 15 * time.Second}}, nil
}

func defaultCoreURL() string { return envOr("REEFLEX_CORE_URL", "http://127.0.0.1:8080") }

// do sends one request and returns the status and body.
func (c *coreClient) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, rd)
	if err != nil {
		return 0, nil, usageErr(fmt.Errorf("--core-url: %w", err))
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("no core answers at %s (is `reflect core serve` or reeflex-core running there? the address is %s): %w", c.url, coreURLHint, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return resp.StatusCode, b, err
}

func runCoreFreeze(ctx context.Context, args []string, stdio Stdio) error {
	fs := newFlagSet("core freeze", "on|off|status [--core-url URL]", stdio)
	coreURL := fs.String("core-url", defaultCoreURL(), "the running core (env REEFLEX_CORE_URL; bearer from REEFLEX_CORE_TOKEN or REEFLEX_AUTH_TOKEN)")
	pos, err := parseFlags(fs, args, stdio)
	if err != nil {
		return helpOK(err)
	}
	if len(pos) != 1 {
		return usageErr(errors.New("core freeze needs on, off or status"))
	}
	c, err := newCoreClient(*coreURL)
	if err != nil {
		return err
	}
	var status int
	var body []byte
	switch pos[0] {
	case "on", "off":
		status, body, err = c.do(ctx, "POST", "/v1/freeze", fmt.Appendf(nil, `{"frozen":%t}`, pos[0] == "on"))
	case "status":
		status, body, err = c.do(ctx, "GET", "/v1/freeze", nil)
	default:
		return usageErr(fmt.Errorf("core freeze: want on, off or status, got %q", pos[0]))
	}
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return apiError(status, body)
	}
	fmt.Fprintf(stdio.Out, "%s\n", bytes.TrimSpace(body))
	return nil
}
