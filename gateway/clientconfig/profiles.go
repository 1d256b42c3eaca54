// Package clientconfig knows where MCP clients (Claude Desktop, Claude Code,
// Cursor) keep their server lists, reads and rewrites those files without
// losing anything else in them, and edits the gateway's registry
// (reeflex-mcp.yaml) as YAML nodes so an operator's comments and key order
// survive. It is what puts the gateway in a client's path and keeps it there:
// setup, restore, add, import and doctor.
//
// It must not import package gateway: the gateway imports it to report
// drift at start.
package clientconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Profile keys, as typed after --client.
const (
	ClaudeDesktop      = "claude-desktop"
	ClaudeCode         = "claude-code"          // ./.mcp.json
	ClaudeCodeSettings = "claude-code-settings" // ./.claude/settings.json
	Cursor             = "cursor"               // ~/.cursor/mcp.json
	CursorProject      = "cursor-project"       // ./.cursor/mcp.json
	Custom             = "custom"               // --path FILE
)

// Env is what profile paths depend on. It is passed in, never read from
// globals, so tests can point every profile into a scratch HOME.
type Env struct {
	GOOS          string
	Home          string
	AppData       string // %APPDATA% on Windows
	XDGConfigHome string
	Cwd           string
}

// OSEnv reads Env from the process.
func OSEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("clientconfig: home directory: %w", err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return Env{}, fmt.Errorf("clientconfig: working directory: %w", err)
	}
	return Env{GOOS: runtime.GOOS, Home: home, AppData: os.Getenv("APPDATA"),
		XDGConfigHome: os.Getenv("XDG_CONFIG_HOME"), Cwd: cwd}, nil
}

// Profile is one client config file.
type Profile struct {
	Key  string // one of the profile keys
	Name string // for humans: "Claude Desktop"
	Path string // absolute
	// Typed clients (Claude Code) write "type": "stdio" on stdio entries.
	Typed bool
}

// Selector is how a user named the file on the command line: the flag that
// selects it again, for fix-it commands.
func (p Profile) Selector() string {
	if p.Key == Custom {
		return "--path " + shellQuote(p.Path)
	}
	return "--client " + p.Key
}

// Keys lists the standard profile keys in the order they are tried.
func Keys() []string {
	return []string{ClaudeDesktop, ClaudeCode, ClaudeCodeSettings, Cursor, CursorProject}
}

// Standard returns every standard profile for env, whether its file exists
// or not.
func Standard(env Env) []Profile {
	out := make([]Profile, 0, 5)
	for _, k := range Keys() {
		p, _ := Lookup(env, k)
		out = append(out, p)
	}
	return out
}

// Existing returns the standard profiles whose file exists.
func Existing(env Env) []Profile {
	var out []Profile
	for _, p := range Standard(env) {
		if _, err := os.Stat(p.Path); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Lookup resolves a profile key (reeflex-mcp's "mcp-json" and
// "claude-settings" are accepted as aliases).
func Lookup(env Env, key string) (Profile, error) {
	switch key {
	case "mcp-json":
		key = ClaudeCode
	case "claude-settings":
		key = ClaudeCodeSettings
	}
	switch key {
	case ClaudeDesktop:
		return Profile{Key: key, Name: "Claude Desktop", Path: claudeDesktopPath(env)}, nil
	case ClaudeCode:
		return Profile{Key: key, Name: "Claude Code (.mcp.json)", Path: filepath.Join(env.Cwd, ".mcp.json"), Typed: true}, nil
	case ClaudeCodeSettings:
		return Profile{Key: key, Name: "Claude Code (.claude/settings.json)", Path: filepath.Join(env.Cwd, ".claude", "settings.json"), Typed: true}, nil
	case Cursor:
		return Profile{Key: key, Name: "Cursor", Path: filepath.Join(env.Home, ".cursor", "mcp.json")}, nil
	case CursorProject:
		return Profile{Key: key, Name: "Cursor (project)", Path: filepath.Join(env.Cwd, ".cursor", "mcp.json")}, nil
	}
	return Profile{}, fmt.Errorf("unknown client %q (want one of %s)", key, strings.Join(Keys(), ", "))
}

// CustomProfile is --path FILE, made absolute against env.Cwd.
func CustomProfile(env Env, path string) Profile {
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	return Profile{Key: Custom, Name: "custom", Path: filepath.Clean(path)}
}

func claudeDesktopPath(env Env) string {
	const file = "claude_desktop_config.json"
	switch env.GOOS {
	case "darwin":
		return filepath.Join(env.Home, "Library", "Application Support", "Claude", file)
	case "windows":
		base := env.AppData
		if base == "" {
			base = filepath.Join(env.Home, "AppData", "Roaming")
		}
		return filepath.Join(base, "Claude", file)
	}
	// Linux builds of Claude Desktop are community ones; they follow
	// Electron's appData, which is $XDG_CONFIG_HOME or ~/.config.
	base := env.XDGConfigHome
	if base == "" {
		base = filepath.Join(env.Home, ".config")
	}
	return filepath.Join(base, "Claude", file)
}

// shellQuote quotes an argument for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
