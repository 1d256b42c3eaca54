package gateway

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed mappings/*.yaml
var bundledMappings embed.FS

// Verbs is the closed verb set of the envelope.
var Verbs = []string{"read", "create", "update", "delete", "execute", "transact", "emit"}

// Axis enums and the engine's own restrictive default for a missing axis.
var (
	reversibilities = []string{"reversible", "recoverable", "irreversible"}
	blastRadii      = []string{"single", "scoped", "broad", "systemic"}
	externalities   = []string{"internal", "outbound", "physical"}
	axisDefaults    = Axes{Reversibility: "irreversible", BlastRadius: "systemic", Externality: "physical"}
)

// Axes are the three risk axes of an envelope.
type Axes struct {
	Reversibility string
	BlastRadius   string
	Externality   string
}

// Mapping is one mappings/<system>.yaml.
type Mapping struct {
	System string
	Tools  map[string]MappedTool
	// FromArg counts magnitude as len(arguments[FromArg]) when it is a list.
	FromArg string
}

// MappedTool is one tool's declared verb and axes (missing axes already
// filled with the engine's defaults).
type MappedTool struct {
	Verb string
	Axes Axes
}

// Mappings are the loaded mappings by system name.
type Mappings map[string]*Mapping

// LoadMappings returns the bundled starters overlaid with every
// <system>.yaml in dir: a file replaces the starter of its system, and a
// system with no file keeps its starter. A missing dir is a warning, not
// "no mappings": an operator who mistypes mappings_dir would otherwise lose
// every starter's classification silently. A bad file refuses to start.
func LoadMappings(dir string) (Mappings, []string, error) {
	out, err := readMappings(bundledMappings, "mappings")
	if err != nil {
		return nil, nil, err
	}
	if dir == "" {
		return out, nil, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return out, []string{fmt.Sprintf("mappings_dir %s is not a directory: using the bundled starters only (%s)",
			dir, strings.Join(sortedKeys(out), ", "))}, nil
	}
	own, err := readMappings(os.DirFS(dir), ".")
	if err != nil {
		return nil, nil, err
	}
	for system, m := range own {
		out[system] = m
	}
	return out, nil, nil
}

func readMappings(fsys fs.FS, root string) (Mappings, error) {
	ents, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("mappings: %w", err)
	}
	out := Mappings{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) != ".yaml" {
			continue
		}
		b, err := fs.ReadFile(fsys, filepath.ToSlash(filepath.Join(root, name)))
		if err != nil {
			return nil, fmt.Errorf("mappings: %w", err)
		}
		system := strings.TrimSuffix(name, ".yaml")
		m, err := ParseMapping(system, b)
		if err != nil {
			return nil, fmt.Errorf("mapping %s: %w", name, err)
		}
		out[system] = m
	}
	return out, nil
}

// BundledMapping is one of the starters shipped in the binary, or nil.
func BundledMapping(system string) *Mapping {
	b, err := bundledMappings.ReadFile("mappings/" + system + ".yaml")
	if err != nil {
		return nil
	}
	m, err := ParseMapping(system, b)
	if err != nil {
		return nil
	}
	return m
}

// ParseMapping validates a mapping strictly: unknown keys, bad enums and a
// missing verb are errors.
func ParseMapping(system string, b []byte) (*Mapping, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("top level must be a mapping with a tools key")
	}
	m := &Mapping{System: system, Tools: map[string]MappedTool{}}
	for _, kv := range pairs(doc.Content[0]) {
		k, v := kv[0].Value, kv[1]
		switch k {
		case "tools":
			if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
				return nil, fmt.Errorf("line %d: tools must be a non-empty mapping", v.Line)
			}
			for _, t := range pairs(v) {
				mt, err := parseMappedTool(t[1])
				if err != nil {
					return nil, fmt.Errorf("tool %q: %w", t[0].Value, err)
				}
				m.Tools[t[0].Value] = mt
			}
		case "magnitude":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: magnitude must be a mapping", v.Line)
			}
			for _, mk := range pairs(v) {
				if mk[0].Value != "from_arg" {
					return nil, fmt.Errorf("line %d: unknown key magnitude.%s", mk[0].Line, mk[0].Value)
				}
				if mk[1].Value == "" {
					return nil, fmt.Errorf("line %d: magnitude.from_arg must name an argument", mk[1].Line)
				}
				m.FromArg = mk[1].Value
			}
		default:
			return nil, fmt.Errorf("line %d: unknown key %q (want tools, magnitude)", kv[0].Line, k)
		}
	}
	if len(m.Tools) == 0 {
		return nil, errors.New("tools is required")
	}
	return m, nil
}

func parseMappedTool(n *yaml.Node) (MappedTool, error) {
	t := MappedTool{Axes: axisDefaults}
	if n.Kind != yaml.MappingNode {
		return t, fmt.Errorf("line %d: must be a mapping with verb", n.Line)
	}
	for _, kv := range pairs(n) {
		switch kv[0].Value {
		case "verb":
			if !oneOf(kv[1].Value, Verbs) {
				return t, fmt.Errorf("line %d: verb %q: want one of %s", kv[1].Line, kv[1].Value, strings.Join(Verbs, ", "))
			}
			t.Verb = kv[1].Value
		case "axes":
			if kv[1].Kind != yaml.MappingNode {
				return t, fmt.Errorf("line %d: axes must be a mapping", kv[1].Line)
			}
			for _, a := range pairs(kv[1]) {
				val, line := a[1].Value, a[1].Line
				var want []string
				var dst *string
				switch a[0].Value {
				case "reversibility":
					want, dst = reversibilities, &t.Axes.Reversibility
				case "blast_radius":
					want, dst = blastRadii, &t.Axes.BlastRadius
				case "externality":
					want, dst = externalities, &t.Axes.Externality
				default:
					return t, fmt.Errorf("line %d: unknown axis %q", a[0].Line, a[0].Value)
				}
				if !oneOf(val, want) {
					return t, fmt.Errorf("line %d: %s %q: want one of %s", line, a[0].Value, val, strings.Join(want, ", "))
				}
				*dst = val
			}
		default:
			return t, fmt.Errorf("line %d: unknown key %q (want verb, axes)", kv[0].Line, kv[0].Value)
		}
	}
	if t.Verb == "" {
		return t, errors.New("verb is required")
	}
	return t, nil
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
