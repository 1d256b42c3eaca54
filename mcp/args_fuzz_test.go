package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
)

// FuzzDecodeArgs: whatever an agent sends as tool arguments, decoding never
// panics, an error never repeats a long argument whole, and accepted
// arguments are what the handlers rely on: a valid UTF-8 text, thresholds in
// [0,1], a schema.
func FuzzDecodeArgs(f *testing.F) {
	for _, seed := range []string{
		`{"text":"ACME total 12.50","data":{"total":12.5},"heuristics_only":true}`,
		`{"text":"x","field_threshold":"nan","overall_threshold":1.5}`,
		`{"text":"x","schema":"invoice"}`,
		`{"text":"x","schema":{"name":"s","fields":[{"name":"a","kind":"text"}]}}`,
		`{"text":"x","schema":"name: s\nfields:\n  - {name: a, kind: date}\n"}`,
		`{"text":"\ud800","data":"{\"total\":1}"}`,
		`{"text":"a\u0000b","data":"not json"}`,
		`{"text":1}`, `null`, `[]`, `"text"`, `{"nope":1}`, `{"text":"x","heuristics_only":"yes"}`,
		`{"text":"x","data":{},"data":null}`,
	} {
		f.Add([]byte(seed))
	}
	allowed := propNames(validateInputSchema())
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := decodeArgs(json.RawMessage(raw), allowed, pipeline.Invoice())
		if err != nil {
			if msg := err.Error(); len(msg) > 8*maxEcho+len(strings.Join(allowed, ", "))+200 && len(msg) > len(raw)/2+200 {
				t.Fatalf("error of %d bytes for %d bytes of input: an argument was echoed whole", len(msg), len(raw))
			}
			return
		}
		if !utf8.ValidString(a.Text) {
			t.Fatalf("accepted text is not UTF-8: %q", a.Text)
		}
		for _, th := range []*float64{a.Field, a.Overall} {
			if th != nil && !(*th >= 0 && *th <= 1) {
				t.Fatalf("accepted threshold %v", *th)
			}
		}
		if a.Schema == nil {
			t.Fatal("no schema")
		}
	})
}

// FuzzParseLine: one stdio line never panics the reader, and a rejected
// line always gets a JSON-RPC error code.
func FuzzParseLine(f *testing.F) {
	for _, seed := range hostileLines {
		f.Add([]byte(strings.TrimSuffix(seed.line, "\n")))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		msg, _, code, reason := parseLine(line)
		if reason != "" && code != -32700 && code != -32600 {
			t.Fatalf("rejected with code %d", code)
		}
		if reason == "" && msg == nil && len(strings.TrimSpace(strings.TrimPrefix(string(line), "\xEF\xBB\xBF"))) > 0 {
			t.Fatalf("a non-blank line neither accepted nor rejected: %q", line)
		}
	})
}
