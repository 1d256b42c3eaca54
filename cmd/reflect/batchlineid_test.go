package main

import (
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A line refused for its content still carries its id when the id can be
// read, so the error joins to its input; a number too large for a float64
// (valid JSON) is named as out of range, not as bad JSON. A line whose id
// is itself the bad part gets no id rather than a mangled one.
func TestBatchErrorLinesKeepTheirID(t *testing.T) {
	in := "{\"id\":\"u1\",\"text\":\"Total \xff 5.00\"}\n" +
		`{"id":"n1","text":"Total 5.00","data":{"total":1e309}}` + "\n" +
		`{"id":42,"text":"Total \u0000"}` + "\n" +
		"{\"id\":\"\xff\",\"text\":\"Total 5.00\"}\n" +
		`{"id":"ok","text":"Invoice #A-1\nTotal: 5.00 USD"}` + "\n"
	r := run(t, in, "extract", "--batch", "--provider", "local", "--log-level", "error")
	if r.code != ExitPipeline {
		t.Fatalf("exit %d, want %d\n%s", r.code, ExitPipeline, r.err)
	}
	res := decodeLines(t, r.out)
	if len(res) != 5 {
		t.Fatalf("%d result lines, want 5\n%s", len(res), r.out)
	}
	for i, want := range []struct{ id, msg string }{
		{"u1", "line 1: not valid UTF-8"},
		{"n1", "line 2: the number 1e309 is out of range"},
		{"42", "line 3: "},
		{"", "line 4: not valid UTF-8"},
	} {
		got := res[i]
		if got.Status != pipeline.StatusError || got.ID != want.id || !strings.HasPrefix(got.ErrorMessage, want.msg) {
			t.Errorf("line %d: id %q, %q; want id %q, a message starting %q", i+1, got.ID, got.ErrorMessage, want.id, want.msg)
		}
	}
	if res[4].ID != "ok" || res[4].Status == pipeline.StatusError {
		t.Errorf("the good line after them: %+v", res[4])
	}
}
