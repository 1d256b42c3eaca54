package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultHTTPAddr is where ServeHTTP listens when no address is given:
// loopback only, so nothing off the machine can reach the tools.
const DefaultHTTPAddr = "127.0.0.1:8765"

// IsLoopbackAddr reports whether a listen address (host:port) only accepts
// connections from this machine. An empty host (":8080") listens everywhere.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP serves streamable HTTP MCP on addr (DefaultHTTPAddr when empty)
// until ctx ends. With a token, every request must carry
// "Authorization: Bearer <token>". A non-loopback address without a token is
// refused: the tools spend the operator's model budget.
func (s *Server) ServeHTTP(ctx context.Context, addr, authToken string) error {
	if addr == "" {
		addr = DefaultHTTPAddr
	}
	if authToken == "" && !IsLoopbackAddr(addr) {
		return fmt.Errorf("mcp http: refusing to listen on non-loopback address %s without an auth token", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp http: %w", err)
	}
	return s.ServeListener(ctx, ln, authToken)
}

// ServeListener is ServeHTTP on a listener the caller opened (tests listen on
// 127.0.0.1:0 and read the port from it). It closes ln when it returns.
func (s *Server) ServeListener(ctx context.Context, ln net.Listener, authToken string) error {
	opts := s.cfg.HTTP.withDefaults()
	// No ReadTimeout or WriteTimeout: both would cut a long tool call or an
	// event stream. The body has its own deadline (HTTPOptions.BodyTimeout).
	srv := &http.Server{
		Handler:           s.Handler(authToken),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       opts.IdleTimeout,
	}
	s.log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "auth", authToken != "",
		"store", s.storePath())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mcp http: %w", err)
	case <-ctx.Done():
	}
	// Open SSE streams never finish on their own: give in-flight calls a
	// moment, then cut the rest.
	shutCtx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mcp http: %w", err)
	}
	return nil
}

// Handler is the streamable HTTP handler, behind the bearer check when
// authToken is set. It answers on every path; clients conventionally use /mcp.
func (s *Server) Handler(authToken string) http.Handler {
	h := HardenedHandler(s.sdk, s.log, s.cfg.HTTP)
	if authToken == "" {
		return h
	}
	return bearer(authToken, h)
}

// HardenedHandler is srv's streamable HTTP handler behind what the SDK
// leaves undone (see guard): Origin validation, a session cap, idle session
// expiry, a deadline on each body, JSON-RPC errors for malformed requests.
// `reflect mcp` and the gateway's HTTP front both serve through it, so
// a fix to one front is a fix to both.
func HardenedHandler(srv *mcpsdk.Server, log *slog.Logger, opts HTTPOptions) http.Handler {
	opts = opts.withDefaults()
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, &mcpsdk.StreamableHTTPOptions{
		Logger: log,
		// Clients that vanish without DELETE would otherwise keep their
		// session for the life of the server.
		SessionTimeout:      opts.SessionIdle,
		MaxRequestBodyBytes: maxBody,
	})
	return newGuard(srv, opts, h)
}

func bearer(token string, next http.Handler) http.Handler {
	// Comparing digests keeps the comparison constant-time in the token's
	// length too.
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearerToken(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="reflect"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// BearerToken is the token of an "Authorization: Bearer <token>" header.
func BearerToken(h string) (string, bool) { return bearerToken(h) }

func bearerToken(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
