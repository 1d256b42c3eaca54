package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/tui"
)

// A gateway deciding with a remote engine (REEFLEX_CORE_URL) files its held
// calls in the store's queues, but the holds are the engine's: an approver
// who looks in the store, or at a wrong address, is told which flag or
// variable names the engine.
func TestHoldsSayWhereTheEngineIs(t *testing.T) {
	env := map[string]string{"REEFLEX_AUTH_TOKEN": "gate", "REEFLEX_RESOLVER_TOKENS": `{"tok-ana":{"type":"human","id":"ana"}}`}
	url, _ := startCore(t, env, "--memory")
	_, d := post(t, url+"/v1/decide", "gate", heldEnvelope)
	holdID := d["hold_id"].(string)
	t.Setenv("REEFLEX_AUTH_TOKEN", "")
	hint := "--core-url URL (or REEFLEX_CORE_URL)"
	noCore := map[string]string{"REEFLEX_CORE_URL": "", "REEFLEX_CORE_TOKEN": ""}

	// In the store: no such hold, and where it may be instead.
	r := runWith(t, noCore, "", "holds", "approve", holdID, "--reviewer", "ana")
	if r.code != ExitUsage || !strings.Contains(r.err, "no hold "+holdID+" in the store") || !strings.Contains(r.err, "reflect holds approve|reject "+holdID+" "+hint) {
		t.Errorf("approve of a remote engine's hold on the store: exit %d, stderr %q", r.code, r.err)
	}
	for name, c := range map[string]struct {
		args []string
		code int
		want string
	}{
		"no scheme":          {[]string{"holds", "list", "--core-url", strings.TrimPrefix(url, "http://")}, ExitUsage, "want the running core's http(s) URL"},
		"nothing listening":  {[]string{"holds", "list", "--core-url", "http://127.0.0.1:1"}, ExitPipeline, "no core answers at http://127.0.0.1:1"},
		"a path after it":    {[]string{"holds", "list", "--core-url", url + "/mcp"}, ExitUsage, "404 not_found (is " + hint + " the core's address, with no path?)"},
		"no bearer":          {[]string{"holds", "list", "--core-url", url}, ExitUsage, "set REEFLEX_CORE_TOKEN, or REEFLEX_AUTH_TOKEN"},
		"freeze, no bearer":  {[]string{"core", "freeze", "status", "--core-url", url}, ExitUsage, "set REEFLEX_CORE_TOKEN, or REEFLEX_AUTH_TOKEN"},
		"freeze, no scheme":  {[]string{"core", "freeze", "status", "--core-url", "localhost:8080"}, ExitUsage, "like http://127.0.0.1:8080"},
		"no such hold there": {[]string{"holds", "show", "h-nope", "--core-url", url}, ExitUsage, "this core has no hold h-nope"},
	} {
		tok := map[string]string{"REEFLEX_CORE_URL": "", "REEFLEX_CORE_TOKEN": ""}
		if name == "no such hold there" {
			tok["REEFLEX_CORE_TOKEN"] = "gate"
		}
		r := runWith(t, tok, "", c.args...)
		if r.code != c.code || !strings.Contains(r.err, c.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q, want it to say %q", name, r.code, c.code, r.err, c.want)
		}
		if name != "no such hold there" && !strings.Contains(r.err, "REEFLEX_") {
			t.Errorf("%s: stderr %q names no variable to set", name, r.err)
		}
	}

	// REEFLEX_CORE_URL, as the gateway reads it, is where `holds` looks
	// too; a --store given on the command line wins over it.
	remote := map[string]string{"REEFLEX_CORE_URL": url, "REEFLEX_CORE_TOKEN": "gate"}
	if r := runWith(t, remote, "", "holds", "list"); r.code != 0 || !strings.Contains(r.out, holdID) {
		t.Errorf("holds list with REEFLEX_CORE_URL set: exit %d\n%s%s", r.code, r.out, r.err)
	}
	if r := runWith(t, remote, "", "holds", "list", "--store", filepath.Join(t.TempDir(), "mine.db")); r.code != 0 || !strings.Contains(r.out, "no holds") {
		t.Errorf("holds list --store with REEFLEX_CORE_URL set: exit %d\n%s%s", r.code, r.out, r.err)
	}
	// The engine refuses an approver it cannot verify and says how to fix it.
	r = runWith(t, remote, "", "holds", "approve", holdID, "--reviewer", "ana")
	if r.code != ExitUsage || !strings.Contains(r.err, "403 principal_not_verified") || !strings.Contains(r.err, "bind a resolver token to human:ana in REEFLEX_RESOLVER_TOKENS") {
		t.Errorf("unverified remote approver: exit %d, stderr %q", r.code, r.err)
	}
	remote["REEFLEX_CORE_TOKEN"] = "tok-ana"
	if r := runWith(t, remote, "", "holds", "approve", holdID, "--reviewer", "ana"); r.code != 0 || !strings.Contains(r.out, "approved by human:ana") {
		t.Errorf("verified remote approver: exit %d\n%s%s", r.code, r.out, r.err)
	}
}

// The workstation's y on a held call takes the same path: a hold the store's
// engine does not have is answered with where to approve it.
func TestWorkstationApprovalOfARemoteHoldNamesCoreURL(t *testing.T) {
	t.Setenv("REFLECT_STORE", filepath.Join(t.TempDir(), "reflect.db"))
	ef := engineFlags{store: storeFlags{reviewer: "ana"}}
	e, st, err := ef.engine(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	if _, _, err := st.EnqueueToolCall(ctx, "claude-code", store.ToolCall{HoldID: "h-remote", Client: "claude-code", Upstream: "notes", Tool: "delete_notes"}); err != nil {
		t.Fatal(err)
	}
	res := holdResolver{d: holdDecider{b: &localHolds{e: e, path: st.Path()}, st: st}, reviewer: "ana"}
	_, err = res.Resolve(ctx, "h-remote", true, "")
	if err == nil || !strings.Contains(err.Error(), "reflect holds approve|reject h-remote --core-url URL (or REEFLEX_CORE_URL)") {
		t.Errorf("y on a hold the store's engine lacks: %v", err)
	}
}

// review --queue NAME --core-url URL: the workstation's y resolves a held
// call on the remote engine the gateway decides with, as the approver its
// resolver token is bound to, and marks the call's queue item in the store.
func TestWorkstationApprovesOnARemoteEngine(t *testing.T) {
	env := map[string]string{"REEFLEX_AUTH_TOKEN": "gate", "REEFLEX_RESOLVER_TOKENS": `{"tok-ana":{"type":"human","id":"ana"}}`}
	url, _ := startCore(t, env, "--memory")
	_, d := post(t, url+"/v1/decide", "gate", heldEnvelope)
	holdID := d["hold_id"].(string)
	ctx := context.Background()
	storePath := filepath.Join(t.TempDir(), "reflect.db")
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.EnqueueToolCall(ctx, "claude-code", store.ToolCall{HoldID: holdID, Client: "claude-code",
		Upstream: "notes", Tool: "delete_notes", Arguments: json.RawMessage(`{"names":["a","b"]}`)}); err != nil {
		t.Fatal(err)
	}
	corpus, err := st.Corpus(ctx, store.QueueCorpusID("claude-code"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("REEFLEX_CORE_TOKEN", "tok-ana")
	c, err := newCoreClient(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tui.Config{Store: st, Corpus: corpus, Reviewer: "ana", NoColor: true,
		Holds: holdResolver{d: holdDecider{b: &remoteHolds{c: c}, st: st}, reviewer: "ana"}}
	tm := teatest.NewTestModel(t, tui.New(cfg), teatest.WithInitialTermSize(100, 30))
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("need review")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait("y approves")
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	wait("approved by ana")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	r := runWith(t, map[string]string{"REEFLEX_CORE_TOKEN": "gate", "REEFLEX_CORE_URL": url}, "", "holds", "show", holdID)
	if r.code != 0 || !strings.Contains(r.out, `"status":"approved"`) || !strings.Contains(r.out, `"decided_by":"human:ana"`) {
		t.Errorf("the remote engine's hold after y: exit %d\n%s%s", r.code, r.out, r.err)
	}
	doc, err := st.Document(ctx, corpus.ID, holdID)
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := store.ParseToolCall(doc); tc.Resolution == nil || !tc.Resolution.Approved || tc.Resolution.Reviewer != "ana" {
		t.Errorf("the queue item after y: %+v", tc.Resolution)
	}
	if r := run(t, "", "review", "some.jsonl", "--core-url", url); r.code != ExitUsage || !strings.Contains(r.err, "--core-url is for a client's queue") {
		t.Errorf("review FILE --core-url: exit %d %q", r.code, r.err)
	}
}

// review --queue reads REEFLEX_CORE_URL as holds does; a --policy on the
// command line means this store's engine, and with an explicit --core-url
// it is refused (a remote engine decides with its own pack).
func TestReviewQueueCoreURLFromTheEnvironment(t *testing.T) {
	storePath := queuesStore(t)
	pack := writeFile(t, "p.yaml", "rules: []\n")
	bad := map[string]string{"REEFLEX_CORE_URL": "core.internal:8080"}
	if r := runWith(t, bad, "", "review", "--queue", "claude-ai", "--store", storePath); r.code != ExitUsage || !strings.Contains(r.err, `core URL "core.internal:8080"`) {
		t.Errorf("REEFLEX_CORE_URL without a scheme: exit %d %q", r.code, r.err)
	}
	if r := runWith(t, bad, "", "review", "--queue", "claude-ai", "--store", storePath, "--policy", pack); strings.Contains(r.err, "core") || !strings.Contains(r.err, "needs a terminal") {
		t.Errorf("--policy with REEFLEX_CORE_URL set: exit %d %q; want the store's engine, not the variable's", r.code, r.err)
	}
	if r := runWith(t, bad, "", "review", "--queue", "claude-ai", "--store", storePath, "--policy", pack, "--core-url", "http://127.0.0.1:1"); r.code != ExitUsage || !strings.Contains(r.err, "--policy and --core-url do not go together") {
		t.Errorf("--policy --core-url: exit %d %q", r.code, r.err)
	}
}
