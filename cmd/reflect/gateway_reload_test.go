package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is a child's stderr read while it still writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const opsDenyDeletes = `rules:
  - id: ops/no_deletes_in_production
    priority: 900
    verdict: deny
    reason: ops pack says no deletes in production
    when:
      all:
        - {field: action.verb, eq: delete}
        - {field: target.environment, eq: production}
`

// SIGHUP on a stdio gateway subprocess reloads the registry and the pack
// for the live session: a new upstream's tools appear (one
// tools/list_changed), a bad pack is refused with the old one still
// deciding, and a good one with an upstream removed is seen at once.
func TestGatewaySIGHUPStdio(t *testing.T) {
	bin := reflectBin(t)
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	dir := t.TempDir()
	cfg, pack := filepath.Join(dir, "reeflex-mcp.yaml"), filepath.Join(dir, "ops.yaml")
	memEntry := fmt.Sprintf("  - name: memory\n    command: [%q]\n    env: {MEMORY_FILE_PATH: %q}\n    target: {system: memory, environment: production}\n",
		mem, filepath.Join(dir, "mem.jsonl"))
	// A second server-memory: its catalogue is fixed, so every
	// list_changed is the reload's.
	everyEntry := fmt.Sprintf("  - name: notes\n    command: [%q]\n    env: {MEMORY_FILE_PATH: %q}\n    target: {system: notes, environment: dev}\n",
		mem, filepath.Join(dir, "notes.jsonl"))
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(cfg, "mode: enforce\nupstreams:\n"+memEntry)
	write(pack, opsDenyDeletes)
	stderr := &lockedBuffer{}
	cmd := exec.Command(bin, "gateway", "--config", cfg, "--policy", pack, "--no-store", "--no-reflect-tools", "--hold-wait", "0s")
	cmd.Stderr = stderr
	cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=", "REEFLEX_MCP_MAPPINGS_DIR=")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var notes atomic.Int32
	arrived := make(chan struct{}, 8)
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, &mcpsdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) { notes.Add(1); arrived <- struct{}{} }})
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	tools := func() map[string]bool {
		t.Helper()
		out := map[string]bool{}
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[tool.Name] = true
		}
		return out
	}
	deleteText := func() string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "memory__delete_entities",
			Arguments: map[string]any{"entityNames": []string{"a", "b", "c"}}})
		if err != nil {
			t.Fatal(err)
		}
		return jsonString(res)
	}
	hup := func() {
		t.Helper()
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	waitNote := func(what string) {
		t.Helper()
		select {
		case <-arrived:
		case <-ctx.Done():
			t.Fatalf("no tools/list_changed after %s\n%s", what, stderr.String())
		}
	}
	if tl := tools(); !tl["memory__read_graph"] || tl["notes__read_graph"] {
		t.Fatalf("before: %v", tl)
	}
	if d := deleteText(); !strings.Contains(d, "rule=ops/no_deletes_in_production") {
		t.Fatalf("the operator pack does not decide: %s", d)
	}
	write(cfg, "mode: enforce\nupstreams:\n"+memEntry+everyEntry)
	hup()
	waitNote("adding notes")
	if tl := tools(); !tl["notes__read_graph"] || !tl["memory__read_graph"] {
		t.Fatalf("after SIGHUP: %v", tl)
	}
	write(pack, strings.Replace(opsDenyDeletes, "verdict: deny", "verdict: block", 1))
	write(cfg, "mode: enforce\nupstreams:\n"+memEntry)
	hup()
	for !strings.Contains(stderr.String(), "reload refused") {
		select {
		case <-ctx.Done():
			t.Fatalf("the bad pack was not refused:\n%s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !strings.Contains(stderr.String(), `unknown verdict \"block\"`) {
		t.Errorf("the refusal does not say why:\n%s", stderr.String())
	}
	if d := deleteText(); !strings.Contains(d, "rule=ops/no_deletes_in_production") {
		t.Fatalf("after the refused pack the old one no longer decides: %s", d)
	}
	if !tools()["notes__read_graph"] {
		t.Fatal("a refused reload removed an upstream")
	}
	write(pack, "rules: []\n")
	hup()
	waitNote("removing notes")
	if tl := tools(); tl["notes__read_graph"] || !tl["memory__read_graph"] {
		t.Fatalf("after the good reload: %v", tl)
	}
	if d := deleteText(); strings.Contains(d, `"isError":true`) || !strings.Contains(d, "Entities deleted") {
		t.Fatalf("the new pack does not decide: %s", d)
	}
	if n := notes.Load(); n != 2 {
		t.Fatalf("%d tools/list_changed for 2 reloads that changed the catalogue", n)
	}
}
