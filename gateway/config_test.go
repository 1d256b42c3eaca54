package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sampleRegistry = `
mode: enforce
upstreams:
  - name: filesystem
    command: npx -y "@modelcontextprotocol/server-filesystem" '/data dir'
    env: {LOG: 1}
    target: {system: filesystem, environment: staging}
  - name: remote
    url: http://127.0.0.1:8091/mcp
    auth: {token_env: REMOTE_TOKEN}
    target: {system: widgets, environment: production}
    required: false
    colour: blue
clients:
  - {token_env: CLAUDE_TOKEN, session_id: claude-desktop}
mappings_dir: ./maps
admin: yes
`

func TestParseRegistry(t *testing.T) {
	r, err := ParseRegistry([]byte(sampleRegistry))
	if err != nil {
		t.Fatal(err)
	}
	fs := r.Upstreams[0]
	if r.Mode != ModeEnforce || len(r.Upstreams) != 2 || r.MappingsDir != "./maps" || len(r.Clients) != 1 {
		t.Fatalf("parsed %+v", r)
	}
	if strings.Join(fs.Command, "|") != "npx|-y|@modelcontextprotocol/server-filesystem|/data dir" || fs.Env["LOG"] != "1" || !fs.Required {
		t.Errorf("stdio upstream %+v", fs)
	}
	rm := r.Upstreams[1]
	if rm.URL == "" || rm.TokenEnv != "REMOTE_TOKEN" || rm.Required || rm.System != "widgets" || rm.Environment != "production" {
		t.Errorf("http upstream %+v", rm)
	}
	warn := strings.Join(r.Warnings, "\n")
	for _, k := range []string{`"colour"`, `"admin"`} {
		if !strings.Contains(warn, k) {
			t.Errorf("unknown key %s not warned about: %s", k, warn)
		}
	}
}

func TestRegistryErrors(t *testing.T) {
	base := "upstreams:\n  - name: %s\n    command: x\n    target: {system: s, environment: %s}\n"
	cases := map[string]string{
		"upstreams:\n":                         "upstreams is required",
		strings.Replace(base, "%s", "a__b", 1): "never contains",
		"upstreams:\n  - name: a\n    target: {system: s, environment: dev}\n":                                                                                "exactly one of command or url",
		"upstreams:\n  - name: a\n    command: x\n":                                                                                                           "target.system and target.environment",
		"upstreams:\n  - name: a\n    command: x\n    target: {system: s, environment: prod}\n":                                                               "want production, staging or dev",
		"upstreams:\n  - {name: a, command: x, target: {system: s, environment: dev}}\n  - {name: a, url: http://x, target: {system: s, environment: dev}}\n": "listed twice",
		"upstreams: [\n": "invalid YAML",
		"upstreams:\n  - name: a\n    command: \"x\n    target: {system: s, environment: dev}\n": "",
	}
	for in, want := range cases {
		in = strings.Replace(in, "%s", "dev", 1)
		_, err := ParseRegistry([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestSettingsFromEnv(t *testing.T) {
	env := map[string]string{"REEFLEX_MODE": " Enforce ", "REEFLEX_MCP_CALL_TIMEOUT": "2.5", "REEFLEX_MCP_UPSTREAM_CONNECT_TIMEOUT": "-1",
		"REEFLEX_MCP_PORT": "9000", "REEFLEX_VERIFY_SSL": "off", "REEFLEX_CORE_URL": "http://core:8080", "REEFLEX_MCP_TRANSPORT": "streamable-http"}
	s := SettingsFromEnv(func(k string) string { return env[k] })
	if s.Mode != ModeEnforce || s.CallTimeout != 2500*time.Millisecond || s.ConnectTimeout != DefaultConnectTimeout || s.Port != 9000 ||
		s.VerifySSL || s.CoreURL != "http://core:8080" || s.Transport != "streamable-http" || s.Host != DefaultHost {
		t.Errorf("settings %+v", s)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "REEFLEX_MCP_UPSTREAM_CONNECT_TIMEOUT") {
		t.Errorf("warnings %v", s.Warnings)
	}
	d := SettingsFromEnv(func(string) string { return "" })
	if d.Mode != "" || d.ConfigPath != DefaultConfigPath || d.CoreURL != "" || d.CallTimeout != DefaultCallTimeout || !d.VerifySSL {
		t.Errorf("defaults %+v", d)
	}
}

func TestBundledMappings(t *testing.T) {
	m, _, err := LoadMappings("")
	if err != nil {
		t.Fatal(err)
	}
	fs, gh, pg := m["filesystem"], m["github"], m["postgres"]
	if fs == nil || gh == nil || pg == nil || m["reflect"] == nil || BundledMapping("reflect") == nil {
		t.Fatalf("bundled mappings: %v", sortedKeys(m))
	}
	if len(fs.Tools) != 14 || len(gh.Tools) != 26 || len(pg.Tools) != 9 {
		t.Errorf("tool counts %d %d %d", len(fs.Tools), len(gh.Tools), len(pg.Tools))
	}
	for _, mm := range m {
		for name, tool := range mm.Tools {
			if strings.HasPrefix(tool.Verb, "delete") && mm.System != "postgres" {
				t.Errorf("%s/%s: the real server has no delete tool", mm.System, name)
			}
		}
	}
	if got := gh.Tools["merge_pull_request"]; got.Axes != (Axes{"irreversible", "broad", "outbound"}) {
		t.Errorf("merge_pull_request %+v", got)
	}
	if got := pg.Tools["execute_sql"]; got.Verb != "delete" || got.Axes != (Axes{"irreversible", "broad", "internal"}) || pg.FromArg != "" {
		t.Errorf("execute_sql %+v from_arg %q", got, pg.FromArg)
	}
	reads := 0
	for _, tool := range gh.Tools {
		if tool.Verb == "read" {
			reads++
			if tool.Axes.Externality != "internal" {
				t.Errorf("a github read is not internal: %+v", tool)
			}
		}
	}
	if reads != 14 || fs.FromArg != "paths" || gh.FromArg != "files" {
		t.Errorf("github reads %d, from_arg %q %q", reads, fs.FromArg, gh.FromArg)
	}
}

func TestMappingValidation(t *testing.T) {
	m, err := ParseMapping("mail", []byte("tools:\n  bulk_archive:\n    verb: update\n    axes: {reversibility: recoverable}\nmagnitude: {from_arg: ids}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Tools["bulk_archive"].Axes; got != (Axes{"recoverable", "systemic", "physical"}) {
		t.Errorf("partial axes filled with %+v, want the engine's defaults", got)
	}
	bad := map[string]string{
		"":                               "top level",
		"tools: {}\n":                    "non-empty",
		"tools:\n  x: {axes: {}}\n":      "verb is required",
		"tools:\n  x: {verb: destroy}\n": "verb \"destroy\"",
		"tools:\n  x: {verb: read, axes: {reversibility: maybe}}\n": "reversibility \"maybe\"",
		"tools:\n  x: {verb: read, axes: {speed: fast}}\n":          "unknown axis",
		"tools:\n  x: {verb: read, note: y}\n":                      "unknown key \"note\"",
		"tools:\n  x: {verb: read}\nextra: 1\n":                     "unknown key \"extra\"",
		"tools:\n  x: {verb: read}\nmagnitude: {by: ids}\n":         "magnitude.by",
	}
	for in, want := range bad {
		if _, err := ParseMapping("s", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func TestClassifyMagnitude(t *testing.T) {
	yes := true
	cases := []struct {
		tool, args string
		want       Classification
	}{
		{"delete_notes", `{"force":true,"names":["a","b","c"],"tags":["x"]}`, Classification{"delete", Axes{"irreversible", "scoped", "internal"}, 3, "heuristic:delete"}},
		{"remove_all", `{"ids":` + "[" + strings.Repeat("1,", 20) + "1]}", Classification{"delete", Axes{"irreversible", "broad", "internal"}, 21, "heuristic:delete"}},
		{"send_mail", `{"to":[]}`, Classification{"create", Axes{"recoverable", "single", "outbound"}, 1, "heuristic:create"}},
		{"listWidgets", `{}`, Classification{"read", Axes{"reversible", "single", "internal"}, 1, "heuristic:read"}},
		{"update_get_x", `{}`, floor(1, SourceDefault)},
		{"apply_migration", `{}`, floor(1, SourceDefault)},
	}
	for _, c := range cases {
		if got := Classify(nil, c.tool, nil, []byte(c.args)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.tool, got, c.want)
		}
	}
	// readOnlyHint wins over destructiveHint; a false hint falls through.
	ro := &annotations{ReadOnlyHint: true, DestructiveHint: &yes}
	if got := Classify(nil, "frob", ro, []byte(`{}`)); got.Source != SourceAnnRead {
		t.Errorf("readOnly+destructive: %s", got.Source)
	}
	no := false
	if got := Classify(nil, "frob", &annotations{DestructiveHint: &no}, []byte(`{}`)); got.Source != SourceDefault {
		t.Errorf("destructiveHint false: %s", got.Source)
	}
}

// A mistyped mappings_dir must not silently drop every starter: it warns,
// and the bundled mappings still classify. A directory that exists
// overrides the starter of each system it has a file for, and only those.
func TestGatewayMissingMappingsDirKeepsStarters(t *testing.T) {
	m, warns, err := LoadMappings(filepath.Join(t.TempDir(), "no-such-dir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "no-such-dir") || !strings.Contains(warns[0], "bundled starters") {
		t.Errorf("warnings %q: want one naming the directory and the starters", warns)
	}
	if m["filesystem"] == nil || m["github"] == nil || m["postgres"] == nil {
		t.Errorf("starters lost: %v", sortedKeys(m))
	}

	dir := t.TempDir()
	own := "tools:\n  write_file:\n    verb: delete\n"
	if err := os.WriteFile(filepath.Join(dir, "filesystem.yaml"), []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	m, warns, err = LoadMappings(dir)
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v warnings %q", err, warns)
	}
	if len(m["filesystem"].Tools) != 1 || m["filesystem"].Tools["write_file"].Verb != "delete" {
		t.Errorf("the operator's filesystem.yaml did not replace the starter: %+v", m["filesystem"].Tools)
	}
	if m["github"] == nil {
		t.Error("a system without its own file lost its starter")
	}
}
