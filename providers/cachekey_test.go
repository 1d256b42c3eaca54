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
	// A run's calls: one prompt template, a new document each call.
	reqs := make([]llm.Request, 64)
	for i := range reqs {
		reqs[i] = req
		reqs[i].Messages = []llm.Message{{Role: "user", Content: req.Messages[0].Content + fmt.Sprintf("<document>\nInvoice %d\nTotal: %d.50\n</document>", i, i)}}
	}
	b.Run("direct-no-prefix", func(b *testing.B) {
		schema, ok := compactSchema(req.JSONSchema)
		var buf []byte
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_, buf = cacheKey(buf, "openai", reqs[i%len(reqs)], schema, ok)
			i++
		}
	})
	b.Run("direct", func(b *testing.B) {
		var memo schemaMemo
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			memo.key("openai", reqs[i%len(reqs)])
			i++
		}
	})
}

// Keys made from a learned prompt prefix are the keys encoding/json made:
// prompts of two purposes interleaved, documents that share their first
// bytes, split runes and escapes at the prefix's end, extra messages, an
// odd call that shares less; and from the third call of a purpose on, the
// prefix serves, but for the third itself: the first two documents start
// alike, so the prefix first learned runs into them and shrinks.
func TestPrefixMemoKeys(t *testing.T) {
	template := func(purpose string) string {
		return "You are the " + purpose + " <of> & \"records\" é 日本\n" + strings.Repeat("Rule: copy values; never invent \u2028 them.\n", 12) + "<document>\n"
	}
	docs := []string{"From: Acme Ltd\nTotal 12.50", "From: Acme GmbH\nTotal 1", "éclair 日本 \xff\xfe", "日本", "\"quoted\" <b>", "", "\x01\n\t",
		"From: Acme Ltd\nTotal 99"}
	var memo schemaMemo
	served := 0
	for i, doc := range docs {
		for _, purpose := range []string{"generator", "critic"} {
			req := llm.Request{Purpose: purpose, Model: "gpt-4o-mini", PromptVersion: purpose + ".v1",
				Messages:   []llm.Message{{Role: "user", Content: template(purpose) + doc + "\n</document>"}},
				JSONSchema: []byte(`{"type":"object"}`), SchemaName: "invoice", MaxTokens: 512}
			if i%3 == 2 {
				req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: "{}"}, llm.Message{Role: "user", Content: "again <please>"})
			}
			want := encodingJSONCacheKey("openai", req)
			if key, _ := memo.prefixes.key(nil, "openai", req, []byte(`{"type":"object"}`), true); key != nil {
				served++
				if !bytes.Equal(key, want) {
					t.Fatalf("%s doc %q: the prefix's key differs from encoding/json's", purpose, doc)
				}
			}
			if !bytes.Equal(memo.key("openai", req), want) {
				t.Fatalf("%s doc %q: key differs from encoding/json's", purpose, doc)
			}
		}
	}
	if want := 2 * (len(docs) - 3); served != want {
		t.Errorf("the prefix served %d keys, want %d (every call from the fourth of a purpose on)", served, want)
	}
	// A prompt that shares less than the prefix is keyed right, and the
	// prefix shrinks to what they share.
	odd := llm.Request{Purpose: "generator", Model: "gpt-4o-mini", PromptVersion: "generator.v1",
		Messages: []llm.Message{{Role: "user", Content: template("generator")[:300] + "é other"}}}
	for range 3 {
		if !bytes.Equal(memo.key("openai", odd), encodingJSONCacheKey("openai", odd)) {
			t.Fatal("a prompt sharing less than the prefix was keyed wrong")
		}
	}
}
