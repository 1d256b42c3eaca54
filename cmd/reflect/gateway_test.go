package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	gatewayBinOnce sync.Once
	gatewayBin     string
	gatewayBinErr  error
)

// reflectBin builds the real binary once for the gateway tests.
func reflectBin(t *testing.T) string {
	t.Helper()
	gatewayBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "reflect-gw-bin-")
		if err != nil {
			gatewayBinErr = err
			return
		}
		gatewayBin = filepath.Join(dir, "reflect")
		cmd := exec.Command("go", "build", "-o", gatewayBin, "./cmd/reflect")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			gatewayBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if gatewayBinErr != nil {
		t.Fatal(gatewayBinErr)
	}
	return gatewayBin
}

// The self-probe passes against the real binary: blocked, fail closed.
func TestGatewayCheck(t *testing.T) {
	bin := reflectBin(t)
	out, err := exec.Command(bin, "gateway", "check").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") || !strings.Contains(string(out), "failing closed") {
		t.Fatalf("gateway check: %v\n%s", err, out)
	}
}

func memoryConfig(t *testing.T, mode string) (cfg, storePath string) {
	t.Helper()
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	dir := t.TempDir()
	cfg = filepath.Join(dir, "reeflex-mcp.yaml")
	body := fmt.Sprintf("mode: %s\nupstreams:\n  - name: memory\n    command: [%q]\n    env: {MEMORY_FILE_PATH: %q}\n"+
		"    target: {system: memory, environment: production}\n  - name: later\n    command: [/nonexistent]\n"+
		"    target: {system: x, environment: dev}\n    required: false\n    surprise: 1\n", mode, mem, filepath.Join(dir, "mem.jsonl"))
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, filepath.Join(dir, "reflect.db")
}

// `reflect gateway` over stdio as a real subprocess: the npm memory server
// and reflect's own tools behind one entry, driven by a go-sdk client.
func TestGatewayStdioSubprocess(t *testing.T) {
	bin := reflectBin(t)
	cfg, storePath := memoryConfig(t, "enforce")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "gateway", "--config", cfg, "--store", storePath, "--provider", "local")
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-code", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	names := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names[tool.Name] = true
	}
	for _, want := range []string{"reflect__extract", "reflect__validate", "reflect__review_status", "memory__read_graph", "memory__delete_entities"} {
		if !names[want] {
			t.Errorf("%s not listed: %v", want, names)
		}
	}
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "reflect__validate", Arguments: map[string]any{
		"text": "ACME CORP, Invoice #INV-1001, Total: $108.50", "data": map[string]any{"vendor_name": "ACME CORP", "total": 108.5},
		"heuristics_only": true}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(sc), `"status"`) || res.Meta["decision_id"] == nil {
		t.Errorf("reflect__validate through the gateway: %s", jsonString(res))
	}
	if !strings.Contains(stderr.String(), `unknown key \"surprise\"`) {
		t.Errorf("the unknown registry key was not warned about:\n%s", stderr.String())
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
