package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// MCP arguments follow the batch's rule for text (pipeline.CheckTextValue and
// CheckJSONText): a NUL or a lone surrogate anywhere, in text or in a data
// value, is an error envelope, never ok.
func TestArgumentsFollowTheTextRule(t *testing.T) {
	reply := &scriptBuilder{generator: []string{`{"vendor_name":"ACME LTD\u0000","total":583.2}`,
		`{"vendor_name":"ACME LTD\u0000","total":583.2}`, `{"vendor_name":"ACME LTD\u0000","total":583.2}`}}
	for _, tc := range []struct {
		name string
		b    *scriptBuilder
		tool string
		args any
		want string
	}{
		{"NUL in text", &scriptBuilder{}, "extract", json.RawMessage(`{"text":"Globex\u0000 Ltd total 12"}`), "NUL"},
		{"NUL in a data value", &scriptBuilder{}, "validate", json.RawMessage(`{"text":"ACME LTD total 583.20","heuristics_only":true,"data":{"vendor_name":"ACME LTD\u0000"}}`), "NUL"},
		{"lone surrogate in a data value", &scriptBuilder{}, "validate", json.RawMessage(`{"text":"ACME LTD total 583.20","heuristics_only":true,"data":{"vendor_name":"ACME \ud800"}}`), "not valid UTF-8"},
		{"control character in a data value", &scriptBuilder{}, "validate", json.RawMessage(`{"text":"ACME LTD total 583.20","heuristics_only":true,"data":{"vendor_name":"ACME\u001b LTD"}}`), "U+001B"},
		{"NUL in the model's reply", reply, "extract", map[string]any{"text": demoText, "heuristics_only": true}, "NUL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, newTestServer(t, Config{Build: tc.b.build}), "test")
			env := call(t, cs, tc.tool, tc.args)
			msg, _ := env["error_message"].(string)
			if env["status"] != "error" || !strings.Contains(msg, tc.want) {
				t.Fatalf("got %v, want an error envelope mentioning %q", env, tc.want)
			}
		})
	}
}
