package main

import (
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// The batch and --data follow the MCP server's rule for text: a NUL or a lone
// surrogate is an error naming the line, never ok; the batch goes on.
func TestBatchAndDataFollowTheTextRule(t *testing.T) {
	text := `"text":"ACME LTD\nInvoice #A-7\nTotal: 42.50 USD"`
	in := strings.Join([]string{
		`{` + text + `,"data":{"vendor_name":"ACME LTD\u0000","total":42.5}}`,
		`{` + text + `,"data":{"vendor_name":"ACME \uD800","total":42.5}}`,
		`{"text":"ACME LTD\u0000 Total: 42.50"}`,
		`{` + text + `,"data":{"vendor_name":"ACME LTD","total":42.5}}`,
	}, "\n") + "\n"
	r := runWith(t, nil, in, "validate", "--batch", "--heuristics-only")
	rs := decodeLines(t, r.out)
	if len(rs) != 4 {
		t.Fatalf("want 4 lines, got %d: %s", len(rs), r.err)
	}
	for i, want := range []string{"NUL", "surrogate", "NUL"} {
		if rs[i].Status != pipeline.StatusError || !strings.Contains(rs[i].ErrorMessage, want) {
			t.Errorf("line %d: %s %q, want an error mentioning %s", i+1, rs[i].Status, rs[i].ErrorMessage, want)
		}
	}
	if rs[3].Status == pipeline.StatusError {
		t.Errorf("the clean line failed: %s", rs[3].ErrorMessage)
	}

	for data, want := range map[string]string{`{"vendor_name":"ACME LTD\u0000"}`: "NUL", `{"vendor_name":"ACME \udc00"}`: "surrogate"} {
		r := runWith(t, nil, "ACME LTD\nTotal: 42.50 USD", "validate", "--heuristics-only", "--data", data)
		if r.code == ExitOK || !strings.Contains(r.out+r.err, want) {
			t.Errorf("--data %s: exit %d\n%s\n%s\nwant an error mentioning %s", data, r.code, r.out, r.err, want)
		}
	}
}
