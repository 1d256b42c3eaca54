package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/mcp"
	"github.com/reflect-mcp/reflect/providers"
	"github.com/reflect-mcp/reflect/store"
)

// Every verb answers --help on stdout with exit 0.
func TestEveryVerbHelp(t *testing.T) {
	for _, v := range verbs() {
		r := run(t, "", v.name, "--help")
		if r.code != ExitOK || !strings.Contains(r.out, "Usage: reflect "+v.name) {
			t.Errorf("%s --help: exit %d, stdout %q", v.name, r.code, r.out)
		}
	}
}

// A flag value that cannot mean what it says is a usage error in every verb
// that takes it, not a value quietly bent into another (a NaN budget that
// never stops spending, a 0-byte limit that refuses every document).
func TestPipelineFlagsAreCheckedInEveryVerb(t *testing.T) {
	f := writeFile(t, "inv.txt", demoText)
	corpus := writeFile(t, "c.jsonl", fakeCorpus(2))
	verbArgs := map[string][]string{
		"extract":  {"extract", "--provider", "local", "--file", f},
		"validate": {"validate", "--heuristics-only", "--file", f, "--data", demoWrong},
		"eval":     {"eval"},
		"review":   {"review", corpus},
		"mcp":      {"mcp"},
	}
	for _, bad := range [][]string{
		{"--max-text-bytes", "0"},
		{"--max-text-bytes", "-1"},
		{"--retries", "-1"},
		{"--max-cost", "NaN"},
		{"--max-cost", "+Inf"},
		{"--max-cost", "-1"},
		{"--max-tokens-per-doc", "-5"},
		{"--provider", "skynet"},
	} {
		for verb, args := range verbArgs {
			r := run(t, "", append(append([]string(nil), args...), bad...)...)
			if r.code != ExitUsage || !strings.Contains(r.err, bad[0]) && bad[0] != "--provider" {
				t.Errorf("%s %v: exit %d, want 2 naming the flag; stderr %q", verb, bad, r.code, r.err)
			}
		}
	}
}

// reflect mcp gates with the operator's floor from the environment: a
// threshold flag would be silently ignored, so it is refused.
func TestMCPRefusesThresholdFlags(t *testing.T) {
	for _, flag := range []string{"--field-threshold", "--overall-threshold"} {
		r := run(t, "", "mcp", flag, "0.9")
		if r.code != ExitUsage || !strings.Contains(r.err, mcp.EnvFieldThreshold) {
			t.Errorf("mcp %s: exit %d, stderr %q", flag, r.code, r.err)
		}
	}
}

// reflect mcp --record writes every model reply the server's pipelines
// received, extract's and validate's alike, to one fixture when it stops.
func TestMCPRecordsEveryPipeline(t *testing.T) {
	srv := newFakeOpenAI(t, 0)
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-x")
	t.Setenv("REFLECT_PROVIDER", "")
	fixture := filepath.Join(t.TempDir(), "mcp.replay.json")
	var pf pipelineFlags
	fs := newFlagSet("mcp", "", Stdio{Out: io.Discard, Err: io.Discard})
	pf.register(fs)
	if err := fs.Parse([]string{"--provider", "openai", "--record", fixture, "--cache", filepath.Join(t.TempDir(), "c.db")}); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	envs := &envCache{pf: pf, log: log, res: &runRes{record: pf.record}}
	s, err := mcp.NewServer(mcp.Config{Build: envs.build, Logger: log, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := s.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	textA, textB := "From: Acme Ltd\nInvoice #A-1\nTotal: 10.50 USD", "From: Acme Ltd\nInvoice #B-2\nTotal: 20.50 USD"
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"extract", map[string]any{"text": textA}},
		{"validate", map[string]any{"text": textB, "data": map[string]any{"vendor_name": "Acme Ltd", "total": 20.5}}},
	} {
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.tool, err, res)
		}
	}
	_ = cs.Close()
	_ = ss.Wait()
	if err := envs.Close(); err != nil {
		t.Fatal(err)
	}
	fix, err := providers.LoadFixture(fixture)
	if err != nil {
		t.Fatalf("no fixture written: %v", err)
	}
	got := map[string]bool{}
	for _, e := range fix.Entries {
		got[e.Purpose+"/"+e.SourceSHA256] = true
	}
	for _, want := range []string{
		"generator/" + providers.SourceKey(textA), "critic/" + providers.SourceKey(textA), "critic/" + providers.SourceKey(textB),
	} {
		if !got[want] {
			t.Errorf("fixture lacks %s (has %v)", want, got)
		}
	}
}

// --save stores a line's result only on that line's own document: a line
// with a duplicate id (which the corpus loader skips) must not overwrite the
// first document's result with one computed from other text.
func TestBatchSaveKeepsResultsOnTheirDocument(t *testing.T) {
	first := `{"id":"a","text":"From: Acme Ltd\nInvoice #A-1\nTotal: 10.50 USD"}`
	dup := `{"id":"a","text":"From: Other GmbH\nInvoice #Z-9\nTotal: 99.00 EUR"}`
	empty := `{"id":"e","text":"   "}`
	corpus := writeFile(t, "c.jsonl", first+"\n"+dup+"\n"+empty+"\n")
	storePath := filepath.Join(t.TempDir(), "review.db")
	r := run(t, "", "extract", "--batch", "--save", "--file", corpus, "--store", storePath, "--provider", "local", "--log-level", "error")
	if len(decodeLines(t, r.out)) != 3 {
		t.Fatalf("want 3 result lines: %s %s", r.out, r.err)
	}
	if strings.Contains(r.err, "--save") {
		t.Errorf("a line the corpus skips is not a storage failure: %s", r.err)
	}
	c, _, _, err := golden.LoadCorpus(corpus, "invoice")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, ok, err := st.Result(context.Background(), c.ID, "a")
	if err != nil || !ok {
		t.Fatalf("no stored result for a: %v", err)
	}
	if res.Data["total"] != 10.5 {
		t.Fatalf("document a's stored result is another line's: %v", res.Data)
	}
}

// export and stats work on an empty store, and an unknown corpus is a usage
// error that says what is there.
func TestExportAndStatsOnAnEmptyStore(t *testing.T) {
	r := run(t, "", "stats", "--store", emptyStore(t))
	if r.code != ExitOK || !strings.Contains(r.out, "documents         : 0") || !strings.Contains(r.out, "catch rate n/a") {
		t.Errorf("stats on an empty store: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r = run(t, "", "stats", "--json", "--store", emptyStore(t))
	var js map[string]any
	if r.code != ExitOK || json.Unmarshal([]byte(r.out), &js) != nil {
		t.Errorf("stats --json on an empty store: exit %d %q", r.code, r.out)
	}
	if r = run(t, "", "export", "--golden", "-", "--store", emptyStore(t)); r.code != ExitOK || r.out != "" {
		t.Errorf("export of an empty store: exit %d %q", r.code, r.out)
	}
	for _, args := range [][]string{
		{"stats", "--corpus", "nope"},
		{"export", "--golden", "-", "--corpus", "nope"},
	} {
		r = run(t, "", append(args, "--store", emptyStore(t))...)
		if r.code != ExitUsage || !strings.Contains(r.err, "holds none yet") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.err)
		}
	}
	if r = run(t, "", "review", "--queue", "nobody"); r.code != ExitUsage || !strings.Contains(r.err, "reflect mcp") {
		t.Errorf("review of a queue no MCP client filled: exit %d %q", r.code, r.err)
	}
	if r = run(t, "", "export"); r.code != ExitUsage {
		t.Errorf("export without --golden: exit %d", r.code)
	}
}

// lineSignal is an io.Writer that reports each complete line written.
type lineSignal struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan struct{}
}

func (w *lineSignal) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for range bytes.Count(p, []byte("\n")) {
		w.lines <- struct{}{}
	}
	return w.buf.Write(p)
}

// Ctrl-C while the batch waits for more input (a producer that has not
// closed the pipe) stops the batch: the reader blocked on stdin must not hold
// it open until the next line arrives.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	t.Setenv("REFLECT_STORE", filepath.Join(t.TempDir(), "s.db"))
	pr, pw := io.Pipe()
	defer pw.Close()
	out := &lineSignal{lines: make(chan struct{}, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"extract", "--batch", "--provider", "local", "--log-level", "error"},
			Stdio{In: pr, Out: out, Err: io.Discard})
	}()
	if _, err := io.WriteString(pw, fakeCorpus(2)); err != nil {
		t.Fatal(err)
	}
	<-out.lines
	<-out.lines
	cancel()
	select {
	case err := <-done:
		if ExitCode(err) != ExitInterrupted {
			t.Fatalf("exit %d (%v), want 130", ExitCode(err), err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the interrupted batch is still waiting for input")
	}
	if n := len(decodeLines(t, out.buf.String())); n != 2 {
		t.Fatalf("the two documents read before the interrupt: %d lines", n)
	}
}

// review runs no pipeline on a queue or with --no-run: a pipeline flag there
// would be silently ignored, so it is refused.
func TestReviewRefusesPipelineFlagsWhenNothingRuns(t *testing.T) {
	corpus := writeFile(t, "c.jsonl", fakeCorpus(1))
	for _, args := range [][]string{
		{"review", "--queue", "claude-desktop", "--provider", "openai"},
		{"review", corpus, "--no-run", "--heuristics-only"},
	} {
		r := run(t, "", args...)
		if r.code != ExitUsage || !strings.Contains(r.err, "no pipeline runs") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.err)
		}
	}
}

// `reflect mcp --print-config CLIENT > FILE` writes a file the client can
// read: stdout is one JSON document for every client; Claude Code's
// `claude mcp add` alternative is on stderr.
func TestPrintConfigRedirectsToAValidFile(t *testing.T) {
	for _, client := range []string{"claude-desktop", "claude-code", "cursor"} {
		r := run(t, "", "mcp", "--print-config", client)
		var cfg map[string]map[string]any
		if r.code != ExitOK || json.Unmarshal([]byte(r.out), &cfg) != nil || cfg["mcpServers"]["reflect"] == nil {
			t.Errorf("%s: exit %d, stdout is not an mcpServers JSON file:\n%s", client, r.code, r.out)
		}
		if client == "claude-code" && !strings.Contains(r.err, "claude mcp add reflect -- ") {
			t.Errorf("claude-code: stderr lacks the claude mcp add command: %q", r.err)
		}
	}
}

// A line without an id is printed under the id the workstation and --save
// give it (text- and 12 hex digits of its text's sha256, -2 for a repeated
// text), with or without --save: one document, one name everywhere.
func TestBatchNamesIDlessLinesAsReviewDoes(t *testing.T) {
	a := `{"text":"From: Acme Ltd\nInvoice #A-1\nTotal: 10.50 USD"}`
	b := `{"text":"From: Other GmbH\nInvoice #Z-9\nTotal: 99.00 EUR"}`
	corpus := writeFile(t, "c.jsonl", a+"\n"+b+"\n"+a+"\n")
	_, docs, _, err := golden.LoadCorpus(corpus, "invoice")
	if err != nil || len(docs) != 3 {
		t.Fatalf("corpus: %v, %d documents", err, len(docs))
	}
	if !strings.HasPrefix(docs[0].ID, "text-") || docs[2].ID != docs[0].ID+"-2" {
		t.Fatalf("the workstation's ids: %s %s %s", docs[0].ID, docs[1].ID, docs[2].ID)
	}
	storePath := filepath.Join(t.TempDir(), "review.db")
	for _, extra := range [][]string{nil, {"--save", "--store", storePath}} {
		r := run(t, "", append([]string{"extract", "--batch", "--file", corpus, "--log-level", "error"}, extra...)...)
		got := decodeLines(t, r.out)
		if len(got) != 3 {
			t.Fatalf("%v: want 3 result lines: %s %s", extra, r.out, r.err)
		}
		for i, res := range got {
			if res.ID != docs[i].ID {
				t.Errorf("%v: line %d printed as %q, reviewed as %q", extra, i+1, res.ID, docs[i].ID)
			}
		}
	}
	c, _, _, _ := golden.LoadCorpus(corpus, "invoice")
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if _, ok, err := st.Result(context.Background(), c.ID, d.ID); err != nil || !ok {
			t.Errorf("--save stored no result under %s: %v", d.ID, err)
		}
	}
}
