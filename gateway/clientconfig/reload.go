package clientconfig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// ErrNoGateway is Reload's "nothing answered": not a failure of the edit,
// which is saved already.
var ErrNoGateway = errors.New("no HTTP gateway answered")

// ReloadURL is the admin endpoint of the HTTP gateway at base ("" for the
// gateway's own defaults from host and port, as REEFLEX_MCP_HOST/PORT give
// them). An unspecified bind address is reached on loopback.
func ReloadURL(base, host, port string) string {
	if base == "" {
		if host == "" {
			host = "127.0.0.1"
		}
		if port == "" {
			port = "8000"
		}
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			host = "127.0.0.1"
		}
		base = "http://" + net.JoinHostPort(host, port)
	}
	u := strings.TrimSuffix(base, "/")
	if !strings.HasSuffix(u, "/admin/reload") {
		u += "/admin/reload"
	}
	return u
}

// Reload asks a running HTTP gateway to re-read its registry (POST
// /admin/reload, bearer token when given, 5 s). It returns the gateway's
// answer, ErrNoGateway when nothing listens, or an error carrying the
// status the gateway refused it with.
func Reload(ctx context.Context, endpoint, token string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return "", fmt.Errorf("reload: %w", err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w at %s", ErrNoGateway, endpoint)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	text := strings.TrimSpace(string(body))
	switch resp.StatusCode {
	case http.StatusOK:
		return text, nil
	case http.StatusUnauthorized:
		return "", fmt.Errorf("the gateway at %s refused the reload: set REEFLEX_MCP_ADMIN_TOKEN to its admin token", endpoint)
	}
	return "", fmt.Errorf("the gateway at %s answered %s: %s", endpoint, resp.Status, text)
}
