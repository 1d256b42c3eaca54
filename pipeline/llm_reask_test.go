package pipeline_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// A 20 MB unusable reply must not be fed back whole: every re-ask is the
// prompt plus a clipped reply and error, the same size each time.
func TestReaskCapsFedBackReply(t *testing.T) {
	huge := strings.Repeat("é not json ", 20<<20/12)
	var sizes []int
	var prompt int
	client := llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		n := 0
		for _, m := range req.Messages {
			n += len(m.Content)
			if !utf8.ValidString(m.Content) {
				t.Errorf("request %d carries invalid UTF-8 (clipped mid-character)", len(sizes)+1)
			}
		}
		if len(sizes) == 0 {
			prompt = n
		}
		sizes = append(sizes, n)
		return llm.Response{Text: huge}, nil
	})
	s := mustReaskSchema(t)
	_, err := pipeline.NewLLMGenerator(client, pipeline.LLMOptions{Retries: 2}).Generate(context.Background(), pipeline.Document{Text: "ACME 12.00"}, s)
	if err == nil {
		t.Fatal("an unusable reply was accepted")
	}
	if len(sizes) != 3 {
		t.Fatalf("%d requests, want 3", len(sizes))
	}
	for i := 1; i < 3; i++ {
		if sizes[i] >= prompt+8<<10 {
			t.Errorf("request %d is %d bytes, want under prompt (%d) + 8 KB", i+1, sizes[i], prompt)
		}
	}
	if sizes[1] != sizes[2] {
		t.Errorf("re-asks grew: %d then %d bytes", sizes[1], sizes[2])
	}
}

func mustReaskSchema(t *testing.T) *pipeline.Schema {
	t.Helper()
	s, err := pipeline.ParseSchema([]byte("name: r\nfields:\n  - {name: vendor, kind: text}\n"), "r.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
