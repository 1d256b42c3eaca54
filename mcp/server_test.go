package mcp

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

func TestListTools(t *testing.T) {
	b := &scriptBuilder{}
	cs := connect(t, newTestServer(t, Config{Build: b.build, Store: openStore(t)}), "test")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcpsdk.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	// extract and validate write to the review queue and spend model budget:
	// a client must not auto-approve them as read-only. They add, never
	// delete, and a second call queues and spends again.
	for _, tc := range []struct {
		name      string
		readOnly  bool
		openWorld bool
		required  []string
	}{
		{"extract", false, true, []string{"text"}},
		{"validate", false, true, []string{"text", "data"}},
		{"review_status", true, false, []string{"trace_id"}},
	} {
		tl := tools[tc.name]
		if tl == nil {
			t.Fatalf("tool %s not listed (got %d tools)", tc.name, len(res.Tools))
		}
		a := tl.Annotations
		if a == nil || a.ReadOnlyHint != tc.readOnly || a.OpenWorldHint == nil || *a.OpenWorldHint != tc.openWorld {
			t.Errorf("%s: annotations %+v, want readOnly=%v and openWorld=%v", tc.name, a, tc.readOnly, tc.openWorld)
		}
		if !tc.readOnly && (a.DestructiveHint == nil || *a.DestructiveHint || a.IdempotentHint) {
			t.Errorf("%s: a writing tool must say destructive=false (it only adds) and idempotent=false: %+v", tc.name, a)
		}
		in, _ := tl.InputSchema.(map[string]any)
		if in["type"] != "object" {
			t.Errorf("%s: input schema type %v", tc.name, in["type"])
		}
		var req []string
		for _, r := range in["required"].([]any) {
			req = append(req, r.(string))
		}
		if !slices.Equal(req, tc.required) {
			t.Errorf("%s: required %v, want %v", tc.name, req, tc.required)
		}
		out, _ := tl.OutputSchema.(map[string]any)
		if props, _ := out["properties"].(map[string]any); props["status"] == nil || props["trace_id"] == nil {
			t.Errorf("%s: output schema lacks status/trace_id: %v", tc.name, out)
		}
	}
	if d := tools["validate"].Description; !strings.Contains(d, "flagged_fields") || !strings.Contains(d, "needs_review") {
		t.Errorf("validate's description does not tell a model when to trust data: %q", d)
	}
	props := tools["validate"].InputSchema.(map[string]any)["properties"].(map[string]any)
	for _, p := range []string{"text", "data", "schema", "field_threshold", "overall_threshold", "heuristics_only"} {
		if props[p] == nil {
			t.Errorf("validate: argument %s is not in the input schema", p)
		}
	}
	if ep := tools["extract"].InputSchema.(map[string]any)["properties"].(map[string]any); ep["data"] != nil {
		t.Error("extract advertises a data argument")
	}

	// Without a store there is no review loop to ask about.
	cs2 := connect(t, newTestServer(t, Config{Build: b.build}), "test")
	res2, err := cs2.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Tools) != 2 {
		t.Errorf("storeless server lists %d tools, want extract and validate", len(res2.Tools))
	}
}

func TestExtractWithCritic(t *testing.T) {
	gen, _ := json.Marshal(demoData(683.2))
	b := &scriptBuilder{generator: []string{string(gen)}, critic: []string{demoCritique}}
	cs := connect(t, newTestServer(t, Config{Build: b.build}), "test")
	env := call(t, cs, "extract", map[string]any{"text": demoText})
	if env["status"] != "needs_review" || !slices.Equal(flaggedNames(env), []string{"total"}) {
		t.Fatalf("extract: status %v flagged %v, want needs_review on total\n%v", env["status"], flaggedNames(env), env)
	}
	if env["critic_summary"] != "Total appears hallucinated; escalate." {
		t.Errorf("critic_summary %q", env["critic_summary"])
	}
	if o := b.last(t); !o.NeedGenerator || o.HeuristicsOnly || o.Schema.Name != "invoice" || o.Gate != pipeline.DefaultGate() {
		t.Errorf("extract built with %+v", o)
	}
	prov := env["field_provenance"].(map[string]any)["vendor_name"].([]any)[0].(map[string]any)
	if runes := []rune(demoText); string(runes[int(prov["start"].(float64)):int(prov["end"].(float64))]) != "Globex Ltd" {
		t.Errorf("vendor_name provenance %v does not point at Globex Ltd", prov)
	}
	if !strings.HasPrefix(env["trace_id"].(string), "trace-") {
		t.Errorf("trace_id %v", env["trace_id"])
	}
}

func TestValidateOK(t *testing.T) {
	b := &scriptBuilder{}
	cs := connect(t, newTestServer(t, Config{Build: b.build}), "test")
	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true})
	if env["status"] != "ok" || len(flaggedNames(env)) != 0 {
		t.Fatalf("validate of correct data: %v", env)
	}
	if o := b.last(t); o.NeedGenerator || !o.HeuristicsOnly {
		t.Errorf("validate heuristics_only built %+v: it must need no provider client", o)
	}
	if env["data"].(map[string]any)["total"] != 583.2 {
		t.Errorf("data %v", env["data"])
	}
	// A client that can only send strings: data as JSON text, flags as text.
	env = call(t, cs, "validate", map[string]any{"text": demoText, "heuristics_only": "true",
		"data": `{"vendor_name":"Globex Ltd","total":583.2}`, "field_threshold": "0.8"})
	if env["status"] == "error" {
		t.Fatalf("string-typed arguments: %v", env)
	}
	if g := b.last(t).Gate.FieldThreshold; g != 0.8 {
		t.Errorf("field_threshold \"0.8\" gave gate %v", g)
	}
}

func TestInlineSchema(t *testing.T) {
	b := &scriptBuilder{}
	cs := connect(t, newTestServer(t, Config{Build: b.build}), "test")
	schema := map[string]any{
		"name": "po", "version": "1",
		"fields": []any{
			map[string]any{"name": "po_number", "kind": "identifier"},
			map[string]any{"name": "gross", "kind": "money", "role": "total"},
		},
	}
	text := "Purchase order PO-7781. Total: 120.00 EUR"
	env := call(t, cs, "validate", map[string]any{"text": text, "schema": schema, "heuristics_only": true,
		"data": map[string]any{"po_number": "PO-7781", "gross": 120}})
	if env["status"] != "ok" || env["schema"] != "po" {
		t.Fatalf("inline schema: %v", env)
	}
	if b.last(t).Schema.Name != "po" {
		t.Errorf("builder got schema %q", b.last(t).Schema.Name)
	}
	env = call(t, cs, "validate", map[string]any{"text": text, "schema": "invoice", "heuristics_only": true,
		"data": map[string]any{"invoice_number": "PO-7781"}})
	if env["status"] == "error" || env["schema"] != "invoice" {
		t.Fatalf("built-in schema by name: %v", env)
	}
}

func TestErrorEnvelopes(t *testing.T) {
	garbage := &scriptBuilder{generator: []string{"I could not find an invoice, sorry!"}}
	ok := &scriptBuilder{}
	failing := &scriptBuilder{err: errNoKey}
	good := demoData(583.2)
	for _, tc := range []struct {
		name string
		b    *scriptBuilder
		tool string
		args any
		want string
	}{
		{"empty text", ok, "extract", map[string]any{"text": ""}, "text is empty"},
		{"blank text", ok, "validate", map[string]any{"text": " \n\t", "data": good}, "text is empty"},
		{"missing text", ok, "extract", map[string]any{}, "text is required"},
		{"text not a string", ok, "extract", map[string]any{"text": 42}, "text must be a string"},
		{"invalid UTF-8 bytes", ok, "validate", json.RawMessage("{\"text\":\"Globex \xff\xfe Ltd\",\"data\":{}}"), "not valid UTF-8"},
		{"lone surrogate", ok, "extract", json.RawMessage(`{"text":"Globex \udc80 Ltd"}`), "not valid UTF-8"},
		{"NaN threshold", ok, "extract", map[string]any{"text": demoText, "field_threshold": "NaN"}, "field_threshold must be a number in [0,1]"},
		{"threshold 1.5", ok, "validate", map[string]any{"text": demoText, "data": good, "overall_threshold": 1.5}, "overall_threshold must be a number in [0,1]"},
		{"negative threshold", ok, "validate", map[string]any{"text": demoText, "data": good, "field_threshold": -0.1}, "field_threshold must be a number in [0,1]"},
		{"threshold not a number", ok, "validate", map[string]any{"text": demoText, "data": good, "field_threshold": "high"}, "field_threshold must be a number"},
		{"unknown data field", ok, "validate", map[string]any{"text": demoText, "heuristics_only": true,
			"data": map[string]any{"vendor_name": "Globex Ltd", "totl": 583.2}}, `field "totl" is not in schema`},
		{"data of the wrong type", ok, "validate", map[string]any{"text": demoText, "heuristics_only": true,
			"data": map[string]any{"total": true}}, `field "total"`},
		{"data not an object", ok, "validate", map[string]any{"text": demoText, "data": []any{1, 2}}, "data must be a JSON object"},
		{"missing data", ok, "validate", map[string]any{"text": demoText}, "data is required"},
		{"unknown argument", ok, "extract", map[string]any{"text": demoText, "threshold": 0.9}, "unknown argument(s) threshold"},
		{"unknown schema name", ok, "extract", map[string]any{"text": demoText, "schema": "/etc/passwd"}, "not a built-in schema"},
		{"bad inline schema", ok, "extract", map[string]any{"text": demoText, "schema": map[string]any{"name": "x"}}, "declares no fields"},
		{"heuristics_only not a bool", ok, "extract", map[string]any{"text": demoText, "heuristics_only": "maybe"}, "heuristics_only must be true or false"},
		{"generator returns garbage", garbage, "extract", map[string]any{"text": demoText, "heuristics_only": true}, "generator"},
		{"builder fails", failing, "extract", map[string]any{"text": demoText}, "ANTHROPIC_API_KEY is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, newTestServer(t, Config{Build: tc.b.build}), "test")
			env := call(t, cs, tc.tool, tc.args)
			msg, _ := env["error_message"].(string)
			if env["status"] != "error" || !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) {
				t.Fatalf("got %v, want an error envelope mentioning %q", env, tc.want)
			}
			if tr, _ := env["trace_id"].(string); !strings.HasPrefix(tr, "trace-") {
				t.Errorf("error envelope without a trace id: %v", env)
			}
		})
	}
}

func TestThresholdFloor(t *testing.T) {
	b := &scriptBuilder{}
	args := func(extra map[string]any) map[string]any {
		m := map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cs := connect(t, newTestServer(t, Config{Build: b.build}), "test")

	env := call(t, cs, "validate", args(map[string]any{"field_threshold": 0.0, "overall_threshold": 0.5}))
	notes, _ := env["notes"].(string)
	for _, want := range []string{"field_threshold raised from 0.0 to 0.7.", "overall_threshold raised from 0.5 to 0.75."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	if g := b.last(t).Gate; g != pipeline.DefaultGate() {
		t.Errorf("an agent lowered the gate to %+v", g)
	}

	env = call(t, cs, "validate", args(map[string]any{"field_threshold": 0.9, "overall_threshold": 0.95}))
	if g := b.last(t).Gate; g.FieldThreshold != 0.9 || g.OverallThreshold != 0.95 {
		t.Errorf("stricter thresholds not honoured: %+v", g)
	}
	if strings.Contains(env["notes"].(string), "raised") {
		t.Errorf("a stricter threshold was reported as raised: %q", env["notes"])
	}

	// The operator may lower the floor; then a low argument stands.
	cs = connect(t, newTestServer(t, Config{Build: b.build, Getenv: envMap(map[string]string{
		EnvFieldThreshold: "0", EnvOverallThreshold: " 0.2 "})}), "test")
	call(t, cs, "validate", args(map[string]any{"field_threshold": 0.1}))
	if g := b.last(t).Gate; g.FieldThreshold != 0.1 || g.OverallThreshold != 0.2 {
		t.Errorf("operator floor 0/0.2 with field_threshold 0.1 gave %+v", g)
	}

	for _, bad := range []map[string]string{
		{EnvFieldThreshold: "abc"},
		{EnvFieldThreshold: "NaN"},
		{EnvOverallThreshold: "inf"},
		{EnvOverallThreshold: "1.5"},
		{EnvFieldThreshold: "-0.1"},
	} {
		nb := &scriptBuilder{}
		cs := connect(t, newTestServer(t, Config{Build: nb.build, Getenv: envMap(bad)}), "test")
		for _, tool := range []string{"extract", "validate"} {
			env := call(t, cs, tool, args(map[string]any{"field_threshold": 0.99}))
			msg, _ := env["error_message"].(string)
			if env["status"] != "error" || !strings.Contains(msg, "REFLECT_") || !strings.Contains(msg, "malformed") {
				t.Errorf("floor %v, %s: %v", bad, tool, env)
			}
		}
		if len(nb.calls) != 0 {
			t.Errorf("floor %v: a pipeline was built despite the malformed floor", bad)
		}
	}
}

func TestReviewLoop(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	b := &scriptBuilder{}
	cs := connect(t, newTestServer(t, Config{Build: b.build, Store: st}), "Claude Desktop")

	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(683.2), "heuristics_only": true})
	if env["status"] != "needs_review" || !slices.Equal(flaggedNames(env), []string{"total"}) {
		t.Fatalf("README demo: %v", env)
	}
	trace := env["trace_id"].(string)
	if !strings.Contains(env["notes"].(string), `queue "claude-desktop"`) {
		t.Errorf("notes do not say where the result was queued: %q", env["notes"])
	}

	ans := call(t, cs, "review_status", map[string]any{"trace_id": trace})
	if ans["status"] != "pending" || ans["trace_id"] != trace || ans["queue"] != "claude-desktop" || ans["record"] != nil {
		t.Fatalf("before review: %v", ans)
	}

	// The reviewer's side, exactly as `reflect review --queue claude-desktop`
	// sees it once the entry is committed behind the answer.
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	corpusID, docID, ok, err := st.FindTrace(ctx, trace)
	if err != nil || !ok || corpusID != "mcp:claude-desktop" {
		t.Fatalf("FindTrace: %q %q %v %v", corpusID, docID, ok, err)
	}
	sums, err := st.Summaries(ctx, corpusID)
	if err != nil || len(sums) != 1 || sums[0].Status != pipeline.StatusNeedsReview || sums[0].Flagged != 1 {
		t.Fatalf("queue summaries: %+v %v", sums, err)
	}
	doc, err := st.Document(ctx, corpusID, docID)
	if err != nil || doc.Text != demoText {
		t.Fatalf("queued document: %+v %v", doc, err)
	}
	at := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	if _, err := st.Decide(ctx, store.Decision{CorpusID: corpusID, DocID: docID, Field: "total", Action: store.ActionCorrect,
		Value: 583.2, Original: 683.2, Reviewer: "alice", At: at}); err != nil {
		t.Fatal(err)
	}

	ans = call(t, cs, "review_status", map[string]any{"trace_id": trace})
	rec, _ := ans["record"].(map[string]any)
	unrev, _ := ans["unreviewed"].(map[string]any)
	// Only the total was decided: the vendor nobody looked at is not
	// labelled human-confirmed.
	if _, ok := rec["vendor_name"]; ok || unrev["vendor_name"] != "Globex Ltd" {
		t.Errorf("after review: record %v unreviewed %v, want vendor_name only as unreviewed", rec, unrev)
	}
	if ans["status"] != "reviewed" || rec["total"] != 583.2 ||
		ans["reviewer"] != "alice" || ans["reviewed_at"] != "2026-03-02T09:30:00Z" {
		t.Fatalf("after review: %v", ans)
	}

	// ok results are not queued, so their trace is unknown.
	okEnv := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true})
	if okEnv["status"] != "ok" {
		t.Fatalf("correct data: %v", okEnv)
	}
	if ans := call(t, cs, "review_status", map[string]any{"trace_id": okEnv["trace_id"]}); ans["status"] != "unknown" {
		t.Errorf("ok result's trace: %v", ans)
	}
	for _, bad := range []map[string]any{{}, {"trace_id": ""}, {"trace_id": 7}, {"trace_id": "x", "extra": 1}} {
		if ans := call(t, cs, "review_status", bad); ans["status"] != "error" || ans["error_message"] == "" {
			t.Errorf("review_status(%v): %v", bad, ans)
		}
	}
}

func TestQueueName(t *testing.T) {
	for in, want := range map[string]string{
		"Claude Desktop":         "claude-desktop",
		"claude-ai":              "claude-ai",
		"cursor-vscode":          "cursor-vscode",
		"":                       "mcp",
		"  !!! ":                 "mcp",
		"Zed/Editor v1.2 (mac)":  "zed-editor-v1.2-mac",
		strings.Repeat("a", 100): strings.Repeat("a", 64),
	} {
		if got := queueName(in); got != want {
			t.Errorf("queueName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The config goes to stdout alone, so `reflect mcp --print-config CLIENT >
// FILE` writes a valid file for every client; Claude Code's `claude mcp
// add` alternative goes to the hint writer (stderr).
func TestPrintConfig(t *testing.T) {
	for _, client := range []string{ClientClaudeDesktop, ClientCursor, ClientClaudeCode} {
		var sb, hint strings.Builder
		if err := PrintConfig(&sb, &hint, client, "bin/reflect"); err != nil {
			t.Fatal(err)
		}
		out := sb.String()
		js := out
		if client == ClientClaudeCode {
			h := strings.TrimSpace(hint.String())
			if !strings.Contains(h, "claude mcp add reflect -- /") || !strings.HasSuffix(h, "/bin/reflect mcp") {
				t.Errorf("claude-code hint: %q", h)
			}
		} else if hint.Len() != 0 {
			t.Errorf("%s: hint %q", client, hint.String())
		}
		var cfg struct {
			Servers map[string]struct {
				Command string            `json:"command"`
				Args    []string          `json:"args"`
				Env     map[string]string `json:"env"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(js), &cfg); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", client, err, out)
		}
		e := cfg.Servers["reflect"]
		if !strings.HasPrefix(e.Command, "/") || !slices.Equal(e.Args, []string{"mcp"}) || e.Env["REFLECT_PROVIDER"] == "" ||
			e.Env[EnvFieldThreshold] != "0.70" {
			t.Errorf("%s: entry %+v", client, e)
		}
		// Pasted as printed it works: keyless, no placeholder key.
		if e.Env["REFLECT_PROVIDER"] != "local" || strings.Contains(out, "API_KEY") || strings.Contains(out, "...") {
			t.Errorf("%s: not a keyless config as printed:\n%s", client, out)
		}
	}
	if err := PrintConfig(&strings.Builder{}, io.Discard, "emacs", "reflect"); err == nil {
		t.Error("unknown client accepted")
	}
}

// The text size limit is the built pipeline's (the operator's
// --max-text-bytes), not a constant of the server: a text over the default
// passes when the operator raised the limit, and one under it fails when the
// operator lowered it.
func TestTextLimitIsTheOperators(t *testing.T) {
	limited := func(max int) Builder {
		return func(_ context.Context, o BuildOptions) (*pipeline.Pipeline, error) {
			return pipeline.New(pipeline.Config{Schema: o.Schema, Gate: o.Gate, MaxTextBytes: max})
		}
	}
	big := demoText + strings.Repeat(" ", pipeline.DefaultMaxTextBytes)
	args := map[string]any{"text": big, "data": demoData(583.2), "heuristics_only": true}
	cs := connect(t, newTestServer(t, Config{Build: limited(2 * pipeline.DefaultMaxTextBytes)}), "test")
	if env := call(t, cs, "validate", args); env["status"] == "error" {
		t.Fatalf("a text under the operator's raised limit was refused: %v", env["error_message"])
	}
	cs = connect(t, newTestServer(t, Config{Build: limited(100)}), "test")
	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(583.2), "heuristics_only": true})
	if msg, _ := env["error_message"].(string); env["status"] != "error" || !strings.Contains(msg, "100-byte limit") {
		t.Fatalf("a text over the operator's lowered limit: %v", env)
	}
}

// TestReviewStatusRejected: a queued result the reviewer rejected as not a
// document answers "rejected" with the note and no record; one set aside
// with a note is still pending and carries the note.
func TestReviewStatusRejected(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	cs := connect(t, newTestServer(t, Config{Build: (&scriptBuilder{}).build, Store: st}), "Claude Desktop")
	env := call(t, cs, "validate", map[string]any{"text": demoText, "data": demoData(683.2), "heuristics_only": true})
	trace := env["trace_id"].(string)
	if err := st.Flush(ctx); err != nil { // committed behind the answer
		t.Fatal(err)
	}
	corpusID, docID, ok, err := st.FindTrace(ctx, trace)
	if err != nil || !ok {
		t.Fatalf("FindTrace: %v %v", ok, err)
	}
	if _, err := st.Decide(ctx, store.VerdictDecision(corpusID, docID, "alice", store.ActionSkip, "which total?")); err != nil {
		t.Fatal(err)
	}
	if ans := call(t, cs, "review_status", map[string]any{"trace_id": trace}); ans["status"] != "pending" || ans["note"] != "which total?" {
		t.Errorf("skipped: %v, want pending with the note", ans)
	}
	if _, err := st.Decide(ctx, store.VerdictDecision(corpusID, docID, "alice", store.ActionReject, "a quote, not an invoice")); err != nil {
		t.Fatal(err)
	}
	ans := call(t, cs, "review_status", map[string]any{"trace_id": trace})
	if ans["status"] != "rejected" || ans["note"] != "a quote, not an invoice" || ans["reviewer"] != "alice" ||
		ans["record"] != nil || ans["reviewed_at"] == nil {
		t.Errorf("rejected: %v, want status rejected, the note, the reviewer, no record", ans)
	}
}
