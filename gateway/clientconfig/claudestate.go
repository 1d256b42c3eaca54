package clientconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ClaudeState is ~/.claude.json, where `claude mcp add` writes a server by
// default: user scope at the top level, local scope under projects.<dir>.
// Claude Code rewrites the file while it runs, so reflect only reads it:
// doctor reports what is there, and the fix goes through Claude Code's own
// command.
func ClaudeState(env Env) string { return filepath.Join(env.Home, ".claude.json") }

// DoctorClaudeState reports the servers Claude Code reaches directly from
// ~/.claude.json (user scope, and local scope for env.Cwd).
func DoctorClaudeState(env Env) []Finding {
	path := ClaudeState(env)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Finding{{Kind: FindingInvalidConfig, Client: "claude-code", Path: path, Detail: err.Error()}}
	}
	var st struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return []Finding{{Kind: FindingInvalidConfig, Client: "claude-code", Path: path, Detail: "not valid JSON: " + err.Error()}}
	}
	out := claudeScope(path, "user", st.MCPServers)
	return append(out, claudeScope(path, "local", st.Projects[env.Cwd].MCPServers)...)
}

func claudeScope(path, scope string, servers map[string]json.RawMessage) []Finding {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Finding
	for _, n := range names {
		e, err := ParseEntry(servers[n])
		if err == nil && Classify(n, e) == Gateway {
			continue
		}
		f := Finding{Kind: FindingForeignServer, Client: "claude-code (" + scope + " scope)", Path: path, Server: n,
			Detail: fmt.Sprintf("%s is reached directly by Claude Code (%s scope), not through the gateway: its tool calls are ungoverned", n, scope)}
		remove := "claude mcp remove " + shellQuote(n) + " -s " + scope
		switch u, _, cerr := Convert(n, e, "production"); {
		case err != nil || cerr != nil:
			f.Fix = remove + " (the gateway cannot take it as it is)"
		case len(u.Command) > 0:
			f.Fix = remove + " && reflect gateway add " + shellQuote(u.Name) + " --command " + shellJoin(u.Command)
			if len(u.Env) > 0 {
				f.Fix += " (then copy its env into the registry)"
			}
		default:
			f.Fix = remove + " && reflect gateway add " + shellQuote(u.Name) + " --url " + shellQuote(u.URL)
			if len(e.Headers) > 0 {
				f.Fix += " --token-env NAME (the variable holding its token)"
			}
		}
		out = append(out, f)
	}
	return out
}

func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
