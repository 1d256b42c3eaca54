package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// AnthropicConfig configures NewAnthropic.
type AnthropicConfig struct {
	APIKey string
	// BaseURL overrides https://api.anthropic.com (a proxy, a test server).
	BaseURL string
	// Timeout bounds each attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times the SDK retries a connection error, a
	// timed-out attempt, 408, 409, 429 or 5xx; 0 means DefaultMaxRetries and a
	// negative value none.
	MaxRetries int
	// MaxRetryDelay is the longest Retry-After honoured; 0 means
	// DefaultMaxRetryDelay.
	MaxRetryDelay time.Duration
	// Prices fills Usage.CostUSD; nil means DefaultPrices.
	Prices Prices
	// HTTPClient carries the calls; nil means NewHTTPClient(0).
	HTTPClient *http.Client
}

// Anthropic is a Client for the Messages API.
//
// Structured output is a forced tool call: when a Request carries a JSON
// schema, the call declares one tool whose input_schema is that schema and
// sets tool_choice to it, so the model must answer with a tool_use block whose
// input the API has already parsed as a JSON object. Response.Text is that
// input. This works on every Claude model and on Bedrock, unlike output_config
// JSON formats, which only newer models accept, and it leaves no prose or code
// fences around the JSON for the caller to strip.
type Anthropic struct {
	client anthropic.Client
	prices Prices
	scrub  scrubber
	vendor string
}

// NewAnthropic builds a Messages API client. The SDK does the retrying and
// honours Retry-After-Ms / Retry-After; a middleware declines retries the
// server asks to delay beyond MaxRetryDelay (the SDK itself has no cap).
func NewAnthropic(cfg AnthropicConfig) (*Anthropic, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("anthropic: API key is empty")
	}
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return newAnthropic("anthropic", cfg, newScrubber(cfg.APIKey), opts), nil
}

func newAnthropic(vendor string, cfg AnthropicConfig, scrub scrubber, auth []option.RequestOption) *Anthropic {
	opts := slices.Concat(auth, []option.RequestOption{
		option.WithRequestTimeout(orDefault(cfg.Timeout, DefaultTimeout)),
		option.WithMaxRetries(retries(cfg.MaxRetries)),
		option.WithMiddleware(capRetryAfter(orDefault(cfg.MaxRetryDelay, DefaultMaxRetryDelay))),
		option.WithHTTPClient(httpClient(cfg.HTTPClient)),
	})
	prices := cfg.Prices
	if prices == nil {
		prices = DefaultPrices()
	}
	return &Anthropic{client: anthropic.NewClient(opts...), prices: prices, scrub: scrub, vendor: vendor}
}

// capRetryAfter marks a retryable response whose Retry-After exceeds limit as
// not retryable, so the caller sees the 429 now rather than after a sleep of
// the server's choosing.
func capRetryAfter(limit time.Duration) option.Middleware {
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(r)
		if err != nil || res == nil {
			return res, err
		}
		if d, ok := retryAfter(res.Header); ok && d > limit {
			res.Header.Set("x-should-retry", "false")
		}
		return res, nil
	}
}

func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t), true
	}
	return 0, false
}

// Complete sends one Messages request. As with OpenAI, an error after the
// server answered carries the call's Model and Usage.
func (c *Anthropic) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	params, tool, err := anthropicParams(req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("%s: %w", c.vendor, err)
	}
	start := time.Now()
	msg, err := c.client.Messages.New(ctx, params)
	latency := time.Since(start)
	if err != nil {
		return llm.Response{}, vendorError(ctx, c.vendor, req.Model, c.scrub, err)
	}
	model := string(msg.Model)
	if model == "" {
		model = req.Model
	}
	usage := llm.Usage{
		InputTokens:  int(msg.Usage.InputTokens + msg.Usage.CacheCreationInputTokens + msg.Usage.CacheReadInputTokens),
		OutputTokens: int(msg.Usage.OutputTokens),
		Latency:      latency,
	}
	usage.CostUSD, _ = c.prices.Cost(model, usage.InputTokens, usage.OutputTokens)
	// The call was billed: failures from here on carry its usage.
	billed := llm.Response{Model: model, Usage: usage}
	switch msg.StopReason {
	case anthropic.StopReasonRefusal:
		return billed, fmt.Errorf("%s %s: %w", c.vendor, req.Model, llm.ErrRefused)
	case anthropic.StopReasonMaxTokens:
		return billed, fmt.Errorf("%s %s: reply cut off at max_tokens %d: raise max tokens", c.vendor, req.Model, maxTokens(req))
	case anthropic.StopReasonModelContextWindowExceeded:
		return billed, fmt.Errorf("%s %s: document too long for the model's context window", c.vendor, req.Model)
	}
	var text strings.Builder
	for _, block := range msg.Content {
		switch block.Type {
		case "tool_use":
			if tool != "" && block.Name == tool {
				if len(block.Input) == 0 || !json.Valid(block.Input) {
					return billed, fmt.Errorf("%s %s: tool_use block has no valid JSON input", c.vendor, req.Model)
				}
				billed.Text = string(block.Input)
				return billed, nil
			}
		case "text":
			text.WriteString(block.Text)
		}
	}
	if tool != "" {
		return billed, fmt.Errorf("%s %s: reply has no %s tool call (stop_reason %q, %d content blocks)", c.vendor, req.Model, tool, msg.StopReason, len(msg.Content))
	}
	if strings.TrimSpace(text.String()) == "" {
		return billed, fmt.Errorf("%s %s: reply has no text (stop_reason %q)", c.vendor, req.Model, msg.StopReason)
	}
	billed.Text = text.String()
	return billed, nil
}

// anthropicParams maps a Request; tool is the forced tool's name, or "" when
// the request has no schema.
func anthropicParams(req llm.Request) (anthropic.MessageNewParams, string, error) {
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(maxTokens(req)),
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			p.System = append(p.System, anthropic.TextBlockParam{Text: m.Content})
		case "user":
			p.Messages = append(p.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Content)))
		case "assistant":
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Content)))
		default:
			return p, "", fmt.Errorf("message role %q is not system, user or assistant", m.Role)
		}
	}
	if len(p.Messages) == 0 {
		return p, "", errors.New("request has no user message")
	}
	if len(req.JSONSchema) == 0 {
		return p, "", nil
	}
	var schema map[string]any
	if err := json.Unmarshal(req.JSONSchema, &schema); err != nil {
		return p, "", fmt.Errorf("request JSON schema: %w", err)
	}
	if t, _ := schema["type"].(string); t != "" && t != "object" {
		return p, "", fmt.Errorf("request JSON schema has type %q; a tool input must be an object", t)
	}
	input := anthropic.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
	for k, v := range schema {
		switch k {
		case "type", "properties":
		case "required":
			for _, r := range asSlice(v) {
				if s, ok := r.(string); ok {
					input.Required = append(input.Required, s)
				}
			}
		default:
			input.ExtraFields[k] = v
		}
	}
	tool := schemaName(req.SchemaName)
	p.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
		Name:        tool,
		Description: anthropic.String("Record the result. Call this exactly once with the complete answer."),
		InputSchema: input,
	}}}
	p.ToolChoice = anthropic.ToolChoiceParamOfTool(tool)
	return p, tool, nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
