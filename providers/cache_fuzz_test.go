package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// FuzzCacheEntry: whatever bytes a cache entry holds (another version's
// layout, a damaged value), a lookup either serves a reply or falls back to
// the model; it never panics and never serves a wrong-shaped entry.
func FuzzCacheEntry(f *testing.F) {
	for _, seed := range []string{
		`{"text":"{\"total\":1}","model":"m","input_tokens":1,"output_tokens":2,"cost_usd":0.1,"stored":"2026-01-01T00:00:00Z"}`,
		`{"text":1}`, `{"stored":"yesterday"}`, `null`, `[]`, ``, `{"text":"\ud800"}`, "\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	req := llm.Request{Model: "m", Purpose: "generator", Messages: []llm.Message{{Role: "user", Content: "x"}}}
	key := CacheKey("openai", req)
	n := 0
	f.Fuzz(func(t *testing.T, val []byte) {
		n++
		path := filepath.Join(dir, "calls.db")
		c, err := OpenCache(path)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close() // its writer done before the next input opens the file
		if err := c.update(func(tx *bolt.Tx) error {
			return tx.Bucket(callsBucket).Put(key, val)
		}); err != nil {
			t.Fatal(err)
		}
		called := false
		inner := llm.ClientFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
			called = true
			return llm.Response{Text: "fresh"}, nil
		})
		resp, err := c.Wrap("openai", inner).Complete(context.Background(), req)
		if err != nil {
			t.Fatalf("a bad entry failed the call: %v", err)
		}
		var e cacheEntry
		decodes := json.Unmarshal(val, &e) == nil && val != nil
		switch {
		case called && resp.Text != "fresh":
			t.Fatalf("the model answered %q but %q was served", "fresh", resp.Text)
		case !called && (!decodes || resp.Text != e.Text):
			t.Fatalf("served %q from an entry that does not decode to it: %q", resp.Text, val)
		}
	})
}

// FuzzCacheKey: the key depends on everything that shapes a reply and on
// nothing else (schema whitespace); it is the key encoding/json made; it
// never panics on any schema bytes.
func FuzzCacheKey(f *testing.F) {
	f.Add("openai", "gpt", "hello", []byte(`{"type":"object"}`))
	f.Add("", "", "", []byte(`{not json`))
	f.Add("<&>", "\u2028", "\xff\x00\"", []byte("{\"d\": \"<\u2029>\"}"))
	f.Fuzz(func(t *testing.T, provider, model, content string, schema []byte) {
		req := llm.Request{Model: model, Messages: []llm.Message{{Role: "user", Content: content}}, JSONSchema: schema}
		k1 := CacheKey(provider, req)
		if len(k1) != 32 || !bytes.Equal(k1, CacheKey(provider, req)) {
			t.Fatal("key not a stable SHA-256")
		}
		if !bytes.Equal(k1, encodingJSONCacheKey(provider, req)) {
			t.Fatalf("key differs from the one encoding/json made (entries stored under it would be lost): schema %q", schema)
		}
		var compact bytes.Buffer
		if json.Compact(&compact, schema) == nil {
			spaced := append([]byte(" "), schema...)
			req2 := req
			req2.JSONSchema = spaced
			if !bytes.Equal(k1, CacheKey(provider, req2)) {
				t.Fatal("schema whitespace changed the key")
			}
		}
		req3 := req
		req3.Model = model + "x"
		if bytes.Equal(k1, CacheKey(provider, req3)) {
			t.Fatal("the model is not in the key")
		}
	})
}
