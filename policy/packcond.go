package policy

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

type condNode struct {
	c *Cond
	n *yaml.Node
}

func (l *loader) cond(n *yaml.Node) (*Cond, error) {
	fs, err := l.fields(n, "a condition", "all", "any", "not", "rule", "field", "eq", "in", "gt", "contains_any", "tool", "time", "budget")
	if err != nil {
		return nil, err
	}
	c := &Cond{}
	kinds := 0
	for _, k := range []string{"all", "any", "not", "rule", "field", "tool", "time", "budget"} {
		if _, ok := fs[k]; ok {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, l.errf(n, "a condition needs exactly one of all, any, not, rule, field, tool, time, budget")
	}
	list := func(k string) ([]*Cond, error) {
		ln := fs[k]
		if ln.Kind != yaml.SequenceNode || len(ln.Content) == 0 {
			return nil, l.errf(ln, "%s must be a non-empty list of conditions", k)
		}
		var out []*Cond
		for _, cn := range ln.Content {
			sub, err := l.cond(cn)
			if err != nil {
				return nil, err
			}
			out = append(out, sub)
		}
		return out, nil
	}
	switch {
	case fs["all"] != nil:
		c.All, err = list("all")
	case fs["any"] != nil:
		c.Any, err = list("any")
	case fs["not"] != nil:
		c.Not, err = l.cond(fs["not"])
	case fs["rule"] != nil:
		c.Rule, err = l.str(fs["rule"], "rule")
		l.refs = append(l.refs, condNode{c, fs["rule"]})
	case fs["tool"] != nil:
		if c.Tool, err = l.str(fs["tool"], "tool"); err == nil {
			if _, perr := path.Match(c.Tool, ""); perr != nil || c.Tool == "" {
				err = l.errf(fs["tool"], "tool %q is not a valid glob", c.Tool)
			}
		}
	case fs["time"] != nil:
		c.Time, err = l.timeWindow(fs["time"])
	case fs["budget"] != nil:
		if c.Budget, err = l.str(fs["budget"], "budget"); err == nil && c.Budget != "exceeded" && !slices.Contains(Dimensions, c.Budget) {
			err = l.errf(fs["budget"], "unknown budget %q (want exceeded or one of %s)", c.Budget, strings.Join(Dimensions, ", "))
		}
	case fs["field"] != nil:
		err = l.fieldCond(c, fs, n)
	}
	if err != nil {
		return nil, err
	}
	if fs["field"] == nil {
		for _, op := range []string{"eq", "in", "gt", "contains_any"} {
			if fs[op] != nil {
				return nil, l.errf(fs[op], "%s only goes with field", op)
			}
		}
	}
	return c, nil
}

var fieldRoots = []string{"agent", "action", "target", "params", "magnitude", "axes", "approval", "context", "meta",
	"provenance", "cumulative", "reeflex_version", "trajectory_ref"}

// fieldEnums are the canonical values a field can take after normalization.
var fieldEnums = map[string][]string{
	"action.verb":        Verbs,
	"target.environment": {"production", "staging", "dev"},
	"axes.reversibility": reversibilities,
	"axes.blast_radius":  blastRadii,
	"axes.externality":   externalities,
	"params.currency":    nil, // any three letters
}

func (l *loader) fieldCond(c *Cond, fs map[string]*yaml.Node, n *yaml.Node) error {
	var err error
	fn := fs["field"]
	if c.Field, err = l.str(fn, "field"); err != nil {
		return err
	}
	parts := strings.Split(c.Field, ".")
	if err := checkFieldPath(parts); err != nil {
		return l.errf(fn, "unknown field %q (%v)", c.Field, err)
	}
	c.field = fieldRef{kind: fieldKinds[c.Field], path: parts}
	if parts[0] == "cumulative" {
		c.field.kind = fCumulative
	}
	var opn *yaml.Node
	for _, op := range []string{"eq", "in", "gt", "contains_any"} {
		if v, ok := fs[op]; ok {
			if opn != nil {
				return l.errf(v, "field %s has more than one comparison", c.Field)
			}
			c.Op, opn = op, v
		}
	}
	if opn == nil {
		return l.errf(n, "field %s needs a comparison: eq, in, gt or contains_any", c.Field)
	}
	if c.Value, err = l.value(opn); err != nil {
		return err
	}
	switch c.Op {
	case "gt":
		f, ok := number(c.Value)
		if !ok {
			return l.errf(opn, "gt needs a number, got %q", opn.Value)
		}
		c.Value = f
		if enumField(c.Field) || c.Field == "approval.present" || c.Field == "provenance.undeclared" {
			return l.errf(opn, "gt does not apply to %s (not a number)", c.Field)
		}
		return nil
	case "in", "contains_any":
		vals, ok := c.Value.([]any)
		if !ok {
			return l.errf(opn, "%s needs a list", c.Op)
		}
		if c.Op == "contains_any" && c.Field == "provenance.undeclared" {
			for i, v := range vals {
				if s, ok := v.(string); !ok || !slices.Contains(undeclaredNames, s) {
					return l.errf(opn.Content[i], "provenance.undeclared never lists %v (it lists %s)", v, strings.Join(undeclaredNames, ", "))
				}
			}
			return nil
		}
		for i, v := range vals {
			if err := l.checkScalar(c.Field, v, opn.Content[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if c.Field == "provenance.undeclared" {
		return l.errf(opn, "provenance.undeclared is a list: use contains_any")
	}
	return l.checkScalar(c.Field, c.Value, opn)
}

func enumField(f string) bool { _, ok := fieldEnums[f]; return ok }

// checkScalar rejects a comparison value of the wrong type or outside the
// field's canonical values.
func (l *loader) checkScalar(field string, v any, n *yaml.Node) error {
	if enum, ok := fieldEnums[field]; ok {
		s, isStr := v.(string)
		if !isStr {
			return l.errf(n, "%s is a string, got %v", field, v)
		}
		if enum != nil && !slices.Contains(enum, s) {
			return l.errf(n, "unknown value %q for %s (want one of %s)", s, field, strings.Join(enum, ", "))
		}
		if field == "params.currency" && canonCurrency(s) != s {
			return l.errf(n, "params.currency is compared canonical: three upper-case letters, got %q", s)
		}
		return nil
	}
	switch field {
	case "magnitude.count":
		if x, ok := v.(json.Number); !ok || !isIntLiteral(string(x)) {
			return l.errf(n, "magnitude.count is an integer, got %v", v)
		}
	case "approval.present":
		if _, ok := v.(bool); !ok {
			return l.errf(n, "approval.present is true or false, got %v", v)
		}
	}
	switch v.(type) {
	case []any, map[string]any:
		return l.errf(n, "%s compares with a scalar, not a list or mapping", field)
	}
	return nil
}

var dayNames = map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}

func (l *loader) timeWindow(n *yaml.Node) (*TimeWindow, error) {
	fs, err := l.fields(n, "time", "zone", "from", "to", "days")
	if err != nil {
		return nil, err
	}
	w := &TimeWindow{}
	if fs["zone"] == nil || fs["from"] == nil || fs["to"] == nil {
		return nil, l.errf(n, "time needs zone, from and to")
	}
	if w.Zone, err = l.str(fs["zone"], "zone"); err != nil {
		return nil, err
	}
	if w.loc, err = time.LoadLocation(w.Zone); err != nil || w.Zone == "" || w.Zone == "Local" {
		return nil, l.errf(fs["zone"], "unknown time zone %q (want an IANA name such as Europe/Berlin)", w.Zone)
	}
	hm := func(k string) (int, error) {
		s, err := l.str(fs[k], k)
		if err != nil {
			return 0, err
		}
		t, perr := time.Parse("15:04", s)
		if perr != nil {
			if s == "24:00" && k == "to" {
				return 24 * 60, nil
			}
			return 0, l.errf(fs[k], "%s must be HH:MM, got %q", k, s)
		}
		return t.Hour()*60 + t.Minute(), nil
	}
	if w.From, err = hm("from"); err != nil {
		return nil, err
	}
	if w.To, err = hm("to"); err != nil {
		return nil, err
	}
	if w.From == w.To {
		return nil, l.errf(n, "time window from %s to itself is empty", fs["from"].Value)
	}
	if dn, ok := fs["days"]; ok {
		if dn.Kind != yaml.SequenceNode {
			return nil, l.errf(dn, "days must be a list such as [mon, tue]")
		}
		for _, d := range dn.Content {
			wd, ok := dayNames[strings.ToLower(d.Value)]
			if !ok {
				return nil, l.errf(d, "unknown day %q (want sun, mon, tue, wed, thu, fri or sat)", d.Value)
			}
			w.Days = append(w.Days, wd)
		}
	}
	return w, nil
}

// link resolves every `rule:` reference against the final rule set, so a
// replaced rule is reused in its new form; a reference to a base rule the
// pack disabled keeps the base condition.
func (l *loader) link(rules []*Rule, _ *yaml.Node) error {
	lines := map[*Cond]*yaml.Node{}
	for _, ref := range l.refs {
		lines[ref.c] = ref.n
	}
	var walk func(c *Cond) error
	walk = func(c *Cond) error {
		if c == nil {
			return nil
		}
		for _, s := range c.All {
			if err := walk(s); err != nil {
				return err
			}
		}
		for _, s := range c.Any {
			if err := walk(s); err != nil {
				return err
			}
		}
		if err := walk(c.Not); err != nil {
			return err
		}
		if c.Rule == "" {
			return nil
		}
		i := findRule(rules, c.Rule, c.Rule)
		switch {
		case i >= 0 && rules[i].When == nil:
			return l.errf(lines[c], "rule %q has no condition to reuse", c.Rule)
		case i >= 0:
			c.ref = rules[i]
		case c.ref == nil:
			return l.errf(lines[c], "rule %q: no such rule to reuse", c.Rule)
		}
		return nil
	}
	for _, r := range rules {
		if err := walk(r.When); err != nil {
			return err
		}
	}
	for _, r := range rules {
		if err := l.acyclic(r, nil); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) acyclic(r *Rule, path []*Rule) error {
	if slices.Contains(path, r) {
		return &PackError{File: l.file, Msg: "rule " + r.ID + " reuses itself (a cycle)"}
	}
	path = append(path, r)
	var walk func(c *Cond) error
	walk = func(c *Cond) error {
		if c == nil {
			return nil
		}
		for _, s := range append(slices.Clone(c.All), c.Any...) {
			if err := walk(s); err != nil {
				return err
			}
		}
		if err := walk(c.Not); err != nil {
			return err
		}
		if c.ref != nil {
			return l.acyclic(c.ref, path)
		}
		return nil
	}
	return walk(r.When)
}
