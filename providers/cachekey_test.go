package providers

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// encodingJSONCacheKey is how cache keys were made when the cache was first
// written (the struct marshalled by encoding/json). Entries on users' disks
// are stored under these keys, so CacheKey must keep producing them.
func encodingJSONCacheKey(provider string, req llm.Request) []byte {
	schema := req.JSONSchema
	if len(schema) > 0 {
		var b bytes.Buffer
		if json.Compact(&b, schema) == nil {
			schema = b.Bytes()
		}
	}
	k := struct {
		V             int             `json:"v"`
		Provider      string          `json:"provider"`
		Model         string          `json:"model"`
		PromptVersion string          `json:"prompt_version"`
		Purpose       string          `json:"purpose"`
		Messages      []llm.Message   `json:"messages"`
		Schema        json.RawMessage `json:"schema,omitempty"`
		SchemaName    string          `json:"schema_name,omitempty"`
		MaxTokens     int             `json:"max_tokens"`
	}{1, provider, req.Model, req.PromptVersion, req.Purpose, req.Messages, schema, req.SchemaName, req.MaxTokens}
	b, err := json.Marshal(k)
	if err != nil {
		k.Schema = nil
		b, _ = json.Marshal(k)
		b = append(b, req.JSONSchema...)
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// Cache keys are byte for byte the keys encoding/json made, for every shape
// of request: escapes of every kind in every string, invalid UTF-8, U+2028,
// no messages vs an empty list, schemas with whitespace, HTML characters,
// null, or not JSON at all; through CacheKey and through a Cache's memo of
// schemas (asked twice, so the second answer comes from the memo).
func TestCacheKeyMatchesEncodingJSON(t *testing.T) {
	odd := "a<b>&c \"q\" \\ \x00\x01\x08\x0c\n\r\t\x1f\x7f é 日本 \u2028\u2029 \xff\xfe bad \xe2\x80 cut 😀"
	schemas := [][]byte{nil, {}, []byte(`{"type":"object"}`), []byte("{ \"description\" : \"<a> & \u2028\" ,\n \"x\": [1, 2] }"),
		[]byte(`null`), []byte(`{not json`), []byte(" "), []byte(`"\u003c"`), []byte("{\"d\":\"\xff\"}")}
	messages := [][]llm.Message{nil, {}, {{Role: "user", Content: odd}},
		{{Role: "user", Content: "p"}, {Role: "assistant", Content: "{\"total\": 1}"}, {Role: "user", Content: odd + odd}}}
	var memo schemaMemo
	n := 0
	for _, schema := range schemas {
		for _, msgs := range messages {
			for _, s := range []string{"", "openai", odd} {
				req := llm.Request{Purpose: s, Model: s + "m", PromptVersion: "generator.v1", Messages: msgs,
					JSONSchema: schema, SchemaName: s, MaxTokens: len(s) - 3, Source: "not in the key"}
				want := encodingJSONCacheKey(s, req)
				for i, got := range [][]byte{CacheKey(s, req), memo.key(s, req), memo.key(s, req)} {
					if !bytes.Equal(got, want) {
						t.Fatalf("key %d differs from encoding/json's for provider %q schema %q messages %q", i, s, schema, msgs)
					}
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d shapes compared", n)
	}
}

// The memo of schemas is bounded: a caller sending a new schema every call
// does not grow it without end, and keys stay right across its resets.
func TestCacheKeySchemaMemoIsBounded(t *testing.T) {
	var memo schemaMemo
	for i := range 3 * schemaMemoMax {
		req := llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "x"}},
			JSONSchema: []byte(fmt.Sprintf(`{"n": %d, "s": "%s"}`, i, strings.Repeat("<", i%3)))}
		if !bytes.Equal(memo.key("openai", req), encodingJSONCacheKey("openai", req)) {
			t.Fatalf("schema %d: key differs", i)
		}
		if len(memo.m) > schemaMemoMax {
			t.Fatalf("memo holds %d schemas, max %d", len(memo.m), schemaMemoMax)
		}
	}
}

func BenchmarkCacheKey(b *testing.B) {
	req := llm.Request{Purpose: "generator", Model: "gpt-4o-mini", PromptVersion: "generator.v1",
		Messages:   []llm.Message{{Role: "user", Content: strings.Repeat("Total: 12.50 <USD> & tax\n", 120)}},
		JSONSchema: []byte(`{"type":"object","properties":{"total":{"type":["number","null"],"description":"The amount due."}},"required":["total"],"additionalProperties":false}`),
		SchemaName: "invoice", MaxTokens: 1024}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encodingJSONCacheKey("openai", req)
		}
	})
	b.Run("direct", func(b *testing.B) {
		var memo schemaMemo
		b.ReportAllocs()
		for b.Loop() {
			memo.key("openai", req)
		}
	})
}
