package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions bound what HTTP clients can hold of the server. Zero values
// take the defaults below.
type HTTPOptions struct {
	// AllowedOrigins are browser origins ("https://app.example.com") allowed
	// besides loopback ones. A request with any other Origin header gets 403:
	// a web page the user happens to visit must not drive the tools.
	AllowedOrigins []string
	// MaxSessions caps live sessions; an initialize beyond it gets 503 with a
	// JSON-RPC error until one closes or expires.
	MaxSessions int
	// SessionIdle closes a session that has sent nothing for this long.
	SessionIdle time.Duration
	// BodyTimeout is how long a client may take to send one request body.
	BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no request in flight.
	IdleTimeout time.Duration
}

// Defaults for HTTPOptions.
const (
	DefaultMaxSessions = 256
	DefaultSessionIdle = 10 * time.Minute
	DefaultBodyTimeout = 30 * time.Second
	DefaultIdleTimeout = 2 * time.Minute
	// maxBody matches the SDK's own cap, which applies after ours.
	maxBody = 4 << 20
)

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	return o
}

const (
	hdrSession  = "Mcp-Session-Id"
	hdrProtocol = "Mcp-Protocol-Version"
	// codeServerBusy is in JSON-RPC's implementation-defined server range.
	codeServerBusy = -32000
)

// guard sits in front of the SDK's streamable HTTP handler and does what it
// leaves undone: it validates Origin, reads each body under a deadline, caps
// sessions, answers every malformed POST with a JSON-RPC error rather than
// plain text, and drops the response to a call the client cancelled.
type guard struct {
	srv  *mcpsdk.Server
	opts HTTPOptions
	next http.Handler

	mu       sync.Mutex
	pending  int              // initialize requests past the cap check
	inFlight map[callKey]bool // true: cancelled by the client
	origins  map[string]bool  // AllowedOrigins, normalised
}

type callKey struct {
	session string
	id      jsonrpc.ID
}

func newGuard(srv *mcpsdk.Server, opts HTTPOptions, next http.Handler) *guard {
	g := &guard{srv: srv, opts: opts, next: next, inFlight: map[callKey]bool{}, origins: map[string]bool{}}
	for _, o := range opts.AllowedOrigins {
		g.origins[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o) {
		writeRPCError(w, http.StatusForbidden, nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("origin %s is not allowed (the MCP spec asks servers to validate Origin; allow it with --allow-origin)", clip(o, maxEcho)))
		return
	}
	if r.Method != http.MethodPost {
		g.next.ServeHTTP(w, r)
		return
	}
	body, ok := g.readBody(w, r)
	if !ok {
		return
	}
	body = bytes.TrimSpace(bytes.TrimPrefix(body, utf8BOM))
	msg, id, code, reason := g.parse(body)
	if reason != "" {
		writeRPCError(w, http.StatusBadRequest, id, code, reason)
		return
	}
	session := r.Header.Get(hdrSession)
	rw := &rpcWriter{ResponseWriter: w, g: g, id: id}
	if req, isReq := msg.(*jsonrpc.Request); isReq {
		newProtocol := r.Header.Get(hdrProtocol) >= "2026-07-28" // the SDK answers those itself
		switch {
		case req.IsCall() && session == "" && req.Method != "initialize" && req.Method != "ping" && !newProtocol:
			writeRPCError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("%q before initialize: send initialize first, then the %s header it returns", clip(req.Method, maxEcho), hdrSession))
			return
		case req.Method == "initialize" && session == "":
			release, ok := g.reserveSession()
			if !ok {
				w.Header().Set("Retry-After", strconv.Itoa(int(g.opts.SessionIdle.Seconds())))
				writeRPCError(w, http.StatusServiceUnavailable, id, codeServerBusy,
					fmt.Sprintf("the server already holds %d sessions, its limit: end one (HTTP DELETE) or wait for an idle one to expire", g.opts.MaxSessions))
				return
			}
			defer release()
		case req.Method == "notifications/cancelled" && session != "":
			g.cancel(session, req.Params)
		case req.IsCall() && session != "":
			rw.key = &callKey{session: session, id: req.ID}
			g.track(*rw.key)
			defer g.untrack(*rw.key)
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	g.next.ServeHTTP(rw, r)
	rw.finish()
}

// readBody reads the whole body within BodyTimeout; a client trickling it
// byte by byte would otherwise hold a connection and a goroutine for ever.
// The deadline is lifted once the body is in: the answer may stream for as
// long as the call takes.
func (g *guard) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(g.opts.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	_ = rc.SetReadDeadline(time.Time{})
	if err == nil {
		return body, true
	}
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		writeRPCError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("request body over %d bytes", mbe.Limit))
	case errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		w.Header().Set("Connection", "close")
		writeRPCError(w, http.StatusRequestTimeout, nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("request body not received within %s", g.opts.BodyTimeout))
	default:
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "reading the request body: "+clip(err.Error(), 200))
	}
	return nil, false
}

// parse applies the stdio rules to one POST body: one JSON-RPC message.
func (g *guard) parse(body []byte) (jsonrpc.Message, json.RawMessage, int64, string) {
	if len(body) == 0 {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: empty body"
	}
	msg, ids, code, reason := parseLine(body)
	if reason == "" {
		ids = requestIDs(body)
	}
	var id json.RawMessage
	if len(ids) > 0 {
		id = ids[0]
	}
	return msg, id, code, reason
}

func (g *guard) originAllowed(origin string) bool {
	o := strings.TrimRight(strings.ToLower(origin), "/")
	if g.origins[o] || g.origins["*"] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // includes the "null" origin of sandboxed pages and files
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// reserveSession counts live sessions plus initializes in progress against
// the cap, so a burst of initializes cannot overshoot it. Only initialized
// sessions are live: the SDK gives a session-less request of the newer
// protocol (the server/discover a v1.8 client sends before initialize) a
// session of its own and closes it only after the answer is sent, so the
// client's initialize could find it still listed and be refused under a cap
// of 1 (a quarter of TestHTTPFrontHardenedAsReflectMCP's runs). The SDK
// closes every session its POST left uninitialized before the handler
// returns, so none outlives its request.
func (g *guard) reserveSession() (release func(), ok bool) {
	n := 0
	for ss := range g.srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if n+g.pending >= g.opts.MaxSessions {
		return nil, false
	}
	g.pending++
	return func() {
		g.mu.Lock()
		g.pending--
		g.mu.Unlock()
	}, true
}

func (g *guard) track(k callKey) {
	g.mu.Lock()
	g.inFlight[k] = false
	g.mu.Unlock()
}

func (g *guard) untrack(k callKey) {
	g.mu.Lock()
	delete(g.inFlight, k)
	g.mu.Unlock()
}

func (g *guard) cancel(session string, params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	k := callKey{session: session, id: id}
	g.mu.Lock()
	if _, ok := g.inFlight[k]; ok {
		g.inFlight[k] = true
	}
	g.mu.Unlock()
}

func (g *guard) cancelled(k callKey) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.inFlight[k]
}

// rpcWriter turns the SDK's plain-text 400, 404 and 413 answers (the status
// kept: a 404 tells the client its session is gone) into JSON-RPC
// errors, and drops the SSE event answering a cancelled call.
type rpcWriter struct {
	http.ResponseWriter
	g       *guard
	id      json.RawMessage
	key     *callKey
	capture bool
	status  int
	buf     bytes.Buffer
}

func (w *rpcWriter) WriteHeader(code int) {
	ct := w.Header().Get("Content-Type")
	switch code {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge:
	default:
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if strings.HasPrefix(ct, "text/plain") {
		w.capture, w.status = true, code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcWriter) Write(p []byte) (int, error) {
	if w.capture {
		if w.buf.Len() < 4096 {
			w.buf.Write(p)
		}
		return len(p), nil
	}
	if w.key != nil && w.answersCancelled(p) {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// answersCancelled reports whether p is the SSE event carrying the
// response to a call the client cancelled. The SDK writes each event with
// one Write.
func (w *rpcWriter) answersCancelled(p []byte) bool {
	if !w.g.cancelled(*w.key) {
		return false
	}
	i := bytes.Index(p, []byte("data: "))
	if i < 0 {
		return false
	}
	data := bytes.TrimSpace(p[i+len("data: "):])
	m, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return false
	}
	resp, ok := m.(*jsonrpc.Response)
	return ok && resp.ID == w.key.id
}

// Unwrap lets http.ResponseController reach the connection (Flush, deadlines).
func (w *rpcWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes on the SDK's flushes of its event stream.
func (w *rpcWriter) Flush() {
	if !w.capture {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
	}
}

func (w *rpcWriter) finish() {
	if !w.capture {
		return
	}
	msg := strings.TrimSpace(w.buf.String())
	code := int64(jsonrpc.CodeInvalidRequest)
	if strings.Contains(msg, "not handled") || strings.Contains(msg, "method not found") {
		code = jsonrpc.CodeMethodNotFound
	}
	w.Header().Del("X-Content-Type-Options")
	writeRPCError(w.ResponseWriter, w.status, w.id, code, msg)
}

// writeRPCError answers with one JSON-RPC error object; id nil is JSON null.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(wireError{JSONRPC: "2.0", ID: id, Error: wireErrorBody{Code: code, Message: msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
