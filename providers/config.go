package providers

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// Provider names accepted by REFLECT_PROVIDER and Config.NewClient.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderBedrock   = "bedrock"
	// ProviderLocal is the built-in rule-based extractor (package
	// providers/local): no model, so NewClient does not build it. A local
	// model server is ProviderOpenAI with OPENAI_BASE_URL.
	ProviderLocal = "local"
	// ProviderReplay answers from a recorded fixture; the caller builds it
	// with NewReplay, not NewClient.
	ProviderReplay = "replay"
)

// Config is the provider setup read from the environment (ConfigFromEnv) and
// optionally overridden by flags (RegisterFlags). It holds API keys: print it
// only through String or LogValue, which redact them.
type Config struct {
	Provider       string // REFLECT_PROVIDER
	GeneratorModel string // REFLECT_GENERATOR_MODEL
	CriticModel    string // REFLECT_CRITIC_MODEL
	CriticProvider string // REFLECT_CRITIC_PROVIDER; empty means Provider

	OpenAIAPIKey         string // OPENAI_API_KEY
	OpenAIBaseURL        string // OPENAI_BASE_URL
	OpenAIResponseFormat string // REFLECT_OPENAI_RESPONSE_FORMAT
	AnthropicAPIKey      string // ANTHROPIC_API_KEY
	AnthropicBaseURL     string // ANTHROPIC_BASE_URL
	BedrockAPIKey        string // AWS_BEARER_TOKEN_BEDROCK
	BedrockBaseURL       string // ANTHROPIC_BEDROCK_MANTLE_BASE_URL
	AWSRegion            string // AWS_REGION, else AWS_DEFAULT_REGION

	Timeout    time.Duration // REFLECT_TIMEOUT, in seconds; per attempt
	MaxRetries int           // REFLECT_MAX_RETRIES; 0 default, negative none
	PricesPath string        // REFLECT_PRICES: JSON price overrides

	// HTTPClient carries every call of the clients NewClient builds; nil
	// means a new NewHTTPClient(0) per client. Stack sets one per run.
	HTTPClient *http.Client

	invalid []string // malformed environment values, reported by Validate
}

// ConfigFromEnv reads the configuration through getenv (os.Getenv in
// production, a map in tests). When REFLECT_PROVIDER is unset the provider is
// the first of openai (a key or OPENAI_BASE_URL), anthropic, bedrock whose key
// is present, else local.
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c := Config{
		Provider:             strings.ToLower(get("REFLECT_PROVIDER")),
		GeneratorModel:       get("REFLECT_GENERATOR_MODEL"),
		CriticModel:          get("REFLECT_CRITIC_MODEL"),
		CriticProvider:       strings.ToLower(get("REFLECT_CRITIC_PROVIDER")),
		OpenAIAPIKey:         get("OPENAI_API_KEY"),
		OpenAIBaseURL:        get("OPENAI_BASE_URL"),
		OpenAIResponseFormat: strings.ToLower(get("REFLECT_OPENAI_RESPONSE_FORMAT")),
		AnthropicAPIKey:      get("ANTHROPIC_API_KEY"),
		AnthropicBaseURL:     get("ANTHROPIC_BASE_URL"),
		BedrockAPIKey:        get("AWS_BEARER_TOKEN_BEDROCK"),
		BedrockBaseURL:       get("ANTHROPIC_BEDROCK_MANTLE_BASE_URL"),
		AWSRegion:            get("AWS_REGION"),
		PricesPath:           get("REFLECT_PRICES"),
	}
	if c.AWSRegion == "" {
		c.AWSRegion = get("AWS_DEFAULT_REGION")
	}
	if c.Provider == "" {
		switch {
		case c.OpenAIAPIKey != "" || c.OpenAIBaseURL != "":
			c.Provider = ProviderOpenAI
		case c.AnthropicAPIKey != "":
			c.Provider = ProviderAnthropic
		case c.BedrockAPIKey != "":
			c.Provider = ProviderBedrock
		default:
			// No key anywhere: the keyless rule-based extractor, so reflect
			// works on a fresh machine.
			c.Provider = ProviderLocal
		}
	}
	if v := get("REFLECT_TIMEOUT"); v != "" {
		if d, err := parseSeconds(v); err != nil {
			c.invalid = append(c.invalid, fmt.Sprintf("REFLECT_TIMEOUT=%q: %v", v, err))
		} else {
			c.Timeout = d
		}
	}
	if v := get("REFLECT_MAX_RETRIES"); v != "" {
		if n, err := strconv.Atoi(v); err != nil {
			c.invalid = append(c.invalid, fmt.Sprintf("REFLECT_MAX_RETRIES=%q: not an integer", v))
		} else {
			c.MaxRetries = n
		}
	}
	return c
}

// parseSeconds reads "30", "2.5" (seconds) or a Go duration ("90s", "2m"),
// either way at most an hour.
func parseSeconds(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if f, ferr := strconv.ParseFloat(v, 64); ferr == nil {
		if !(f > 0 && f <= 3600) {
			return 0, errors.New("want seconds in (0, 3600]")
		}
		d, err = time.Duration(f*float64(time.Second)), nil
	}
	if err != nil {
		return 0, errors.New("want a number of seconds")
	}
	if d <= 0 || d > time.Hour {
		return 0, errors.New("want seconds in (0, 3600]")
	}
	return d, nil
}

// RegisterFlags binds command-line flags that override the environment.
// Keys have no flags: a key on a command line is visible to every user of
// the machine through the process list.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Provider, "provider", c.Provider, "model provider: openai, anthropic, bedrock, local or replay (env REFLECT_PROVIDER)")
	fs.StringVar(&c.GeneratorModel, "generator-model", c.GeneratorModel, "Generator model (env REFLECT_GENERATOR_MODEL)")
	fs.StringVar(&c.CriticModel, "critic-model", c.CriticModel, "Critic model (env REFLECT_CRITIC_MODEL)")
	fs.StringVar(&c.CriticProvider, "critic-provider", c.CriticProvider, "Critic provider, default the Generator's (env REFLECT_CRITIC_PROVIDER)")
	fs.StringVar(&c.OpenAIBaseURL, "openai-base-url", c.OpenAIBaseURL, "OpenAI-compatible server URL (env OPENAI_BASE_URL)")
	fs.StringVar(&c.OpenAIResponseFormat, "openai-response-format", c.OpenAIResponseFormat, "json_schema, json_object or none (env REFLECT_OPENAI_RESPONSE_FORMAT)")
	fs.Func("timeout", "per-call model timeout in seconds (env REFLECT_TIMEOUT)", func(v string) error {
		d, err := parseSeconds(v)
		if err == nil {
			c.Timeout = d
		}
		return err
	})
	fs.IntVar(&c.MaxRetries, "max-retries", c.MaxRetries, "retries of a failed model call; 0 default, -1 none (env REFLECT_MAX_RETRIES)")
	fs.StringVar(&c.PricesPath, "prices", c.PricesPath, "JSON file of model prices overriding the built-in table (env REFLECT_PRICES)")
}

// DefaultModels returns the Generator and Critic models used for provider when
// none is configured. The Critic is a different, smaller model on purpose: a
// model checking its own output tends to agree with it.
func DefaultModels(provider string) (generator, critic string) {
	switch provider {
	case ProviderOpenAI:
		return "gpt-4o-mini", "gpt-4.1-mini"
	case ProviderAnthropic, ProviderBedrock:
		return "claude-sonnet-4-5", "claude-haiku-4-5"
	}
	return "", ""
}

// Generator returns the Generator's provider and model.
func (c Config) Generator() (provider, model string) {
	model = c.GeneratorModel
	if model == "" {
		model, _ = DefaultModels(c.Provider)
	}
	return c.Provider, model
}

// Critic returns the Critic's provider and model.
func (c Config) Critic() (provider, model string) {
	provider = c.CriticProvider
	if provider == "" {
		provider = c.Provider
	}
	model = c.CriticModel
	if model == "" {
		_, model = DefaultModels(provider)
	}
	return provider, model
}

// Validate reports malformed settings: unknown providers or response format,
// unparseable numbers, and a missing model for a provider without defaults.
func (c Config) Validate() error {
	problems := append([]string(nil), c.invalid...)
	for _, p := range []struct{ name, value string }{{"REFLECT_PROVIDER", c.Provider}, {"REFLECT_CRITIC_PROVIDER", c.CriticProvider}} {
		switch p.value {
		case "", ProviderOpenAI, ProviderAnthropic, ProviderBedrock, ProviderLocal, ProviderReplay:
		default:
			problems = append(problems, fmt.Sprintf("%s=%q: want openai, anthropic, bedrock, local or replay", p.name, p.value))
		}
	}
	switch c.OpenAIResponseFormat {
	case "", FormatJSONSchema, FormatJSONObject, FormatNone:
	default:
		problems = append(problems, fmt.Sprintf("REFLECT_OPENAI_RESPONSE_FORMAT=%q: want json_schema, json_object or none", c.OpenAIResponseFormat))
	}
	if p, m := c.Generator(); m == "" && needsModel(p) {
		problems = append(problems, fmt.Sprintf("REFLECT_GENERATOR_MODEL is not set (provider %s has no default model)", p))
	}
	if p, m := c.Critic(); m == "" && needsModel(p) {
		problems = append(problems, fmt.Sprintf("REFLECT_CRITIC_MODEL is not set (provider %s has no default model)", p))
	}
	if len(problems) > 0 {
		return fmt.Errorf("provider config: %s", strings.Join(problems, "; "))
	}
	return nil
}

func needsModel(provider string) bool {
	return provider != ProviderReplay && provider != ProviderLocal
}

// NewClient builds the live client for provider (openai, anthropic or
// bedrock). A missing key is an error naming the variable to set.
func (c Config) NewClient(provider string) (llm.Client, error) {
	prices := DefaultPrices()
	if c.PricesPath != "" {
		p, err := LoadPrices(c.PricesPath)
		if err != nil {
			return nil, err
		}
		prices = p
	}
	switch provider {
	case ProviderOpenAI:
		// A key-less call to api.openai.com can only fail; a custom server
		// (a local model) commonly needs no key at all.
		if c.OpenAIAPIKey == "" && c.OpenAIBaseURL == "" {
			return nil, errors.New("provider openai: OPENAI_API_KEY is not set")
		}
		return NewOpenAI(OpenAIConfig{
			APIKey:            c.OpenAIAPIKey,
			BaseURL:           c.OpenAIBaseURL,
			Timeout:           c.Timeout,
			MaxRetries:        c.MaxRetries,
			StructuredOutputs: c.OpenAIResponseFormat,
			Prices:            prices,
			HTTPClient:        c.HTTPClient,
		})
	case ProviderAnthropic:
		if c.AnthropicAPIKey == "" {
			return nil, errors.New("provider anthropic: ANTHROPIC_API_KEY is not set")
		}
		return NewAnthropic(AnthropicConfig{
			APIKey:     c.AnthropicAPIKey,
			BaseURL:    c.AnthropicBaseURL,
			Timeout:    c.Timeout,
			MaxRetries: c.MaxRetries,
			Prices:     prices,
			HTTPClient: c.HTTPClient,
		})
	case ProviderBedrock:
		return NewBedrock(BedrockConfig{
			APIKey:     c.BedrockAPIKey,
			Region:     c.AWSRegion,
			BaseURL:    c.BedrockBaseURL,
			Timeout:    c.Timeout,
			MaxRetries: c.MaxRetries,
			Prices:     prices,
			HTTPClient: c.HTTPClient,
		})
	case ProviderReplay:
		return nil, errors.New("provider replay: replay answers from a fixture file; build it with providers.NewReplay")
	case ProviderLocal:
		return nil, errors.New("provider local: the rule-based extractor calls no model; build it with providers/local.New (for a local model server use provider openai with OPENAI_BASE_URL)")
	case "":
		return nil, errors.New("no provider given (set REFLECT_PROVIDER)")
	}
	return nil, fmt.Errorf("unknown provider %q: want openai, anthropic or bedrock", provider)
}

// String describes the configuration with every key redacted.
func (c Config) String() string {
	gp, gm := c.Generator()
	cp, cm := c.Critic()
	var b strings.Builder
	fmt.Fprintf(&b, "generator=%s/%s critic=%s/%s", gp, gm, cp, cm)
	fmt.Fprintf(&b, " openai_key=%s anthropic_key=%s bedrock_key=%s", secretState(c.OpenAIAPIKey), secretState(c.AnthropicAPIKey), secretState(c.BedrockAPIKey))
	for _, kv := range [][2]string{{"openai_base_url", displayURL(c.OpenAIBaseURL)}, {"anthropic_base_url", displayURL(c.AnthropicBaseURL)}, {"bedrock_base_url", displayURL(c.BedrockBaseURL)}, {"openai_response_format", c.OpenAIResponseFormat}, {"aws_region", c.AWSRegion}, {"prices", c.PricesPath}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	if c.Timeout > 0 {
		fmt.Fprintf(&b, " timeout=%s", c.Timeout)
	}
	return b.String()
}

// GoString keeps %#v from printing the keys.
func (c Config) GoString() string { return "providers.Config{" + c.String() + "}" }

// LogValue makes slog print the redacted form.
func (c Config) LogValue() slog.Value {
	gp, gm := c.Generator()
	cp, cm := c.Critic()
	return slog.GroupValue(
		slog.String("generator", gp+"/"+gm),
		slog.String("critic", cp+"/"+cm),
		slog.String("openai_key", secretState(c.OpenAIAPIKey)),
		slog.String("anthropic_key", secretState(c.AnthropicAPIKey)),
		slog.String("bedrock_key", secretState(c.BedrockAPIKey)),
		slog.String("openai_base_url", displayURL(c.OpenAIBaseURL)),
		slog.String("anthropic_base_url", displayURL(c.AnthropicBaseURL)),
		slog.String("bedrock_base_url", displayURL(c.BedrockBaseURL)),
		slog.Duration("timeout", c.Timeout),
	)
}

func secretState(s string) string {
	if s == "" {
		return "unset"
	}
	return "set"
}

// safeError carries a message built without secrets while keeping the
// underlying SDK error reachable through errors.Is/As.
type safeError struct {
	msg string
	err error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }

// vendorError turns an SDK failure into a short message naming the vendor,
// model and cause, with the secrets scrubbed should a server echo them back.
func vendorError(ctx context.Context, vendor, model string, scrub scrubber, err error) error {
	var (
		oe  *openai.Error
		ae  *anthropic.Error
		msg string
	)
	switch {
	case ctx.Err() != nil:
		msg = fmt.Sprintf("%s %s: call abandoned: %v", vendor, model, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("%s %s: no reply within the per-call timeout (REFLECT_TIMEOUT)", vendor, model)
	case errors.As(err, &oe):
		msg = httpFailure(vendor, model, oe.StatusCode, oe.Message, oe.Response)
	case errors.As(err, &ae):
		msg = httpFailure(vendor, model, ae.StatusCode, ae.Message, ae.Response)
	default:
		msg = fmt.Sprintf("%s %s: %v", vendor, model, err)
	}
	return &safeError{msg: scrub(msg), err: err}
}

func httpFailure(vendor, model string, status int, detail string, res *http.Response) string {
	msg := strings.TrimSpace(fmt.Sprintf("%s %s: HTTP %d %s", vendor, model, status, http.StatusText(status)))
	var wait time.Duration
	waitKnown := false
	if res != nil {
		wait, waitKnown = retryAfter(res.Header)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		msg += " (check the API key)"
	case waitKnown && wait > time.Second && (status == http.StatusTooManyRequests || status >= 500):
		msg += fmt.Sprintf(" (server asks to retry after %s, longer than the client waits)", wait.Round(time.Second))
	case status == http.StatusTooManyRequests || status >= 500:
		msg += " (retries exhausted)"
	}
	if detail = strings.TrimSpace(detail); detail != "" {
		msg += ": " + truncate(detail, 300)
	}
	return msg
}

// scrubber removes a client's secrets from a message. It is a function rather
// than a stored key so that printing a client (%+v, slog.Any) shows nothing
// secret: fmt prints a func field as an address.
type scrubber func(string) string

// newScrubber hides key. A key under 8 bytes is left alone: it is not a
// real secret and replacing it would mangle ordinary words. (Credentials in a
// base URL need no scrubbing here: Go's HTTP client masks the password in
// its errors, and the SDKs drop the query string.)
func newScrubber(key string) scrubber {
	return func(s string) string {
		if len(key) < 8 {
			return s
		}
		return strings.ReplaceAll(s, key, "[redacted]")
	}
}

// displayURL is a base URL fit for logs: scheme, host and path, without the
// user info and query that may carry a credential.
func displayURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "[unparseable URL]"
	}
	if u.User == nil && u.RawQuery == "" && u.Fragment == "" {
		return raw
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String() + " (credentials hidden)"
}

// RunCritic is the provider the Critic of a run calls, or "" when no Critic
// runs: heuristicsOnly asked for none, or the Generator is the keyless local
// extractor and no Critic provider was named. The local extractor cannot be
// a Critic.
func (c Config) RunCritic(heuristicsOnly bool) (string, error) {
	critic := c.CriticProvider
	if critic == "" && c.Provider != ProviderLocal {
		critic = c.Provider
	}
	if heuristicsOnly || critic == "" {
		return "", nil
	}
	if critic == ProviderLocal {
		return "", errors.New("the local provider has no Critic: name a model provider with --critic-provider, or use --heuristics-only")
	}
	return critic, nil
}

// Live reports whether provider answers from a model service (and so costs
// money and is worth caching), rather than from rules or a fixture.
func Live(provider string) bool {
	return provider != ProviderLocal && provider != ProviderReplay
}

// Stack builds the model clients of one run, every one layered the same way:
// the live client inside the run's budget, inside the call cache (a cache hit
// costs nothing, so it is served even after the run's money is spent), with
// the recorder tapping whatever answers. The pipelines of one run share one
// Stack: one cache handle (two handles on one file in one process would
// contend for its flock), one budget (it bounds the run, not each pipeline),
// one recorder and one replay fixture.
type Stack struct {
	Config   Config
	Budget   *Budget   // nil: no budget
	Cache    *Cache    // nil: calls are not cached
	Recorder *Recorder // nil: replies are not recorded
	// Fixture loads the replay fixture the first time ProviderReplay is
	// asked for.
	Fixture func() (*Fixture, error)
	// Concurrency is how many calls the run makes at once (a batch's
	// workers); it sizes the connection pool the run's clients share. 0
	// means MinIdleConnsPerHost.
	Concurrency int

	replay   *Replay
	breakers map[string]*Breaker // one per provider, shared by the run's clients
}

// breaker is provider's breaker for the run: every pipeline of a batch or an
// MCP server sees the same endpoint state.
func (s *Stack) breaker(provider string) *Breaker {
	if s.breakers == nil {
		s.breakers = map[string]*Breaker{}
	}
	b := s.breakers[provider]
	if b == nil {
		b = NewBreaker(s.Config.Endpoint(provider), BreakerOptions{})
		s.breakers[provider] = b
	}
	return b
}

// Client returns the client for provider with the run's layers around it.
func (s *Stack) Client(provider string) (llm.Client, error) {
	var c llm.Client
	if provider == ProviderReplay {
		if s.replay == nil {
			if s.Fixture == nil {
				return nil, errors.New("replay provider: no fixture")
			}
			f, err := s.Fixture()
			if err != nil {
				return nil, err
			}
			s.replay = NewReplay(f)
		}
		c = s.replay
	} else {
		if s.Config.HTTPClient == nil {
			// One pool for the run: generator and critic calls to one host
			// reuse each other's connections.
			s.Config.HTTPClient = NewHTTPClient(s.Concurrency)
		}
		live, err := s.Config.NewClient(provider)
		if err != nil {
			return nil, err
		}
		c = s.Budget.Wrap(s.breaker(provider).Wrap(live))
		if s.Cache != nil {
			c = s.Cache.Wrap(provider, c)
		}
	}
	if s.Recorder != nil {
		c = s.Recorder.Tap(c)
	}
	return c, nil
}
