package providers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

const anthropicToolOK = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
 "content":[{"type":"text","text":"Recording."},{"type":"tool_use","id":"toolu_1","name":"invoice","input":{"total":12.5}}],
 "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1000,"output_tokens":200}}`

func anthropicReply(stop, content string) string {
	return `{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":` + content +
		`,"stop_reason":"` + stop + `","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`
}

func newTestAnthropic(t *testing.T, url string, mod func(*AnthropicConfig)) *Anthropic {
	t.Helper()
	cfg := AnthropicConfig{APIKey: testKey, BaseURL: url, Timeout: 5 * time.Second, MaxRetries: 2}
	if mod != nil {
		mod(&cfg)
	}
	c, err := NewAnthropic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func anthropicRequest() llm.Request {
	r := testRequest()
	r.Model = "claude-sonnet-4-5"
	return r
}

func TestAnthropicSuccessRequestShape(t *testing.T) {
	srv := newFakeServer(t, reply(200, anthropicToolOK))
	c := newTestAnthropic(t, srv.URL, nil)
	resp, err := c.Complete(context.Background(), anthropicRequest())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"total":12.5}` || resp.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("response = %+v", resp)
	}
	if resp.Usage.InputTokens != 1000 || resp.Usage.OutputTokens != 200 || resp.Usage.CostUSD != (1000*3.0+200*15.0)/1e6 {
		t.Errorf("usage = %+v", resp.Usage)
	}

	r := srv.request(0)
	if r.Method != "POST" || r.Path != "/v1/messages" {
		t.Errorf("request = %s %s", r.Method, r.Path)
	}
	if !strings.Contains(r.Header.Get("Authorization")+r.Header.Get("X-Api-Key"), testKey) {
		t.Errorf("no API key in the auth headers: %v", r.Header)
	}
	if r.Header.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}
	if r.Body["model"] != "claude-sonnet-4-5" || r.Body["max_tokens"] != float64(512) {
		t.Errorf("model/max_tokens = %v / %v", r.Body["model"], r.Body["max_tokens"])
	}
	sys, _ := r.Body["system"].([]any)
	if len(sys) != 1 || sys[0].(map[string]any)["text"] != "Extract the record." {
		t.Errorf("system = %v", r.Body["system"])
	}
	msgs, _ := r.Body["messages"].([]any)
	if len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" {
		t.Fatalf("messages = %v (system must not be among them)", r.Body["messages"])
	}
	if content, _ := msgs[0].(map[string]any)["content"].([]any); len(content) != 1 || content[0].(map[string]any)["text"] != "TOTAL 12.50" {
		t.Errorf("user content = %v", msgs[0])
	}
	tools, _ := r.Body["tools"].([]any)
	if len(tools) != 1 {
		t.Fatalf("tools = %v", r.Body["tools"])
	}
	tool := tools[0].(map[string]any)
	schema, _ := tool["input_schema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	if tool["name"] != "invoice" || schema["type"] != "object" || props["total"] == nil || schema["additionalProperties"] != false {
		t.Errorf("tool = %v", tool)
	}
	if req, _ := schema["required"].([]any); len(req) != 1 || req[0] != "total" {
		t.Errorf("required = %v", schema["required"])
	}
	if tc, _ := r.Body["tool_choice"].(map[string]any); tc["type"] != "tool" || tc["name"] != "invoice" {
		t.Errorf("tool_choice = %v", r.Body["tool_choice"])
	}
}

func TestAnthropicPlainText(t *testing.T) {
	srv := newFakeServer(t, reply(200, anthropicReply("end_turn", `[{"type":"text","text":"hello "},{"type":"text","text":"there"}]`)))
	c := newTestAnthropic(t, srv.URL, nil)
	req := anthropicRequest()
	req.JSONSchema = nil
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "hello there" {
		t.Errorf("text = %q", resp.Text)
	}
	if _, ok := srv.request(0).Body["tools"]; ok {
		t.Error("tools sent without a schema")
	}
}

func TestAnthropicRetriedToSuccess(t *testing.T) {
	cases := []retryCase{
		{"429 with Retry-After", []http.HandlerFunc{reply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, "Retry-After", "0"), reply(200, anthropicToolOK)}, 2},
		// The SDK's own backoff applies here (about half a second).
		{"429 without Retry-After", []http.HandlerFunc{reply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`), reply(200, anthropicToolOK)}, 2},
		{"500 then 529", []http.HandlerFunc{reply(500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`, "Retry-After-Ms", "1"), reply(529, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`, "Retry-After-Ms", "1"), reply(200, anthropicToolOK)}, 3},
		{"503 then success", []http.HandlerFunc{reply(503, `{"type":"error","error":{"type":"api_error","message":"busy"}}`, "Retry-After", "0"), reply(200, anthropicToolOK)}, 2},
		{"connection reset", []http.HandlerFunc{hangUp, reply(200, anthropicToolOK)}, 2},
	}
	runRetried(t, cases, func(t *testing.T, url string) (llm.Response, error) {
		return newTestAnthropic(t, url, nil).Complete(context.Background(), anthropicRequest())
	})
}

func TestAnthropicFailures(t *testing.T) {
	cases := []failureCase[AnthropicConfig]{
		{name: "529 until retries run out", steps: []http.HandlerFunc{reply(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Retry-After", "0")},
			want: "HTTP 529", calls: 3},
		{name: "Retry-After beyond the cap", steps: []http.HandlerFunc{reply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"quota"}}`, "Retry-After", "3600"), reply(200, anthropicToolOK)},
			want: "HTTP 429", calls: 1},
		{name: "slower than the timeout", steps: []http.HandlerFunc{stall},
			mod: func(c *AnthropicConfig) { c.Timeout = 100 * time.Millisecond; c.MaxRetries = -1 }, want: "timeout", calls: 1},
		{name: "body not JSON", steps: []http.HandlerFunc{reply(200, `<html>gateway says hi</html>`)},
			want: "anthropic claude-sonnet-4-5", calls: 1},
		{name: "truncated JSON", steps: []http.HandlerFunc{reply(200, anthropicToolOK[:len(anthropicToolOK)/2])},
			want: "anthropic claude-sonnet-4-5", calls: 1},
		{name: "wrong shape", steps: []http.HandlerFunc{reply(200, `{"hello":"world"}`)},
			want: "no invoice tool call", calls: 1},
		{name: "text instead of the tool", steps: []http.HandlerFunc{reply(200, anthropicReply("end_turn", `[{"type":"text","text":"{\"total\":1}"}]`))},
			want: "no invoice tool call", calls: 1},
		{name: "refusal", steps: []http.HandlerFunc{reply(200, anthropicReply("refusal", `[]`))},
			want: "refused", refused: true, calls: 1},
		{name: "max_tokens", steps: []http.HandlerFunc{reply(200, anthropicReply("max_tokens", `[{"type":"text","text":"{\"tot"}]`))},
			want: "max_tokens", calls: 1},
		{name: "server echoes the key", steps: []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			reply(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key `+r.Header.Get("Authorization")+r.Header.Get("X-Api-Key")+`"}}`)(w, r)
		}}, want: "check the API key", calls: 1},
	}
	runFailures(t, cases, func(t *testing.T, url string, mod func(*AnthropicConfig)) error {
		_, err := newTestAnthropic(t, url, mod).Complete(context.Background(), anthropicRequest())
		return err
	})
}

func TestAnthropicTimeoutRetried(t *testing.T) {
	// Unlike the OpenAI SDK, the Anthropic SDK retries an attempt that timed out.
	srv := newFakeServer(t, stall, reply(200, anthropicToolOK))
	c := newTestAnthropic(t, srv.URL, func(c *AnthropicConfig) { c.Timeout = 100 * time.Millisecond; c.MaxRetries = 1 })
	if _, err := c.Complete(context.Background(), anthropicRequest()); err != nil {
		t.Fatalf("timed-out attempt not retried: %v", err)
	}
	if srv.count() != 2 {
		t.Errorf("server saw %d requests, want 2", srv.count())
	}
}

func TestAnthropicBadRequests(t *testing.T) {
	c, err := NewAnthropic(AnthropicConfig{APIKey: testKey, BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]llm.Request{
		"no user message": {Model: "m", Messages: []llm.Message{{Role: "system", Content: "x"}}},
		"bad role":        {Model: "m", Messages: []llm.Message{{Role: "tool", Content: "x"}}},
		"bad schema":      {Model: "m", Messages: []llm.Message{{Role: "user", Content: "x"}}, JSONSchema: []byte(`{"type":`)},
		"array schema":    {Model: "m", Messages: []llm.Message{{Role: "user", Content: "x"}}, JSONSchema: []byte(`{"type":"array"}`)},
	} {
		if _, err := c.Complete(context.Background(), req); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewAnthropic(AnthropicConfig{}); err == nil {
		t.Error("empty key accepted")
	}
}

func TestBedrock(t *testing.T) {
	srv := newFakeServer(t, reply(200, anthropicToolOK))
	c, err := NewBedrock(BedrockConfig{APIKey: testKey, BaseURL: srv.URL + "/anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Complete(context.Background(), anthropicRequest())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"total":12.5}` {
		t.Errorf("text = %q", resp.Text)
	}
	r := srv.request(0)
	if r.Path != "/anthropic/v1/messages" || r.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("request = %s, Authorization %q", r.Path, r.Header.Get("Authorization"))
	}

	if _, err := NewBedrock(BedrockConfig{Region: "us-east-1"}); !errors.Is(err, ErrBedrockSigV4) {
		t.Errorf("no API key: err = %v, want ErrBedrockSigV4", err)
	}
	if _, err := NewBedrock(BedrockConfig{APIKey: testKey}); err == nil || !strings.Contains(err.Error(), "AWS_REGION") {
		t.Errorf("no region: err = %v", err)
	}
	if _, err := NewBedrock(BedrockConfig{APIKey: testKey, Region: "evil.com/x"}); err == nil {
		t.Error("malformed region accepted")
	}
	if _, err := NewBedrock(BedrockConfig{APIKey: testKey, Region: "us-east-1"}); err != nil {
		t.Errorf("valid region: %v", err)
	}
}

func TestAnthropicBilledFailureCarriesUsage(t *testing.T) {
	srv := newFakeServer(t, reply(200, anthropicReply("max_tokens", `[{"type":"text","text":"{\"tot"}]`)))
	resp, err := newTestAnthropic(t, srv.URL, nil).Complete(context.Background(), anthropicRequest())
	if err == nil {
		t.Fatal("cut-off reply accepted")
	}
	if resp.Usage.InputTokens != 10 || resp.Usage.OutputTokens != 5 || resp.Usage.CostUSD == 0 || resp.Text != "" {
		t.Errorf("resp = %+v, want no text but the billed usage", resp)
	}
}
