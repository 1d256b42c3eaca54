// Package coreapi serves a policy.Engine with reeflex-core's REST API:
// the same routes, status codes, headers and bodies, so reeflex adapters
// and the reeflex-mcp gateway work against it unchanged. It is concurrent,
// where the reference serves one request at a time.
package coreapi

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/policy"
)

// DefaultMaxBody is REEFLEX_MAX_BODY_BYTES's default.
const DefaultMaxBody = 262144

// Config is the server's wire configuration.
type Config struct {
	// AuthToken is REEFLEX_AUTH_TOKEN; empty turns auth off. /healthz is
	// always open.
	AuthToken string
	MaxBody   int64 // 0: DefaultMaxBody
}

type server struct {
	e     *policy.Engine
	token []byte
	max   int64
	bufs  sync.Pool
}

// Handler serves e.
func Handler(e *policy.Engine, c Config) http.Handler {
	s := &server{e: e, token: []byte(strings.TrimSpace(c.AuthToken)), max: c.MaxBody}
	if s.max <= 0 {
		s.max = DefaultMaxBody
	}
	s.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	return s
}

func (s *server) write(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = []string{"application/json; charset=utf-8"}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	h["Cache-Control"] = []string{"no-store"}
	h["Server"] = []string{"reeflex-core"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// errBody is {"error":code[,key:val]} with the reference's key order.
func errBody(code string, kv ...string) []byte {
	b := append([]byte(`{"error":`), policy.CanonicalJSON(code)...)
	for i := 0; i+1 < len(kv); i += 2 {
		b = append(b, ',')
		b = append(b, policy.CanonicalJSON(kv[i])...)
		b = append(b, ':')
		b = append(b, policy.CanonicalJSON(kv[i+1])...)
	}
	return append(b, '}')
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, POST")
		s.write(w, http.StatusMethodNotAllowed, errBody("method_not_allowed"))
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	route := ""
	switch {
	case r.Method == "GET" && len(parts) == 1 && parts[0] == "healthz":
		route = "healthz"
	case r.Method == "POST" && len(parts) == 2 && parts[0] == "v1" && parts[1] == "decide":
		route = "decide"
	case r.Method == "GET" && len(parts) == 2 && parts[0] == "v1" && parts[1] == "holds":
		route = "holds"
	case r.Method == "GET" && len(parts) == 3 && parts[0] == "v1" && parts[1] == "holds" && parts[2] != "":
		route = "hold"
	case r.Method == "POST" && len(parts) == 4 && parts[0] == "v1" && parts[1] == "holds" && parts[2] != "" && parts[3] == "resolve":
		route = "resolve"
	case len(parts) == 2 && parts[0] == "v1" && parts[1] == "freeze":
		route = "freeze"
	}
	if route == "" {
		s.write(w, http.StatusNotFound, errBody("not_found"))
		return
	}
	// The reference exempts exactly "/healthz": with a query string it is
	// an authenticated route.
	if !(route == "healthz" && r.RequestURI == "/healthz") && !s.authorized(r, route == "resolve") {
		w.Header().Set("WWW-Authenticate", "Bearer")
		s.write(w, http.StatusUnauthorized, errBody("unauthorized"))
		return
	}
	switch route {
	case "healthz":
		s.write(w, http.StatusOK, []byte(`{"status":"ok"}`))
	case "decide":
		s.decide(w, r)
	case "holds":
		s.holds(w, r)
	case "hold":
		s.hold(w, r, parts[2])
	case "resolve":
		s.resolve(w, r, parts[2])
	case "freeze":
		s.freeze(w, r)
	}
}

func (s *server) authorized(r *http.Request, resolve bool) bool {
	if len(s.token) == 0 {
		return true
	}
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		return false
	}
	tok = strings.TrimSpace(tok)
	if subtle.ConstantTimeCompare([]byte(tok), s.token) == 1 {
		return true
	}
	return resolve && s.e.IsResolverToken(tok)
}

func bearer(r *http.Request) string {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return strings.TrimSpace(tok)
}

var errTooLarge = errors.New("payload too large")
var errNoLength = errors.New("content length required")

// body reads the request body under the cap into a pooled buffer.
func (s *server) body(r *http.Request, buf []byte) ([]byte, error) {
	cl := r.Header.Get("Content-Length")
	if cl == "" || r.ContentLength < 0 {
		return nil, errNoLength
	}
	if r.ContentLength > s.max {
		return nil, errTooLarge
	}
	n := int(r.ContentLength)
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r.Body, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// bodyError answers a body problem (411/413/400) and reports whether it did.
func (s *server) bodyError(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errNoLength):
		s.write(w, http.StatusLengthRequired, errBody("content_length_required"))
	case errors.Is(err, errTooLarge):
		s.write(w, http.StatusRequestEntityTooLarge, errBody("payload_too_large"))
	default:
		s.write(w, http.StatusBadRequest, errBody("invalid_json"))
	}
	return true
}

// decodeStrict parses JSON strictly: valid UTF-8, no lone surrogate
// escapes (encoding/json would turn them into U+FFFD), no trailing data.
// NaN, Infinity and over-deep nesting are refused by encoding/json itself.
func decodeStrict(b []byte) (any, error) {
	if !utf8.Valid(b) || loneSurrogate(b) {
		return nil, errors.New("invalid json")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func hexVal(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}

// loneSurrogate finds a \uD800-\uDFFF escape that is not a proper pair.
func loneSurrogate(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+1 < len(b) && b[i+1] != 'u' {
			i++ // an escaped character, possibly a backslash
			continue
		}
		r, ok := hexVal(b[i+2:])
		if !ok {
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if i+12 > len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
				return true
			}
			lo, ok := hexVal(b[i+8:])
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return true
			}
			i += 11
		case r >= 0xdc00 && r <= 0xdfff:
			return true
		default:
			i += 5
		}
	}
	return false
}

func (s *server) decide(w http.ResponseWriter, r *http.Request) {
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	raw, err := s.body(r, (*bp)[:0])
	if s.bodyError(w, err) {
		return
	}
	v, err := decodeStrict(raw)
	*bp = raw[:0]
	if err != nil {
		s.write(w, http.StatusBadRequest, errBody("invalid_json"))
		return
	}
	env, _ := v.(map[string]any)
	d, err := s.e.Decide(r.Context(), env)
	out := (*bp)[:0]
	var ee *policy.EnvelopeError
	switch {
	case errors.As(err, &ee):
		s.write(w, http.StatusBadRequest, errBody(ee.Code, "detail", ee.Detail))
		return
	case errors.Is(err, policy.ErrFailClosed):
		s.write(w, http.StatusInternalServerError, d.AppendJSON(out))
		return
	case err != nil:
		d = policy.Decision{Decision: policy.Deny, Reason: "internal error - failing closed", Rule: policy.RuleInternal, Obligations: []string{}, DecisionID: d.DecisionID}
		s.write(w, http.StatusInternalServerError, d.AppendJSON(out))
		return
	}
	out = d.AppendJSON(out)
	s.write(w, http.StatusOK, out)
	*bp = out[:0]
}

func (s *server) holds(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil {
		limit = 100
	}
	items, next, err := s.e.Holds(r.Context(), q.Get("status"), limit, q.Get("cursor"))
	if err != nil {
		s.write(w, http.StatusInternalServerError, errBody("internal_error"))
		return
	}
	b := []byte(`{"items":[`)
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = items[i].AppendJSON(b)
	}
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(len(items)), 10)
	if next != "" {
		b = append(b, `,"next_cursor":`...)
		b = append(b, policy.CanonicalJSON(next)...)
	}
	s.write(w, http.StatusOK, append(b, '}'))
}

func (s *server) hold(w http.ResponseWriter, r *http.Request, id string) {
	h, err := s.e.Hold(r.Context(), id)
	switch {
	case errors.Is(err, policy.ErrHoldNotFound):
		s.write(w, http.StatusNotFound, errBody("not_found", "hold_id", id))
	case err != nil:
		s.write(w, http.StatusInternalServerError, errBody("internal_error", "hold_id", id))
	default:
		s.write(w, http.StatusOK, h.AppendJSON(nil))
	}
}

func (s *server) resolve(w http.ResponseWriter, r *http.Request, id string) {
	raw, err := s.body(r, nil)
	if s.bodyError(w, err) {
		return
	}
	v, err := decodeStrict(raw)
	if err != nil {
		s.write(w, http.StatusBadRequest, errBody("invalid_json"))
		return
	}
	bad := func(reason string) {
		s.write(w, http.StatusBadRequest, errBody("invalid_request", "reason", reason, "hold_id", id))
	}
	body, ok := v.(map[string]any)
	if !ok {
		bad("body must be a JSON object")
		return
	}
	res := policy.Resolution{Token: bearer(r)}
	res.Decision, _ = body["decision"].(string)
	if res.Decision != "approve" && res.Decision != "reject" {
		bad(`decision must be "approve" or "reject"`)
		return
	}
	p, ok := body["principal"].(map[string]any)
	typ, okT := p["type"].(string)
	pid, okI := p["id"].(string)
	if !ok || !okT || !okI {
		bad("principal must be an object with string type and id")
		return
	}
	res.Principal = policy.Principal{Type: typ, ID: pid}
	if reason, present := body["reason"]; present && reason != nil {
		if res.Note, ok = reason.(string); !ok {
			bad("reason must be a string")
			return
		}
	}
	h, err := s.e.Resolve(r.Context(), id, res)
	var re *policy.ResolveError
	switch {
	case errors.As(err, &re):
		s.write(w, re.Status, re.AppendJSON(nil))
	case err != nil:
		s.write(w, http.StatusInternalServerError, errBody("internal_error", "hold_id", id))
	default:
		s.write(w, http.StatusOK, h.AppendJSON(nil))
	}
}

// freeze is reflect's addition: GET reads the freeze, POST {"frozen":bool}
// flips the runtime switch without a restart.
func (s *server) freeze(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		raw, err := s.body(r, nil)
		if s.bodyError(w, err) {
			return
		}
		v, err := decodeStrict(raw)
		if err != nil {
			s.write(w, http.StatusBadRequest, errBody("invalid_json"))
			return
		}
		m, _ := v.(map[string]any)
		on, ok := m["frozen"].(bool)
		if !ok {
			s.write(w, http.StatusBadRequest, errBody("invalid_request", "reason", `body must be {"frozen": true|false}`))
			return
		}
		s.e.SetFreeze(r.Context(), on)
	}
	s.write(w, http.StatusOK, freezeBody(r.Context(), s.e))
}

func freezeBody(ctx context.Context, e *policy.Engine) []byte {
	on, src := e.Frozen(ctx)
	b := []byte(`{"frozen":`)
	b = strconv.AppendBool(b, on)
	b = append(b, `,"source":`...)
	b = append(b, policy.CanonicalJSON(src)...)
	return append(b, '}')
}
