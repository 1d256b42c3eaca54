package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

const demoText = "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\nItems came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"

const demoWrong = `{"vendor_name":"Globex Ltd","invoice_number":"GLX/2026/778","invoice_date":"2026-02-28","subtotal":540.0,"tax":43.2,"total":683.2,"currency":"GBP"}`

type runOut struct {
	code     int
	out, err string
}

// run executes the CLI in-process, as main would, with the environment
// isolated from the developer's keys and caches.
func run(t *testing.T, stdin string, args ...string) runOut {
	t.Helper()
	return runWith(t, nil, stdin, args...)
}

// runWith is run with environment variables set for this call.
func runWith(t *testing.T, env map[string]string, stdin string, args ...string) runOut {
	t.Helper()
	for _, k := range []string{"REFLECT_PROVIDER", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "REFLECT_CRITIC_PROVIDER", "REFLECT_GATE"} {
		t.Setenv(k, "")
	}
	t.Setenv("REFLECT_CACHE", filepath.Join(t.TempDir(), "cache.db"))
	t.Setenv("REFLECT_STORE", filepath.Join(t.TempDir(), "store.db"))
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, Stdio{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	if msg := errorMessage(err); msg != "" {
		errb.WriteString("reflect: " + msg + "\n")
	}
	return runOut{code: ExitCode(err), out: out.String(), err: errb.String()}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func decodeResult(t *testing.T, s string) pipeline.Result {
	t.Helper()
	var r pipeline.Result
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("output is not a result: %v\n%s", err, s)
	}
	return r
}

func decodeLines(t *testing.T, s string) []pipeline.Result {
	t.Helper()
	var rs []pipeline.Result
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		rs = append(rs, decodeResult(t, sc.Text()))
	}
	return rs
}

// The README's demo, as a user types it.
func TestDemoValidateHeuristicsOnly(t *testing.T) {
	f := writeFile(t, "inv.txt", demoText)
	r := run(t, "", "validate", "--heuristics-only", "--file", f, "--data", demoWrong)
	if r.code != ExitNeedsReview {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.out, r.err)
	}
	res := decodeResult(t, r.out)
	if len(res.FlaggedFields) != 1 || res.FlaggedFields[0].Field != "total" {
		t.Fatalf("flagged %+v", res.FlaggedFields)
	}
	wantSpans := `{"vendor_name":[{"start":34,"end":44}],"invoice_number":[{"start":57,"end":69}],"invoice_date":[{"start":83,"end":93}],"subtotal":[{"start":109,"end":115}],"tax":[{"start":136,"end":141}],"total":[],"currency":[{"start":187,"end":190}]}`
	var raw map[string]json.RawMessage
	_ = json.Unmarshal([]byte(r.out), &raw)
	var compact bytes.Buffer
	_ = json.Compact(&compact, raw["field_provenance"])
	if compact.String() != wantSpans {
		t.Fatalf("provenance\n got %s\nwant %s", compact.String(), wantSpans)
	}
	// Keys print in schema order, as in the README's demo.
	if !strings.Contains(r.out, "\"data\": {\n    \"vendor_name\"") {
		t.Fatalf("data should list fields in schema order:\n%s", r.out)
	}
	if r.err != "" {
		t.Fatalf("stderr of a plain validate should be empty (its stage logs are --log-level info):\n%s", r.err)
	}
}

// A command a user runs (and pipes) prints warnings and errors on stderr,
// nothing else; --log-level info gives one JSON line per stage, all
// carrying the trace id, as a server logs by default.
func TestStageLogsAreOptInForCommands(t *testing.T) {
	f := writeFile(t, "inv.txt", demoText)
	for _, verb := range [][]string{
		{"validate", "--heuristics-only", "--file", f, "--data", demoWrong},
		{"extract", "--provider", "local", "--no-cache", "--file", f},
	} {
		if r := run(t, "", verb...); r.err != "" || r.out == "" {
			t.Errorf("%s: stderr %q, stdout %d bytes; want no stderr and a result", verb[0], r.err, len(r.out))
		}
		r := run(t, "", append(verb, "--log-level", "info")...)
		for _, stage := range []string{`"stage":"heuristics"`, `"stage":"gate"`} {
			if !strings.Contains(r.err, stage) || !strings.Contains(r.err, `"trace_id"`) {
				t.Errorf("%s --log-level info: stderr lacks %s with the trace id:\n%s", verb[0], stage, r.err)
			}
		}
	}
	r := run(t, "", "extract", "--help")
	if !strings.Contains(r.out+r.err, `(default "warn")`) {
		t.Errorf("extract --help does not state the default log level warn:\n%s%s", r.out, r.err)
	}
}

func TestUsageErrors(t *testing.T) {
	f := writeFile(t, "inv.txt", demoText)
	for name, args := range map[string][]string{
		"nan threshold":    {"validate", "--heuristics-only", "--file", f, "--data", demoWrong, "--field-threshold", "NaN"},
		"inf threshold":    {"validate", "--heuristics-only", "--file", f, "--data", demoWrong, "--overall-threshold", "+Inf"},
		"above one":        {"validate", "--heuristics-only", "--file", f, "--data", demoWrong, "--field-threshold", "1.5"},
		"negative":         {"extract", "--file", f, "--field-threshold", "-0.1"},
		"unknown flag":     {"extract", "--nope"},
		"unknown command":  {"frobnicate"},
		"no data":          {"validate", "--file", f},
		"bad data json":    {"validate", "--heuristics-only", "--file", f, "--data", "{total:"},
		"unknown field":    {"validate", "--heuristics-only", "--file", f, "--data", `{"totl": 5}`},
		"missing file":     {"extract", "--file", "/nonexistent/x.txt"},
		"bad schema file":  {"extract", "--file", f, "--schema", writeFile(t, "s.yaml", "name: x\nfields:\n  - name: a\n    kind: blob\n")},
		"unknown provider": {"extract", "--file", f, "--provider", "skynet"},
	} {
		t.Run(name, func(t *testing.T) {
			r := run(t, "", args...)
			if r.code != ExitUsage {
				t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
			}
		})
	}
	r := run(t, "", "extract", "--file", f, "--schema", writeFile(t, "s.yaml", "name: x\nfields:\n  - name: a\n    kind: blob\n"))
	if !strings.Contains(r.err, "line 4") {
		t.Fatalf("a bad schema error should name the line: %s", r.err)
	}
}

func TestEmptyAndInvalidInput(t *testing.T) {
	for name, in := range map[string]string{"empty": "", "blank": "  \n ", "invalid utf8": "Total \xff 10.00"} {
		r := run(t, in, "extract", "--provider", "local")
		if r.code != ExitUsage {
			t.Fatalf("%s: exit %d, want 2: %s", name, r.code, r.out)
		}
		if res := decodeResult(t, r.out); res.Status != pipeline.StatusError || res.ErrorMessage == "" {
			t.Fatalf("%s: want an error envelope, got %s", name, r.out)
		}
	}
	r := run(t, strings.Repeat("a", 2000), "extract", "--provider", "local", "--max-text-bytes", "1000")
	if r.code != ExitUsage || !strings.Contains(r.out, "limit") {
		t.Fatalf("oversize: exit %d %s", r.code, r.out)
	}
}

func TestBatchKeepsGoingAndKeepsOrder(t *testing.T) {
	good := func(id string, total float64) string {
		b, _ := json.Marshal(map[string]any{"id": id, "text": demoText, "data": map[string]any{"vendor_name": "Globex Ltd", "total": total}})
		return string(b)
	}
	in := strings.Join([]string{
		good("a", 583.2),
		`{"id":"b","text":`,
		good("c", 683.2),
		`{"id":"d","text":"   ","data":{}}`,
		`{"id":"e","text":"Total 5.00","expected":{"total":5}}`,
		"",
		good("f", 583.2),
	}, "\n")
	for _, conc := range []string{"1", "4"} {
		r := run(t, in, "validate", "--batch", "--heuristics-only", "--batch-concurrency", conc)
		if r.code != ExitPipeline {
			t.Fatalf("worst line is an error: exit %d, want 3\n%s", r.code, r.err)
		}
		rs := decodeLines(t, r.out)
		if len(rs) != 6 {
			t.Fatalf("want one line per input line (6), got %d:\n%s", len(rs), r.out)
		}
		wantStatus := []pipeline.Status{"ok", "error", "needs_review", "error", "ok", "ok"}
		for i, res := range rs {
			if res.Status != wantStatus[i] {
				t.Errorf("conc %s line %d: status %s, want %s (%s)", conc, i, res.Status, wantStatus[i], res.ErrorMessage)
			}
		}
		if rs[0].ID != "a" || rs[2].ID != "c" || rs[5].ID != "f" {
			t.Errorf("ids out of order: %s %s %s", rs[0].ID, rs[2].ID, rs[5].ID)
		}
		if !strings.Contains(rs[1].ErrorMessage, "line 2") {
			t.Errorf("a malformed line's error should name it: %q", rs[1].ErrorMessage)
		}
	}
	// Only ok and needs_review lines: exit 1.
	r := run(t, good("a", 583.2)+"\n"+good("c", 683.2)+"\n", "validate", "--batch", "--heuristics-only")
	if r.code != ExitNeedsReview {
		t.Fatalf("exit %d, want 1", r.code)
	}
}

func TestBatchPipelineBuildFailureIsOneErrorLine(t *testing.T) {
	r := run(t, `{"text":"x"}`+"\n", "extract", "--batch", "--provider", "openai")
	if r.code != ExitPipeline {
		t.Fatalf("exit %d, want 3: %s %s", r.code, r.out, r.err)
	}
	rs := decodeLines(t, r.out)
	if len(rs) != 1 || rs[0].Status != pipeline.StatusError || !strings.Contains(rs[0].ErrorMessage, "OPENAI_API_KEY") {
		t.Fatalf("want one error line naming the missing key, got %s", r.out)
	}
}

func TestExtractReplayAndEvalOffline(t *testing.T) {
	r := run(t, demoText, "extract", "--provider", "replay")
	if r.code != ExitNeedsReview {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.out, r.err)
	}
	res := decodeResult(t, r.out)
	if !res.Flagged("total") || res.CriticSummary == "" || res.PromptVersions["critic"] == "" {
		t.Fatalf("replayed demo should flag total with a critic summary: %+v", res)
	}
	r = run(t, "", "eval")
	if r.code != ExitOK {
		t.Fatalf("offline eval should pass its bars: exit %d\n%s%s", r.code, r.out, r.err)
	}
	for _, want := range []string{"field accuracy", "catch rate", "silent-wrong", "(flagged)", "inv-004", "PASS"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("eval report lacks %q", want)
		}
	}
	if strings.Contains(r.out, "(SILENT)") {
		t.Errorf("offline eval has a silent-wrong field:\n%s", r.out)
	}
}

// A second schema goes through extract, validate and eval: nothing is
// invoice-hard-coded.
func TestSecondSchema(t *testing.T) {
	schema := filepath.Join("..", "..", "golden", "testdata", "purchase_order.yaml")
	dataset := filepath.Join("..", "..", "golden", "testdata", "purchase_orders.jsonl")
	fixture := filepath.Join("..", "..", "golden", "testdata", "purchase_orders.replay.json")
	r := run(t, "", "eval", "--schema", schema, "--dataset", dataset, "--replay", fixture, "--min-accuracy", "0.5", "--max-silent-wrong", "0")
	if r.code != ExitOK {
		t.Fatalf("eval with a second schema: exit %d\n%s%s", r.code, r.out, r.err)
	}
	r = run(t, "", "extract", "--batch", "--file", dataset, "--schema", schema, "--provider", "replay", "--replay", fixture)
	rs := decodeLines(t, r.out)
	if len(rs) == 0 || rs[0].Schema != "purchase_order" || rs[0].Status == pipeline.StatusError {
		t.Fatalf("extract with a second schema: %s %s", r.out, r.err)
	}
	r = run(t, "", "validate", "--batch", "--heuristics-only", "--file", dataset, "--schema", schema)
	for _, res := range decodeLines(t, r.out) {
		if res.Status == pipeline.StatusError {
			t.Fatalf("validate of labelled rows errored: %s", res.ErrorMessage)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	if r := run(t, "", "--version"); r.code != 0 || !strings.HasPrefix(r.out, "reflect ") {
		t.Fatalf("--version: %d %q", r.code, r.out)
	}
	if r := run(t, "", "--help"); r.code != 0 || !strings.Contains(r.out, "extract") {
		t.Fatalf("--help: %d %q", r.code, r.out)
	}
	for _, v := range []string{"extract", "validate", "eval"} {
		if r := run(t, "", v, "--help"); r.code != 0 || !strings.Contains(r.out, "--field-threshold") {
			t.Fatalf("%s --help: %d %q", v, r.code, r.out)
		}
	}
}
