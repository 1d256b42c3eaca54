package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

const testKey = "sk-test-SECRET-0123456789abcdef"

// fakeServer is a local HTTP server that answers each request with the next
// step of a script (the last step repeats) and records what it received.
type fakeServer struct {
	*httptest.Server
	mu    sync.Mutex
	steps []http.HandlerFunc
	reqs  []recorded
}

type recorded struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

func newFakeServer(t *testing.T, steps ...http.HandlerFunc) *fakeServer {
	t.Helper()
	f := &fakeServer{steps: steps}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		f.mu.Lock()
		i := len(f.reqs)
		f.reqs = append(f.reqs, recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		step := f.steps[min(i, len(f.steps)-1)]
		f.mu.Unlock()
		step(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fakeServer) request(i int) recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs[i]
}

func reply(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// hangUp drops the connection without a response, as a reset would.
func hangUp(w http.ResponseWriter, r *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// stall answers only after the client has given up.
func stall(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

const openAIOK = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini-2024-07-18",
 "choices":[{"index":0,"message":{"role":"assistant","content":"{\"total\":12.5}","refusal":null},"finish_reason":"stop","logprobs":null}],
 "usage":{"prompt_tokens":1000,"completion_tokens":200,"total_tokens":1200}}`

const testSchema = `{"type":"object","properties":{"total":{"type":["number","null"]}},"required":["total"],"additionalProperties":false}`

func testRequest() llm.Request {
	return llm.Request{
		Purpose: "generator", Model: "gpt-4o-mini", PromptVersion: "generator.v1",
		Messages: []llm.Message{
			{Role: "system", Content: "Extract the record."},
			{Role: "user", Content: "TOTAL 12.50"},
		},
		JSONSchema: json.RawMessage(testSchema), SchemaName: "invoice", MaxTokens: 512,
		Source: "TOTAL 12.50",
	}
}

func newTestOpenAI(t *testing.T, url string, mod func(*OpenAIConfig)) *OpenAI {
	t.Helper()
	cfg := OpenAIConfig{APIKey: testKey, BaseURL: url + "/v1", Timeout: 5 * time.Second, MaxRetries: 2, MaxRetryDelay: 50 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// noSecret fails the test if err's text holds the API key.
func noSecret(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), testKey) {
		t.Errorf("API key leaked into error: %v", err)
	}
}

// retryCase is a fault the client must retry past: steps the server plays,
// and how many requests it must see in all.
type retryCase struct {
	name  string
	steps []http.HandlerFunc
	calls int
}

func runRetried(t *testing.T, cases []retryCase, complete func(t *testing.T, url string) (llm.Response, error)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, tc.steps...)
			resp, err := complete(t, srv.URL)
			if err != nil {
				t.Fatalf("not retried to success: %v", err)
			}
			if resp.Text != `{"total":12.5}` {
				t.Errorf("text = %q", resp.Text)
			}
			if srv.count() != tc.calls {
				t.Errorf("server saw %d requests, want %d", srv.count(), tc.calls)
			}
		})
	}
}

// failureCase is a fault that must end in a clear error: the client config
// change (mod) it needs, a substring of the error, whether it is a refusal,
// and how many requests the server must see.
type failureCase[C any] struct {
	name    string
	steps   []http.HandlerFunc
	mod     func(*C)
	want    string
	refused bool
	calls   int
}

func runFailures[C any](t *testing.T, cases []failureCase[C], complete func(t *testing.T, url string, mod func(*C)) error) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, tc.steps...)
			err := complete(t, srv.URL, tc.mod)
			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("error: %v", err)
			noSecret(t, err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if errors.Is(err, llm.ErrRefused) != tc.refused {
				t.Errorf("errors.Is(err, llm.ErrRefused) = %v, want %v", !tc.refused, tc.refused)
			}
			if srv.count() != tc.calls {
				t.Errorf("server saw %d requests, want %d", srv.count(), tc.calls)
			}
		})
	}
}

func TestOpenAISuccessRequestShape(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	c := newTestOpenAI(t, srv.URL, nil)
	resp, err := c.Complete(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"total":12.5}` || resp.Model != "gpt-4o-mini-2024-07-18" || resp.Cached {
		t.Errorf("response = %+v", resp)
	}
	if resp.Usage.InputTokens != 1000 || resp.Usage.OutputTokens != 200 {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if want := (1000*0.15 + 200*0.60) / 1e6; resp.Usage.CostUSD != want {
		t.Errorf("cost = %v, want %v", resp.Usage.CostUSD, want)
	}
	if resp.Usage.Latency <= 0 {
		t.Errorf("latency not measured: %v", resp.Usage.Latency)
	}

	r := srv.request(0)
	if r.Method != "POST" || r.Path != "/v1/chat/completions" {
		t.Errorf("request = %s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if r.Body["model"] != "gpt-4o-mini" || r.Body["max_completion_tokens"] != float64(512) {
		t.Errorf("model/max tokens = %v / %v", r.Body["model"], r.Body["max_completion_tokens"])
	}
	msgs, _ := r.Body["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("messages = %v", r.Body["messages"])
	}
	m0, m1 := msgs[0].(map[string]any), msgs[1].(map[string]any)
	if m0["role"] != "system" || m0["content"] != "Extract the record." || m1["role"] != "user" || m1["content"] != "TOTAL 12.50" {
		t.Errorf("messages = %v", msgs)
	}
	rf, _ := r.Body["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "invoice" || js["strict"] != true {
		t.Errorf("response_format = %v", rf)
	}
	schema, _ := js["schema"].(map[string]any)
	if schema["additionalProperties"] != false || schema["type"] != "object" {
		t.Errorf("schema = %v", schema)
	}
}

func TestOpenAIResponseFormatModes(t *testing.T) {
	for _, mode := range []string{FormatJSONObject, FormatNone} {
		t.Run(mode, func(t *testing.T) {
			srv := newFakeServer(t, reply(200, openAIOK))
			c := newTestOpenAI(t, srv.URL, func(c *OpenAIConfig) { c.StructuredOutputs = mode })
			if _, err := c.Complete(context.Background(), testRequest()); err != nil {
				t.Fatal(err)
			}
			rf, present := srv.request(0).Body["response_format"]
			switch mode {
			case FormatJSONObject:
				if m, _ := rf.(map[string]any); m["type"] != "json_object" || m["json_schema"] != nil {
					t.Errorf("response_format = %v", rf)
				}
			case FormatNone:
				if present {
					t.Errorf("response_format sent in mode none: %v", rf)
				}
			}
		})
	}
	if _, err := NewOpenAI(OpenAIConfig{APIKey: testKey, StructuredOutputs: "yaml"}); err == nil {
		t.Error("unknown structured output mode accepted")
	}
}

func TestOpenAIRetriedToSuccess(t *testing.T) {
	cases := []retryCase{
		{"429 with Retry-After", []http.HandlerFunc{reply(429, `{"error":{"message":"slow down","type":"rate_limit"}}`, "Retry-After", "0"), reply(200, openAIOK)}, 2},
		{"429 with Retry-After-Ms", []http.HandlerFunc{reply(429, `{"error":{"message":"slow down"}}`, "Retry-After-Ms", "5"), reply(200, openAIOK)}, 2},
		{"429 without Retry-After", []http.HandlerFunc{reply(429, `{"error":{"message":"slow down"}}`), reply(200, openAIOK)}, 2},
		{"500 then 503", []http.HandlerFunc{reply(500, `{"error":{"message":"boom"}}`), reply(503, `{"error":{"message":"busy"}}`), reply(200, openAIOK)}, 3},
		{"connection reset", []http.HandlerFunc{hangUp, reply(200, openAIOK)}, 2},
	}
	runRetried(t, cases, func(t *testing.T, url string) (llm.Response, error) {
		return newTestOpenAI(t, url, nil).Complete(context.Background(), testRequest())
	})
}

func TestOpenAIFailures(t *testing.T) {
	cases := []failureCase[OpenAIConfig]{
		{name: "503 until retries run out", steps: []http.HandlerFunc{reply(503, `{"error":{"message":"overloaded"}}`)},
			want: "HTTP 503", calls: 3},
		{name: "Retry-After beyond the cap", steps: []http.HandlerFunc{reply(429, `{"error":{"message":"quota"}}`, "Retry-After", "3600"), reply(200, openAIOK)},
			want: "HTTP 429", calls: 1},
		{name: "connection always reset", steps: []http.HandlerFunc{hangUp},
			want: "openai gpt-4o-mini", calls: 3},
		{name: "slower than the timeout", steps: []http.HandlerFunc{stall},
			mod: func(c *OpenAIConfig) { c.Timeout = 100 * time.Millisecond; c.MaxRetries = -1 }, want: "timeout", calls: 1},
		{name: "body not JSON", steps: []http.HandlerFunc{reply(200, `<html>gateway says hi</html>`)},
			want: "json", calls: 1},
		{name: "truncated JSON", steps: []http.HandlerFunc{reply(200, openAIOK[:len(openAIOK)/2])},
			want: "json", calls: 1},
		{name: "wrong shape", steps: []http.HandlerFunc{reply(200, `{"hello":"world","choices":"none"}`)},
			want: "openai gpt-4o-mini", calls: 1},
		{name: "empty choice list", steps: []http.HandlerFunc{reply(200, `{"id":"x","model":"gpt-4o-mini","choices":[],"usage":{}}`)},
			want: "no choices", calls: 1},
		{name: "refusal", steps: []http.HandlerFunc{reply(200, `{"id":"x","model":"gpt-4o-mini","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]}`)},
			want: "I can't help", refused: true, calls: 1},
		{name: "finish_reason length", steps: []http.HandlerFunc{reply(200, `{"id":"x","model":"gpt-4o-mini","choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","content":"{\"total\":"}}],"usage":{"prompt_tokens":5,"completion_tokens":512}}`)},
			want: "token limit", calls: 1},
		{name: "server echoes the key", steps: []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			reply(401, `{"error":{"message":"Incorrect API key provided: `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`","type":"invalid_request_error"}}`)(w, r)
		}}, want: "check the API key", calls: 1},
	}
	runFailures(t, cases, func(t *testing.T, url string, mod func(*OpenAIConfig)) error {
		_, err := newTestOpenAI(t, url, mod).Complete(context.Background(), testRequest())
		return err
	})
}

func TestOpenAICallerCancel(t *testing.T) {
	srv := newFakeServer(t, stall)
	c := newTestOpenAI(t, srv.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for srv.count() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := c.Complete(ctx, testRequest())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled in the chain", err)
	}
}

func TestOpenAILocalServerWithoutKey(t *testing.T) {
	srv := newFakeServer(t, reply(200, openAIOK))
	c, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), testRequest()); err != nil {
		t.Fatal(err)
	}
	if got := srv.request(0).Header.Get("Authorization"); got != "Bearer not-needed" {
		t.Errorf("Authorization = %q, want the placeholder", got)
	}
	if _, err := NewOpenAI(OpenAIConfig{}); err == nil {
		t.Error("no key and no base URL accepted")
	}
}

func TestSchemaName(t *testing.T) {
	for in, want := range map[string]string{"": "record", "invoice": "invoice", "my schema.v1": "my_schema_v1", strings.Repeat("a", 80): strings.Repeat("a", 64)} {
		if got := schemaName(in); got != want {
			t.Errorf("schemaName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The body Complete sends is byte for byte what the SDK makes of the same
// call as ChatCompletionNewParams (the schema decoded into a map), in every
// structured-output mode, from the schema memo as on first use.
func TestOpenAIBodyIsTheSDKEncoding(t *testing.T) {
	schemas := [][]byte{
		testRequest().JSONSchema,
		[]byte(`{"type":"object","properties":{"note":{"type":"string","description":"<b>&amp; \u2028 é \"q\""},"total":{"type":["number","null"],"minimum":1e-7,"maximum":12345678901234567890}},"required":["total","note"],"additionalProperties":false}`),
		[]byte("{\n  \"z\": 1,\n  \"a\": [true, null, 0.5]\n}"),
		[]byte(`null`),
		nil,
	}
	contents := []string{"TOTAL 12.50", "<b>Müller & Söhne</b>\n\t\"q\" \\ \u2028\u2029 \x01\x7f", "bad \xff\xfe utf-8 \xe2\x82", ""}
	for _, mode := range []string{FormatJSONSchema, FormatJSONObject, FormatNone} {
		c := newTestOpenAI(t, "http://127.0.0.1:1", func(c *OpenAIConfig) { c.StructuredOutputs = mode })
		for _, raw := range schemas {
			for _, content := range contents {
				req := testRequest()
				req.JSONSchema = raw
				req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: content})
				req.SchemaName = "my schema.v1"
				want, err := json.Marshal(sdkParams(t, req, mode))
				if err != nil {
					t.Fatal(err)
				}
				for range 2 { // the second from the memo
					got, err := c.body(req)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s, schema %s, content %q:\n got %s\nwant %s", mode, raw, content, got, want)
					}
				}
			}
		}
	}
	c := newTestOpenAI(t, "http://127.0.0.1:1", nil)
	if _, err := c.body(llm.Request{Model: "m", JSONSchema: []byte(`{"type":`)}); err == nil {
		t.Error("a schema that is not JSON was accepted")
	}
	if _, err := c.body(llm.Request{Model: "m", Messages: []llm.Message{{Role: "tool", Content: "x"}}}); err == nil {
		t.Error("a message role the client does not send was accepted")
	}
	noMax := testRequest()
	noMax.MaxTokens = 0
	if got, _ := c.body(noMax); !bytes.Contains(got, []byte(`"max_completion_tokens":4096`)) {
		t.Errorf("no max tokens: body %s", got)
	}
}

// sdkParams is the request as the SDK's own params, the way Complete built
// them before it encoded the body itself.
func sdkParams(t *testing.T, req llm.Request, format string) openai.ChatCompletionNewParams {
	t.Helper()
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(req.Model), MaxCompletionTokens: openai.Int(int64(maxTokens(req)))}
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case "user":
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case "assistant":
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		default:
			t.Fatalf("role %q", m.Role)
		}
	}
	if len(req.JSONSchema) == 0 {
		return p
	}
	switch format {
	case FormatJSONSchema:
		var schema map[string]any
		if err := json.Unmarshal(req.JSONSchema, &schema); err != nil {
			t.Fatal(err)
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: schemaName(req.SchemaName), Strict: openai.Bool(true), Schema: schema},
			},
		}
	case FormatJSONObject:
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	}
	return p
}
