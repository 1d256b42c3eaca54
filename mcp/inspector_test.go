package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/store"
)

// These tests drive the server with the MCP Inspector's CLI, a client nobody
// on the team wrote, over a real stdio process and over streamable HTTP. Its
// TypeScript SDK also validates structuredContent against each tool's output
// schema, so a result that breaks the advertised schema fails here.
//
// Install it with:  npm install -g @modelcontextprotocol/inspector
// or point REFLECT_INSPECTOR_DIR at a directory where it was npm-installed.

func inspectorBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the MCP Inspector tests (each call starts node)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: skipping the MCP Inspector tests")
	}
	if dir := os.Getenv("REFLECT_INSPECTOR_DIR"); dir != "" {
		bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
		if _, err := os.Stat(bin); err != nil {
			t.Skipf("REFLECT_INSPECTOR_DIR=%s has no node_modules/.bin/mcp-inspector: skipping", dir)
		}
		return bin
	}
	bin, err := exec.LookPath("mcp-inspector")
	if err != nil {
		t.Skip("mcp-inspector not found (npm install -g @modelcontextprotocol/inspector, or set REFLECT_INSPECTOR_DIR): skipping")
	}
	return bin
}

// buildTestServer compiles the real reflect binary; tests run it as `reflect mcp`.
func buildTestServer(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build the stdio test server")
	}
	bin := filepath.Join(t.TempDir(), "reflect")
	out, err := exec.Command(goBin, "build", "-o", bin, "github.com/reflect-mcp/reflect/cmd/reflect").CombinedOutput()
	if err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}
	return bin
}

// inspect runs the inspector CLI and decodes the JSON it prints.
func inspect(t *testing.T, bin string, env []string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp-inspector %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("mcp-inspector printed no JSON: %v\n%s", err, stdout.String())
	}
	return out
}

// toolEnvelope checks an inspector tools/call answer the way call does for
// the Go client and returns the envelope.
func toolEnvelope(t *testing.T, out map[string]any) map[string]any {
	t.Helper()
	content, _ := out["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("content: %v", out)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	var env map[string]any
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		t.Fatalf("text content is not JSON: %v\n%s", err, text)
	}
	sc, _ := out["structuredContent"].(map[string]any)
	if sc["status"] != env["status"] || sc["trace_id"] != env["trace_id"] {
		t.Fatalf("structured content %v differs from text %v", sc, env)
	}
	isErr, _ := out["isError"].(bool)
	if isErr != (env["status"] == "error") {
		t.Fatalf("isError=%v for status %v", isErr, env["status"])
	}
	return env
}

func demoDataJSON(total float64) string {
	b, _ := json.Marshal(demoData(total))
	return string(b)
}

func TestInspectorStdio(t *testing.T) {
	insp := inspectorBin(t)
	server := buildTestServer(t)
	storePath := filepath.Join(t.TempDir(), "reflect.db")
	env := []string{"REFLECT_STORE=" + storePath, "REFLECT_PROVIDER=local", "REFLECT_CACHE=" + filepath.Join(t.TempDir(), "cache.db")}

	list := inspect(t, insp, env, server, "mcp", "--method", "tools/list")
	tools, _ := list["tools"].([]any)
	var names []string
	for _, tl := range tools {
		m := tl.(map[string]any)
		names = append(names, m["name"].(string))
		ann, _ := m["annotations"].(map[string]any)
		// Only review_status is read-only: extract and validate write to the
		// review queue and spend model budget, so no client may auto-approve
		// them.
		if ann["readOnlyHint"] != (m["name"] == "review_status") || m["outputSchema"] == nil {
			t.Errorf("%s: annotations %v, output schema %v", m["name"], ann, m["outputSchema"] != nil)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"extract", "review_status", "validate"}) {
		t.Fatalf("tools: %v", names)
	}

	res := toolEnvelope(t, inspect(t, insp, env, server, "mcp", "--method", "tools/call", "--tool-name", "validate",
		"--tool-arg", "text="+demoText, "--tool-arg", "data="+demoDataJSON(683.2),
		"--tool-arg", "heuristics_only=true", "--tool-arg", "field_threshold=0"))
	if res["status"] != "needs_review" || !slices.Equal(flaggedNames(res), []string{"total"}) {
		t.Fatalf("README demo via the inspector: %v", res)
	}
	if !strings.Contains(res["notes"].(string), "field_threshold raised from 0.0 to 0.7.") {
		t.Errorf("notes: %q", res["notes"])
	}
	trace := res["trace_id"].(string)

	ask := func() map[string]any {
		return toolEnvelope(t, inspect(t, insp, env, server, "mcp", "--method", "tools/call", "--tool-name", "review_status",
			"--tool-arg", "trace_id="+trace))
	}
	if ans := ask(); ans["status"] != "pending" || ans["queue"] != "inspector-cli" {
		t.Fatalf("review_status before review: %v", ans)
	}

	// A reviewer settles the total in the same store file, from this process.
	ctx := context.Background()
	st, err := store.Open(storePath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	corpusID, docID, ok, err := st.FindTrace(ctx, trace)
	if err != nil || !ok {
		t.Fatalf("FindTrace: %v %v", ok, err)
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: corpusID, DocID: docID, Field: "total", Action: store.ActionCorrect,
		Value: 583.2, Original: 683.2, Reviewer: "bob", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ans := ask(); ans["status"] != "reviewed" || ans["record"].(map[string]any)["total"] != 583.2 || ans["reviewer"] != "bob" {
		t.Fatalf("review_status after review: %v", ans)
	}

	bad := toolEnvelope(t, inspect(t, insp, env, server, "mcp", "--method", "tools/call", "--tool-name", "validate",
		"--tool-arg", "text="+demoText, "--tool-arg", "data="+demoDataJSON(583.2),
		"--tool-arg", "heuristics_only=true", "--tool-arg", "overall_threshold=1.5"))
	if bad["status"] != "error" || !strings.Contains(bad["error_message"].(string), "overall_threshold") {
		t.Fatalf("threshold 1.5 via the inspector: %v", bad)
	}

	// The operator's malformed floor reaches the server through its env.
	floor := toolEnvelope(t, inspect(t, insp, append(env, EnvFieldThreshold+"=nan"), server, "mcp", "--method", "tools/call",
		"--tool-name", "extract", "--tool-arg", "text="+demoText, "--tool-arg", "heuristics_only=true"))
	if floor["status"] != "error" || !strings.Contains(floor["error_message"].(string), EnvFieldThreshold) {
		t.Fatalf("malformed floor via the inspector: %v", floor)
	}
}

func TestInspectorHTTP(t *testing.T) {
	insp := inspectorBin(t)
	url := serveHTTP(t, newTestServer(t, Config{Build: (&scriptBuilder{}).build, Store: openStore(t)}), "") + "mcp"

	list := inspect(t, insp, nil, url, "--transport", "http", "--method", "tools/list")
	if tools, _ := list["tools"].([]any); len(tools) != 3 {
		t.Fatalf("tools over HTTP: %v", list)
	}
	res := toolEnvelope(t, inspect(t, insp, nil, url, "--transport", "http", "--method", "tools/call", "--tool-name", "validate",
		"--tool-arg", "text="+demoText, "--tool-arg", "data="+demoDataJSON(683.2), "--tool-arg", "heuristics_only=true"))
	if res["status"] != "needs_review" || !slices.Equal(flaggedNames(res), []string{"total"}) {
		t.Fatalf("README demo over HTTP via the inspector: %v", res)
	}
}
