package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Builtin is an upstream served in this process (reflect's own tools, the
// check's decoy), reached over an in-memory transport.
type Builtin struct {
	Name        string
	System      string
	Environment string
	Server      *mcpsdk.Server
}

// upstream is one client session, connected once per process.
type upstream struct {
	cfg     UpstreamConfig
	builtin *mcpsdk.Server

	// live: its tools are on the front (a reload sets it once applied);
	// missed: a list_changed came before that; retired: a reload dropped it.
	live, missed, retired atomic.Bool

	mu      sync.Mutex
	session *mcpsdk.ClientSession
	down    error // why it is down; nil when up
	tools   []*mcpsdk.Tool
}

func (u *upstream) state() (*mcpsdk.ClientSession, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.down != nil {
		return nil, u.down
	}
	if u.session == nil {
		return nil, errors.New("not connected")
	}
	return u.session, nil
}

func (u *upstream) markDown(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.down = err
}

// connect opens the session within timeout. onToolsChanged runs on the
// upstream's notifications/tools/list_changed.
func (u *upstream) connect(ctx context.Context, timeout time.Duration, stderr io.Writer, version string,
	onToolsChanged func()) error {
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "reflect-gateway", Version: version}, &mcpsdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) { go onToolsChanged() },
	})
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var t mcpsdk.Transport
	switch {
	case u.builtin != nil:
		ct, st := mcpsdk.NewInMemoryTransports()
		if _, err := u.builtin.Connect(ctx, st, nil); err != nil {
			return fmt.Errorf("upstream %s: %w", u.cfg.Name, err)
		}
		t = ct
	case u.cfg.URL != "":
		hc := &http.Client{}
		if u.cfg.TokenEnv != "" {
			tok := os.Getenv(u.cfg.TokenEnv)
			if tok == "" {
				return fmt.Errorf("upstream %s: auth.token_env %s is empty", u.cfg.Name, u.cfg.TokenEnv)
			}
			hc.Transport = bearerTransport{token: tok, next: http.DefaultTransport}
		}
		t = &mcpsdk.StreamableClientTransport{Endpoint: u.cfg.URL, HTTPClient: hc, MaxRetries: 2}
	default:
		// Not CommandContext: the process lives as long as the gateway, not
		// as long as the connect deadline.
		cmd := exec.Command(u.cfg.Command[0], u.cfg.Command[1:]...) //nolint:gosec // the operator's registry
		cmd.Env = os.Environ()
		for _, k := range sortedKeys(u.cfg.Env) {
			cmd.Env = append(cmd.Env, k+"="+u.cfg.Env[k])
		}
		cmd.Stderr = stderr
		t = &mcpsdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	type res struct {
		cs  *mcpsdk.ClientSession
		err error
	}
	done := make(chan res, 1)
	go func() {
		cs, err := client.Connect(cctx, t, nil)
		done <- res{cs, err}
	}()
	var r res
	select {
	case r = <-done:
	case <-cctx.Done():
		// A stdio child that never answers initialize: the SDK closes it
		// once its context ends; do not wait for that here.
		r.err = fmt.Errorf("no answer within %s", timeout)
		go func() {
			if late := <-done; late.cs != nil {
				_ = late.cs.Close()
			}
		}()
	}
	if r.err != nil {
		return fmt.Errorf("upstream %s: connect: %w", u.cfg.Name, r.err)
	}
	tools, err := listAll(cctx, r.cs)
	if err != nil {
		_ = r.cs.Close()
		return fmt.Errorf("upstream %s: tools/list: %w", u.cfg.Name, err)
	}
	u.mu.Lock()
	u.session, u.tools, u.down = r.cs, tools, nil
	u.mu.Unlock()
	return nil
}

func listAll(ctx context.Context, cs *mcpsdk.ClientSession) ([]*mcpsdk.Tool, error) {
	var out []*mcpsdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// refresh re-lists the tools after list_changed.
func (u *upstream) refresh(ctx context.Context) error {
	cs, err := u.state()
	if err != nil {
		return err
	}
	tools, err := listAll(ctx, cs)
	if err != nil {
		return err
	}
	u.mu.Lock()
	u.tools = tools
	u.mu.Unlock()
	return nil
}

func (u *upstream) close() {
	u.mu.Lock()
	cs := u.session
	u.session = nil
	u.mu.Unlock()
	if cs != nil {
		_ = cs.Close()
	}
}

type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
