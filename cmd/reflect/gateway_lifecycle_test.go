package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/reflect-mcp/reflect/gateway"
	"github.com/reflect-mcp/reflect/gateway/clientconfig"
)

type lcFn func(context.Context, []string, Stdio) error

// gw runs one lifecycle command and returns its exit code and output.
func lcRun(t *testing.T, fn lcFn, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := fn(context.Background(), args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return ExitCode(err), out.String() + errb.String()
}

// scratchHome points HOME, XDG_CONFIG_HOME and APPDATA into a fresh
// directory and makes a project directory inside it the working directory.
func lcScratchHome(t *testing.T) (home, project string) {
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv("REEFLEX_MCP_CONFIG", "")
	t.Setenv("REEFLEX_CORE_URL", "")
	// Nothing listens here: add and import must say so, not fail.
	t.Setenv("REEFLEX_MCP_HOST", "127.0.0.1")
	t.Setenv("REEFLEX_MCP_PORT", lcClosedPort(t))
	project = filepath.Join(home, "work", "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project)
	return home, project
}

func lcClosedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

func lcWrite(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lcRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Client files as each client writes them, with their own keys around
// mcpServers.
var lcClientFiles = []struct {
	key, rel, body string
	servers        []string // imported by setup
}{
	{clientconfig.ClaudeDesktop, ".config/Claude/claude_desktop_config.json", `{
  "globalShortcut": "Alt+Space",
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ana/Documents"]
    },
    "reflect": {
      "command": "/usr/local/bin/reflect",
      "args": ["mcp"],
      "env": {"REFLECT_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-ant-test"}
    }
  },
  "preferences": {"menuBarEnabled": true}
}
`, []string{"filesystem", "reflect"}},
	{clientconfig.ClaudeCode, "work/shop/.mcp.json", `{
  "mcpServers": {
    "everything": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {}},
    "docs": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer sk-live-0123456789"}}
  }
}
`, []string{"everything", "docs"}},
	{clientconfig.ClaudeCodeSettings, "work/shop/.claude/settings.json", `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
  "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "0"},
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
  }
}
`, []string{"memory"}},
	{clientconfig.Cursor, ".cursor/mcp.json", `{
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_test"}
    }
  }
}
`, []string{"github"}},
	{clientconfig.CursorProject, "work/shop/.cursor/mcp.json", `{"mcpServers":{"postgres":{"command":"uvx","args":["postgres-mcp","--access-mode=restricted"],"env":{"DATABASE_URI":"postgresql://localhost/shop"}}}}`,
		[]string{"postgres"}},
	{clientconfig.Custom, ".codeium/windsurf/mcp_config.json", `{
	"mcpServers": {
		"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}
	}
}`, []string{"fetch"}},
}

// TestGatewayLifecycleRoundTrip: for every profile, in a scratch HOME with
// the client's real file: setup, doctor clean, a server added directly,
// doctor finds it, import, doctor clean, restore gives back the original
// bytes.
func TestGatewayLifecycleRoundTrip(t *testing.T) {
	exe, err := reflectExe()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range lcClientFiles {
		t.Run(c.key, func(t *testing.T) {
			home, _ := lcScratchHome(t)
			path := filepath.Join(home, c.rel)
			lcWrite(t, path, c.body)
			sel := []string{"--client", c.key}
			if c.key == clientconfig.Custom {
				sel = []string{"--path", path}
			}
			// A relative --config must reach the client file absolute.
			code, out := lcRun(t, runGatewaySetup, append(sel, "--non-interactive", "--environment", "staging", "--config", "gw/reeflex-mcp.yaml")...)
			if code != 0 {
				t.Fatalf("setup exit %d:\n%s", code, out)
			}
			regPath, _ := filepath.Abs("gw/reeflex-mcp.yaml")
			reg, err := gateway.LoadRegistry(regPath)
			if err != nil {
				t.Fatalf("the gateway refuses the registry setup wrote: %v\n%s", err, out)
			}
			names := map[string]bool{}
			for _, u := range reg.Upstreams {
				names[u.Name] = true
				if u.System != u.Name || u.Environment != "staging" {
					t.Errorf("upstream %+v: want target.system = its name, environment staging", u)
				}
			}
			for _, s := range c.servers {
				if !names[s] && s != "reflect" {
					t.Errorf("%s not imported: %v", s, names)
				}
			}
			if names["reflect"] {
				t.Error("reflect's own server was proxied through the gateway that already serves its tools")
			}
			entry := lcGatewayEntry(t, path)
			if entry.Command != exe || !filepath.IsAbs(entry.Command) {
				t.Errorf("command %q, want the absolute binary %q", entry.Command, exe)
			}
			if got := clientconfig.GatewayConfigPath(entry); got != regPath {
				t.Errorf("--config %q, want the absolute %q", got, regPath)
			}
			if entry.Env["REEFLEX_MODE"] != "observe" {
				t.Errorf("mode not written into the entry: %v", entry.Env)
			}
			if c.key == clientconfig.ClaudeDesktop && entry.Env["REFLECT_PROVIDER"] != "anthropic" {
				t.Errorf("reflect's own server's env did not move to the gateway entry: %v", entry.Env)
			}
			lcOtherKeysKept(t, c.body, lcRead(t, path))

			if code, out := lcRun(t, runGatewayDoctor, sel...); code != 0 {
				t.Fatalf("doctor after setup: exit %d:\n%s", code, out)
			}

			// The operator tunes the gateway entry; a server is then added
			// straight to the client, past the gateway.
			lcEditServers(t, path, func(m map[string]json.RawMessage) {
				var e map[string]any
				_ = json.Unmarshal(m[clientconfig.GatewayKey], &e)
				e["env"].(map[string]any)["REEFLEX_MCP_CALL_TIMEOUT"] = "45"
				m[clientconfig.GatewayKey], _ = json.Marshal(e)
				m["sqlite"] = json.RawMessage(`{"command":"uvx","args":["mcp-server-sqlite","--db-path","/tmp/shop.db"]}`)
			})
			tuned := lcGatewayEntryRaw(t, path)
			code, out = lcRun(t, runGatewayDoctor, sel...)
			if code != 1 || !strings.Contains(out, "foreign_server") || !strings.Contains(out, "reflect gateway import sqlite "+strings.Join(sel, " ")) {
				t.Fatalf("doctor missed the direct server (exit %d):\n%s", code, out)
			}
			if strings.Contains(out, "gateway_missing") {
				t.Fatalf("gateway_missing with the gateway present:\n%s", out)
			}

			code, out = lcRun(t, runGatewayImport, append([]string{"sqlite"}, append(sel, "--non-interactive")...)...)
			if code != 0 || !strings.Contains(out, "no HTTP gateway answered") {
				t.Fatalf("import exit %d:\n%s", code, out)
			}
			if got := lcGatewayEntryRaw(t, path); !bytes.Equal(got, tuned) {
				t.Fatalf("import changed the gateway entry's settings:\n%s\nwant\n%s", got, tuned)
			}
			reg, err = gateway.LoadRegistry(regPath)
			if err != nil {
				t.Fatal(err)
			}
			if last := reg.Upstreams[len(reg.Upstreams)-1]; last.Name != "sqlite" || last.Environment != "production" {
				t.Fatalf("sqlite not imported: %+v", last)
			}
			if code, out := lcRun(t, runGatewayDoctor, sel...); code != 0 {
				t.Fatalf("doctor after import: exit %d:\n%s", code, out)
			}

			if code, out := lcRun(t, runGatewayRestore, sel...); code != 0 {
				t.Fatalf("restore exit %d:\n%s", code, out)
			}
			if got := lcRead(t, path); string(got) != c.body {
				t.Fatalf("restore did not give back the original bytes:\n%s", got)
			}
			if got := lcRead(t, clientconfig.BackupPath(path)); string(got) != c.body {
				t.Fatal("the backup was overwritten")
			}
		})
	}
}

func lcGatewayEntryRaw(t *testing.T, path string) json.RawMessage {
	t.Helper()
	f, err := clientconfig.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := f.Lookup(clientconfig.GatewayKey)
	if !ok {
		t.Fatalf("no %s entry in %s", clientconfig.GatewayKey, lcRead(t, path))
	}
	return s.Raw
}

func lcGatewayEntry(t *testing.T, path string) clientconfig.Entry {
	t.Helper()
	e, err := clientconfig.ParseEntry(lcGatewayEntryRaw(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func lcEditServers(t *testing.T, path string, edit func(map[string]json.RawMessage)) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(lcRead(t, path), &top); err != nil {
		t.Fatal(err)
	}
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(top["mcpServers"], &servers); err != nil {
		t.Fatal(err)
	}
	edit(servers)
	top["mcpServers"], _ = json.Marshal(servers)
	b, _ := json.MarshalIndent(top, "", "  ")
	lcWrite(t, path, string(b))
}

func lcOtherKeysKept(t *testing.T, before string, after []byte) {
	t.Helper()
	var a, b map[string]any
	if err := json.Unmarshal([]byte(before), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &b); err != nil {
		t.Fatalf("rewritten client file is not JSON: %v", err)
	}
	delete(a, "mcpServers")
	delete(b, "mcpServers")
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	if !bytes.Equal(ab, bb) {
		t.Fatalf("other keys changed:\n%s\nwant\n%s", bb, ab)
	}
}

func TestGatewaySetupRefusesInvalidJSON(t *testing.T) {
	home, _ := lcScratchHome(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	body := `{"mcpServers": {"github": {"command": "docker",}}}`
	lcWrite(t, path, body)
	code, out := lcRun(t, runGatewaySetup, "--client", "cursor", "--non-interactive")
	if code != 1 || !strings.Contains(out, "invalid client config") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if got := lcRead(t, path); string(got) != body {
		t.Fatal("an invalid client file was rewritten")
	}
	if _, err := os.Stat(clientconfig.BackupPath(path)); err == nil {
		t.Fatal("a backup was written for a file that was refused")
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "reflect", "reeflex-mcp.yaml")); err == nil {
		t.Fatal("a registry was written for a file that was refused")
	}
	if code, out := lcRun(t, runGatewayDoctor, "--client", "cursor"); code != 1 || !strings.Contains(out, "invalid_config") {
		t.Fatalf("doctor: exit %d:\n%s", code, out)
	}
}

func TestGatewaySetupNeverCopiesHeaderSecrets(t *testing.T) {
	home, project := lcScratchHome(t)
	path := filepath.Join(project, ".mcp.json")
	lcWrite(t, path, `{"mcpServers":{"linear":{"type":"http","url":"https://mcp.linear.app/mcp","headers":{"Authorization":"Bearer lin_api_SECRET","X-Team":"TEAM-SECRET"}}}}`)
	code, out := lcRun(t, runGatewaySetup, "--client", "claude-code", "--non-interactive")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "auth.token_env") {
		t.Fatalf("no warning naming auth.token_env:\n%s", out)
	}
	regPath := filepath.Join(home, ".config", "reflect", "reeflex-mcp.yaml")
	b := lcRead(t, regPath)
	if bytes.Contains(b, []byte("SECRET")) {
		t.Fatalf("a header secret was copied:\n%s", b)
	}
	reg, err := gateway.LoadRegistry(regPath)
	if err != nil {
		t.Fatal(err)
	}
	if u := reg.Upstreams[0]; u.URL != "https://mcp.linear.app/mcp" || u.Required || u.Environment != "production" {
		t.Fatalf("upstream %+v: want its url, required false (its credentials stayed behind), production", u)
	}
	// The secret survives only where it already was: the user's backup.
	if !bytes.Contains(lcRead(t, clientconfig.BackupPath(path)), []byte("lin_api_SECRET")) {
		t.Fatal("backup lost the original")
	}
}

func TestGatewaySetupAgainImportsOnlyWhatIsNew(t *testing.T) {
	home, _ := lcScratchHome(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	lcWrite(t, path, `{"mcpServers":{"memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}}`)
	if code, out := lcRun(t, runGatewaySetup, "--client", "cursor", "--non-interactive"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	regPath := filepath.Join(home, ".config", "reflect", "reeflex-mcp.yaml")
	// The operator comments the registry; a rerun must keep it.
	lcWrite(t, regPath, "# owned by ops\n"+string(lcRead(t, regPath)))
	code, out := lcRun(t, runGatewaySetup, "--client", "cursor", "--non-interactive")
	if code != 0 || !strings.Contains(out, "already configured") {
		t.Fatalf("rerun: exit %d:\n%s", code, out)
	}
	lcEditServers(t, path, func(m map[string]json.RawMessage) {
		m["everything"] = json.RawMessage(`{"command":"npx","args":["-y","@modelcontextprotocol/server-everything"]}`)
	})
	code, out = lcRun(t, runGatewaySetup, "--client", "cursor", "--non-interactive", "--environment", "dev")
	if code != 0 || !strings.Contains(out, "now behind the gateway: everything\n") {
		t.Fatalf("third run: exit %d:\n%s", code, out)
	}
	reg, err := gateway.LoadRegistry(regPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.Upstreams) != 2 || reg.Upstreams[0].Environment != "production" || reg.Upstreams[1].Environment != "dev" {
		t.Fatalf("upstreams %+v", reg.Upstreams)
	}
	if !bytes.HasPrefix(lcRead(t, regPath), []byte("# owned by ops\n")) {
		t.Fatal("the operator's comment was lost")
	}
	if !bytes.Contains(lcRead(t, clientconfig.BackupPath(path)), []byte("server-memory")) ||
		bytes.Contains(lcRead(t, clientconfig.BackupPath(path)), []byte("server-everything")) {
		t.Fatal("the backup is not the original file")
	}
}

func TestGatewayAdd(t *testing.T) {
	home, _ := lcScratchHome(t)
	regPath := filepath.Join(home, ".config", "reflect", "reeflex-mcp.yaml")
	code, out := lcRun(t, runGatewayAdd, "memory", "--environment", "staging", "--command", "npx", "-y", "@modelcontextprotocol/server-memory")
	if code != 0 || !strings.Contains(out, "added upstream memory") || !strings.Contains(out, "no HTTP gateway answered") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out = lcRun(t, runGatewayAdd, "docs", "--url", "https://mcp.example.com/mcp", "--token-env", "DOCS_TOKEN", "--system", "confluence", "--optional", "--no-reload")
	if code != 0 || strings.Contains(out, "reload") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	reg, err := gateway.LoadRegistry(regPath)
	if err != nil {
		t.Fatal(err)
	}
	m, d := reg.Upstreams[0], reg.Upstreams[1]
	if strings.Join(m.Command, " ") != "npx -y @modelcontextprotocol/server-memory" || m.Environment != "staging" || !m.Required {
		t.Fatalf("memory = %+v", m)
	}
	if d.URL != "https://mcp.example.com/mcp" || d.TokenEnv != "DOCS_TOKEN" || d.System != "confluence" || d.Required {
		t.Fatalf("docs = %+v", d)
	}
	for _, bad := range [][]string{
		{"a__b", "--command", "x"},
		{"x", "--url", "http://h/mcp", "--command", "y"},
		{"x"},
		{"x", "--environment", "Prod", "--command", "y"},
	} {
		if code, out := lcRun(t, runGatewayAdd, bad...); code != 2 {
			t.Errorf("add %q: exit %d, want 2:\n%s", bad, code, out)
		}
	}
}

// New user report #8: a flag of gateway add's own written after --command
// is refused (it used to become the upstream's argument, exit 0), nothing
// is written; `--command -- ARGV` passes an upstream's own --config.
func TestGatewayAddRefusesItsFlagsAfterCommand(t *testing.T) {
	home, _ := lcScratchHome(t)
	cfg := filepath.Join(home, "gwh.yaml")
	err := runGatewayAdd(context.Background(), []string{"mem2", "--config", cfg, "--environment", "dev", "--command", "mcp-server-memory",
		"--gateway-url", "http://127.0.0.1:18001"}, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	if ExitCode(err) != 2 || !strings.Contains(err.Error(), "--gateway-url after --command") || !strings.Contains(err.Error(), "before --command") {
		t.Fatalf("exit %d (%v), want 2 naming --gateway-url", ExitCode(err), err)
	}
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Fatalf("the refused add wrote %s (%v)", cfg, err)
	}
	for _, flagged := range []string{"--optional", "-environment=dev", "--system"} {
		if code, out := lcRun(t, runGatewayAdd, "m", "--config", cfg, "--command", "npx", "-y", "srv", flagged); code != 2 {
			t.Errorf("%s after --command: exit %d\n%s", flagged, code, out)
		}
	}
	code, out := lcRun(t, runGatewayAdd, "srv", "--config", cfg, "--no-reload", "--command", "--", "my-server", "--config", "srv.yaml", "--db-path", "/tmp/x")
	if code != 0 {
		t.Fatalf("--command -- ARGV: exit %d\n%s", code, out)
	}
	reg, err := gateway.LoadRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(reg.Upstreams[0].Command, " "); got != "my-server --config srv.yaml --db-path /tmp/x" {
		t.Fatalf("command %q", got)
	}
}

// add hot-reloads a real running HTTP gateway (POST /admin/reload with the
// admin token), and a client session opened before the add sees the new
// upstream's tools without reconnecting.
func TestGatewayAddReloadsARunningGateway(t *testing.T) {
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	every, err := exec.LookPath("mcp-server-everything")
	if err != nil {
		t.Skip("mcp-server-everything not installed (make test-deps installs it)")
	}
	bin := reflectBin(t)
	home, _ := lcScratchHome(t)
	cfg := filepath.Join(home, "reeflex-mcp.yaml")
	lcWrite(t, cfg, fmt.Sprintf("upstreams:\n  - name: memory\n    command: [%q]\n    env: {MEMORY_FILE_PATH: %q}\n    target: {system: memory, environment: dev}\n",
		mem, filepath.Join(home, "mem.jsonl")))
	port := lcClosedPort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "gateway", "--transport", "streamable-http", "--port", port, "--config", cfg,
		"--store", filepath.Join(home, "reflect.db"), "--provider", "local")
	srv.Env = append(os.Environ(), "REEFLEX_MCP_ADMIN_TOKEN=adm-1", "REEFLEX_CORE_URL=", "REEFLEX_MODE=")
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	base := "http://127.0.0.1:" + port
	var cs *mcpsdk.ClientSession
	for ctx.Err() == nil { // until the gateway listens (no timing asserted)
		cs, err = mcpsdk.NewClient(&mcpsdk.Implementation{Name: "cursor", Version: "1"}, nil).
			Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if cs == nil {
		t.Fatalf("gateway never answered: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	tools := func() map[string]bool {
		names := map[string]bool{}
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			names[tool.Name] = true
		}
		return names
	}
	if tools()["everything__echo"] {
		t.Fatal("everything listed before it was added")
	}
	t.Setenv("REEFLEX_MCP_ADMIN_TOKEN", "wrong")
	code, out := lcRun(t, runGatewayAdd, "everything", "--config", cfg, "--gateway-url", base, "--command", every, "stdio")
	if code != 0 || !strings.Contains(out, "refused the reload") {
		t.Fatalf("a refused reload: exit %d:\n%s", code, out)
	}
	t.Setenv("REEFLEX_MCP_ADMIN_TOKEN", "adm-1")
	code, out = lcRun(t, runGatewayAdd, "everything", "--config", cfg, "--gateway-url", base, "--command", every, "stdio")
	if code != 0 || !strings.Contains(out, `reload: {"added":["everything"]`) {
		t.Fatalf("exit %d:\n%s\n%s", code, out, stderr.String())
	}
	if !tools()["everything__echo"] {
		t.Fatalf("the open session does not see the added upstream:\n%s", stderr.String())
	}
}

func TestGatewayDoctorFindsMissingGateway(t *testing.T) {
	home, _ := lcScratchHome(t)
	lcWrite(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers":{"memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}}`)
	code, out := lcRun(t, runGatewayDoctor, "--json")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var fs []clientconfig.Finding
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(fs) != 2 || fs[0].Kind != "foreign_server" || fs[0].Fix != "reflect gateway import memory --client cursor" ||
		fs[1].Kind != "gateway_missing" || fs[1].Fix != "reflect gateway setup --client cursor" {
		t.Fatalf("findings %+v", fs)
	}
	// The same check the gateway runs at start, as DRIFT lines.
	env, _ := clientconfig.OSEnv()
	var b bytes.Buffer
	if n := clientconfig.ReportDrift(&b, env); n != 2 || strings.Count(b.String(), "DRIFT: ") != 2 {
		t.Fatalf("ReportDrift = %d:\n%s", n, b.String())
	}
	if code, out := lcRun(t, runGatewayImport, "nosuch"); code != 1 {
		t.Fatalf("import of an unknown server: exit %d:\n%s", code, out)
	}
	if code, _ := lcRun(t, runGatewayRestore); code != 1 {
		t.Fatal("restore with no backup must exit 1")
	}
}

// The whole path as a user walks it: the real binary's `gateway setup`
// rewrites a Claude Desktop file, then the entry it wrote is launched the way
// the client launches it (its command, args and env, from another working
// directory) and a go-sdk client sees the imported npm server's tools and
// reflect's own through the one gateway.
func TestGatewaySetupEntryLaunchesFromAnyDirectory(t *testing.T) {
	mem, err := exec.LookPath("mcp-server-memory")
	if err != nil {
		t.Skip("mcp-server-memory not installed (make test-deps installs it)")
	}
	bin := reflectBin(t)
	home, project := lcScratchHome(t)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	path := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	lcWrite(t, path, fmt.Sprintf(`{"mcpServers": {"memory": {"command": %q, "env": {"MEMORY_FILE_PATH": %q}}}}`, mem, filepath.Join(home, "mem.jsonl")))
	setup := exec.Command(bin, "gateway", "setup", "--client", "claude-desktop", "--non-interactive", "--config", "reeflex-mcp.yaml")
	setup.Dir = project
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	e := lcGatewayEntry(t, path)
	if e.Command != bin {
		t.Fatalf("entry command %q, want %q", e.Command, bin)
	}
	cmd := exec.Command(e.Command, e.Args...)
	cmd.Dir = "/"
	cmd.Env = append(os.Environ(), "REFLECT_PROVIDER=local")
	for k, v := range e.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "claude-desktop", Version: "1"}, nil).
		Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("the client's entry does not start the gateway: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	names := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names[tool.Name] = true
	}
	if !names["memory__read_graph"] || !names["reflect__validate"] {
		t.Fatalf("tools through the gateway: %v\n%s", names, stderr.String())
	}
	if strings.Contains(stderr.String(), "DRIFT:") {
		t.Errorf("drift reported right after setup:\n%s", stderr.String())
	}
}

// Setup again over a gateway entry the operator tuned keeps the tuning
// (other arguments, env, the registry it names) and repairs only what setup
// is for: a relative --config and a binary a client cannot find.
func TestGatewaySetupKeepsTheGatewayEntrysSettings(t *testing.T) {
	home, project := lcScratchHome(t)
	exe, _ := reflectExe()
	path := filepath.Join(project, ".mcp.json")
	own := filepath.Join(home, "ops", "gw.yaml")
	lcWrite(t, own, "mode: enforce\nupstreams:\n  - name: memory\n    command: [mcp-server-memory]\n    target: {system: memory, environment: dev}\n")
	lcWrite(t, path, fmt.Sprintf(`{"mcpServers": {
  "governed": {"type": "stdio", "command": %q, "args": ["gateway", "--hold-wait", "45s", "--config", %q], "env": {"REEFLEX_MCP_CALL_TIMEOUT": "60", "REEFLEX_MODE": "enforce"}},
  "fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}
}}`, exe, own))
	code, out := lcRun(t, runGatewaySetup, "--client", "claude-code", "--non-interactive")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	f, _ := clientconfig.ReadFile(path)
	if len(f.Servers) != 1 || f.Servers[0].Name != "governed" {
		t.Fatalf("servers %v", f.Servers)
	}
	e, _ := clientconfig.ParseEntry(f.Servers[0].Raw)
	if strings.Join(e.Args, " ") != "gateway --hold-wait 45s --config "+own || e.Env["REEFLEX_MCP_CALL_TIMEOUT"] != "60" || e.Env["REEFLEX_MODE"] != "enforce" ||
		!strings.HasPrefix(compactJSON(f.Servers[0].Raw), `{"type":"stdio","command":`) {
		t.Fatalf("the operator's entry was not kept: %s", f.Servers[0].Raw)
	}
	reg, err := gateway.LoadRegistry(own)
	if err != nil || len(reg.Upstreams) != 2 || reg.Upstreams[1].Name != "fetch" {
		t.Fatalf("fetch not imported into the registry the entry names: %v %+v", err, reg)
	}

	// A hand-written entry with a bare binary and a relative config.
	lcWrite(t, path, `{"mcpServers": {"reflect-gateway": {"command": "reflect", "args": ["gateway", "--config", "reeflex-mcp.yaml"]}, "fetch2": {"command": "uvx", "args": ["mcp-server-fetch", "--x"]}}}`)
	code, out = lcRun(t, runGatewaySetup, "--client", "claude-code", "--non-interactive", "--config", own)
	if code != 0 || !strings.Contains(out, `--config "reeflex-mcp.yaml" was relative`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	e = lcGatewayEntry(t, path)
	if e.Command != exe || clientconfig.GatewayConfigPath(e) != own || e.Env["REEFLEX_MODE"] != "enforce" {
		t.Fatalf("entry %+v: want the absolute binary, the absolute config and the registry's mode", e)
	}
}

func compactJSON(raw []byte) string {
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.String()
}

// The verbs are reached through reflect gateway's own dispatch.
func TestGatewayLifecycleVerbsDispatch(t *testing.T) {
	home, _ := lcScratchHome(t)
	path := filepath.Join(home, "client.json")
	lcWrite(t, path, `{"mcpServers":{"memory":{"command":"mcp-server-memory"}}}`)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"gateway", "doctor", "--path", path}, 1, "foreign_server"},
		{[]string{"gateway", "setup", "--path", path, "--non-interactive"}, 0, "now behind the gateway: memory"},
		{[]string{"gateway", "doctor", "--path", path}, 0, "clean"},
		{[]string{"gateway", "add", "fetch", "--no-reload", "--command", "uvx", "mcp-server-fetch"}, 0, "added upstream fetch"},
		// The official filesystem server under another name gets the
		// bundled filesystem mapping's system; --system still decides.
		{[]string{"gateway", "add", "files", "--no-reload", "--command", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"}, 0, "added upstream files (system filesystem, production)"},
		{[]string{"gateway", "add", "files2", "--no-reload", "--system", "files", "--command", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"}, 0, "added upstream files2 (system files, production)"},
		{[]string{"gateway", "import", "nosuch", "--path", path}, 1, ""},
		{[]string{"gateway", "restore", "--path", path}, 0, "restored"},
	} {
		var out, errb bytes.Buffer
		err := Run(context.Background(), c.args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
		if ExitCode(err) != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("%q: exit %d, want %d with %q:\n%s%s", c.args, ExitCode(err), c.code, c.want, out.String(), errb.String())
		}
	}
}

// `claude mcp add` writes to ~/.claude.json (local scope by default): doctor
// reads it and says how to move the server behind the gateway.
func TestGatewayDoctorReadsClaudeCodeState(t *testing.T) {
	home, project := lcScratchHome(t)
	exe, _ := reflectExe()
	state := fmt.Sprintf(`{"numStartups": 12, "mcpServers": {"reflect-gateway": {"type": "stdio", "command": %q, "args": ["gateway", "--config", "/etc/r.yaml"]}},
  "projects": {%q: {"allowedTools": [], "mcpServers": {"sqlite": {"type": "stdio", "command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "/tmp/shop db.sqlite"], "env": {}}}},
               "/elsewhere": {"mcpServers": {"other": {"command": "x"}}}}}`, exe, project)
	lcWrite(t, filepath.Join(home, ".claude.json"), state)
	code, out := lcRun(t, runGatewayDoctor, "--client", "claude-code")
	want := "claude mcp remove sqlite -s local && reflect gateway add sqlite --command uvx mcp-server-sqlite --db-path '/tmp/shop db.sqlite'"
	if code != 1 || !strings.Contains(out, want) || strings.Contains(out, "other") || strings.Count(out, "foreign_server") != 1 {
		t.Fatalf("exit %d, want the local-scope server with %q:\n%s", code, want, out)
	}
	if got := lcRead(t, filepath.Join(home, ".claude.json")); string(got) != state {
		t.Fatal("doctor wrote to ~/.claude.json")
	}
	if code, out := lcRun(t, runGatewayDoctor, "--client", "cursor"); code != 0 {
		t.Fatalf("--client cursor looked at Claude Code's state: exit %d:\n%s", code, out)
	}
}

// A script runs `gateway setup < /dev/null`: /dev/null is a character
// device but no terminal, so nobody is asked and production is written.
func TestGatewaySetupWithoutTerminalDefaultsToProduction(t *testing.T) {
	home, _ := lcScratchHome(t)
	client := filepath.Join(home, "client.json")
	lcWrite(t, client, `{"mcpServers":{"memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}}`)
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	reg := filepath.Join(home, "reg.yaml")
	var out, errb bytes.Buffer
	err = runGatewaySetup(context.Background(), []string{"--path", client, "--config", reg}, Stdio{In: devnull, Out: &out, Err: &errb})
	if ExitCode(err) != 0 {
		t.Fatalf("exit %d: %v\n%s%s", ExitCode(err), err, out.String(), errb.String())
	}
	if strings.Contains(errb.String(), "Environment of the imported servers") {
		t.Errorf("prompted without a terminal:\n%s", errb.String())
	}
	if b := lcRead(t, reg); !strings.Contains(string(b), "environment: production") {
		t.Errorf("registry:\n%s", b)
	}
}

// No client file anywhere: "clean" would claim a check that never ran.
func TestGatewayDoctorWithNothingToCheck(t *testing.T) {
	lcScratchHome(t)
	r := run(t, "", "gateway", "doctor")
	if r.code != ExitUsage || !strings.Contains(r.err, "nothing to check") || strings.Contains(r.out, "clean") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.err)
	}
}

func TestHoldsListRefusesAnUnknownStatus(t *testing.T) {
	r := run(t, "", "holds", "list", "--status", "bogus")
	if r.code != ExitUsage || !strings.Contains(r.err, "want pending, approved, rejected, expired or consumed") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.err)
	}
	if r := run(t, "", "holds", "list", "--status", "pending"); r.code != 0 || !strings.Contains(r.out, "no holds") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.err)
	}
}
