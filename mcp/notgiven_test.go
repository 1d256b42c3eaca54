package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/store"
)

// TestValidateKeysLeftOutAreNotSettled is new-user report #5 on the agent's
// side: validate with data {vendor_name, total} names the five keys left
// out in not_given; a reviewer's accept cannot settle one as null, and
// review_status never reports them as settled or unreviewed nulls.
func TestValidateKeysLeftOutAreNotSettled(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	b := &scriptBuilder{}
	cs := connect(t, newTestServer(t, Config{Build: b.build, Store: st}), "claude-code")
	env := call(t, cs, "validate", map[string]any{"text": demoText,
		"data": map[string]any{"vendor_name": "Globex Ltd", "total": 683.2}, "heuristics_only": true})
	var got []string
	for _, f := range env["not_given"].([]any) {
		got = append(got, f.(string))
	}
	if want := []string{"invoice_number", "invoice_date", "subtotal", "tax", "currency"}; !slices.Equal(got, want) {
		t.Fatalf("not_given = %v, want %v (result %v)", got, want, env)
	}
	if env["status"] != "needs_review" {
		t.Fatalf("status %v: the demo total should be flagged: %v", env["status"], env)
	}
	trace := env["trace_id"].(string)
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	corpusID, docID, ok, err := st.FindTrace(ctx, trace)
	if err != nil || !ok {
		t.Fatalf("FindTrace: %v %v", ok, err)
	}
	_, err = st.Decide(ctx, store.Decision{CorpusID: corpusID, DocID: docID, Field: "invoice_number", Action: store.ActionAccept, Reviewer: "ana"})
	if err == nil || !strings.Contains(err.Error(), "not given") {
		t.Errorf("accepting a key left out = %v; want refused", err)
	}
	if _, err := st.Decide(ctx,
		store.Decision{CorpusID: corpusID, DocID: docID, Field: "total", Action: store.ActionCorrect, Value: 583.2, Reviewer: "ana"},
		store.Decision{CorpusID: corpusID, DocID: docID, Field: "vendor_name", Action: store.ActionAccept, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	ans := call(t, cs, "review_status", map[string]any{"trace_id": trace})
	rec, _ := ans["record"].(map[string]any)
	unrev, _ := ans["unreviewed"].(map[string]any)
	if ans["status"] != "reviewed" || rec["total"] != 583.2 {
		t.Fatalf("review_status: %v", ans)
	}
	for _, f := range got {
		if _, ok := rec[f]; ok {
			t.Errorf("review_status record settles %s = %v, which the agent left out", f, rec[f])
		}
		if _, ok := unrev[f]; ok {
			t.Errorf("review_status unreviewed holds %s = %v, which the agent left out", f, unrev[f])
		}
	}
}
