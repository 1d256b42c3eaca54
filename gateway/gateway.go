package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/mcp"
)

// Separator joins an upstream's name and its tool's.
const Separator = "__"

// Options configure a Gateway.
type Options struct {
	Upstreams []UpstreamConfig
	// Builtins are in-process upstreams (reflect's own tools).
	Builtins []Builtin
	Clients  []ClientConfig
	Mode     Mode
	Mappings Mappings
	Decider  Decider
	// ConnectTimeout and CallTimeout default to reeflex-mcp's 10 s and 30 s.
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
	// HoldWait is how long a held call waits for a human, sending progress,
	// before it returns the held result. 0 returns at once.
	HoldWait time.Duration
	// Pins remembers every tool definition seen; nil pins in memory only.
	Pins PinStore
	// Holds tracks pending holds for the identical retry; nil is in memory.
	Holds HoldTracker
	// Obligations are the handlers known; nil has audit:full only.
	Obligations *Obligations
	// Guard, when set, holds calls that carry unsettled reviewed values.
	Guard ReviewGuard
	// Reload re-reads the registry, mappings and pack for POST
	// /admin/reload on the HTTP front and for ReloadFromConfig (SIGHUP);
	// nil disables both.
	Reload func() (ReloadConfig, error)
	// HTTP bounds the streamable HTTP front as `reflect mcp --http` is
	// bounded (zero values: mcp's defaults, a 30 min session idle).
	HTTP mcp.HTTPOptions
	// OnHold, when set, is told of every new hold the gateway tracks, so it
	// can become a review item in the queue named for the client.
	OnHold func(ctx context.Context, h HeldCall)
	Logger *slog.Logger
	// UpstreamStderr receives stdio upstreams' stderr (default os.Stderr).
	UpstreamStderr io.Writer
	Version        string
	Getenv         func(string) string
	Now            func() time.Time
}

// Gateway is the proxy: one front MCP server, one client session per upstream.
type Gateway struct {
	opts      Options
	log       *slog.Logger
	front     *mcpsdk.Server
	upstreams []*upstream
	// stdioSession is minted once per process (spec §5.4).
	stdioSession string

	mu    sync.Mutex
	tools map[string]*entry // by namespaced name
	// maps is swapped whole by a reload; a call classifies with one set.
	maps atomic.Pointer[Mappings]
	// reloadMu makes reloads (SIGHUP, POST /admin/reload) one at a time.
	reloadMu sync.Mutex
	// sendBelow sends past ownListChanged; pushMu orders the pushes.
	sendBelow mcpsdk.MethodHandler
	pushMu    sync.Mutex
}

// entry is one proxied tool.
type entry struct {
	name     string // namespaced
	up       *upstream
	tool     *mcpsdk.Tool // the upstream's definition, as listed
	pinState atomic.Int32 // a PinState; a call may see it accepted
}

func (e *entry) changed() bool { return PinState(e.pinState.Load()) == PinChanged }

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// New validates the options; Start connects.
func New(opts Options) (*Gateway, error) {
	if opts.Decider == nil {
		return nil, errors.New("gateway: a Decider is required")
	}
	if opts.Mode == "" {
		opts.Mode = ModeObserve
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if opts.UpstreamStderr == nil {
		opts.UpstreamStderr = os.Stderr
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Pins == nil {
		opts.Pins = NewMemoryPins()
	}
	if opts.Holds == nil {
		opts.Holds = NewMemoryHolds()
	}
	if opts.Obligations == nil {
		opts.Obligations = NewObligations(opts.Logger)
	}
	if opts.Mappings == nil {
		opts.Mappings = Mappings{}
	}
	g := &Gateway{opts: opts, log: opts.Logger, stdioSession: "mcp-gateway:" + newID(), tools: map[string]*entry{}}
	g.maps.Store(&opts.Mappings)
	seen := map[string]bool{}
	for _, c := range opts.Upstreams {
		if seen[c.Name] {
			return nil, fmt.Errorf("gateway: upstream %q is listed twice", c.Name)
		}
		seen[c.Name] = true
		u := &upstream{cfg: c}
		u.live.Store(true)
		g.upstreams = append(g.upstreams, u)
	}
	for _, b := range opts.Builtins {
		if seen[b.Name] {
			return nil, fmt.Errorf("gateway: upstream name %q is taken by a built-in upstream (rename it, or turn the built-in off)", b.Name)
		}
		seen[b.Name] = true
		u := &upstream{builtin: b.Server,
			cfg: UpstreamConfig{Name: b.Name, System: b.System, Environment: b.Environment, Required: true}}
		u.live.Store(true)
		g.upstreams = append(g.upstreams, u)
	}
	g.front = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "reflect-gateway", Title: "reflect governance gateway", Version: opts.Version},
		&mcpsdk.ServerOptions{
			Logger: opts.Logger,
			// Only tools: resources, prompts and logging are not proxied.
			Capabilities: &mcpsdk.ServerCapabilities{Tools: &mcpsdk.ToolCapabilities{ListChanged: true}},
			Instructions: "reflect's governance gateway: every tool here is an upstream MCP server's tool, named " +
				"<upstream>__<tool>. Each call is classified and decided by policy first; a held call says how to " +
				"get it approved, then retry the exact same call.",
		})
	g.front.AddReceivingMiddleware(g.unknownTools)
	g.front.AddSendingMiddleware(g.ownListChanged)
	return g, nil
}

const methodToolsListChanged = "notifications/tools/list_changed"

// ownListChanged drops the SDK's own tools/list_changed, which it sends
// 10 ms after the last AddTool or RemoveTools: a change of many tools can
// straddle that debounce and reach a session twice. apply sends one per
// change of the catalogue instead, below this middleware.
func (g *Gateway) ownListChanged(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	g.sendBelow = next
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		if method == methodToolsListChanged {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// pushListChanged tells every open front session, once, that the tools
// changed.
func (g *Gateway) pushListChanged() {
	g.pushMu.Lock()
	defer g.pushMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ss := range g.front.Sessions() {
		req := &mcpsdk.ServerRequest[*mcpsdk.ToolListChangedParams]{Session: ss, Params: &mcpsdk.ToolListChangedParams{}}
		if _, err := g.sendBelow(ctx, methodToolsListChanged, req); err != nil {
			g.log.Debug("tools/list_changed not delivered", "session", ss.ID(), "error", err.Error())
		}
	}
}

// unknownTools answers a call to a tool that is not (or no longer) listed
// with the reference's isError text rather than a protocol error, so an
// agent sees why.
func (g *Gateway) unknownTools(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		if method == "tools/call" {
			if p, ok := req.GetParams().(*mcpsdk.CallToolParamsRaw); ok && g.lookup(p.Name) == nil {
				return blocked(fmt.Sprintf("reeflex-mcp: unknown tool or upstream unavailable: '%s'", p.Name), nil), nil
			}
		}
		return next(ctx, method, req)
	}
}

// Front is the MCP server that clients talk to.
func (g *Gateway) Front() *mcpsdk.Server { return g.front }

// Start connects every upstream (concurrently, each within the connect
// timeout) and publishes their tools. A required upstream that fails is an
// error; an optional one is marked down and its tools hidden.
func (g *Gateway) Start(ctx context.Context) error {
	errs := make([]error, len(g.upstreams))
	var wg sync.WaitGroup
	for i, u := range g.upstreams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = u.connect(ctx, g.opts.ConnectTimeout, g.opts.UpstreamStderr, g.opts.Version, func() { g.onToolsChanged(u) })
		}()
	}
	wg.Wait()
	var required []error
	for i, u := range g.upstreams {
		if errs[i] == nil {
			g.log.Info("upstream connected", "upstream", u.cfg.Name, "tools", len(u.tools))
			continue
		}
		u.markDown(errs[i])
		if u.cfg.Required {
			required = append(required, errs[i])
		} else {
			g.log.Warn("optional upstream is down: its tools are hidden", "upstream", u.cfg.Name, "error", errs[i].Error())
		}
	}
	if len(required) > 0 {
		g.Close()
		return fmt.Errorf("gateway: required upstream failed: %w", errors.Join(required...))
	}
	for _, u := range g.upstreams {
		// No push: a session that connects later lists them anyway.
		if err := g.publish(ctx, u, false); err != nil {
			g.Close()
			return err
		}
	}
	return nil
}

// Close ends every upstream session (stdio children are stopped).
func (g *Gateway) Close() {
	g.mu.Lock()
	ups := slices.Clone(g.upstreams)
	g.mu.Unlock()
	for _, u := range ups {
		u.close()
	}
}

func (g *Gateway) onToolsChanged(u *upstream) {
	ctx, cancel := context.WithTimeout(context.Background(), g.opts.ConnectTimeout)
	defer cancel()
	if u.retired.Load() {
		return // replaced or removed by a reload
	}
	// An upstream a reload is still connecting (server-everything lists
	// more tools right after initialize) is refreshed once it is live, so
	// the reload's older list cannot overwrite the newer one.
	if !u.live.Load() {
		u.missed.Store(true)
		if !u.live.Load() {
			return
		}
	}
	if err := u.refresh(ctx); err != nil {
		g.log.Warn("tools/list after list_changed failed: keeping the previous list", "upstream", u.cfg.Name, "error", err.Error())
		return
	}
	if err := g.publish(ctx, u, true); err != nil {
		g.log.Warn("could not publish the changed tools", "upstream", u.cfg.Name, "error", err.Error())
	}
}

// publish replaces u's tools on the front; with push every open front
// session is told tools/list_changed once.
func (g *Gateway) publish(ctx context.Context, u *upstream, push bool) error {
	next, err := g.stage(ctx, u)
	if err != nil {
		return err
	}
	g.apply(nil, map[*upstream]map[string]*entry{u: next}, push)
	return nil
}

// stage checks and pins u's listed tools, without touching the front.
func (g *Gateway) stage(ctx context.Context, u *upstream) (map[string]*entry, error) {
	u.mu.Lock()
	tools := u.tools
	down := u.down
	u.mu.Unlock()
	next := map[string]*entry{}
	if down != nil {
		return next, nil
	}
	for _, t := range tools {
		name := u.cfg.Name + Separator + t.Name
		switch {
		case !toolNameRE.MatchString(name):
			g.log.Warn("tool refused: its name is not a valid MCP tool name once namespaced", "upstream", u.cfg.Name, "tool", t.Name)
			continue
		case next[name] != nil:
			g.log.Warn("tool refused: the upstream lists this name twice", "upstream", u.cfg.Name, "tool", t.Name)
			continue
		case !objectSchema(t.InputSchema):
			g.log.Warn("tool refused: its inputSchema is not a JSON object schema", "upstream", u.cfg.Name, "tool", t.Name)
			continue
		}
		st, err := g.opts.Pins.Check(ctx, u.cfg.Name, t.Name, PinHash(t))
		if err != nil {
			return nil, fmt.Errorf("gateway: pin store: %w", err)
		}
		if st == PinChanged {
			g.log.Warn("tool definition changed since it was pinned: classified at the floor and held until a human accepts it",
				"upstream", u.cfg.Name, "tool", t.Name, "accept", "reflect gateway pins accept "+name)
		}
		next[name] = &entry{name: name, up: u, tool: t}
		next[name].pinState.Store(int32(st))
	}
	return next, nil
}

// apply is one change of the catalogue: the tools of drop and of next's
// upstreams that next does not list go, next's are added or replaced. The
// open sessions get one tools/list_changed for it.
func (g *Gateway) apply(drop []*upstream, next map[*upstream]map[string]*entry, push bool) {
	g.mu.Lock()
	var gone []string
	for name, e := range g.tools {
		_, restaged := next[e.up]
		if !restaged && !slices.Contains(drop, e.up) {
			continue
		}
		if next[e.up][name] == nil {
			listedAgain := false
			for _, es := range next {
				listedAgain = listedAgain || es[name] != nil
			}
			if !listedAgain {
				gone = append(gone, name)
			}
			delete(g.tools, name)
		}
	}
	var added []*entry
	for _, es := range next {
		for _, name := range sortedKeys(es) {
			g.tools[name] = es[name]
			added = append(added, es[name])
		}
	}
	g.mu.Unlock()
	if len(gone) > 0 {
		g.front.RemoveTools(gone...)
	}
	for _, e := range added {
		name := e.name
		g.front.AddTool(frontTool(e), func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return g.call(ctx, req, name)
		})
	}
	if push && len(gone)+len(added) > 0 {
		go g.pushListChanged()
	}
}

// frontTool is the upstream's definition under its namespaced name: schemas,
// annotations, _meta, title and icons as the upstream listed them.
func frontTool(e *entry) *mcpsdk.Tool {
	t := *e.tool
	t.Name = e.name
	return &t
}

func objectSchema(s any) bool {
	m, ok := s.(map[string]any)
	return ok && m["type"] == "object"
}

// lookup returns the live entry for a namespaced name.
func (g *Gateway) lookup(name string) *entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tools[name]
}

// ToolNames lists the proxied tools, sorted.
func (g *Gateway) ToolNames() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	names := make([]string, 0, len(g.tools))
	for n := range g.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SplitName splits "<upstream>__<tool>" on the first separator.
func SplitName(name string) (upstream, tool string, ok bool) {
	return strings.Cut(name, Separator)
}
