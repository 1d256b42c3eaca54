package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A Claude Desktop file as the app writes it, with keys of its own around
// mcpServers.
const desktopJSON = `{
    "globalShortcut": "Alt+Space",
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ana/Desktop"]
        },
        "github": {
            "url": "https://api.githubcopilot.com/mcp/",
            "headers": {"Authorization": "Bearer ghp_SECRETSECRET"}
        },
        "weather": {"command": "uvx", "args": ["mcp-weather"], "env": {"WEATHER_KEY": "w-123", "PORT": 8080}}
    },
    "preferences": {"quickEntryShortcut": "off", "menuBarEnabled": true}
}
`

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func opts(dir string) Options {
	return Options{Exe: "/opt/reflect/bin/reflect", ConfigPath: filepath.Join(dir, "reeflex-mcp.yaml"), Environment: "staging"}
}

func TestFileKeepsOtherKeysAndOrder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	write(t, p, desktopJSON)
	f, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Servers); got != 3 {
		t.Fatalf("servers = %d, want 3", got)
	}
	f.Remove("github")
	if err := f.Write(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	s := string(b)
	gi, mi, pi := strings.Index(s, "globalShortcut"), strings.Index(s, "mcpServers"), strings.Index(s, "preferences")
	if gi < 0 || mi < gi || pi < mi {
		t.Fatalf("top-level key order lost:\n%s", s)
	}
	if fi, wi := strings.Index(s, `"filesystem"`), strings.Index(s, `"weather"`); fi > wi {
		t.Fatalf("server order lost:\n%s", s)
	}
	if strings.Contains(s, "github") {
		t.Fatalf("removed server still there:\n%s", s)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("rewritten file is not JSON: %v", err)
	}
	if v["preferences"].(map[string]any)["menuBarEnabled"] != true || v["globalShortcut"] != "Alt+Space" {
		t.Fatalf("other keys changed: %v", v)
	}
}

func TestInvalidClientFileRefusedNothingWritten(t *testing.T) {
	for name, body := range map[string]string{
		"truncated":        `{"mcpServers": {"a": {"command": "x"}`,
		"array":            `[1, 2]`,
		"servers-not-obj":  `{"mcpServers": ["a"]}`,
		"duplicate-server": `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`,
		"trailing-comma":   `{"mcpServers": {},}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "c.json")
			write(t, p, body)
			reg, err := ReadRegistry(filepath.Join(dir, "reeflex-mcp.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Setup(CustomProfile(Env{Cwd: dir}, p), reg, opts(dir))
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if b, _ := os.ReadFile(p); string(b) != body {
				t.Fatalf("client file changed: %q", b)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Fatalf("files written next to an invalid config: %v", entries)
			}
		})
	}
}

func TestSetupImportsStripsSecretsAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	p := CustomProfile(Env{Cwd: dir}, "c.json")
	write(t, p.Path, desktopJSON)
	o := opts(dir)
	reg, err := ReadRegistry(o.ConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Setup(p, reg, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Imported) != 3 || !out.Changed || !out.BackupCreated {
		t.Fatalf("outcome = %+v", out)
	}
	warned := strings.Join(out.Warnings, "\n")
	if !strings.Contains(warned, "auth.token_env") || !strings.Contains(warned, "github") {
		t.Fatalf("no warning naming auth.token_env for github:\n%s", warned)
	}
	regBytes, _ := os.ReadFile(o.ConfigPath)
	if bytes.Contains(regBytes, []byte("ghp_SECRET")) {
		t.Fatalf("an inline header secret reached the registry:\n%s", regBytes)
	}
	if st, _ := os.Stat(o.ConfigPath); st.Mode().Perm() != 0o600 {
		t.Fatalf("new registry mode %v, want 0600", st.Mode().Perm())
	}
	var doc struct {
		Mode      string
		Upstreams []struct {
			Name     string
			Command  []string
			Env      map[string]string
			URL      string
			Required bool
			Target   struct{ System, Environment string }
		}
	}
	if err := yaml.Unmarshal(regBytes, &doc); err != nil {
		t.Fatalf("registry is not YAML: %v\n%s", err, regBytes)
	}
	if doc.Mode != "observe" || len(doc.Upstreams) != 3 {
		t.Fatalf("registry = %+v", doc)
	}
	fsu, gh, we := doc.Upstreams[0], doc.Upstreams[1], doc.Upstreams[2]
	if fsu.Name != "filesystem" || strings.Join(fsu.Command, " ") != "npx -y @modelcontextprotocol/server-filesystem /Users/ana/Desktop" ||
		fsu.Target.System != "filesystem" || fsu.Target.Environment != "staging" || !fsu.Required {
		t.Fatalf("filesystem = %+v", fsu)
	}
	if gh.URL != "https://api.githubcopilot.com/mcp/" || gh.Required {
		t.Fatalf("github (headers dropped) = %+v, want its url and required: false", gh)
	}
	if we.Env["PORT"] != "8080" || we.Env["WEATHER_KEY"] != "w-123" {
		t.Fatalf("weather env = %v (a number must stay the string the client passed)", we.Env)
	}

	f, err := ReadFile(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Servers) != 1 || f.Servers[0].Name != GatewayKey {
		t.Fatalf("client servers = %v, want only the gateway", f.Servers)
	}
	e, _ := ParseEntry(f.Servers[0].Raw)
	if e.Command != o.Exe || GatewayConfigPath(e) != o.ConfigPath || e.Env["REEFLEX_MODE"] != "observe" {
		t.Fatalf("gateway entry = %+v", e)
	}
	backup, _ := os.ReadFile(BackupPath(p.Path))
	if string(backup) != desktopJSON {
		t.Fatal("backup is not the original")
	}

	// A second run finds nothing new and writes nothing.
	clientBefore, _ := os.ReadFile(p.Path)
	reg2, _ := ReadRegistry(o.ConfigPath)
	out2, err := Setup(p, reg2, o)
	if err != nil {
		t.Fatal(err)
	}
	if out2.Changed || out2.RegistryChanged || len(out2.Imported) != 0 {
		t.Fatalf("second setup did something: %+v", out2)
	}
	if b, _ := os.ReadFile(p.Path); !bytes.Equal(b, clientBefore) {
		t.Fatal("second setup rewrote the client file")
	}
}

func TestEntryThatCannotBeImportedStays(t *testing.T) {
	dir := t.TempDir()
	p := CustomProfile(Env{Cwd: dir}, "c.json")
	body := `{"mcpServers": {
  "ok": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
  "sse-only": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
  "empty": {},
  "reflect": {"command": "/usr/local/bin/something-else"},
  "weird": {"command": 42}
}}`
	write(t, p.Path, body)
	o := opts(dir)
	reg, _ := ReadRegistry(o.ConfigPath)
	out, err := Setup(p, reg, o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(out.Imported, ",") != "ok" || strings.Join(out.Kept, ",") != "sse-only,empty,reflect,weird" {
		t.Fatalf("imported %v kept %v", out.Imported, out.Kept)
	}
	f, _ := ReadFile(p.Path)
	var names []string
	for _, s := range f.Servers {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "sse-only,empty,reflect,weird,"+GatewayKey {
		t.Fatalf("client servers = %v", names)
	}
	if len(out.Warnings) != 4 {
		t.Fatalf("want one warning per kept entry: %q", out.Warnings)
	}
}

func TestRegistryEditKeepsCommentsAndOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "reeflex-mcp.yaml")
	orig := `# operator notes: prod servers only
mode: enforce # decided 2026-11-02
mappings_dir: ./mappings
upstreams:
  # the DB, read-mostly
  - name: pg
    command: postgres-mcp --access-mode=restricted
    target: {system: postgres, environment: production}
    custom_note: keep me
`
	write(t, path, orig)
	reg, err := ReadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Mode() != "enforce" {
		t.Fatalf("mode = %q", reg.Mode())
	}
	reg.Upsert(Upstream{Name: "flags", Command: []string{"srv", "true", "8080", "yes"}, Env: map[string]string{"DEBUG": "true", "N": "007"},
		System: "flags", Environment: "dev", Required: true})
	if err := reg.Write(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	s := string(b)
	for _, want := range []string{"# operator notes: prod servers only", "# decided 2026-11-02", "# the DB, read-mostly", "custom_note: keep me",
		"command: postgres-mcp --access-mode=restricted"} {
		if !strings.Contains(s, want) {
			t.Fatalf("lost %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "mode:") > strings.Index(s, "mappings_dir:") || strings.Index(s, "mappings_dir:") > strings.Index(s, "upstreams:") {
		t.Fatalf("key order changed:\n%s", s)
	}
	var doc struct {
		Upstreams []struct {
			Command any
			Env     map[string]any
		}
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Upstreams[1]
	if fmt.Sprint(got.Command) != "[srv true 8080 yes]" || got.Env["DEBUG"] != "true" || got.Env["N"] != "007" {
		t.Fatalf("strings that look like YAML bools or numbers must stay strings: %+v\n%s", got, s)
	}
}

func TestProfilePaths(t *testing.T) {
	env := Env{Home: "/h", Cwd: "/p", AppData: `/w/Roaming`}
	cases := []struct {
		goos, key, want string
	}{
		{"darwin", ClaudeDesktop, "/h/Library/Application Support/Claude/claude_desktop_config.json"},
		{"windows", ClaudeDesktop, "/w/Roaming/Claude/claude_desktop_config.json"},
		{"linux", ClaudeDesktop, "/h/.config/Claude/claude_desktop_config.json"},
		{"linux", ClaudeCode, "/p/.mcp.json"},
		{"linux", "mcp-json", "/p/.mcp.json"},
		{"linux", ClaudeCodeSettings, "/p/.claude/settings.json"},
		{"linux", Cursor, "/h/.cursor/mcp.json"},
		{"linux", CursorProject, "/p/.cursor/mcp.json"},
	}
	for _, c := range cases {
		env.GOOS = c.goos
		p, err := Lookup(env, c.key)
		if err != nil || p.Path != c.want {
			t.Errorf("%s %s = %q, %v; want %q", c.goos, c.key, p.Path, err, c.want)
		}
	}
	env.GOOS, env.XDGConfigHome = "linux", "/x"
	if p, _ := Lookup(env, ClaudeDesktop); p.Path != "/x/Claude/claude_desktop_config.json" {
		t.Errorf("XDG_CONFIG_HOME not honoured: %s", p.Path)
	}
	env.GOOS, env.AppData = "windows", ""
	if p, _ := Lookup(env, ClaudeDesktop); p.Path != "/h/AppData/Roaming/Claude/claude_desktop_config.json" {
		t.Errorf("Windows fallback: %s", p.Path)
	}
	if _, err := Lookup(env, "vscode"); err == nil {
		t.Error("unknown client accepted")
	}
}

func TestGatewayEntryRefusesRelativePaths(t *testing.T) {
	for _, g := range []GatewayEntry{{Exe: "reflect", ConfigPath: "/abs.yaml"}, {Exe: "/bin/reflect", ConfigPath: "reeflex-mcp.yaml"}} {
		if _, err := g.Raw(); err == nil {
			t.Errorf("%+v: relative path accepted", g)
		}
	}
}

func TestDoctorFindings(t *testing.T) {
	dir := t.TempDir()
	p := CustomProfile(Env{Cwd: dir}, "c.json")
	write(t, p.Path, `{"mcpServers": {
  "mem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
  "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}
}}`)
	fs := Doctor([]Profile{p})
	if len(fs) != 3 {
		t.Fatalf("findings %v", fs)
	}
	if fs[0].Kind != FindingForeignServer || fs[0].Fix != "reflect gateway import mem --path "+p.Path {
		t.Errorf("mem: %+v", fs[0])
	}
	if fs[1].Kind != FindingForeignServer || !strings.Contains(fs[1].Fix, "replace it") {
		t.Errorf("old: an unimportable server must not be sent to import as it is: %+v", fs[1])
	}
	if fs[2].Kind != FindingGatewayMissing || fs[2].Fix != "reflect gateway setup --path "+p.Path {
		t.Errorf("gateway: %+v", fs[2])
	}
	// A hand-written gateway entry with a relative config is the reference's
	// "Server disconnected".
	write(t, p.Path, `{"mcpServers": {"reflect-gateway": {"command": "/usr/bin/reflect", "args": ["gateway", "--config", "reeflex-mcp.yaml"]}}}`)
	if fs := Doctor([]Profile{p}); len(fs) != 1 || fs[0].Kind != FindingRelativeConfig {
		t.Fatalf("findings %v", fs)
	}
	write(t, p.Path, `{"mcpServers": {"reflect-gateway": {"command": "/usr/bin/reflect", "args": ["gateway", "--config", "/etc/reflect/reeflex-mcp.yaml"]}}}`)
	if fs := Doctor([]Profile{p}); len(fs) != 0 {
		t.Fatalf("clean file: %v", fs)
	}
	if fs := Doctor([]Profile{CustomProfile(Env{Cwd: dir}, "missing.json")}); len(fs) != 0 {
		t.Fatalf("a missing file has no findings: %v", fs)
	}
}

func TestConvertVariableReferences(t *testing.T) {
	u, warns, err := Convert("gh", Entry{URL: "https://api.githubcopilot.com/mcp/", Headers: map[string]string{"Authorization": "Bearer ${GITHUB_PAT}"}}, "dev")
	if err != nil || u.TokenEnv != "GITHUB_PAT" || u.Required || len(warns) != 1 || !strings.Contains(warns[0], "auth.token_env: GITHUB_PAT") {
		t.Fatalf("%+v %q %v", u, warns, err)
	}
	u, warns, err = Convert("gh", Entry{URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer ${env:TOK}", "X-Org": "acme-secret"}}, "dev")
	if err != nil || u.TokenEnv != "TOK" || len(warns) != 2 || !strings.Contains(warns[1], "X-Org") || strings.Contains(strings.Join(warns, " "), "acme-secret") {
		t.Fatalf("%+v %q %v", u, warns, err)
	}
	u, warns, err = Convert("pg", Entry{Command: "uvx", Args: []string{"postgres-mcp"}, Env: map[string]string{
		"DATABASE_URI": "${DATABASE_URI}", "PGAPPNAME": "shop-${USER}", "LOG": "1"}}, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := u.Env["DATABASE_URI"]; ok || u.Env["PGAPPNAME"] != "shop-${USER}" || u.Env["LOG"] != "1" {
		t.Fatalf("env %v: a self-reference is inherited, not copied as a literal", u.Env)
	}
	if w := strings.Join(warns, "\n"); !strings.Contains(w, "(LOG, PGAPPNAME) was copied") || !strings.Contains(w, "(PGAPPNAME) uses ${...}") {
		t.Fatalf("warnings %q", warns)
	}
}

func TestWritesKeepPermissionsAndSymlinksAndLeaveNoTemp(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	write(t, real, desktopJSON)
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	o := opts(dir)
	reg, _ := ReadRegistry(o.ConfigPath)
	if _, err := Setup(CustomProfile(Env{Cwd: dir}, link), reg, o); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(GatewayKey)) {
		t.Fatal("the link's target was not rewritten")
	}
	for _, d := range []string{dir, filepath.Dir(real)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Fatalf("temporary file left: %s", e.Name())
			}
		}
	}
	if ok, err := RestoreBackup(link); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if b, _ := os.ReadFile(real); string(b) != desktopJSON {
		t.Fatal("restore through the link did not give back the original")
	}
}

func TestSetupCreatesANamedClientFileWhenTheRegistryHasServers(t *testing.T) {
	dir := t.TempDir()
	o := opts(dir)
	reg, _ := ReadRegistry(o.ConfigPath)
	p := CustomProfile(Env{Cwd: dir}, "new/mcp.json")
	if _, err := Setup(p, reg, o); err == nil {
		t.Fatal("setup with nothing to govern wrote a gateway that cannot start")
	}
	if _, err := os.Stat(p.Path); err == nil {
		t.Fatal("a refused setup wrote the client file")
	}
	reg.Upsert(Upstream{Name: "memory", Command: []string{"mcp-server-memory"}, System: "memory", Environment: "dev", Required: true})
	if err := reg.Write(); err != nil {
		t.Fatal(err)
	}
	out, err := Setup(p, reg, o)
	if err != nil || !out.Changed || out.BackupCreated {
		t.Fatalf("%+v %v", out, err)
	}
	f, _ := ReadFile(p.Path)
	if len(f.Servers) != 1 || f.Servers[0].Name != GatewayKey {
		t.Fatalf("servers %v", f.Servers)
	}
}

func TestImportFoldsReflectsOwnServerIntoTheGatewayEntry(t *testing.T) {
	dir := t.TempDir()
	o := opts(dir)
	write(t, o.ConfigPath, "upstreams:\n  - {name: memory, command: [mcp-server-memory], target: {system: memory, environment: dev}}\n")
	p := CustomProfile(Env{Cwd: dir}, "c.json")
	write(t, p.Path, `{"mcpServers": {
  "reflect-gateway": {"command": "/opt/reflect/bin/reflect", "args": ["gateway", "--config", "`+o.ConfigPath+`"], "env": {"REEFLEX_MODE": "enforce"}, "disabled": false},
  "reflect": {"command": "/opt/reflect/bin/reflect", "args": ["mcp"], "env": {"REFLECT_PROVIDER": "openai", "REEFLEX_MODE": "observe"}}
}}`)
	reg, _ := ReadRegistry(o.ConfigPath)
	out, err := Import([]Profile{p}, "reflect", reg, o)
	if err != nil || !out.Changed || out.RegistryChanged {
		t.Fatalf("%+v %v", out, err)
	}
	f, _ := ReadFile(p.Path)
	if len(f.Servers) != 1 {
		t.Fatalf("servers %v", f.Servers)
	}
	var e struct {
		Env      map[string]string
		Disabled *bool
	}
	_ = json.Unmarshal(f.Servers[0].Raw, &e)
	if e.Env["REFLECT_PROVIDER"] != "openai" || e.Env["REEFLEX_MODE"] != "enforce" || e.Disabled == nil {
		t.Fatalf("gateway entry %s: want the provider added and every setting of its own kept", f.Servers[0].Raw)
	}
	if _, err := Import([]Profile{p}, "reflect", reg, o); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second import: %v", err)
	}
}

// A client's server that runs one of the servers the bundled mappings
// describe is imported under that mapping's system, whatever the client
// calls it ("files" running the official filesystem server), and the
// warning says so; any other server's system is its name.
func TestConvertNamesTheStarterSystem(t *testing.T) {
	for _, c := range []struct {
		key  string
		e    Entry
		want string
	}{
		{"files", Entry{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/data"}}, "filesystem"},
		{"files", Entry{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/data"}}, "filesystem"},
		{"fs", Entry{Command: "/usr/local/bin/mcp-server-filesystem", Args: []string{"/data"}}, "filesystem"},
		{"gh", Entry{Command: "npx", Args: []string{"@modelcontextprotocol/server-github"}}, "github"},
		{"db", Entry{Command: "uvx", Args: []string{"postgres-mcp", "--access-mode=restricted"}}, "postgres"},
		{"db", Entry{Command: "docker", Args: []string{"run", "-i", "--rm", "crystaldba/postgres-mcp:latest"}}, "postgres"},
		{"memory", Entry{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}}, "memory"},
		{"notes", Entry{Command: "node", Args: []string{"/srv/my-filesystem-notes/index.js"}}, "notes"},
	} {
		u, warns, err := Convert(c.key, c.e, "dev")
		if err != nil {
			t.Fatalf("%s: %v", c.key, err)
		}
		if u.System != c.want {
			t.Errorf("%s %v: system %q, want %q", c.key, c.e.Args, u.System, c.want)
		}
		said := strings.Contains(strings.Join(warns, "\n"), "mappings/"+c.want+".yaml classifies")
		if renamed := c.want != c.key; said != renamed {
			t.Errorf("%s as %s: warnings %q", c.key, c.want, warns)
		}
	}
}
