package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Clients PrintConfig knows.
const (
	ClientClaudeDesktop = "claude-desktop"
	ClientClaudeCode    = "claude-code"
	ClientCursor        = "cursor"
)

// PrintConfig writes the configuration that registers reflect with an MCP
// client to w, and nothing else, so it can be redirected into the client's
// file: an mcpServers JSON block for Claude Desktop
// (claude_desktop_config.json), Cursor (~/.cursor/mcp.json) and Claude Code
// (a project .mcp.json). For Claude Code the `claude mcp add` command that
// registers it without a file goes to hint (stderr), not into the JSON.
// The config is keyless (the local extractor): pasted as printed it works.
// A placeholder key (sk-ant-...) made every call fail (new user report
// #15); a model provider is an edit the README shows.
func PrintConfig(w, hint io.Writer, client string, binaryPath string) error {
	abs, err := filepath.Abs(binaryPath)
	if err != nil {
		return fmt.Errorf("config: binary path: %w", err)
	}
	entry := serverEntry{Command: abs, Args: []string{"mcp"}, Env: placeholderEnv()}
	switch client {
	case ClientClaudeDesktop, ClientCursor:
		return writeJSON(w, mcpServers{Servers: map[string]serverEntry{"reflect": entry}})
	case ClientClaudeCode:
		entry.Type = "stdio"
		if err := writeJSON(w, mcpServers{Servers: map[string]serverEntry{"reflect": entry}}); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(hint, "reflect: stdout is a project .mcp.json (> .mcp.json); to register without the file: claude mcp add reflect -- %s mcp\n", shellQuote(abs)); err != nil {
			return fmt.Errorf("config: %w", err)
		}
		return nil
	}
	return fmt.Errorf("config: unknown client %q (want %s, %s or %s)", client, ClientClaudeDesktop, ClientClaudeCode, ClientCursor)
}

type mcpServers struct {
	Servers map[string]serverEntry `json:"mcpServers"`
}

type serverEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

func placeholderEnv() map[string]string {
	return map[string]string{
		"REFLECT_PROVIDER":  "local",
		EnvFieldThreshold:   "0.70",
		EnvOverallThreshold: "0.75",
	}
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
