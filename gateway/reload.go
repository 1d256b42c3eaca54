package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"slices"
)

// ReloadFailure is one upstream a reload could not connect.
type ReloadFailure struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

// ReloadResult is the answer of POST /admin/reload.
type ReloadResult struct {
	Added  []string        `json:"added"`
	Failed []ReloadFailure `json:"failed"`
	Note   string          `json:"note,omitempty"`
}

// Reload connects every upstream of cfgs that is not up now: new ones,
// earlier failures, and a same-named one that is down (closed and replaced).
// Nothing up is removed or reconfigured, and a failure never takes the
// gateway down, even for a required upstream (spec §5.11).
func (g *Gateway) Reload(ctx context.Context, cfgs []UpstreamConfig) ReloadResult {
	res := ReloadResult{Added: []string{}, Failed: []ReloadFailure{}}
	for _, c := range cfgs {
		g.mu.Lock()
		i := slices.IndexFunc(g.upstreams, func(u *upstream) bool { return u.cfg.Name == c.Name })
		var old *upstream
		if i >= 0 {
			old = g.upstreams[i]
		}
		g.mu.Unlock()
		if old != nil {
			if _, err := old.state(); err == nil || old.builtin != nil {
				continue
			}
			old.close()
			_ = g.publish(ctx, old) // down: its tools go
		}
		u := &upstream{cfg: c}
		err := u.connect(ctx, g.opts.ConnectTimeout, g.opts.UpstreamStderr, g.opts.Version, func() { g.onToolsChanged(u) })
		if err != nil {
			u.markDown(err)
		}
		g.mu.Lock()
		if i >= 0 && i < len(g.upstreams) && g.upstreams[i] == old {
			g.upstreams[i] = u
		} else {
			g.upstreams = append(g.upstreams, u)
		}
		g.mu.Unlock()
		if err != nil {
			res.Failed = append(res.Failed, ReloadFailure{Name: c.Name, Error: err.Error()})
			continue
		}
		if err := g.publish(ctx, u); err != nil {
			res.Failed = append(res.Failed, ReloadFailure{Name: c.Name, Error: err.Error()})
			continue
		}
		res.Added = append(res.Added, c.Name)
	}
	if len(res.Added) == 0 && len(res.Failed) == 0 {
		res.Note = "no new upstreams found in config"
	}
	g.log.Info("reload", "added", res.Added, "failed", len(res.Failed))
	return res
}

// adminHandler is POST /admin/reload. With REEFLEX_MCP_ADMIN_TOKEN set it
// needs that bearer; unset, it needs the front's token when the front has
// one (so an off-loopback gateway never opens it to the network) and
// nothing otherwise, as in the reference on loopback.
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
		if want == "" {
			want = frontToken
		}
		if want != "" {
			got, _ := bearerToken(r.Header.Get("Authorization"))
			a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
			if subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
				writeJSON(http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
				return
			}
		}
		cfgs, err := g.opts.Reload()
		if err != nil {
			writeJSON(http.StatusBadRequest, map[string]string{"error": "invalid_config", "detail": err.Error()})
			return
		}
		writeJSON(http.StatusOK, g.Reload(r.Context(), cfgs))
	})
}
