package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/mcp"
)

const anonymousAgent = "agent:mcp-client"

// identity is spec §5.4: one session per process on stdio; on HTTP a
// configured client's bearer maps to its session id, else the MCP session.
func (g *Gateway) identity(req *mcpsdk.CallToolRequest) Identity {
	if req.Extra == nil || req.Extra.Header == nil {
		return Identity{AgentID: anonymousAgent, SessionID: g.stdioSession}
	}
	h := req.Extra.Header
	if tok, ok := mcp.BearerToken(h.Get("Authorization")); ok {
		sum := sha256.Sum256([]byte(tok))
		for _, c := range g.opts.Clients {
			v := g.opts.Getenv(c.TokenEnv)
			if v == "" {
				continue
			}
			want := sha256.Sum256([]byte(v))
			if subtle.ConstantTimeCompare(sum[:], want[:]) == 1 {
				return Identity{AgentID: c.SessionID, SessionID: c.SessionID}
			}
		}
	}
	sid := h.Get("Mcp-Session-Id")
	if sid == "" && req.Session != nil {
		sid = req.Session.ID()
	}
	if sid != "" {
		return Identity{AgentID: anonymousAgent, SessionID: "mcp-http:" + sid}
	}
	return Identity{AgentID: anonymousAgent, SessionID: "mcp-http:unmapped:" + newID()}
}

// trackerScope is whose retries the holds tracker matches. On HTTP it is the
// session (spec §5.6). On stdio the session id is minted per process, so a
// gateway restarted with a pending hold would mint a new hold on the retry;
// the client's own name is stable across restarts and, on stdio, one process
// serves one client.
func (g *Gateway) trackerScope(req *mcpsdk.CallToolRequest, who Identity) string {
	if !strings.HasPrefix(who.SessionID, "mcp-gateway:") {
		return who.SessionID
	}
	return "stdio:" + ClientName(req)
}

// ClientName is the front client's self-reported name ("" when unknown).
func ClientName(req *mcpsdk.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		return p.ClientInfo.Name
	}
	return ""
}

// ServeStdio serves one client on stdin/stdout until it leaves or ctx ends.
func (g *Gateway) ServeStdio(ctx context.Context) error {
	err := g.front.Run(ctx, &mcpsdk.StdioTransport{})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("gateway stdio: %w", err)
	}
	return nil
}

// IsLoopback reports whether host only accepts local connections.
func IsLoopback(host string) bool { return mcp.IsLoopbackAddr(host) }

// ServeHTTP serves streamable HTTP at /mcp on ln until ctx ends. With a
// token every request must carry it as a bearer (a configured client's
// token is accepted too); off loopback a token is required.
func (g *Gateway) ServeHTTP(ctx context.Context, ln net.Listener, token string) error {
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if token == "" && !IsLoopback(host) {
		_ = ln.Close()
		return fmt.Errorf("gateway http: refusing to listen on non-loopback %s without a bearer token", ln.Addr())
	}
	// No ReadTimeout or WriteTimeout: a held call waits up to --hold-wait
	// and a tool call may run long; the body has its own deadline.
	srv := &http.Server{Handler: g.Handler(token), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: g.httpOpts().IdleTimeout}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("gateway http: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("gateway http: %w", err)
	}
	return nil
}

// httpOpts are reflect mcp's HTTP bounds (Origin, session cap, idle
// expiry, body deadline) with the gateway's own session idle default: a
// session holds its tracked holds' scope, so it lives as long as a hold.
func (g *Gateway) httpOpts() mcp.HTTPOptions {
	o := g.opts.HTTP
	if o.SessionIdle <= 0 {
		o.SessionIdle = 30 * time.Minute
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = mcp.DefaultIdleTimeout
	}
	return o
}

// Handler is the streamable HTTP handler, hardened as reflect mcp's is,
// behind the bearer check when token is set.
func (g *Gateway) Handler(token string) http.Handler {
	h := mcp.HardenedHandler(g.front, g.log, g.httpOpts())
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	top := http.NewServeMux()
	if g.opts.Reload != nil {
		top.Handle("/admin/reload", g.adminHandler(token))
	}
	if token == "" {
		top.Handle("/", mux)
		return top
	}
	want := sha256.Sum256([]byte(token))
	top.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := mcp.BearerToken(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		allowed := ok && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
		for _, c := range g.opts.Clients {
			if v := g.opts.Getenv(c.TokenEnv); ok && !allowed && v != "" {
				cw := sha256.Sum256([]byte(v))
				allowed = subtle.ConstantTimeCompare(sum[:], cw[:]) == 1
			}
		}
		if !allowed {
			w.Header().Set("WWW-Authenticate", `Bearer realm="reflect-gateway"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	return top
}
