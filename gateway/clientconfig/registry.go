package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Upstream is one entry of the registry's upstreams: list, as this package
// writes it (the gateway parses the file itself).
type Upstream struct {
	Name        string
	Command     []string
	Env         map[string]string
	URL         string
	TokenEnv    string
	System      string
	Environment string
	Required    bool
}

// Environments are target.environment's exact values.
func Environments() []string { return []string{"production", "staging", "dev"} }

// ValidEnvironment refuses anything but the exact enum (no aliases: "Prod"
// evading production rules was one of the reference's security fixes).
func ValidEnvironment(e string) error {
	if !slices.Contains(Environments(), e) {
		return fmt.Errorf("environment %q: want production, staging or dev", e)
	}
	return nil
}

const newRegistryHeader = `reflect gateway registry (reeflex-mcp.yaml schema). Written by reflect gateway
setup/add/import; comments and key order you add here are kept by them.`

// Registry is the gateway's registry file held as a YAML node tree: edits
// touch only the upstreams they name, so comments, key order and keys this
// package does not know survive.
type Registry struct {
	Path   string
	Exists bool
	doc    *yaml.Node
	perm   fs.FileMode
}

// ReadRegistry reads path, or starts an empty registry when it does not exist.
func ReadRegistry(path string) (*Registry, error) {
	r := &Registry{Path: path, perm: 0o600}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(b)) == 0) {
		root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: newRegistryHeader}
		r.doc = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
		r.Exists = err == nil
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	r.Exists = true
	if st, err := os.Stat(path); err == nil {
		r.perm = st.Mode().Perm()
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("registry %s: invalid YAML: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("registry %s: the top level must be a mapping", path)
	}
	r.doc = &doc
	if n := r.get("upstreams"); n != nil && n.Kind != yaml.SequenceNode && !isNull(n) {
		return nil, fmt.Errorf("registry %s: line %d: upstreams must be a list", path, n.Line)
	}
	return r, nil
}

func (r *Registry) root() *yaml.Node { return r.doc.Content[0] }

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (r *Registry) get(key string) *yaml.Node { return mapGet(r.root(), key) }

func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// mapSet replaces key's value in place (keeping the key's comments) or
// appends the pair.
func mapSet(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v.HeadComment, v.LineComment, v.FootComment = m.Content[i+1].HeadComment, m.Content[i+1].LineComment, m.Content[i+1].FootComment
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}

func mapDel(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// Mode is the registry's mode ("" when it has none).
func (r *Registry) Mode() string {
	if n := r.get("mode"); n != nil {
		return strings.ToLower(strings.TrimSpace(n.Value))
	}
	return ""
}

// SetMode writes mode.
func (r *Registry) SetMode(mode string) { mapSet(r.root(), "mode", str(mode)) }

func (r *Registry) upstreamNodes() []*yaml.Node {
	n := r.get("upstreams")
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// Names lists the upstreams' names in file order.
func (r *Registry) Names() []string {
	var out []string
	for _, n := range r.upstreamNodes() {
		if v := mapGet(n, "name"); v != nil {
			out = append(out, v.Value)
		}
	}
	return out
}

// Lookup returns the named upstream as the registry has it.
func (r *Registry) Lookup(name string) (Upstream, bool) {
	for _, n := range r.upstreamNodes() {
		if v := mapGet(n, "name"); v == nil || v.Value != name {
			continue
		}
		u := Upstream{Name: name, Required: true}
		if c := mapGet(n, "command"); c != nil {
			if c.Kind == yaml.SequenceNode {
				for _, a := range c.Content {
					u.Command = append(u.Command, a.Value)
				}
			} else {
				u.Command = strings.Fields(c.Value)
			}
		}
		if v := mapGet(n, "url"); v != nil {
			u.URL = v.Value
		}
		if e := mapGet(n, "env"); e != nil && e.Kind == yaml.MappingNode {
			u.Env = map[string]string{}
			for i := 0; i+1 < len(e.Content); i += 2 {
				u.Env[e.Content[i].Value] = e.Content[i+1].Value
			}
		}
		if a := mapGet(n, "auth"); a != nil && a.Kind == yaml.MappingNode {
			if v := mapGet(a, "token_env"); v != nil {
				u.TokenEnv = v.Value
			}
		}
		if t := mapGet(n, "target"); t != nil && t.Kind == yaml.MappingNode {
			if v := mapGet(t, "system"); v != nil {
				u.System = v.Value
			}
			if v := mapGet(t, "environment"); v != nil {
				u.Environment = v.Value
			}
		}
		if v := mapGet(n, "required"); v != nil {
			u.Required = v.Value != "false"
		}
		return u, true
	}
	return Upstream{}, false
}

// Changes says, one line each, what replacing have with u would change, in
// the terms an operator weighs: variables dropped (named, never their
// values), governance loosened by a laxer environment. None: the same.
func Changes(have, u Upstream) []string {
	var out []string
	if !slices.Equal(have.Command, u.Command) || have.URL != u.URL {
		out = append(out, fmt.Sprintf("runs %s instead of %s", describe(u), describe(have)))
	}
	for _, k := range sortedKeys(have.Env) {
		if v, ok := u.Env[k]; !ok {
			out = append(out, fmt.Sprintf("env %s dropped", k))
		} else if v != have.Env[k] {
			out = append(out, fmt.Sprintf("env %s changed", k))
		}
	}
	for _, k := range sortedKeys(u.Env) {
		if _, ok := have.Env[k]; !ok {
			out = append(out, fmt.Sprintf("env %s added", k))
		}
	}
	if have.TokenEnv != u.TokenEnv {
		out = append(out, fmt.Sprintf("auth.token_env %q becomes %q", have.TokenEnv, u.TokenEnv))
	}
	if have.Environment != u.Environment {
		line := fmt.Sprintf("environment %s becomes %s", have.Environment, u.Environment)
		if strictness(u.Environment) < strictness(have.Environment) {
			line += " (looser governance: the policy allows more there)"
		}
		out = append(out, line)
	}
	if have.System != u.System {
		out = append(out, fmt.Sprintf("system %s becomes %s (mappings/%s.yaml classifies its tools)", have.System, u.System, u.System))
	}
	if have.Required != u.Required {
		out = append(out, fmt.Sprintf("required %v becomes %v", have.Required, u.Required))
	}
	return out
}

func describe(u Upstream) string {
	if u.URL != "" {
		return u.URL
	}
	return strconv.Quote(strings.Join(u.Command, " "))
}

// strictness orders the environments as the policy does: production is the
// strictest.
func strictness(env string) int {
	return len(Environments()) - slices.Index(Environments(), env)
}

// Upsert adds u, or rewrites the fields of the upstream with its name in
// place (other keys and comments on it stay). It reports whether u was new.
func (r *Registry) Upsert(u Upstream) bool {
	seq := r.get("upstreams")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		seq = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		mapSet(r.root(), "upstreams", seq)
	}
	for _, n := range seq.Content {
		if v := mapGet(n, "name"); v != nil && v.Value == u.Name && n.Kind == yaml.MappingNode {
			writeUpstream(n, u)
			return false
		}
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	writeUpstream(n, u)
	seq.Content = append(seq.Content, n)
	return true
}

func writeUpstream(n *yaml.Node, u Upstream) {
	mapSet(n, "name", str(u.Name))
	if len(u.Command) > 0 {
		cmd := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, a := range u.Command {
			cmd.Content = append(cmd.Content, str(a))
		}
		mapSet(n, "command", cmd)
		mapDel(n, "url")
		mapDel(n, "auth")
		if len(u.Env) > 0 {
			env := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for _, k := range sortedKeys(u.Env) {
				env.Content = append(env.Content, str(k), str(u.Env[k]))
			}
			mapSet(n, "env", env)
		} else {
			mapDel(n, "env")
		}
	} else {
		mapSet(n, "url", str(u.URL))
		mapDel(n, "command")
		mapDel(n, "env")
		if u.TokenEnv != "" {
			auth := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str("token_env"), str(u.TokenEnv)}}
			mapSet(n, "auth", auth)
		} else {
			mapDel(n, "auth")
		}
	}
	target := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		str("system"), str(u.System), str("environment"), str(u.Environment)}}
	mapSet(n, "target", target)
	mapSet(n, "required", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(u.Required)})
}

// Bytes renders the registry.
func (r *Registry) Bytes() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(r.doc); err != nil {
		return nil, fmt.Errorf("registry %s: %w", r.Path, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("registry %s: %w", r.Path, err)
	}
	return b.Bytes(), nil
}

// Write puts the registry on disk atomically. A new registry is 0600: the
// env it copies from client files may hold secrets.
func (r *Registry) Write() error {
	b, err := r.Bytes()
	if err != nil {
		return err
	}
	if err := WriteAtomic(r.Path, b, r.perm); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	r.Exists = true
	return nil
}
