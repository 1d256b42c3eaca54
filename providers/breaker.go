package providers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// ErrProviderDown is wrapped by every call a Breaker refuses.
var ErrProviderDown = errors.New("model provider is down")

// Breaker defaults.
const (
	DefaultBreakerThreshold = 3
	DefaultBreakerCooldown  = 30 * time.Second
)

// BreakerOptions tune a Breaker; zero values take the defaults.
type BreakerOptions struct {
	// Threshold is how many calls in a row must fail for the endpoint
	// to be taken as down.
	Threshold int
	// Cooldown is how long calls fail at once before one call is let
	// through to see whether the endpoint is back.
	Cooldown time.Duration
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// Breaker is a circuit breaker in front of one model endpoint. When the
// endpoint is down (refused or reset connections, no reply within the
// timeout, 5xx or 429 after the SDK's own retries, a rejected key) every call
// would pay the SDK's full retry schedule before failing: 600 documents took
// 13 minutes of failing calls. After Threshold such failures in a row the
// breaker opens: every call fails at once with one error naming the
// endpoint and the last cause, until Cooldown has passed and one probe call
// succeeds. A reply the server did send, however unusable (bad JSON, a
// refusal, the token limit), proves the endpoint is up and closes it.
//
// One Breaker is shared by every call to its endpoint (a batch, an MCP
// server's calls); it sits under the cache, so cache hits are still served
// while the endpoint is down.
type Breaker struct {
	endpoint  string
	threshold int
	cooldown  time.Duration
	now       func() time.Time

	mu        sync.Mutex
	fails     int       // failures in a row
	openUntil time.Time // zero while closed
	probing   bool      // a probe call is out
	lastErr   error
}

// NewBreaker returns a closed breaker for endpoint, a name for the errors
// ("openai at https://api.openai.com/v1"; see Config.Endpoint).
func NewBreaker(endpoint string, o BreakerOptions) *Breaker {
	b := &Breaker{endpoint: endpoint, threshold: o.Threshold, cooldown: o.Cooldown, now: o.Now}
	if b.threshold <= 0 {
		b.threshold = DefaultBreakerThreshold
	}
	if b.cooldown <= 0 {
		b.cooldown = DefaultBreakerCooldown
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Wrap returns next behind the breaker.
func (b *Breaker) Wrap(next llm.Client) llm.Client {
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		probe, err := b.admit()
		if err != nil {
			return llm.Response{}, err
		}
		resp, err := next.Complete(ctx, req)
		b.record(ctx, probe, err)
		return resp, err
	})
}

// admit lets a call through, or refuses it while the breaker is open. After
// the cooldown exactly one call (the probe) goes through; the others keep
// failing at once until it has answered.
func (b *Breaker) admit() (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openUntil.IsZero() {
		return false, nil
	}
	if now := b.now(); !now.Before(b.openUntil) && !b.probing {
		b.probing = true
		return true, nil
	}
	return false, b.refusal()
}

func (b *Breaker) refusal() error {
	wait := b.openUntil.Sub(b.now()).Round(time.Second)
	retry := fmt.Sprintf("the next try is in %s", wait)
	if wait <= 0 {
		retry = "a probe call is out"
	}
	return fmt.Errorf("%w: %s: %d calls in a row failed, the last with: %v; not calling it again for now (%s)",
		ErrProviderDown, b.endpoint, b.fails, b.lastErr, retry)
}

// record counts the outcome of a call that went through.
func (b *Breaker) record(ctx context.Context, probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
	switch {
	case err == nil || !endpointDown(ctx, err):
		if ctx.Err() != nil && err != nil {
			return // the caller gave up: says nothing about the endpoint
		}
		b.fails, b.openUntil, b.lastErr = 0, time.Time{}, nil
	default:
		b.fails++
		b.lastErr = err
		if probe || b.fails >= b.threshold {
			b.openUntil = b.now().Add(b.cooldown)
		}
	}
}

// State says whether the breaker is open, and why.
func (b *Breaker) State() (open bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openUntil.IsZero() {
		return false, nil
	}
	return true, b.refusal()
}

// endpointDown reports whether err says the endpoint itself is unusable
// rather than this one request: a transport failure, a timeout, a server
// error or rate limit the SDK's retries did not get past, or a rejected key.
func endpointDown(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	if status, ok := httpStatus(err); ok {
		return status >= 500 || status == http.StatusTooManyRequests ||
			status == http.StatusUnauthorized || status == http.StatusForbidden
	}
	var ne net.Error
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout(),
		errors.As(err, &op), errors.As(err, &dns),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	}
	// The SDKs wrap a dropped connection in errors that unwrap to nothing
	// typed; their text is the last resort.
	msg := err.Error()
	for _, s := range []string{"connection refused", "connection reset", "no such host", "EOF", "server closed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func httpStatus(err error) (int, bool) {
	var oe *openai.Error
	var ae *anthropic.Error
	switch {
	case errors.As(err, &oe):
		return oe.StatusCode, true
	case errors.As(err, &ae):
		return ae.StatusCode, true
	}
	return 0, false
}

// Endpoint names where provider's calls go, for errors and logs: the
// provider and its base URL without credentials.
func (c Config) Endpoint(provider string) string {
	var u string
	switch provider {
	case ProviderOpenAI:
		u = c.OpenAIBaseURL
		if u == "" {
			u = "https://api.openai.com/v1"
		}
	case ProviderAnthropic:
		u = c.AnthropicBaseURL
		if u == "" {
			u = "https://api.anthropic.com"
		}
	case ProviderBedrock:
		u = c.BedrockBaseURL
		if u == "" {
			u = "https://bedrock-mantle." + c.AWSRegion + ".api.aws/anthropic"
		}
	default:
		return provider
	}
	return provider + " at " + displayURL(u)
}
