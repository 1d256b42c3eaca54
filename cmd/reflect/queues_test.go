package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

func queuesStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "q.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := storetest.Populate(ctx, st, store.QueueCorpusID("claude-ai"), 4); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: store.QueueCorpusID("claude-ai"), DocID: "doc-000001",
		Field: "total", Action: store.ActionCorrect, Value: 1.5, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	return path // the store keeps no file open between transactions
}

// reflect queues names each queue with its counts; review --queue with a
// name that does not exist lists the ones that do.
func TestQueuesListsQueuesAndReviewNamesThem(t *testing.T) {
	path := queuesStore(t)
	r := run(t, "", "queues", "--store", path)
	if r.code != ExitOK || !strings.Contains(r.out, "claude-ai") || !strings.Contains(r.out, "reflect review --queue claude-ai") {
		t.Fatalf("queues: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r = run(t, "", "queues", "--store", path, "--json")
	var qs []queueInfo
	if err := json.Unmarshal([]byte(r.out), &qs); err != nil || len(qs) != 1 || qs[0].Queue != "claude-ai" || qs[0].Documents != 4 {
		t.Fatalf("queues --json: %v %+v", err, qs)
	}
	r = run(t, "", "review", "--queue", "claude-desktop", "--store", path)
	if r.code != ExitUsage || !strings.Contains(r.err, "queues in this store: claude-ai (4 docs)") {
		t.Fatalf("review --queue claude-desktop: exit %d %q", r.code, r.err)
	}
}

// reflect audit prints every decision with who, before and after, filtered.
func TestAuditListsDecisions(t *testing.T) {
	path := queuesStore(t)
	r := run(t, "", "audit", "--store", path, "--reviewer", "ann")
	if r.code != ExitOK || !strings.Contains(r.out, "ann") || !strings.Contains(r.out, "doc-000001") || !strings.Contains(r.out, "1.50") {
		t.Fatalf("audit: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r = run(t, "", "audit", "--store", path, "--json", "--document", "doc-000001")
	var e store.AuditEntry
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.out)), &e); err != nil || e.Who != "ann" || e.After != 1.5 || e.Action != store.ActionCorrect {
		t.Fatalf("audit --json: %v %+v (%q)", err, e, r.out)
	}
	if r = run(t, "", "audit", "--store", path, "--reviewer", "bob"); r.code != ExitOK || !strings.Contains(r.out, "no decisions match") {
		t.Fatalf("audit for nobody: %q", r.out)
	}
}

// stats --json says null where the text says n/a, and both report false
// alarms once flagged fields have been reviewed.
func TestStatsNullsAndFalseAlarms(t *testing.T) {
	empty := emptyStore(t)
	r := run(t, "", "stats", "--json", "--store", empty)
	var js map[string]any
	if err := json.Unmarshal([]byte(r.out), &js); err != nil {
		t.Fatal(err)
	}
	if v, ok := js["catch_rate"]; !ok || v != nil {
		t.Errorf("catch_rate on an empty store = %v (present %v), want null", v, ok)
	}
	if v, ok := js["false_alarm_rate"]; !ok || v != nil {
		t.Errorf("false_alarm_rate on an empty store = %v, want null", v)
	}
	if r = run(t, "", "stats", "--store", empty); !strings.Contains(r.out, "false alarms      : n/a") {
		t.Errorf("stats text:\n%s", r.out)
	}

	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := storetest.Populate(ctx, st, "c", 10); err != nil {
		t.Fatal(err)
	}
	rows, _ := st.Summaries(ctx, "c")
	var doc string
	for _, row := range rows {
		if row.Flagged > 0 {
			doc = row.DocID
			break
		}
	}
	if doc == "" {
		t.Fatal("no flagged document in the populated store")
	}
	res, _, _ := st.Result(ctx, "c", doc)
	var ds []store.Decision
	for _, f := range res.FlaggedFields {
		ds = append(ds, store.Decision{CorpusID: "c", DocID: doc, Field: f.Field, Action: store.ActionAccept, Reviewer: "ann"})
	}
	if _, err := st.Decide(ctx, ds...); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", "stats", "--store", path, "--json")
	js = nil
	if err := json.Unmarshal([]byte(r.out), &js); err != nil {
		t.Fatal(err)
	}
	if js["false_alarms"] != float64(len(ds)) || js["false_alarm_rate"] != 1.0 {
		t.Errorf("after accepting %d flags as they were: %v", len(ds), js)
	}
}

// TestRejectedInStatsExportAudit: a document rejected in the store (as X
// does) is counted by stats, left out of the export with a count on stderr,
// and listed by audit with its note; the skipped one is counted too.
func TestRejectedInStatsExportAudit(t *testing.T) {
	path := queuesStore(t) // claude-ai: doc-000001 reviewed (total corrected)
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, q := context.Background(), store.QueueCorpusID("claude-ai")
	for _, d := range []store.Decision{
		store.VerdictDecision(q, "doc-000002", "ann", store.ActionReject, "a packing slip"),
		store.VerdictDecision(q, "doc-000003", "ann", store.ActionSkip, "ask the vendor"),
	} {
		if _, err := st.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, "", "stats", "--store", path, "--json")
	var js map[string]any
	if err := json.Unmarshal([]byte(r.out), &js); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, r.out)
	}
	if js["rejected"] != 1.0 || js["skipped"] != 1.0 || js["reviewed"] != 1.0 {
		t.Errorf("stats --json: rejected %v skipped %v reviewed %v, want 1 1 1", js["rejected"], js["skipped"], js["reviewed"])
	}
	if r = run(t, "", "stats", "--store", path); !strings.Contains(r.out, "rejected, skipped : 1 not a document") {
		t.Errorf("stats text:\n%s", r.out)
	}

	out := filepath.Join(t.TempDir(), "golden.jsonl")
	r = run(t, "", "export", "--store", path, "--golden", out)
	if r.code != ExitOK || !strings.Contains(r.err, "wrote 1 reviewed document(s)") || !strings.Contains(r.err, "left out 1 rejected") {
		t.Fatalf("export: exit %d %q", r.code, r.err)
	}
	if b, err := os.ReadFile(out); err != nil || strings.Contains(string(b), "doc-000002") || !strings.Contains(string(b), "doc-000001") {
		t.Errorf("exported file: %v\n%s", err, b)
	}

	r = run(t, "", "audit", "--store", path, "--document", "doc-000002")
	if r.code != ExitOK || !strings.Contains(r.out, store.VerdictField) || !strings.Contains(r.out, "reject") || !strings.Contains(r.out, "a packing slip") {
		t.Errorf("audit of the rejected document:\n%s%s", r.out, r.err)
	}
}

// reflect queues names each corpus's file, and says when the file is no
// longer where it was opened; review --queue with an unknown name says a
// corpus file's path works too.
func TestQueuesNamesCorpusPaths(t *testing.T) {
	dir := t.TempDir()
	storePath := filepath.Join(dir, "q.db")
	corpus := filepath.Join(dir, "my receipts.jsonl")
	if err := os.WriteFile(corpus, []byte(`{"id":"a","text":"Total 1.00"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := golden.OpenCorpus(context.Background(), st, corpus, "receipt"); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "queues", "--store", storePath)
	if r.code != ExitOK || !strings.Contains(r.out, "PATH") || !strings.Contains(r.out, "reflect review '"+corpus+"'") {
		t.Fatalf("queues: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if err := os.Rename(corpus, filepath.Join(dir, "moved.jsonl")); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", "queues", "--store", storePath)
	if !strings.Contains(r.out, corpus+" (not there now)") {
		t.Fatalf("queues after the file moved:\n%s", r.out)
	}
	r = run(t, "", "review", "--queue", "receipts", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, "give its path instead: reflect review FILE.jsonl") {
		t.Fatalf("review --queue receipts: exit %d %q", r.code, r.err)
	}
	// New-user report (session 6): the name reflect queues lists for a
	// corpus file, given to --queue, says it is a file and how to open it.
	r = run(t, "", "review", "--queue", "my receipts", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, `"my receipts" is a corpus file, not an MCP queue, and `+corpus+" is not there now") {
		t.Fatalf("review --queue 'my receipts' after the move: exit %d %q", r.code, r.err)
	}
	if err := os.Rename(filepath.Join(dir, "moved.jsonl"), corpus); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", "review", "--queue", "my receipts", "--store", storePath)
	if r.code != ExitUsage || !strings.Contains(r.err, `"my receipts" is a corpus file, not an MCP queue: reflect review '`+corpus+"'") {
		t.Fatalf("review --queue 'my receipts': exit %d %q", r.code, r.err)
	}
	if r := run(t, "", "queues", "--store", storePath); !strings.HasPrefix(r.out, "NAME") {
		t.Errorf("queues header: %q, want NAME first (corpus files are not queues)", strings.SplitN(r.out, "\n", 2)[0])
	}
}
