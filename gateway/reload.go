package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"

	"github.com/reflect-mcp/reflect/mcp"
	"github.com/reflect-mcp/reflect/policy"
)

// ReloadConfig is what a reload re-reads: the registry's upstreams, the
// mappings and the operator pack.
type ReloadConfig struct {
	Upstreams []UpstreamConfig
	// Mappings replace the current ones; nil keeps them.
	Mappings Mappings
	// Pack, when set, decides from the reload on; nil keeps the current one.
	// It needs a Decider that can take a pack (the in-process engine).
	Pack *policy.Pack
}

// ErrInvalidPolicy marks a reload refused because the operator pack did
// not load; the pack deciding before keeps deciding.
var ErrInvalidPolicy = errors.New("invalid policy pack")

// PackSetter is a Decider whose pack can be swapped while it decides.
type PackSetter interface {
	SetPack(p *policy.Pack)
}

// ReloadFailure is one upstream a reload could not connect.
type ReloadFailure struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

// ReloadResult is the answer of POST /admin/reload.
type ReloadResult struct {
	Added    []string        `json:"added"`
	Replaced []string        `json:"replaced"`
	Removed  []string        `json:"removed"`
	Failed   []ReloadFailure `json:"failed"`
	Mappings bool            `json:"mappings_reloaded"`
	Pack     bool            `json:"pack_reloaded"`
	Note     string          `json:"note,omitempty"`
}

// ReloadFromConfig re-reads the registry with Options.Reload and applies
// it; an error (a registry, mapping or pack that does not load) changes
// nothing. SIGHUP and POST /admin/reload both come here.
func (g *Gateway) ReloadFromConfig(ctx context.Context) (ReloadResult, error) {
	if g.opts.Reload == nil {
		return ReloadResult{}, errors.New("gateway: no registry to reload")
	}
	rc, err := g.opts.Reload()
	if err != nil {
		return ReloadResult{}, err
	}
	return g.Reload(ctx, rc)
}

// Reload makes the gateway serve rc: upstreams that are new, or down, are
// connected; an up one whose configuration changed (command, env, url,
// auth, system, environment) is replaced by a fresh session; one no longer
// listed is closed and its tools hidden; mappings and the pack are swapped.
// The catalogue changes in one batch once every connection is settled, so
// open sessions get one tools/list_changed per reload (none when the
// catalogue did not change). A connect failure never takes the gateway
// down, even for a required upstream (spec §5.11); a refused reload (an
// error) changes nothing.
func (g *Gateway) Reload(ctx context.Context, rc ReloadConfig) (ReloadResult, error) {
	g.reloadMu.Lock()
	defer g.reloadMu.Unlock()
	res := ReloadResult{Added: []string{}, Replaced: []string{}, Removed: []string{}, Failed: []ReloadFailure{}}
	seen, setter, err := g.checkReload(rc)
	if err != nil {
		return res, err
	}
	g.mu.Lock()
	current := slices.Clone(g.upstreams)
	g.mu.Unlock()
	byName := map[string]*upstream{}
	for _, u := range current {
		byName[u.cfg.Name] = u
	}
	var drop []*upstream
	next := map[*upstream]map[string]*entry{}
	kept := []*upstream{}
	for _, u := range current {
		if u.builtin == nil && !seen[u.cfg.Name] {
			drop = append(drop, u)
			res.Removed = append(res.Removed, u.cfg.Name)
			continue
		}
		kept = append(kept, u)
	}
	for _, c := range rc.Upstreams {
		old := byName[c.Name]
		if old != nil && old.builtin != nil {
			res.Failed = append(res.Failed, ReloadFailure{Name: c.Name, Error: "the name is taken by a built-in upstream"})
			continue
		}
		if old != nil {
			if _, err := old.state(); err == nil && reflect.DeepEqual(old.cfg, c) {
				continue
			}
		}
		u, entries, err := g.connectStaged(ctx, c)
		if err == nil {
			next[u] = entries
		} else {
			res.Failed = append(res.Failed, ReloadFailure{Name: c.Name, Error: err.Error()})
		}
		if old == nil {
			kept = append(kept, u)
			if err == nil {
				res.Added = append(res.Added, c.Name)
			}
			continue
		}
		// A changed or down upstream gives way to the new one, even when the
		// new one failed: its tools then go, as a down upstream's do.
		drop = append(drop, old)
		kept[slices.Index(kept, old)] = u
		if err == nil {
			res.Replaced = append(res.Replaced, c.Name)
		}
	}
	if setter != nil {
		setter.SetPack(rc.Pack)
		res.Pack = true
	}
	if rc.Mappings != nil {
		m := rc.Mappings
		g.maps.Store(&m)
		res.Mappings = true
	}
	g.swapUpstreams(kept, drop, next)
	if len(res.Added)+len(res.Replaced)+len(res.Removed)+len(res.Failed) == 0 {
		res.Note = "no new upstreams found in config"
	}
	g.log.Info("reload", "added", res.Added, "replaced", res.Replaced, "removed", res.Removed, "failed", len(res.Failed),
		"mappings", res.Mappings, "pack", res.Pack)
	return res, nil
}

// checkReload refuses a reload that cannot be served whole: an upstream
// listed twice, or a pack for an engine that decides elsewhere. It returns
// the names listed and the engine to give the pack to (nil for no pack).
func (g *Gateway) checkReload(rc ReloadConfig) (map[string]bool, PackSetter, error) {
	seen := map[string]bool{}
	for _, c := range rc.Upstreams {
		if seen[c.Name] {
			return nil, nil, fmt.Errorf("upstream %q is listed twice", c.Name)
		}
		seen[c.Name] = true
	}
	if rc.Pack == nil {
		return seen, nil, nil
	}
	setter, ok := g.opts.Decider.(PackSetter)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the engine deciding is remote; its pack is its own", ErrInvalidPolicy)
	}
	return seen, setter, nil
}

// swapUpstreams makes kept the gateway's upstreams and changes the
// catalogue in one batch: drop's tools go and next's staged tools are
// listed, then drop is closed. A staged upstream whose tools changed while
// it was staged is listed again.
func (g *Gateway) swapUpstreams(kept, drop []*upstream, next map[*upstream]map[string]*entry) {
	g.mu.Lock()
	g.upstreams = kept
	g.mu.Unlock()
	for _, u := range drop {
		u.retired.Store(true)
	}
	g.apply(drop, next, true)
	for _, u := range drop {
		u.close()
	}
	for u := range next {
		u.live.Store(true)
		if u.missed.Swap(false) {
			go g.onToolsChanged(u)
		}
	}
}

// connectStaged connects a fresh upstream for c and stages its tools
// without listing them. One that fails is returned marked down (and live:
// a down upstream has nothing listed to overwrite) with the error.
func (g *Gateway) connectStaged(ctx context.Context, c UpstreamConfig) (*upstream, map[string]*entry, error) {
	u := &upstream{cfg: c}
	err := u.connect(ctx, g.opts.ConnectTimeout, g.opts.UpstreamStderr, g.opts.Version, func() { g.onToolsChanged(u) })
	var entries map[string]*entry
	if err == nil {
		if entries, err = g.stage(ctx, u); err != nil {
			u.close()
		}
	}
	if err != nil {
		u.markDown(err)
		u.live.Store(true)
		return u, nil, err
	}
	return u, entries, nil
}

// adminHandler is POST /admin/reload. With REEFLEX_MCP_ADMIN_TOKEN set it
// needs that bearer. Unset, a request reaching the gateway beyond loopback
// is refused (the front's token is an agent's, not an operator's); on
// loopback it needs the front's token when the front has one and nothing
// otherwise, as in the reference.
func (g *Gateway) adminHandler(frontToken string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON := func(status int, v any) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(v)
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeJSON(http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed"})
			return
		}
		want := g.opts.Getenv("REEFLEX_MCP_ADMIN_TOKEN")
		if want == "" && !loopbackRequest(r) {
			writeJSON(http.StatusForbidden, map[string]string{"error": "admin_token_required",
				"detail": "the gateway is bound beyond loopback: set REEFLEX_MCP_ADMIN_TOKEN to reload over HTTP, or send it SIGHUP"})
			return
		}
		if want == "" {
			want = frontToken
		}
		if want != "" {
			got, _ := mcp.BearerToken(r.Header.Get("Authorization"))
			a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
			if subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
				writeJSON(http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
				return
			}
		}
		res, err := g.ReloadFromConfig(r.Context())
		if err != nil {
			code := "invalid_config"
			if errors.Is(err, ErrInvalidPolicy) {
				code = "invalid_policy"
			}
			writeJSON(http.StatusBadRequest, map[string]string{"error": code, "detail": err.Error()})
			return
		}
		writeJSON(http.StatusOK, res)
	})
}

// loopbackRequest reports whether the connection arrived on a loopback
// address of this host; unknown is not loopback.
func loopbackRequest(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	host, _, err := net.SplitHostPort(a.String())
	return err == nil && IsLoopback(host)
}
