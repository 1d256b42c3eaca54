package policy

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones for time windows, whatever the host has

	yaml "go.yaml.in/yaml/v3"
)

//go:embed base.yaml
var baseYAML []byte

// PackError is a mistake in a pack, with where it was written.
type PackError struct {
	File string
	Line int
	Msg  string
}

func (e *PackError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// BasePack is the embedded base pack (R0-R5 and the default budgets).
func BasePack() (*Pack, error) { return loadPack("base.yaml", baseYAML, nil) }

// LoadPack reads an operator pack (YAML or JSON) over the base pack: its
// rules add to or replace base rules by id (or short name), `disable`
// removes rules, `budgets` overrides limits, `base: false` starts empty.
func LoadPack(file string, data []byte) (*Pack, error) {
	base, err := BasePack()
	if err != nil {
		return nil, err
	}
	return loadPack(file, data, base)
}

type loader struct {
	file string
	refs []condNode
}

func (l *loader) errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &PackError{File: l.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// fields walks a mapping node, refusing keys not in known.
func (l *loader) fields(n *yaml.Node, what string, known ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, l.errf(n, "%s must be a mapping", what)
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(known, k.Value) {
			return nil, l.errf(k, "unknown field %q in %s (known: %s)", k.Value, what, strings.Join(known, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, l.errf(k, "field %q given twice in %s", k.Value, what)
		}
		out[k.Value] = v
	}
	return out, nil
}

func (l *loader) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" && n.Tag != "!!int" && n.Tag != "!!float" && n.Tag != "!!bool" {
		return "", l.errf(n, "%s must be a string", what)
	}
	if n.Tag != "!!str" {
		return "", l.errf(n, "%s must be a string, got %s %q", what, strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return n.Value, nil
}

// value converts a node to a JSON-like value: ints become json.Number so
// they behave like decoded envelopes, floats stay float64.
func (l *loader) value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return l.value(n.Alias)
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			err := n.Decode(&b)
			return b, err
		case "!!int":
			var i int64
			if err := n.Decode(&i); err != nil {
				return nil, l.errf(n, "integer %s: %v", n.Value, err)
			}
			return json.Number(strconv.FormatInt(i, 10)), nil
		case "!!float":
			var f float64
			err := n.Decode(&f)
			return f, err
		}
		return n.Value, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := l.value(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag != "!!str" {
				return nil, l.errf(n.Content[i], "mapping keys must be strings")
			}
			v, err := l.value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			out[n.Content[i].Value] = v
		}
		return out, nil
	}
	return nil, l.errf(n, "unsupported YAML node")
}

func loadPack(file string, data []byte, base *Pack) (*Pack, error) {
	l := &loader{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 0
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			// yaml's messages carry "line N" themselves.
			return nil, &PackError{File: file, Line: line, Msg: err.Error()}
		}
		return nil, &PackError{File: file, Msg: err.Error()}
	}
	if len(doc.Content) == 0 {
		return nil, &PackError{File: file, Line: 1, Msg: "empty pack"}
	}
	top, err := l.fields(doc.Content[0], "the pack", "version", "base", "rules", "disable", "budgets", "examples")
	if err != nil {
		return nil, err
	}
	p := &Pack{budgets: Budgets{Default: map[string]Limit{}, Principal: map[string]map[string]Limit{}}}
	useBase := base != nil
	if n, ok := top["base"]; ok {
		if n.Tag != "!!bool" {
			return nil, l.errf(n, "base must be true or false")
		}
		useBase = useBase && n.Value == "true"
	}
	if useBase {
		p.rules = slices.Clone(base.rules)
		p.budgets = base.budgets.clone()
	}
	if n, ok := top["version"]; ok && (n.Tag != "!!int" || n.Value != "1") {
		return nil, l.errf(n, "version must be 1")
	}
	if n, ok := top["rules"]; ok {
		if err := l.mergeRules(p, n); err != nil {
			return nil, err
		}
	}
	if n, ok := top["disable"]; ok {
		if n.Kind != yaml.SequenceNode {
			return nil, l.errf(n, "disable must be a list of rule ids")
		}
		for _, dn := range n.Content {
			id, err := l.str(dn, "a disabled rule id")
			if err != nil {
				return nil, err
			}
			i := findRule(p.rules, id, id)
			if i < 0 {
				return nil, l.errf(dn, "disable: no rule %q", id)
			}
			p.rules = slices.Delete(p.rules, i, i+1)
		}
	}
	if n, ok := top["budgets"]; ok {
		b, err := l.budgets(n)
		if err != nil {
			return nil, err
		}
		p.budgets.Override(b)
	}
	if err := l.link(p.rules, top["rules"]); err != nil {
		return nil, err
	}
	sortRules(p.rules)
	if n, ok := top["examples"]; ok {
		if p.Examples, err = l.examples(n); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// mergeRules adds the pack's rules, replacing a rule with the same id or
// short name.
func (l *loader) mergeRules(p *Pack, n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return l.errf(n, "rules must be a list")
	}
	for _, rn := range n.Content {
		r, err := l.rule(rn)
		if err != nil {
			return err
		}
		if i := findRule(p.rules, r.ID, r.Name); i >= 0 {
			if r.Name == "" {
				r.Name = p.rules[i].Name
			}
			p.rules[i] = r
		} else {
			if findRule(p.rules, r.ID, "") >= 0 {
				return l.errf(rn, "rule id %q given twice", r.ID)
			}
			p.rules = append(p.rules, r)
		}
	}
	return nil
}

func findRule(rs []*Rule, id, name string) int {
	for i, r := range rs {
		if r.ID == id || (name != "" && (r.Name == name || r.ID == name)) || (r.Name != "" && r.Name == id) {
			return i
		}
	}
	return -1
}

func (l *loader) rule(n *yaml.Node) (*Rule, error) {
	fs, err := l.fields(n, "a rule", "id", "name", "priority", "verdict", "reason", "when", "obligations", "resolvable", "by_dimension")
	if err != nil {
		return nil, err
	}
	r := &Rule{Resolvable: true, Source: fmt.Sprintf("%s:%d", l.file, n.Line)}
	need := func(k string) (*yaml.Node, error) {
		v, ok := fs[k]
		if !ok {
			return nil, l.errf(n, "rule is missing %s", k)
		}
		return v, nil
	}
	idn, err := need("id")
	if err != nil {
		return nil, err
	}
	if r.ID, err = l.str(idn, "id"); err != nil {
		return nil, err
	}
	if r.ID == "" {
		return nil, l.errf(idn, "id must not be empty")
	}
	if v, ok := fs["name"]; ok {
		if r.Name, err = l.str(v, "name"); err != nil {
			return nil, err
		}
	}
	pn, err := need("priority")
	if err != nil {
		return nil, l.errf(n, "rule %s is missing priority", r.ID)
	}
	if pn.Tag != "!!int" {
		return nil, l.errf(pn, "priority must be an integer, got %q", pn.Value)
	}
	if r.Priority, err = strconv.Atoi(pn.Value); err != nil {
		return nil, l.errf(pn, "priority: %v", err)
	}
	vn, err := need("verdict")
	if err != nil {
		return nil, err
	}
	if r.Verdict, err = l.str(vn, "verdict"); err != nil {
		return nil, err
	}
	if r.Verdict != Allow && r.Verdict != Deny && r.Verdict != RequireApproval {
		return nil, l.errf(vn, "unknown verdict %q (want allow, deny or require_approval)", r.Verdict)
	}
	rn, err := need("reason")
	if err != nil {
		return nil, err
	}
	if r.Reason, err = l.str(rn, "reason"); err != nil {
		return nil, err
	}
	if v, ok := fs["resolvable"]; ok {
		if v.Tag != "!!bool" {
			return nil, l.errf(v, "resolvable must be true or false")
		}
		r.Resolvable = v.Value == "true"
	}
	if err := l.ruleExtras(r, fs); err != nil {
		return nil, err
	}
	if v, ok := fs["when"]; ok {
		if r.When, err = l.cond(v); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ruleExtras reads a rule's obligations and by_dimension outputs.
func (l *loader) ruleExtras(r *Rule, fs map[string]*yaml.Node) error {
	if v, ok := fs["obligations"]; ok {
		if v.Kind != yaml.SequenceNode {
			return l.errf(v, "obligations must be a list of strings")
		}
		for _, o := range v.Content {
			s, err := l.str(o, "an obligation")
			if err != nil {
				return err
			}
			r.Obligations = append(r.Obligations, s)
		}
	}
	if v, ok := fs["by_dimension"]; ok {
		dims, err := l.fields(v, "by_dimension", Dimensions...)
		if err != nil {
			return err
		}
		r.ByDimension = map[string]RuleOutput{}
		for d, dn := range dims {
			o, err := l.fields(dn, "by_dimension."+d, "id", "reason")
			if err != nil {
				return err
			}
			var out RuleOutput
			if o["id"] == nil || o["reason"] == nil {
				return l.errf(dn, "by_dimension.%s needs id and reason", d)
			}
			if out.ID, err = l.str(o["id"], "id"); err != nil {
				return err
			}
			if out.Reason, err = l.str(o["reason"], "reason"); err != nil {
				return err
			}
			r.ByDimension[d] = out
		}
	}
	return nil
}

func (l *loader) budgets(n *yaml.Node) (Budgets, error) {
	fs, err := l.fields(n, "budgets", "default_budgets", "principal_budgets")
	if err != nil {
		return Budgets{}, err
	}
	b := Budgets{Default: map[string]Limit{}, Principal: map[string]map[string]Limit{}}
	if v, ok := fs["default_budgets"]; ok {
		if b.Default, err = l.dims(v, "default_budgets"); err != nil {
			return Budgets{}, err
		}
	}
	if v, ok := fs["principal_budgets"]; ok {
		if v.Kind != yaml.MappingNode {
			return Budgets{}, l.errf(v, "principal_budgets must map session ids to budgets")
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			d, err := l.dims(v.Content[i+1], "principal_budgets."+v.Content[i].Value)
			if err != nil {
				return Budgets{}, err
			}
			b.Principal[v.Content[i].Value] = d
		}
	}
	return b, nil
}

func (l *loader) num(n *yaml.Node, what string) (float64, error) {
	if n.Tag != "!!int" && n.Tag != "!!float" {
		return 0, l.errf(n, "%s must be a number, got %q", what, n.Value)
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return 0, l.errf(n, "%s: %v", what, err)
	}
	return f, nil
}

func (l *loader) dims(n *yaml.Node, where string) (map[string]Limit, error) {
	fs, err := l.fields(n, where, Dimensions...)
	if err != nil {
		return nil, err
	}
	out := map[string]Limit{}
	for dim, dn := range fs {
		known := []string{"limit"}
		if dim == "money" {
			known = append(known, "limits")
		}
		lf, err := l.fields(dn, where+"."+dim, known...)
		if err != nil {
			return nil, err
		}
		var lim Limit
		if v, ok := lf["limit"]; ok {
			f, err := l.num(v, where+"."+dim+".limit")
			if err != nil {
				return nil, err
			}
			lim.Limit = &f
		}
		if v, ok := lf["limits"]; ok {
			if v.Kind != yaml.MappingNode {
				return nil, l.errf(v, "limits must map currency codes to numbers")
			}
			lim.Limits = map[string]float64{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				c := v.Content[i].Value
				if canonCurrency(c) != c {
					return nil, l.errf(v.Content[i], "%q is not a three-letter upper-case currency code", c)
				}
				f, err := l.num(v.Content[i+1], "limits."+c)
				if err != nil {
					return nil, err
				}
				lim.Limits[c] = f
			}
		}
		out[dim] = lim
	}
	return out, nil
}

func (l *loader) examples(n *yaml.Node) ([]Example, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, l.errf(n, "examples must be a list")
	}
	var out []Example
	for i, en := range n.Content {
		fs, err := l.fields(en, "an example", "name", "envelope", "now", "expect")
		if err != nil {
			return nil, err
		}
		ex := Example{Name: fmt.Sprintf("example %d", i+1), Source: fmt.Sprintf("%s:%d", l.file, en.Line)}
		if v, ok := fs["name"]; ok {
			if ex.Name, err = l.str(v, "name"); err != nil {
				return nil, err
			}
		}
		if fs["envelope"] == nil || fs["expect"] == nil {
			return nil, l.errf(en, "an example needs envelope and expect")
		}
		env, err := l.value(fs["envelope"])
		if err != nil {
			return nil, err
		}
		if ex.Envelope, _ = env.(map[string]any); ex.Envelope == nil {
			return nil, l.errf(fs["envelope"], "envelope must be a mapping")
		}
		if v, ok := fs["now"]; ok {
			s, err := l.str(v, "now")
			if err != nil {
				return nil, err
			}
			if ex.Now, err = time.Parse(time.RFC3339, s); err != nil {
				return nil, l.errf(v, "now must be RFC 3339 (2026-12-04T15:00:00Z), got %q", s)
			}
		}
		xf, err := l.fields(fs["expect"], "expect", "decision", "rule")
		if err != nil {
			return nil, err
		}
		if v, ok := xf["decision"]; ok {
			if ex.Decision, err = l.str(v, "decision"); err != nil {
				return nil, err
			}
			if verdictRank(ex.Decision) == 0 && ex.Decision != Allow {
				return nil, l.errf(v, "unknown decision %q (want allow, deny or require_approval)", ex.Decision)
			}
		}
		if v, ok := xf["rule"]; ok {
			if ex.Rule, err = l.str(v, "rule"); err != nil {
				return nil, err
			}
		}
		if ex.Decision == "" && ex.Rule == "" {
			return nil, l.errf(fs["expect"], "expect needs decision or rule")
		}
		out = append(out, ex)
	}
	return out, nil
}

// ExampleResult is one embedded example's outcome.
type ExampleResult struct {
	Example
	Got  Decision
	Err  error
	Pass bool
}

// RunExamples decides each embedded example on a fresh in-memory engine
// with the pack (no freeze, empty ledger), and compares the verdict.
func RunExamples(ctx context.Context, p *Pack) []ExampleResult {
	out := make([]ExampleResult, 0, len(p.Examples))
	for _, ex := range p.Examples {
		now := ex.Now
		if now.IsZero() {
			now = time.Now()
		}
		r := ExampleResult{Example: ex}
		e, err := New(Options{Pack: p, Now: func() time.Time { return now }, Getenv: func(string) string { return "" }})
		if err == nil {
			r.Got, r.Err = e.Decide(ctx, ex.Envelope)
		} else {
			r.Err = err
		}
		r.Pass = (r.Err == nil || errors.Is(r.Err, ErrFailClosed)) &&
			(ex.Decision == "" || r.Got.Decision == ex.Decision) && (ex.Rule == "" || r.Got.Rule == ex.Rule)
		out = append(out, r)
	}
	return out
}
