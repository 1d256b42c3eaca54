package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// TestExportLeavesHeldToolCallsOut is new-user report #3: `reflect export
// --golden` over every corpus (README step 2) wrote the gateway's held tool
// calls, the rejected one included, as golden documents. Only extraction
// items are exported, and the command says how many calls it left out.
func TestExportLeavesHeldToolCallsOut(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 5); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: "c", DocID: "doc-000004", Field: "total", Action: store.ActionAccept, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	for i, approved := range []bool{true, false} {
		id := []string{"hold-approved", "hold-rejected"}[i]
		if _, _, err := st.EnqueueToolCall(ctx, "claude-code", store.ToolCall{HoldID: id, Client: "claude-code",
			Upstream: "memory", Tool: "delete_entities", Arguments: []byte(`{"names":["x"]}`)}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ResolveToolCall(ctx, "claude-code", id, store.Resolution{Approved: approved, Reviewer: "ana"}); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "all.jsonl")
	r := runWith(t, map[string]string{"REFLECT_STORE": path}, "", "export", "--golden", out)
	if r.code != 0 {
		t.Fatalf("export exit %d: %s", r.code, r.err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], `"id":"doc-000004"`) {
		t.Errorf("exported %d rows, want only the reviewed extraction doc-000004:\n%s", len(lines), raw)
	}
	if strings.Contains(string(raw), "hold-") {
		t.Errorf("a held tool call was exported:\n%s", raw)
	}
	if !strings.Contains(r.err, "wrote 1 reviewed document(s)") || !strings.Contains(r.err, "left out 2 held tool call(s)") {
		t.Errorf("stderr = %q; want 1 written and 2 held tool calls left out", r.err)
	}
}
