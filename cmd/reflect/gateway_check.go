package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runGatewayCheck is the fail-closed self-probe: a real gateway subprocess in
// enforce mode, an unreachable remote engine, the built-in decoy upstream;
// a destructive call must come back blocked.
func runGatewayCheck(ctx context.Context, args []string, stdio Stdio) error {
	fs := newFlagSet("gateway check", "", stdio)
	if _, err := parseFlags(fs, args, stdio); err != nil {
		return helpOK(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locate the reflect binary: %w", err)
	}
	verdict, err := probeGateway(ctx, exe)
	if err != nil {
		fmt.Fprintf(stdio.Out, "reflect gateway check: FAIL -- %v\n"+
			"The gateway did not block a destructive call while its decision engine was unreachable.\n"+
			"Do not put it in front of real tools until this passes.\n", err)
		return &exitError{code: 1, err: err}
	}
	fmt.Fprintf(stdio.Out, "reflect gateway check: PASS -- %s\n", verdict)
	return nil
}

func probeGateway(ctx context.Context, exe string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	dir, err := os.MkdirTemp("", "reflect-gateway-check-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	cfg := filepath.Join(dir, "reeflex-mcp.yaml")
	yaml := fmt.Sprintf("mode: enforce\nupstreams:\n  - name: doctor\n    command: [%q, gateway, decoy]\n"+
		"    target: {system: doctor, environment: production}\n", exe)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		return "", err
	}
	// A throwaway store: the decoy's pin, its decision and its ledger entry
	// must not land in the user's store (user report: doctor__delete_thing
	// showed in reflect gateway pins after a check).
	cmd := exec.Command(exe, "gateway", "--config", cfg, "--transport", "stdio", "--no-reflect-tools", "--log-level", "error",
		"--store", filepath.Join(dir, "check.db"))
	cmd.Env = append(os.Environ(), "REEFLEX_MODE=enforce", "REEFLEX_CORE_URL=http://127.0.0.1:1", "REEFLEX_MCP_CONFIG="+cfg)
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "reflect-gateway-check", Version: version}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		return "", fmt.Errorf("the gateway did not start: %w", err)
	}
	defer cs.Close()
	found := false
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return "", fmt.Errorf("tools/list: %w", err)
		}
		found = found || t.Name == "doctor__delete_thing"
	}
	if !found {
		return "", errors.New("doctor__delete_thing is not listed")
	}
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "doctor__delete_thing", Arguments: map[string]any{"name": "check-probe"}})
	if err != nil {
		return "", fmt.Errorf("tools/call: %w", err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	low := strings.ToLower(text.String())
	if !res.IsError || (!strings.Contains(low, "unreachable") && !strings.Contains(low, "failing closed")) {
		return "", fmt.Errorf("the call was not blocked: %q", text.String())
	}
	return text.String(), nil
}

// serveDecoy is the check's upstream: one destructive tool that must never run.
func serveDecoy(ctx context.Context) error {
	srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "reflect-gateway-decoy", Version: version}, nil)
	yes := true
	srv.AddTool(&mcpsdk.Tool{Name: "delete_thing", Description: "Decoy for reflect gateway check: deletes a thing by name.",
		Annotations: &mcpsdk.ToolAnnotations{DestructiveHint: &yes},
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}},
		func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "decoy: deleted (the gateway let this through)"}}}, nil
		})
	if err := srv.Run(ctx, &mcpsdk.StdioTransport{}); err != nil && ctx.Err() == nil {
		return fmt.Errorf("decoy: %w", err)
	}
	return nil
}
