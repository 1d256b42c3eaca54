package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// Structured-output modes of the OpenAI client.
const (
	// FormatJSONSchema sends response_format json_schema with strict:true, so the
	// server constrains decoding to the schema. Needs a model that supports it.
	FormatJSONSchema = "json_schema"
	// FormatJSONObject asks only for some JSON object; for servers (older or
	// OpenAI-compatible ones) that lack json_schema.
	FormatJSONObject = "json_object"
	// FormatNone sends no response_format: the prompt alone asks for JSON.
	FormatNone = "none"
)

// Defaults shared by the vendor clients.
const (
	DefaultTimeout    = 60 * time.Second
	DefaultMaxRetries = 2
	// DefaultMaxRetryDelay is the longest Retry-After a client waits out; a
	// server asking for longer gets its 429 reported instead, since a batch
	// run sleeping for minutes on one call looks like a hang.
	DefaultMaxRetryDelay = 30 * time.Second
	defaultMaxTokens     = 4096
)

// OpenAIConfig configures NewOpenAI.
type OpenAIConfig struct {
	APIKey string
	// BaseURL points the client at any OpenAI-compatible server
	// ("http://localhost:8080/v1"); empty means api.openai.com.
	BaseURL string
	// Timeout bounds each attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times the SDK retries a connection error, 408,
	// 409, 429 or 5xx; 0 means DefaultMaxRetries and a negative value none.
	MaxRetries int
	// MaxRetryDelay caps both the SDK's backoff and the Retry-After it will
	// honour; 0 means DefaultMaxRetryDelay.
	MaxRetryDelay time.Duration
	// StructuredOutputs is FormatJSONSchema (default), FormatJSONObject or
	// FormatNone.
	StructuredOutputs string
	// Prices fills Usage.CostUSD; nil means DefaultPrices.
	Prices Prices
	// HTTPClient carries the calls; nil means NewHTTPClient(0). A run passes
	// one to all its clients so they share one connection pool.
	HTTPClient *http.Client
}

// OpenAI is a Client for the Chat Completions API.
type OpenAI struct {
	client openai.Client
	format string
	prices Prices
	scrub  scrubber
	// schemas spares each call decoding its JSON schema into a map and
	// encoding it again (a fifth of a call's CPU).
	schemas *encodedSchemas
	replies *replyBuffers
}

// NewOpenAI builds an OpenAI Chat Completions client. The SDK does the
// retrying: it honours Retry-After-Ms and Retry-After (seconds or HTTP date)
// on 429/5xx up to MaxRetryDelay, and otherwise backs off exponentially from
// 0.5s with jitter.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	format := cfg.StructuredOutputs
	if format == "" {
		format = FormatJSONSchema
	}
	switch format {
	case FormatJSONSchema, FormatJSONObject, FormatNone:
	default:
		return nil, fmt.Errorf("openai: unknown structured output mode %q (want %s, %s or %s)", format, FormatJSONSchema, FormatJSONObject, FormatNone)
	}
	key := cfg.APIKey
	if key == "" {
		if cfg.BaseURL == "" {
			return nil, errors.New("openai: API key is empty")
		}
		// Local OpenAI-compatible servers usually ignore auth, but the SDK
		// would otherwise fall back to OPENAI_API_KEY from the environment and
		// send a real key to a server that did not ask for it.
		key = "not-needed"
	}
	opts := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithRequestTimeout(orDefault(cfg.Timeout, DefaultTimeout)),
		option.WithMaxRetries(retries(cfg.MaxRetries)),
		option.WithMaxRetryDelay(orDefault(cfg.MaxRetryDelay, DefaultMaxRetryDelay)),
		option.WithHTTPClient(httpClient(cfg.HTTPClient)),
		option.WithMiddleware(inMemoryBody),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	prices := cfg.Prices
	if prices == nil {
		prices = DefaultPrices()
	}
	return &OpenAI{client: openai.NewClient(opts...), format: format, prices: prices, scrub: newScrubber(cfg.APIKey), schemas: &encodedSchemas{}, replies: &replyBuffers{}}, nil
}

// inMemoryBody gives net/http each attempt's body as the in-memory reader
// it is (the SDK's GetBody: the same bytes, from the start). The SDK wraps
// the body in a closer of its own, which net/http cannot see through, so it
// flushed the request's headers in a write (a TCP segment, for a real
// vendor a TLS record) of their own before the body: two writes a call
// instead of one (net/http's isKnownInMemoryReader, golang/go#22088).
// Retries, timeouts and closing are the SDK's as before; the bytes on the
// wire are the same.
func inMemoryBody(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	if req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		if body, err := req.GetBody(); err == nil {
			req.Body = body
		}
	}
	return next(req)
}

// Complete sends one chat completion and returns the first choice's content.
// An error after the server answered comes with the Response's Model and
// Usage filled in, since that call was paid for.
//
// The SDK sends the call (auth, base URL, timeouts, retries, HTTP errors),
// but the body is encoded here and the reply decoded into the few fields
// read: building the SDK's params and marshalling them by reflection, then
// decoding the whole ChatCompletion, cost more CPU than the rest of a call
// (TestOpenAIBodyIsTheSDKEncoding holds the body to the SDK's bytes).
func (c *OpenAI) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	body, err := c.body(req)
	if err != nil {
		return llm.Response{}, err
	}
	var res *http.Response
	start := time.Now()
	err = c.client.Post(ctx, "chat/completions", body, &res)
	if err != nil {
		return llm.Response{}, vendorError(ctx, "openai", req.Model, c.scrub, err)
	}
	buf := c.replies.get()
	defer c.replies.put(buf)
	raw, err := readReply(buf, res)
	latency := time.Since(start)
	if err != nil {
		return llm.Response{}, vendorError(ctx, "openai", req.Model, c.scrub, err)
	}
	comp, err := decodeCompletion(raw)
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			err = fmt.Errorf("reply is not a chat completion (is the server OpenAI-compatible?): %s is a JSON %s: %w", te.Field, te.Value, err)
		} else {
			err = fmt.Errorf("error parsing response json: %w", err)
		}
		return llm.Response{}, vendorError(ctx, "openai", req.Model, c.scrub, err)
	}
	model := comp.Model
	if model == "" {
		model = req.Model
	}
	usage := llm.Usage{
		InputTokens:  int(comp.Usage.PromptTokens),
		OutputTokens: int(comp.Usage.CompletionTokens),
		Latency:      latency,
	}
	usage.CostUSD, _ = c.prices.Cost(model, usage.InputTokens, usage.OutputTokens)
	// From here on the server answered and billed the call, so a failure
	// still carries its usage: a budget must count what an unusable reply cost.
	billed := llm.Response{Model: model, Usage: usage}
	if len(comp.Choices) == 0 {
		return billed, fmt.Errorf("openai %s: reply has no choices (is the server OpenAI-compatible?)", req.Model)
	}
	choice := comp.Choices[0]
	if r := strings.TrimSpace(choice.Message.Refusal); r != "" {
		return billed, fmt.Errorf("openai %s: %w: %s", req.Model, llm.ErrRefused, truncate(r, 200))
	}
	switch choice.FinishReason {
	case "length":
		return billed, fmt.Errorf("openai %s: reply cut off at the token limit (max_tokens %d, %d output tokens): raise max tokens", req.Model, maxTokens(req), usage.OutputTokens)
	case "content_filter":
		return billed, fmt.Errorf("openai %s: %w: reply withheld by the content filter", req.Model, llm.ErrRefused)
	}
	if strings.TrimSpace(choice.Message.Content) == "" {
		return billed, fmt.Errorf("openai %s: reply is empty (finish_reason %q)", req.Model, choice.FinishReason)
	}
	billed.Text = choice.Message.Content
	return billed, nil
}

// replyBuffers hold replies while they are decoded: the SDK would read
// each into a slice grown from 512 bytes, a few allocations a call, and
// parse its Content-Type, which Complete never looked at (a reply is
// decoded as JSON whatever it says it is). Decoding copies out what it
// keeps, so a buffer is free again once the reply is decoded. The pool is
// the client's, not the package's: no state outlives a client.
type replyBuffers struct{ pool sync.Pool }

func (r *replyBuffers) get() *bytes.Buffer {
	if b, ok := r.pool.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// maxPooledReply bounds the buffers kept: one huge reply must not hold its
// memory for the rest of the run.
const maxPooledReply = 256 << 10

func (r *replyBuffers) put(b *bytes.Buffer) {
	if b.Cap() <= maxPooledReply {
		b.Reset()
		r.pool.Put(b)
	}
}

// readReply reads the body of a successful reply (Post was given a
// **http.Response, so the body is the caller's to read and close; closing
// it ends the call's timeout) into buf and returns its bytes.
func readReply(buf *bytes.Buffer, res *http.Response) ([]byte, error) {
	defer res.Body.Close()
	if res.ContentLength > 0 && res.ContentLength <= maxPooledReply {
		buf.Grow(int(res.ContentLength) + bytes.MinRead) // ReadFrom wants MinRead free for each read, the last (EOF) too
	}
	if _, err := buf.ReadFrom(res.Body); err != nil {
		return nil, fmt.Errorf("error reading response body: %w", err)
	}
	return buf.Bytes(), nil
}

// body is the request's JSON as the SDK encodes ChatCompletionNewParams
// (same keys in the same order, strings escaped as encoding/json does),
// with the schema encoded once per schema.
func (c *OpenAI) body(req llm.Request) ([]byte, error) {
	n := 256 + len(req.Model) + len(req.SchemaName)
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Content)/16 + 32
	}
	var schema []byte
	if len(req.JSONSchema) > 0 && c.format == FormatJSONSchema {
		var err error
		if schema, err = c.schemas.get(req.JSONSchema); err != nil {
			return nil, fmt.Errorf("openai: request JSON schema: %w", err)
		}
		n += len(schema)
	}
	b := make([]byte, 0, n)
	b = append(b, `{"messages":[`...)
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "user", "assistant":
		default:
			return nil, fmt.Errorf("openai: message role %q is not system, user or assistant", m.Role)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"content":`...)
		b = appendJSONString(b, m.Content)
		b = append(b, `,"role":"`...)
		b = append(b, m.Role...)
		b = append(b, `"}`...)
	}
	b = append(b, `],"model":`...)
	b = appendJSONString(b, req.Model)
	b = append(b, `,"max_completion_tokens":`...)
	// max_completion_tokens is the current name; OpenAI rejects max_tokens
	// for reasoning models while compatible servers accept both.
	b = strconv.AppendInt(b, int64(maxTokens(req)), 10)
	if len(req.JSONSchema) > 0 {
		switch c.format {
		case FormatJSONSchema:
			b = append(b, `,"response_format":{"json_schema":{"name":`...)
			b = appendJSONString(b, schemaName(req.SchemaName))
			b = append(b, `,"strict":true,"schema":`...)
			b = append(b, schema...)
			b = append(b, `},"type":"json_schema"}`...)
		case FormatJSONObject:
			b = append(b, `,"response_format":{"type":"json_object"}`...)
		}
	}
	return append(b, '}'), nil
}

// schemaName makes a name OpenAI accepts (^[a-zA-Z0-9_-]{1,64}$).
func schemaName(name string) string {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name) && len(b) < 64; i++ {
		ch := name[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '_', ch == '-':
			b = append(b, ch)
		default:
			b = append(b, '_')
		}
	}
	if len(b) == 0 {
		return "record"
	}
	return string(b)
}

func maxTokens(req llm.Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return defaultMaxTokens
}

func httpClient(c *http.Client) *http.Client {
	if c == nil {
		return NewHTTPClient(0)
	}
	return c
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func retries(n int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return DefaultMaxRetries
	}
	return n
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// encodedSchemas remembers the encoding of the few schemas a run sends,
// as the SDK would encode the schema decoded into a map (keys sorted,
// HTML-escaped; a JSON null stays null). Bounded: a caller sending ever new
// schemas only empties it now and then.
type encodedSchemas struct {
	mu sync.Mutex
	m  map[string][]byte
}

const encodedSchemasMax = 64

// get returns raw's encoding, once per schema.
func (s *encodedSchemas) get(raw []byte) ([]byte, error) {
	s.mu.Lock()
	e, found := s.m[string(raw)]
	s.mu.Unlock()
	if found {
		return e, nil
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	e, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.m == nil || len(s.m) >= encodedSchemasMax {
		s.m = map[string][]byte{}
	}
	s.m[string(raw)] = e
	s.mu.Unlock()
	return e, nil
}
