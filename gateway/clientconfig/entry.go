package clientconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// GatewayKey is the mcpServers key setup writes the gateway under.
const GatewayKey = "reflect-gateway"

// BuiltinUpstream is the name the gateway serves reflect's own tools under
// (reflect__extract, …): an imported server may not take it.
const BuiltinUpstream = "reflect"

// Entry is the part of an mcpServers entry this package understands.
type Entry struct {
	Type    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// ParseEntry decodes one entry. Numbers and booleans in env and headers are
// taken as their text, as the clients themselves do.
func ParseEntry(raw json.RawMessage) (Entry, error) {
	var e struct {
		Type    string         `json:"type"`
		Command string         `json:"command"`
		Args    []any          `json:"args"`
		Env     map[string]any `json:"env"`
		URL     string         `json:"url"`
		Headers map[string]any `json:"headers"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("entry is not a server definition: %w", err)
	}
	out := Entry{Type: e.Type, Command: e.Command, URL: e.URL}
	for _, a := range e.Args {
		s, err := scalarText(a)
		if err != nil {
			return Entry{}, fmt.Errorf("args: %w", err)
		}
		out.Args = append(out.Args, s)
	}
	var err error
	if out.Env, err = textMap(e.Env); err != nil {
		return Entry{}, fmt.Errorf("env: %w", err)
	}
	if out.Headers, err = textMap(e.Headers); err != nil {
		return Entry{}, fmt.Errorf("headers: %w", err)
	}
	return out, nil
}

func textMap(m map[string]any) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, err := scalarText(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

func scalarText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		return fmt.Sprint(v), nil
	}
	return "", fmt.Errorf("%v is not a string", v)
}

// Kind is how setup and doctor see an entry.
type Kind int

// Kinds.
const (
	// Foreign is a server the client talks to directly: ungoverned.
	Foreign Kind = iota
	// Gateway is the gateway itself (reflect's, or reeflex-mcp).
	Gateway
)

// Classify tells the gateway from a foreign server. An entry is the gateway
// when its key is ours or reeflex-mcp's, when it runs reeflex-mcp, or when it
// runs a reflect binary with "gateway" as its first argument. Anything else,
// reflect's own `reflect mcp` included, is a direct, ungoverned path.
func Classify(name string, e Entry) Kind {
	if name == GatewayKey || name == "reeflex-mcp" {
		return Gateway
	}
	for _, a := range append([]string{e.Command}, e.Args...) {
		if strings.Contains(a, "reeflex-mcp") || strings.Contains(a, "reeflex_mcp") {
			return Gateway
		}
	}
	if isReflectBinary(e.Command) && len(e.Args) > 0 && e.Args[0] == "gateway" {
		return Gateway
	}
	return Foreign
}

// IsReflectMCP reports an entry that launches reflect's own MCP server. Its
// tools are the gateway's built-in upstream, so setup folds it into the
// gateway entry (its env is what reflect's tools need) instead of proxying
// reflect through reflect.
func IsReflectMCP(e Entry) bool {
	return isReflectBinary(e.Command) && len(e.Args) > 0 && e.Args[0] == "mcp"
}

func isReflectBinary(cmd string) bool {
	base := strings.TrimSuffix(filepath.Base(cmd), ".exe")
	return base == "reflect" || strings.HasPrefix(base, "reflect.") || strings.HasPrefix(base, "reflect-")
}

// GatewayConfigPath returns the --config argument of a gateway entry ("" if
// it has none; REEFLEX_MCP_CONFIG in its env counts too).
func GatewayConfigPath(e Entry) string {
	for i, a := range e.Args {
		if a == "--config" && i+1 < len(e.Args) {
			return e.Args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--config="); ok {
			return v
		}
	}
	return e.Env["REEFLEX_MCP_CONFIG"]
}

// GatewayEntry is the entry that launches the gateway over stdio. Every path
// in it is absolute: a client starts servers from a working directory of its
// own choosing, and a relative --config is what made Claude Desktop say
// "Server disconnected" for reeflex-mcp.
type GatewayEntry struct {
	Exe        string // absolute path of the reflect binary
	ConfigPath string // absolute path of the registry
	Mode       string // observe or enforce; written as REEFLEX_MODE
	CoreURL    string // written as REEFLEX_CORE_URL when set
	// Env is carried over into the entry (reflect's own server's provider
	// settings, or the previous gateway entry's variables).
	Env map[string]string
	// Typed writes "type": "stdio" (Claude Code).
	Typed bool
}

// GatewayArgs are the arguments after the binary.
func GatewayArgs(configPath string) []string {
	return []string{"gateway", "--transport", "stdio", "--config", configPath}
}

// Raw renders the entry. Paths are checked here so no caller can write a
// relative one.
func (g GatewayEntry) Raw() (json.RawMessage, error) {
	if !filepath.IsAbs(g.Exe) || !filepath.IsAbs(g.ConfigPath) {
		return nil, fmt.Errorf("gateway entry: binary %q and config %q must be absolute paths", g.Exe, g.ConfigPath)
	}
	env := map[string]string{}
	for k, v := range g.Env {
		env[k] = v
	}
	if g.Mode != "" {
		env["REEFLEX_MODE"] = g.Mode
	}
	if g.CoreURL != "" {
		env["REEFLEX_CORE_URL"] = g.CoreURL
	}
	// Keys in a fixed, readable order: type, command, args, env.
	var b bytes.Buffer
	b.WriteByte('{')
	if g.Typed {
		b.WriteString(`"type":"stdio",`)
	}
	b.WriteString(`"command":`)
	b.Write(quote(g.Exe))
	b.WriteString(`,"args":[`)
	for i, a := range GatewayArgs(g.ConfigPath) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(a))
	}
	b.WriteByte(']')
	if len(env) > 0 {
		b.WriteString(`,"env":{`)
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(quote(k))
			b.WriteByte(':')
			b.Write(quote(env[k]))
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var (
	nameRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	badNameRE = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
)

// ValidName reports a name the gateway accepts as an upstream: letters,
// digits, '_', '-', '.', never "__" (the namespace separator).
func ValidName(name string) error {
	if !nameRE.MatchString(name) || strings.Contains(name, "__") {
		return fmt.Errorf("upstream name %q: use letters, digits, '_', '-', '.', and never \"__\" (the namespace separator)", name)
	}
	if name == BuiltinUpstream {
		return fmt.Errorf("upstream name %q is taken by reflect's own tools in the gateway", name)
	}
	return nil
}

// upstreamName turns a client key into an upstream name, saying what it
// changed ("" when nothing).
func upstreamName(key string) (string, string) {
	n := badNameRE.ReplaceAllString(key, "_")
	for strings.Contains(n, "__") {
		n = strings.ReplaceAll(n, "__", "_")
	}
	n = strings.TrimLeft(n, "_.-")
	if n == key {
		return n, ""
	}
	return n, fmt.Sprintf("named %q in the gateway (%q is not a valid upstream name)", n, key)
}

// Convert turns a client entry into an upstream of the registry. Warnings say
// what was not carried over; an error means the entry cannot be imported and
// must stay in the client file.
func Convert(key string, e Entry, environment string) (Upstream, []string, error) {
	name, renamed := upstreamName(key)
	var warns []string
	if renamed != "" {
		warns = append(warns, renamed)
	}
	if err := ValidName(name); err != nil {
		return Upstream{}, nil, err
	}
	u := Upstream{Name: name, System: name, Environment: environment, Required: true}
	switch {
	case e.Command != "" && e.URL != "":
		return Upstream{}, nil, fmt.Errorf("it has both a command and a url")
	case e.Command != "":
		u.Command = append([]string{e.Command}, e.Args...)
		if sys, pkg := StarterSystem(u.Command); sys != "" && sys != u.System {
			u.System = sys
			warns = append(warns, fmt.Sprintf("target.system %s, not %s: it runs %s, whose tools the bundled mappings/%s.yaml classifies", sys, name, pkg, sys))
		}
		u.Env, warns = convertEnv(e.Env, warns)
		if slices.ContainsFunc(u.Command, func(a string) bool { return strings.Contains(a, "${") }) {
			warns = append(warns, "its command line uses ${...}, which the client expanded and the gateway does not: check it in the registry")
		}
	case e.URL != "":
		switch strings.ToLower(e.Type) {
		case "", "http", "streamable-http", "streamablehttp":
		default:
			return Upstream{}, nil, fmt.Errorf("transport %q is not one the gateway speaks (stdio or streamable HTTP)", e.Type)
		}
		u.URL = e.URL
		warns = convertHeaders(&u, e.Headers, warns)
	default:
		return Upstream{}, nil, fmt.Errorf("it has neither a command nor a url")
	}
	return u, warns, nil
}

// starters are the servers the gateway's bundled mappings describe, by the
// package or program a command line runs them with.
var starters = []struct{ system, pkg string }{
	{"filesystem", "@modelcontextprotocol/server-filesystem"},
	{"filesystem", "mcp-server-filesystem"},
	{"github", "@modelcontextprotocol/server-github"},
	{"github", "mcp-server-github"},
	{"postgres", "postgres-mcp"},
	{"postgres", "crystaldba/postgres-mcp"},
}

// StarterSystem is the target.system whose bundled mapping classifies the
// server argv runs ("" when none does), and the package that says so: a
// client's "files" entry running the official filesystem server is system
// filesystem, or mappings/filesystem.yaml would never apply to it.
func StarterSystem(argv []string) (system, pkg string) {
	for _, a := range argv {
		base := a
		if i := strings.LastIndexAny(a, `/\`); i >= 0 && !strings.HasPrefix(a, "@") && !strings.Contains(a, "crystaldba/") {
			base = a[i+1:] // a program's path: /usr/local/bin/mcp-server-filesystem
		}
		for _, s := range starters {
			if base == s.pkg || strings.HasPrefix(base, s.pkg+"@") || strings.HasPrefix(base, s.pkg+":") {
				return s.system, s.pkg
			}
		}
	}
	return "", ""
}

// envRef matches a whole value that only names a variable, the way Claude
// Code (${NAME}) and Cursor (${env:NAME}) write one.
var envRef = regexp.MustCompile(`^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$`)

// convertEnv copies a stdio server's env. A value that only refers to the
// variable of the same name is left out: the gateway passes its own
// environment to the servers it starts, and the literal "${NAME}" would
// replace the real value.
func convertEnv(env map[string]string, warns []string) (map[string]string, []string) {
	out := map[string]string{}
	var copied, expanded []string
	for _, k := range sortedKeys(env) {
		v := env[k]
		if m := envRef.FindStringSubmatch(v); m != nil && m[1] == k {
			continue
		}
		if strings.Contains(v, "${") {
			expanded = append(expanded, k)
		}
		out[k] = v
		copied = append(copied, k)
	}
	if len(copied) > 0 {
		warns = append(warns, fmt.Sprintf("its env (%s) was copied into the registry: review it for secrets", strings.Join(copied, ", ")))
	}
	if len(expanded) > 0 {
		warns = append(warns, fmt.Sprintf("its env (%s) uses ${...}, which the client expanded and the gateway does not: check it in the registry", strings.Join(expanded, ", ")))
	}
	if len(out) == 0 {
		return nil, warns
	}
	return out, warns
}

// convertHeaders never copies a header: an inline token stays in the client
// file (and its backup). "Authorization: Bearer ${NAME}" is a reference, not
// a secret, and becomes auth.token_env: NAME. Either way the upstream is
// optional until someone checks its credentials reach the gateway: a
// required upstream that cannot connect stops the gateway serving the rest.
func convertHeaders(u *Upstream, headers map[string]string, warns []string) []string {
	if len(headers) == 0 {
		return warns
	}
	u.Required = false
	var dropped []string
	for _, k := range sortedKeys(headers) {
		if strings.EqualFold(k, "Authorization") {
			if v, ok := strings.CutPrefix(headers[k], "Bearer "); ok {
				if m := envRef.FindStringSubmatch(strings.TrimSpace(v)); m != nil {
					u.TokenEnv = m[1]
					warns = append(warns, fmt.Sprintf("its Authorization header names ${%s}: written as auth.token_env: %s (required: false until %s is set where the gateway runs; then set required: true)", m[1], m[1], m[1]))
					continue
				}
			}
		}
		dropped = append(dropped, k)
	}
	if len(dropped) > 0 {
		warns = append(warns, fmt.Sprintf("its headers (%s) were not copied (inline secrets never are): put the token in an environment variable, set auth.token_env to that variable's name for %q in the registry, then set required: true",
			strings.Join(dropped, ", "), u.Name))
	}
	return warns
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
