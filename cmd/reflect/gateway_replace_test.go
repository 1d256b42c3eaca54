package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/reflect-mcp/reflect/gateway"
)

// New user report: `gateway add memory --environment dev --command …` after
// setup had imported memory in production silently replaced it (its
// MEMORY_FILE_PATH dropped, governance loosened), and restore + setup then
// left memory ungoverned with exit 0. Now: add refuses to replace without
// --replace and says what would change; restore + setup puts the same
// server back behind the gateway; a setup that must leave a server
// ungoverned exits 1, and --replace lets the client's server win. At the
// end the real memory server runs behind a real gateway with its own file.
func TestGatewayAddNeverSilentlyReplacesAnImportedServer(t *testing.T) {
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	bin := reflectBin(t) // built before the test leaves the module's directory
	// The error is what main prints last, on stderr.
	lcRun := func(t *testing.T, fn lcFn, args ...string) (int, string) {
		var out bytes.Buffer
		err := fn(context.Background(), args, Stdio{In: strings.NewReader(""), Out: &out, Err: &out})
		if err != nil {
			fmt.Fprintf(&out, "\nreflect: %v", err)
		}
		return ExitCode(err), out.String()
	}
	home, _ := lcScratchHome(t)
	memFile := filepath.Join(home, "memory.jsonl")
	client := filepath.Join(home, ".config/Claude/claude_desktop_config.json")
	lcWrite(t, client, fmt.Sprintf(`{"mcpServers": {"memory": {"command": %q, "env": {"MEMORY_FILE_PATH": %q}}}}`, mem, memFile))
	regPath := filepath.Join(home, ".config", "reflect", "reeflex-mcp.yaml")
	setup := func(extra ...string) (int, string) {
		return lcRun(t, runGatewaySetup, append([]string{"--client", "claude-desktop", "--environment", "production", "--non-interactive"}, extra...)...)
	}
	if code, out := setup(); code != 0 {
		t.Fatalf("setup exit %d:\n%s", code, out)
	}
	imported := string(lcRead(t, regPath))

	code, out := lcRun(t, runGatewayAdd, "memory", "--environment", "dev", "--no-reload", "--command", "npx", "-y", "@modelcontextprotocol/server-memory")
	for _, want := range []string{"already has an upstream memory", "env MEMORY_FILE_PATH dropped",
		"environment production becomes dev (looser governance", "--replace"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Fatalf("add over an imported server: exit %d, want 1 saying %q:\n%s", code, want, out)
		}
	}
	if got := string(lcRead(t, regPath)); got != imported {
		t.Fatalf("a refused add rewrote the registry:\n%s", got)
	}
	if code, out := lcRun(t, runGatewayAdd, "memory", "--environment", "production", "--no-reload", "--env", "MEMORY_FILE_PATH="+memFile, "--command", mem); code != 0 || !strings.Contains(out, "nothing to write") {
		t.Fatalf("add of the server the registry already has: exit %d:\n%s", code, out)
	}

	// restore + setup round-trips: the same server is governed again.
	if code, out := lcRun(t, runGatewayRestore, "--client", "claude-desktop"); code != 0 {
		t.Fatalf("restore exit %d:\n%s", code, out)
	}
	if code, out := setup(); code != 0 || strings.Contains(out, "ungoverned:") {
		t.Fatalf("setup after restore: exit %d:\n%s", code, out)
	}
	if got := string(lcRead(t, regPath)); got != imported {
		t.Fatalf("restore + setup changed the registry:\n%s\nwant\n%s", got, imported)
	}

	// Replaced on purpose, every change is said.
	code, out = lcRun(t, runGatewayAdd, "memory", "--replace", "--environment", "dev", "--no-reload", "--command", "npx", "-y", "@modelcontextprotocol/server-memory")
	if code != 0 || !strings.Contains(out, "replaced upstream memory") || !strings.Contains(out, "env MEMORY_FILE_PATH dropped") ||
		!strings.Contains(out, "looser governance") {
		t.Fatalf("add --replace: exit %d:\n%s", code, out)
	}
	// The client's own memory now clashes with the registry's: setup must
	// not pass that off as success.
	if code, out := lcRun(t, runGatewayRestore, "--client", "claude-desktop"); code != 0 {
		t.Fatalf("restore exit %d:\n%s", code, out)
	}
	code, out = setup()
	if code != 1 || !strings.Contains(out, "1 server(s) left ungoverned: memory") || !strings.Contains(out, "--replace") {
		t.Fatalf("setup leaving memory ungoverned: exit %d, want 1:\n%s", code, out)
	}
	if code, out := lcRun(t, runGatewayImport, "memory", "--client", "claude-desktop", "--non-interactive", "--no-reload"); code != 1 {
		t.Fatalf("import leaving memory ungoverned: exit %d, want 1:\n%s", code, out)
	}
	code, out = setup("--replace")
	if code != 0 || !strings.Contains(out, "memory replaces the registry's upstream memory") || !strings.Contains(out, "env MEMORY_FILE_PATH added") {
		t.Fatalf("setup --replace: exit %d:\n%s", code, out)
	}
	reg, err := gateway.LoadRegistry(regPath)
	if err != nil {
		t.Fatal(err)
	}
	if u := reg.Upstreams[0]; len(reg.Upstreams) != 1 || u.Environment != "production" || u.Env["MEMORY_FILE_PATH"] != memFile {
		t.Fatalf("after setup --replace the registry has %+v", reg.Upstreams)
	}

	// The gateway the client launches runs memory with its file.
	cmd := exec.Command(bin, "gateway", "--config", regPath, "--store", filepath.Join(home, "reflect.db"), "--provider", "local", "--no-reflect-tools")
	cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-desktop", Version: "1"}, nil).Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close(); _ = cmd.Wait() }()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "memory__create_entities", Arguments: map[string]any{
		"entities": []any{map[string]any{"name": "ana", "entityType": "person", "observations": []any{"reviews invoices"}}}}})
	if err != nil || res.IsError {
		t.Fatalf("memory__create_entities: %v %v", err, res)
	}
	if b, err := os.ReadFile(memFile); err != nil || !strings.Contains(string(b), "reviews invoices") {
		t.Fatalf("the memory server did not write its MEMORY_FILE_PATH: %v %q", err, b)
	}
}
