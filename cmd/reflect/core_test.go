package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
)

// syncBuf is a stdout the test can read while the server writes it.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var listenRE = regexp.MustCompile(`listening on (http://\S+)`)

// startCore runs `reflect core serve` in process on a free port and returns
// its URL and a stop function that cancels it the way SIGTERM does (main's
// signal context) and returns Run's error and stderr.
func startCore(t *testing.T, env map[string]string, args ...string) (string, func() (string, error)) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out, errb := &syncBuf{}, &syncBuf{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, append([]string{"core", "serve", "--port", "0"}, args...), Stdio{In: strings.NewReader(""), Out: out, Err: errb})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := listenRE.FindStringSubmatch(out.String()); m != nil {
			stopped := false
			stop := func() (string, error) {
				if stopped {
					return errb.String(), nil
				}
				stopped = true
				cancel()
				err := <-done
				return errb.String(), err
			}
			t.Cleanup(func() { stop() })
			return m[1], stop
		}
		select {
		case err := <-done:
			t.Fatalf("core serve exited: %v, stderr %s", err, errb.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	t.Fatalf("core serve printed no address; stdout %q", out.String())
	return "", nil
}

func post(t *testing.T, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%d %s", r.StatusCode, b)
	}
	return r.StatusCode, m
}

const heldEnvelope = `{"agent":{"id":"agent:bot","session_id":"s1"},"action":{"verb":"delete","ability":"notes/delete_notes"},
	"target":{"environment":"production"},"magnitude":{"count":25},"params":{"arguments":{"names":["a","b"]}},
	"axes":{"reversibility":"irreversible","blast_radius":"broad","externality":"internal"}}`

func TestCoreServeRestartMidHold(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "reflect.db")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	env := map[string]string{"REEFLEX_AUTH_TOKEN": "gate", "REEFLEX_AUDIT_LOG": audit, "REEFLEX_HOST": "127.0.0.1"}
	url, stop := startCore(t, env, "--store", dbPath)
	if r, err := http.Get(url + "/healthz"); err != nil || r.StatusCode != 200 {
		t.Fatalf("healthz %v %v", r, err)
	}
	st, d := post(t, url+"/v1/decide", "gate", heldEnvelope)
	if st != 200 || d["decision"] != "require_approval" {
		t.Fatalf("%d %v", st, d)
	}
	holdID := d["hold_id"].(string)
	if st, _ := post(t, url+"/v1/decide", "", heldEnvelope); st != 401 {
		t.Fatalf("no bearer: %d", st)
	}
	if stderr, err := stop(); err != nil || !strings.Contains(stderr, "stopped") {
		t.Fatalf("stop: %v %s", err, stderr)
	}

	// Between the two runs the reviewer approves on the store file.
	r := run(t, "", "holds", "list", "--store", dbPath, "--json")
	if r.code != 0 || !strings.Contains(r.out, `"id":"`+holdID+`"`) || !strings.Contains(r.out, `"status":"pending"`) {
		t.Fatalf("list: %+v", r)
	}
	r = run(t, "", "holds", "approve", holdID, "--store", dbPath, "--reviewer", "ana", "--reason", "checked the list")
	if r.code != 0 || !strings.Contains(r.out, "approved by human:ana") {
		t.Fatalf("approve: %+v", r)
	}

	url, stop = startCore(t, env, "--store", dbPath)
	resub := strings.Replace(heldEnvelope, `"axes"`, `"approval":{"present":true,"hold_id":"`+holdID+`"},"axes"`, 1)
	other := strings.Replace(resub, `["a","b"]`, `["c","d"]`, 1)
	if _, d := post(t, url+"/v1/decide", "gate", other); d["reason"] != "reeflex_hold_envelope_mismatch" {
		t.Fatalf("other arguments after restart: %v", d)
	}
	st, d2 := post(t, url+"/v1/decide", "gate", resub)
	if st != 200 || d2["rule"] != "reeflex.policy/approved_resubmission" || d2["parent_decision_id"] != d["decision_id"] {
		t.Fatalf("%d %v", st, d2)
	}
	if _, d := post(t, url+"/v1/decide", "gate", resub); d["reason"] != "reeflex_hold_consumed" {
		t.Fatalf("second use: %v", d)
	}
	stop()
	r = run(t, "", "holds", "show", holdID, "--store", dbPath)
	if !strings.Contains(r.out, `"status":"consumed","decided_by":"human:ana","decided_by_verified":true,"principal_source":"local"`) ||
		!strings.Contains(r.out, `"reason":"checked the list"`) {
		t.Fatalf("show: %+v", r)
	}
}

func TestCoreFreezeAndRemoteHolds(t *testing.T) {
	env := map[string]string{"REEFLEX_AUTH_TOKEN": "gate", "REEFLEX_RESOLVER_TOKENS": `{"tok-ana":{"type":"human","id":"ana"}}`}
	url, _ := startCore(t, env, "--memory")
	_, d := post(t, url+"/v1/decide", "gate", heldEnvelope)
	holdID := d["hold_id"].(string)

	r := runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "gate"}, "", "holds", "list", "--core-url", url)
	if r.code != 0 || !strings.Contains(r.out, holdID) || !strings.Contains(r.out, "irreversible_broad_prod") {
		t.Fatalf("remote list: %+v", r)
	}
	// The REST route verifies approvers: the gate token is bound to nobody.
	r = runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "gate"}, "", "holds", "approve", holdID, "--core-url", url, "--reviewer", "ana")
	if r.code != ExitUsage || !strings.Contains(r.err, "403 principal_not_verified") {
		t.Fatalf("unverified remote approve: %+v", r)
	}
	r = runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "tok-ana"}, "", "holds", "approve", holdID, "--core-url", url, "--reviewer", "ana")
	if r.code != 0 || !strings.Contains(r.out, "approved by human:ana") {
		t.Fatalf("verified remote approve: %+v", r)
	}
	r = runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "gate"}, "", "holds", "show", holdID, "--core-url", url)
	if !strings.Contains(r.out, `"principal_source":"credential"`) {
		t.Fatalf("show: %+v", r)
	}

	tok := map[string]string{"REEFLEX_CORE_TOKEN": "gate"}
	if r := runWith(t, tok, "", "core", "freeze", "on", "--core-url", url); r.code != 0 || !strings.Contains(r.out, `{"frozen":true,"source":"switch"}`) {
		t.Fatalf("freeze on: %+v", r)
	}
	write := `{"agent":{"session_id":"s9"},"action":{"verb":"update"},"target":{"environment":"dev"}}`
	if _, d := post(t, url+"/v1/decide", "gate", write); d["rule"] != "reeflex.policy/frozen" {
		t.Fatalf("frozen: %v", d)
	}
	if r := runWith(t, tok, "", "core", "freeze", "off", "--core-url", url); r.code != 0 {
		t.Fatalf("freeze off: %+v", r)
	}
	if _, d := post(t, url+"/v1/decide", "gate", write); d["decision"] != "allow" {
		t.Fatalf("thawed: %v", d)
	}
	if r := runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "nope"}, "", "core", "freeze", "on", "--core-url", url); r.code == 0 || !strings.Contains(r.err, "401") {
		t.Fatalf("bad token: %+v", r)
	}
}

func TestCoreServeFlagErrors(t *testing.T) {
	pack := writeFile(t, "p.yaml", "rules:\n  - id: x\n    verdict: deny\n    reason: r\n")
	if r := run(t, "", "core", "serve", "--memory", "--policy", pack); r.code != ExitUsage || !strings.Contains(r.err, "p.yaml:2: rule x is missing priority") {
		t.Fatalf("%+v", r)
	}
	budgets := writeFile(t, "b.json", `{"default_budgets":{"deletes":{"limit":1}}}`)
	if r := run(t, "", "core", "serve", "--memory", "--budgets", budgets); r.code != ExitUsage || !strings.Contains(r.err, "unknown budget dimension") {
		t.Fatalf("%+v", r)
	}
	if r := run(t, "", "core", "bogus"); r.code != ExitUsage {
		t.Fatalf("%+v", r)
	}
	if r := run(t, "", "holds", "approve"); r.code != ExitUsage {
		t.Fatalf("%+v", r)
	}
}

func TestPolicyCheck(t *testing.T) {
	good := writeFile(t, "ok.yaml", `
rules:
  - id: acme/no_friday_deploys
    priority: 450
    verdict: deny
    reason: no deploys on Friday afternoon in Berlin
    when:
      all:
        - {field: action.verb, eq: execute}
        - time: {zone: Europe/Berlin, from: "12:00", to: "24:00", days: [fri]}
examples:
  - name: friday deploy
    now: "2026-12-04T14:00:00Z"
    envelope: {agent: {session_id: s}, action: {verb: deploy}, target: {environment: staging}}
    expect: {decision: deny, rule: acme/no_friday_deploys}
  - name: thursday deploy
    now: "2026-12-03T14:00:00Z"
    envelope: {agent: {session_id: s}, action: {verb: deploy}, target: {environment: staging}}
    expect: {decision: allow}
`)
	r := run(t, "", "policy", "check", good)
	if r.code != 0 || !strings.Contains(r.out, "2 examples pass") || !strings.Contains(r.out, "7 rules loaded") {
		t.Fatalf("%+v", r)
	}
	bad := writeFile(t, "bad.yaml", `
examples:
  - name: wrong
    envelope: {agent: {session_id: s}, action: {verb: read}, target: {environment: dev}, axes: {externality: internal}}
    expect: {rule: reeflex.policy/default_allow}
`)
	r = run(t, "", "policy", "check", bad)
	if r.code != ExitNeedsReview || !strings.Contains(r.out, "FAIL wrong") || !strings.Contains(r.err, "1 of 1 examples failed") {
		t.Fatalf("%+v", r)
	}
	broken := writeFile(t, "broken.yaml", "rules:\n  - id: x\n    priority: 1\n    verdict: deny\n    reason: r\n    when: {field: target.environment, eq: prod}\n")
	r = run(t, "", "policy", "check", broken)
	if r.code != ExitUsage || !strings.Contains(r.err, `broken.yaml:6: unknown value "prod" for target.environment`) {
		t.Fatalf("%+v", r)
	}
}

// New user report #15: approving a hold whose arguments carry a flagged,
// unsettled extracted value says that the approval waits on it; once a
// reviewer settles the extraction nothing more is said.
func TestHoldsApproveSaysItWaitsOnTheExtraction(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "reflect.db")
	env := map[string]string{"REEFLEX_AUTH_TOKEN": "gate", "REEFLEX_AUDIT_LOG": filepath.Join(t.TempDir(), "audit.jsonl"), "REEFLEX_HOST": "127.0.0.1"}
	var holds []string
	url, stop := startCore(t, env, "--store", dbPath)
	for _, names := range []string{`["a","b"]`, `["c","d"]`} {
		_, d := post(t, url+"/v1/decide", "gate", strings.Replace(heldEnvelope, `["a","b"]`, names, 1))
		id, _ := d["hold_id"].(string)
		if id == "" {
			t.Fatalf("no hold: %v", d)
		}
		holds = append(holds, id)
	}
	if _, err := stop(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := pipeline.Result{ID: "doc-1", TraceID: "trace-abc", Status: pipeline.StatusNeedsReview, Schema: "invoice",
		Data: pipeline.Record{"total": 683.2}, FlaggedFields: []pipeline.FlaggedField{{Field: "total", Value: 683.2, Confidence: 0.4}}}
	corpusID, _, err := st.Enqueue(ctx, "claude-code", store.Document{ID: "doc-1", Text: "Total 583.20"}, "v1", res)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range holds {
		if _, _, err := st.EnqueueToolCall(ctx, "claude-code", store.ToolCall{HoldID: id, Client: "claude-code", Upstream: "notes", Tool: "delete_notes",
			Linked: &store.LinkedValue{TraceID: "trace-abc", Field: "total", Value: "683.2", Argument: "amount"}}); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, "", "holds", "approve", holds[0], "--store", dbPath, "--reviewer", "ana")
	if r.code != 0 || !strings.Contains(r.out, "approved by human:ana") || !strings.Contains(r.out, "waits on extraction trace-abc") {
		t.Fatalf("approve with an unsettled linked value: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: corpusID, DocID: "doc-1", Field: "total", Action: store.ActionCorrect, Value: 583.2, Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", "holds", "approve", holds[1], "--store", dbPath, "--reviewer", "ana")
	if r.code != 0 || strings.Contains(r.out, "waits on") {
		t.Fatalf("approve once the extraction is settled: exit %d\n%s%s", r.code, r.out, r.err)
	}
}
