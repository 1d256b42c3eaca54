package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// New user report: `reflect gateway` with no --config looked only in
// ./reeflex-mcp.yaml, though setup and add had written the registry to
// ~/.config/reflect/. Every verb now looks in the same places, in the same
// order: --config, $REEFLEX_MCP_CONFIG, ./reeflex-mcp.yaml when it exists,
// ~/.config/reflect/reeflex-mcp.yaml. Here a registry written by add is
// served by a gateway started from another directory, a real client lists
// the real memory server's tools through it, and with no registry anywhere
// the error names where it looked (and no drift report buries it).
func TestGatewayFindsTheRegistryAddWrote(t *testing.T) {
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	bin := reflectBin(t) // built before the test leaves the module's directory
	home, project := lcScratchHome(t)
	if code, out := lcRun(t, runGatewayAdd, "memory", "--no-reload", "--env", "MEMORY_FILE_PATH="+filepath.Join(home, "mem.jsonl"), "--command", mem); code != 0 {
		t.Fatalf("add exit %d:\n%s", code, out)
	}
	elsewhere := filepath.Join(home, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	gw := func(dir string) *exec.Cmd {
		cmd := exec.Command(bin, "gateway", "--store", filepath.Join(home, "reflect.db"), "--provider", "local", "--no-reflect-tools")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
		return cmd
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-desktop", Version: "1"}, nil).
		Connect(ctx, &mcpsdk.CommandTransport{Command: gw(elsewhere)}, nil)
	if err != nil {
		t.Fatalf("the gateway did not start from %s: %v", elsewhere, err)
	}
	found := false
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || tool.Name == "memory__read_graph"
	}
	_ = cs.Close()
	if !found {
		t.Fatal("the gateway started without the registry add wrote: memory__read_graph not listed")
	}

	// Nothing anywhere: the error says where it looked. A client reaching a
	// server directly would print DRIFT lines, which must not bury it.
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "empty-config"))
	lcWrite(t, filepath.Join(home, "empty-config", "Claude", "claude_desktop_config.json"), `{"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}}`)
	cmd := gw(project)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdin = strings.NewReader("")
	if err := cmd.Run(); err == nil {
		t.Fatal("the gateway started with no registry")
	}
	want := filepath.Join(home, "empty-config", "reflect", "reeflex-mcp.yaml")
	if msg := stderr.String(); !strings.Contains(msg, "REEFLEX_MCP_CONFIG is unset") || !strings.Contains(msg, want) ||
		!strings.Contains(msg, project) || strings.Contains(msg, "DRIFT") {
		t.Fatalf("the error does not say where it looked (want %s and %s):\n%s", project, want, msg)
	}
}
