package gateway

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/policy"
)

// Envelope is an action envelope as JSON would decode it (numbers are
// json.Number), the policy engine's input.
type Envelope = policy.Envelope

// Decision is the wire response of POST /v1/decide.
type Decision = policy.Decision

// Decider decides one envelope. An error means no usable decision: the
// gateway fails closed in enforce and open (with a warning) in observe. A
// Decision returned with an error is the engine's own fail-closed deny.
type Decider interface {
	Decide(ctx context.Context, env Envelope) (Decision, error)
}

// HoldWatcher reports a hold's status (pending, approved, rejected,
// expired, consumed), so a call can wait for a human within --hold-wait.
type HoldWatcher interface {
	HoldStatus(ctx context.Context, id string) (string, error)
}

// BudgetReporter says how much of a session's budgets a call would use,
// for the reviewer of its hold ("deletions 25/20 (over)").
type BudgetReporter interface {
	BudgetUse(ctx context.Context, env Envelope) (string, error)
}

// DeciderFunc adapts a function.
type DeciderFunc func(ctx context.Context, env Envelope) (Decision, error)

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, env Envelope) (Decision, error) { return f(ctx, env) }

// Remote is a reeflex-core compatible engine over HTTP (REEFLEX_CORE_URL):
// any reeflex-core, or `reflect core serve`.
type Remote struct {
	base   string
	token  string
	client *http.Client
}

// NewRemote returns a client for baseURL.
func NewRemote(baseURL, token string, timeout time.Duration, verifySSL bool) (*Remote, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("REEFLEX_CORE_URL %q: want http(s)://host[:port]", baseURL)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if !verifySSL {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // REEFLEX_VERIFY_SSL=0 is the operator's explicit choice
	}
	// The reference waits REEFLEX_MCP_TIMEOUT plus a second.
	return &Remote{base: u.String(), token: token, client: &http.Client{Transport: tr, Timeout: timeout + time.Second}}, nil
}

// ErrEngineUnreachable wraps every failure to get a decision from a remote engine.
var ErrEngineUnreachable = errors.New("decision engine unreachable")

// Decide posts the envelope. A non-2xx answer without a decision field is an
// error; a 500 that carries a decision is the engine's own deny.
func (r *Remote) Decide(ctx context.Context, env Envelope) (Decision, error) {
	body, err := json.Marshal(env)
	if err != nil {
		return Decision{}, fmt.Errorf("%w: encoding the envelope: %w", ErrEngineUnreachable, err)
	}
	var d Decision
	status, raw, err := r.do(ctx, http.MethodPost, "/v1/decide", body)
	if err != nil {
		return Decision{}, err
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) == nil {
		if _, ok := probe["decision"]; ok {
			if err := json.Unmarshal(raw, &d); err != nil {
				return Decision{}, fmt.Errorf("%w: HTTP %d: %w", ErrEngineUnreachable, status, err)
			}
			return d, nil
		}
	}
	return Decision{}, fmt.Errorf("%w: HTTP %d: %s", ErrEngineUnreachable, status, truncate(string(raw), 200))
}

// HoldStatus reads GET /v1/holds/{id}.
func (r *Remote) HoldStatus(ctx context.Context, id string) (string, error) {
	status, raw, err := r.do(ctx, http.MethodGet, "/v1/holds/"+url.PathEscape(id), nil)
	if err != nil {
		return "", err
	}
	if status != http.StatusOK {
		return "", fmt.Errorf("hold %s: HTTP %d", id, status)
	}
	var h struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", fmt.Errorf("hold %s: %w", id, err)
	}
	return h.Status, nil
}

func (r *Remote) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, rd)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %w", ErrEngineUnreachable, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %w", ErrEngineUnreachable, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, fmt.Errorf("%w: reading the answer: %w", ErrEngineUnreachable, err)
	}
	return resp.StatusCode, raw, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// InProcess is the engine in this process, the default: no service to run.
func InProcess(e *policy.Engine) Decider { return inProcess{e} }

type inProcess struct{ e *policy.Engine }

func (p inProcess) Decide(ctx context.Context, env Envelope) (Decision, error) {
	return p.e.Decide(ctx, env)
}

// SetPack swaps the engine's operator pack (a hot reload).
func (p inProcess) SetPack(pk *policy.Pack) { p.e.SetPack(pk) }

func (p inProcess) BudgetUse(ctx context.Context, env Envelope) (string, error) {
	return p.e.BudgetUse(ctx, env)
}

func (p inProcess) HoldStatus(ctx context.Context, id string) (string, error) {
	h, err := p.e.Hold(ctx, id)
	if err != nil {
		return "", err
	}
	return h.Status, nil
}
