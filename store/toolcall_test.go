package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A held call is a needs-review tool_call item in its client's queue, the
// same hold reported twice is one item, and its resolution survives a reopen
// of the file and is in the queue row and the change log.
func TestToolCallQueuedOnceAndResolved(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	call := ToolCall{HoldID: "hold-1", Client: "claude-ai", Upstream: "fs", Tool: "write_file",
		Arguments: json.RawMessage(`{"path":"/tmp/x","content":"hi"}`), Class: "write", Source: "mapping",
		Rule: "R2.write", Reason: "writes need a human", Expires: "2026-12-01T10:00:00Z",
		Linked: &LinkedValue{TraceID: "tr-9", Field: "total", Value: "683.2", Argument: "amount"}}
	corpusID, row, err := st.EnqueueToolCall(ctx, "claude-ai", call)
	if err != nil {
		t.Fatal(err)
	}
	if corpusID != QueueCorpusID("claude-ai") || row.DocID != "hold-1" || row.Kind != KindToolCall ||
		row.Status != pipeline.StatusNeedsReview || row.Reviewed {
		t.Fatalf("queued %s row %+v", corpusID, row)
	}
	before, err := st.ChangeSeq(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again := call
	again.Reason = "reported again after a restart"
	if _, row2, err := st.EnqueueToolCall(ctx, "claude-ai", again); err != nil || row2 != row {
		t.Fatalf("second report: %+v %v, want %+v", row2, err, row)
	}
	rows, err := st.Summaries(ctx, corpusID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("queue after two reports: %+v %v", rows, err)
	}
	if _, _, err := st.EnqueueToolCall(ctx, "claude-ai", ToolCall{HoldID: "hold-2", Arguments: json.RawMessage(`{bad`)}); err == nil {
		t.Fatal("arguments that are not JSON were queued")
	}

	if _, err := st.ResolveToolCall(ctx, "claude-ai", "hold-1", Resolution{Approved: false, Reviewer: "ana", Note: "not today"}); err != nil {
		t.Fatal(err)
	}
	changed, _, err := st.ChangedSince(ctx, corpusID, before)
	if err != nil || len(changed) != 1 || !changed[0].Reviewed {
		t.Fatalf("change log after the resolution: %+v %v", changed, err)
	}
	if st, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	d, err := st.Document(ctx, corpusID, "hold-1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseToolCall(d)
	if err != nil {
		t.Fatal(err)
	}
	// The call's document does not take over the extraction's trace.
	if got.Reason != call.Reason || got.Tool != "write_file" || string(got.Arguments) != string(call.Arguments) ||
		*got.Linked != *call.Linked || d.TraceID != "" {
		t.Fatalf("stored call %+v (doc trace %q)", got, d.TraceID)
	}
	if r := got.Resolution; r == nil || r.Approved || r.Reviewer != "ana" || r.Note != "not today" || r.At.IsZero() {
		t.Fatalf("resolution %+v", got.Resolution)
	}
	if _, err := st.ResolveToolCall(ctx, "claude-ai", "no-such", Resolution{}); err == nil {
		t.Fatal("resolved a hold that is not queued")
	}
}
