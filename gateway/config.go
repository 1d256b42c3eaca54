// Package gateway is reflect's governance gateway: an MCP proxy that
// aggregates upstream MCP servers' tools under "<upstream>__<tool>", turns
// every tools/call into a Reeflex action envelope, asks a decision engine,
// and forwards, blocks or holds the call. Only tools are proxied: resources,
// prompts and sampling are not advertised.
//
// It reads reeflex-mcp's registry YAML (reeflex-mcp.yaml), its declarative
// mapping YAML and its REEFLEX_* / REEFLEX_MCP_* variables as they are.
package gateway

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Mode is observe (decide, record, always forward) or enforce.
type Mode string

// Modes.
const (
	ModeObserve Mode = "observe"
	ModeEnforce Mode = "enforce"
)

// Registry is reeflex-mcp.yaml.
type Registry struct {
	Mode        Mode
	Upstreams   []UpstreamConfig
	Clients     []ClientConfig
	MappingsDir string
	// Warnings lists what the file holds that reeflex-mcp ignores too
	// (unknown keys): said once at start, never silently dropped.
	Warnings []string
	// Path is the file it was read from ("" when parsed from bytes).
	Path string
}

// UpstreamConfig is one entry of upstreams:.
type UpstreamConfig struct {
	Name string
	// Command is the stdio argv (a string command is split like a shell).
	Command []string
	Env     map[string]string
	URL     string
	// TokenEnv names the variable holding the bearer sent to an HTTP
	// upstream; read at connect time, never stored.
	TokenEnv    string
	System      string
	Environment string
	Required    bool
}

// ClientConfig maps a front bearer (by env var name) to a stable session id.
type ClientConfig struct {
	TokenEnv  string
	SessionID string
}

var upstreamNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadRegistry reads and validates a registry file.
func LoadRegistry(path string) (*Registry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	r, err := ParseRegistry(b)
	if err != nil {
		return nil, fmt.Errorf("registry %s: %w", path, err)
	}
	r.Path = path
	return r, nil
}

// ParseRegistry parses registry YAML.
func ParseRegistry(b []byte) (*Registry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("empty file: upstreams is required")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("top level must be a mapping")
	}
	r := &Registry{}
	for _, kv := range pairs(root) {
		k, v := kv[0].Value, kv[1]
		switch k {
		case "mode":
			m := Mode(strings.ToLower(strings.TrimSpace(v.Value)))
			if m != ModeObserve && m != ModeEnforce {
				r.Warnings = append(r.Warnings, fmt.Sprintf("line %d: mode %q is neither observe nor enforce: observe is used", v.Line, v.Value))
				m = ModeObserve
			}
			r.Mode = m
		case "upstreams":
			if v.Tag == "!!null" {
				continue
			}
			if v.Kind != yaml.SequenceNode {
				return nil, fmt.Errorf("line %d: upstreams must be a list", v.Line)
			}
			for _, item := range v.Content {
				u, warns, err := parseUpstream(item)
				if err != nil {
					return nil, err
				}
				r.Warnings = append(r.Warnings, warns...)
				r.Upstreams = append(r.Upstreams, u)
			}
		case "clients":
			if v.Kind != yaml.SequenceNode {
				return nil, fmt.Errorf("line %d: clients must be a list", v.Line)
			}
			for _, item := range v.Content {
				c, warns, err := parseClient(item)
				if err != nil {
					return nil, err
				}
				r.Warnings = append(r.Warnings, warns...)
				r.Clients = append(r.Clients, c)
			}
		case "mappings_dir":
			r.MappingsDir = v.Value
		default:
			r.Warnings = append(r.Warnings, fmt.Sprintf("line %d: unknown key %q ignored", kv[0].Line, k))
		}
	}
	if len(r.Upstreams) == 0 {
		return nil, errors.New("upstreams is required and must not be empty")
	}
	seen := map[string]bool{}
	for _, u := range r.Upstreams {
		if seen[u.Name] {
			return nil, fmt.Errorf("upstream %q is listed twice", u.Name)
		}
		seen[u.Name] = true
	}
	return r, nil
}

func pairs(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	return out
}

func parseUpstream(n *yaml.Node) (UpstreamConfig, []string, error) {
	u := UpstreamConfig{Required: true}
	var warns []string
	if n.Kind != yaml.MappingNode {
		return u, nil, fmt.Errorf("line %d: each upstream must be a mapping", n.Line)
	}
	hasTarget := false
	for _, kv := range pairs(n) {
		k, v := kv[0].Value, kv[1]
		switch k {
		case "name":
			u.Name = v.Value
		case "command":
			switch v.Kind {
			case yaml.SequenceNode:
				for _, a := range v.Content {
					u.Command = append(u.Command, a.Value)
				}
			case yaml.ScalarNode:
				argv, err := splitCommand(v.Value)
				if err != nil {
					return u, nil, fmt.Errorf("line %d: command: %w", v.Line, err)
				}
				u.Command = argv
			default:
				return u, nil, fmt.Errorf("line %d: command must be a string or a list", v.Line)
			}
		case "env":
			if v.Kind != yaml.MappingNode {
				return u, nil, fmt.Errorf("line %d: env must be a mapping", v.Line)
			}
			u.Env = map[string]string{}
			for _, e := range pairs(v) {
				u.Env[e[0].Value] = e[1].Value
			}
		case "url":
			u.URL = v.Value
		case "auth":
			for _, a := range pairs(v) {
				if a[0].Value == "token_env" {
					u.TokenEnv = a[1].Value
				} else {
					warns = append(warns, fmt.Sprintf("line %d: unknown key auth.%s ignored", a[0].Line, a[0].Value))
				}
			}
		case "target":
			hasTarget = true
			for _, t := range pairs(v) {
				switch t[0].Value {
				case "system":
					u.System = t[1].Value
				case "environment":
					u.Environment = t[1].Value
				default:
					warns = append(warns, fmt.Sprintf("line %d: unknown key target.%s ignored", t[0].Line, t[0].Value))
				}
			}
		case "required":
			var b bool
			if err := v.Decode(&b); err != nil {
				return u, nil, fmt.Errorf("line %d: required must be true or false", v.Line)
			}
			u.Required = b
		default:
			warns = append(warns, fmt.Sprintf("line %d: unknown key %q in upstream ignored", kv[0].Line, k))
		}
	}
	where := fmt.Sprintf("line %d: upstream %q", n.Line, u.Name)
	switch {
	case u.Name == "":
		return u, nil, fmt.Errorf("line %d: upstream without a name", n.Line)
	case strings.Contains(u.Name, "__") || !upstreamNameRE.MatchString(u.Name):
		return u, nil, fmt.Errorf("%s: a name is letters, digits, '_', '-', '.', and never contains \"__\" (the namespace separator)", where)
	case (len(u.Command) == 0) == (u.URL == ""):
		return u, nil, fmt.Errorf("%s: exactly one of command or url is required", where)
	case !hasTarget || u.System == "" || u.Environment == "":
		return u, nil, fmt.Errorf("%s: target.system and target.environment are required", where)
	case u.Environment != "production" && u.Environment != "staging" && u.Environment != "dev":
		return u, nil, fmt.Errorf("%s: target.environment %q: want production, staging or dev", where, u.Environment)
	case u.URL != "" && len(u.Env) > 0:
		warns = append(warns, where+": env applies to stdio upstreams only; ignored")
	case len(u.Command) > 0 && u.TokenEnv != "":
		warns = append(warns, where+": auth applies to url upstreams only; ignored")
	}
	return u, warns, nil
}

func parseClient(n *yaml.Node) (ClientConfig, []string, error) {
	var c ClientConfig
	var warns []string
	for _, kv := range pairs(n) {
		switch kv[0].Value {
		case "token_env":
			c.TokenEnv = kv[1].Value
		case "session_id":
			c.SessionID = kv[1].Value
		default:
			warns = append(warns, fmt.Sprintf("line %d: unknown key %q in client ignored", kv[0].Line, kv[0].Value))
		}
	}
	if c.TokenEnv == "" || c.SessionID == "" {
		return c, nil, fmt.Errorf("line %d: a client needs token_env and session_id", n.Line)
	}
	return c, warns, nil
}

// splitCommand splits a command line the way a POSIX shell would for plain
// words, single and double quotes and backslashes (no expansions).
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`+"`", rs[i+1]):
				i++
				cur.WriteRune(rs[i])
			default:
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("empty command")
	}
	return out, nil
}

// sortedKeys is for deterministic messages.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
