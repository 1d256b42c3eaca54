package policy

import (
	"cmp"
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Verdicts.
const (
	Allow           = "allow"
	Deny            = "deny"
	RequireApproval = "require_approval"
)

func verdictRank(v string) int {
	switch v {
	case Deny:
		return 2
	case RequireApproval:
		return 1
	}
	return 0
}

// Rule is one rule of a pack: the highest-priority rule whose condition
// holds decides. ID is the wire `rule`; Name is an optional short alias
// (R0..R5 for the base pack) that packs may use to disable or replace it.
type Rule struct {
	ID          string
	Name        string
	Priority    int
	Verdict     string
	Reason      string
	Obligations []string
	// Resolvable false makes holds of this rule unresolvable (R3's terminal
	// deny is also refused by short name, as the reference does).
	Resolvable bool
	// ByDimension gives a budget rule's id and reason per first exceeded
	// dimension (R5: deletions -> session_delete_budget).
	ByDimension map[string]RuleOutput
	When        *Cond
	Source      string // file:line where the rule was written
}

// RuleOutput is an id and reason pair.
type RuleOutput struct{ ID, Reason string }

// Cond is a condition tree. Exactly one of its parts is set.
type Cond struct {
	All  []*Cond
	Any  []*Cond
	Not  *Cond
	Rule string // reuse another rule's condition
	// Field comparison: Op is eq, in, gt or contains_any.
	Field string
	Op    string
	Value any
	Tool  string // glob over the tool name (params.tool_name, target.kind)
	Time  *TimeWindow
	// Budget: "exceeded" (any dimension) or one dimension name.
	Budget string

	ref   *Rule
	field fieldRef
}

// TimeWindow holds when the local time in Zone is on one of Days (all when
// empty) and within [From, To) minutes after midnight; From > To wraps
// midnight.
type TimeWindow struct {
	Zone     string
	From, To int
	Days     []time.Weekday
	loc      *time.Location
}

// evalCtx is one decision's inputs for rule evaluation.
type evalCtx struct {
	f      *facts
	cum    *Cumulative
	bud    *Budgets
	now    time.Time
	budget struct {
		done     bool
		exceeded []string // alphabetical
	}
	arr [4]string
}

func (c *evalCtx) exceeded() []string {
	if !c.budget.done {
		c.budget.done = true
		c.budget.exceeded = c.bud.exceeded(c.f, c.cum, c.arr[:0])
	}
	return c.budget.exceeded
}

func (c *Cond) eval(x *evalCtx) bool {
	switch {
	case c.All != nil:
		for _, s := range c.All {
			if !s.eval(x) {
				return false
			}
		}
		return true
	case c.Any != nil:
		for _, s := range c.Any {
			if s.eval(x) {
				return true
			}
		}
		return false
	case c.Not != nil:
		return !c.Not.eval(x)
	case c.ref != nil:
		return c.ref.When.eval(x)
	case c.Budget != "":
		ex := x.exceeded()
		if c.Budget == "exceeded" {
			return len(ex) > 0
		}
		return slices.Contains(ex, c.Budget)
	case c.Tool != "":
		return matchTool(c.Tool, x.f)
	case c.Time != nil:
		return c.Time.contains(x.now)
	case c.Field != "":
		return c.compare(x)
	}
	return false
}

func matchTool(glob string, f *facts) bool {
	name := str(f.params["tool_name"])
	if name == "" {
		name = str(f.target["kind"])
	}
	if name == "" {
		return false
	}
	if ok, _ := path.Match(glob, name); ok {
		return true
	}
	if up := str(f.params["upstream"]); up != "" {
		ok, _ := path.Match(glob, up+"__"+name)
		return ok
	}
	return false
}

func (w *TimeWindow) contains(now time.Time) bool {
	t := now.In(w.loc)
	day := t.Weekday()
	mins := t.Hour()*60 + t.Minute()
	if w.From > w.To && mins < w.To {
		// The early-morning part of a window that began the day before.
		day = (day + 6) % 7
	}
	if len(w.Days) > 0 && !slices.Contains(w.Days, day) {
		return false
	}
	if w.From <= w.To {
		return mins >= w.From && mins < w.To
	}
	return mins >= w.From || mins < w.To
}

// str reads a canonical string field without boxing it (the hot path).
func (r fieldRef) str(x *evalCtx) (string, bool) {
	f := x.f
	switch r.kind {
	case fVerb:
		return f.verb, true
	case fEnv:
		return f.env, true
	case fRev:
		return f.reversibility, true
	case fBlast:
		return f.blast, true
	case fExt:
		return f.external, true
	case fSession:
		return f.sessionID, true
	}
	return "", false
}

func (c *Cond) compare(x *evalCtx) bool {
	if s, ok := c.field.str(x); ok {
		switch c.Op {
		case "eq":
			w, isStr := c.Value.(string)
			return isStr && s == w
		case "in":
			for _, e := range c.Value.([]any) {
				if w, isStr := e.(string); isStr && s == w {
					return true
				}
			}
			return false
		}
	}
	if c.field.kind == fCount && c.Op == "gt" {
		return float64(x.f.count) > c.Value.(float64)
	}
	v, ok := c.field.get(x)
	if !ok {
		return false
	}
	switch c.Op {
	case "eq":
		return jsonEqual(v, c.Value)
	case "in":
		for _, e := range c.Value.([]any) {
			if jsonEqual(v, e) {
				return true
			}
		}
		return false
	case "gt":
		a, ok := number(v)
		return ok && a > c.Value.(float64)
	case "contains_any":
		want := c.Value.([]any)
		switch l := v.(type) {
		case []any:
			for _, e := range l {
				for _, w := range want {
					if jsonEqual(e, w) {
						return true
					}
				}
			}
		case string:
			for _, w := range want {
				if s, ok := w.(string); ok && strings.Contains(l, s) {
					return true
				}
			}
		}
		return false
	}
	return false
}

// number reads a JSON number as float64 (bools are not numbers).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

// jsonEqual compares two JSON values strictly by type: numbers numerically,
// a bool never equals a number.
func jsonEqual(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return string(CanonicalJSON(a)) == string(CanonicalJSON(b))
}

// fieldRef is a compiled field path: the canonical fields are read from
// the typed facts, anything else by walking the raw envelope.
type fieldRef struct {
	kind int
	path []string
}

const (
	fGeneric = iota
	fVerb
	fEnv
	fRev
	fBlast
	fExt
	fCount
	fUndeclared
	fApprovalPresent
	fCurrency
	fSession
	fAgentID
	fCumulative
)

var fieldKinds = map[string]int{
	"action.verb": fVerb, "target.environment": fEnv, "axes.reversibility": fRev, "axes.blast_radius": fBlast,
	"axes.externality": fExt, "magnitude.count": fCount, "provenance.undeclared": fUndeclared,
	"approval.present": fApprovalPresent, "params.currency": fCurrency, "agent.session_id": fSession, "agent.id": fAgentID,
}

func (r fieldRef) get(x *evalCtx) (any, bool) {
	f := x.f
	switch r.kind {
	case fVerb:
		return f.verb, true
	case fEnv:
		return f.env, true
	case fRev:
		return f.reversibility, true
	case fBlast:
		return f.blast, true
	case fExt:
		return f.external, true
	case fCount:
		return f.count, true
	case fUndeclared:
		return undeclaredView(f.undeclared), true
	case fApprovalPresent:
		// The rules never see an approval: resubmissions are decided by
		// the hold chain (spec §1.5).
		return false, true
	case fCurrency:
		if f.hasAmount {
			return f.currency, true
		}
	case fSession:
		return f.sessionID, true
	case fAgentID:
		return f.agent["id"], true
	case fCumulative:
		return lookup(x.cum.Object(), r.path[1:])
	}
	return lookup(f.raw, r.path)
}

// undeclaredViews are the 32 possible undeclared lists, built once so the
// rules can read provenance.undeclared without allocating.
var undeclaredViews = func() [32][]any {
	var out [32][]any
	for m := range 32 {
		f := facts{undeclared: uint8(m)}
		out[m] = f.undeclaredList()
	}
	return out
}()

func undeclaredView(m uint8) []any { return undeclaredViews[m&31] }

func lookup(v any, p []string) (any, bool) {
	for _, k := range p {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Pack is a compiled set of rules and budgets.
type Pack struct {
	rules    []*Rule // by precedence
	budgets  Budgets
	Examples []Example
}

// Example is an envelope embedded in a pack with the verdict it must get.
type Example struct {
	Name     string
	Envelope Envelope
	Now      time.Time // zero: the real clock
	Decision string
	Rule     string
	Source   string
}

// Rules returns the pack's rules in precedence order.
func (p *Pack) Rules() []*Rule { return slices.Clone(p.rules) }

// Budgets returns the pack's budgets.
func (p *Pack) Budgets() Budgets { return p.budgets.clone() }

func sortRules(rs []*Rule) {
	slices.SortStableFunc(rs, func(a, b *Rule) int {
		if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
			return c
		}
		if c := cmp.Compare(verdictRank(b.Verdict), verdictRank(a.Verdict)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// evaluate returns the deciding rule, or nil when none matches.
func (p *Pack) evaluate(x *evalCtx) *Rule {
	for _, r := range p.rules {
		if r.When == nil || r.When.eval(x) {
			return r
		}
	}
	return nil
}

// r0Fields are the guesses R0 reports: the axes R2/R3 rest on.
var r0Fields = []string{"axes.blast_radius", "axes.reversibility", "target.environment"}

// output is the rule's id and reason for this decision, with the
// placeholders {dimension}, {undeclared} and {was_were} filled in.
func (r *Rule) output(x *evalCtx) (id, reason string) {
	id, reason = r.ID, r.Reason
	if len(r.ByDimension) > 0 || strings.Contains(reason, "{dimension}") {
		dim := ""
		if ex := x.exceeded(); len(ex) > 0 {
			dim = ex[0]
		}
		if o, ok := r.ByDimension[dim]; ok {
			id, reason = o.ID, o.Reason
		}
		reason = strings.ReplaceAll(reason, "{dimension}", dim)
	}
	if strings.Contains(reason, "{undeclared}") {
		var guessed []string
		for _, name := range r0Fields {
			for i, n := range undeclaredNames {
				if n == name && x.f.undeclared&(1<<i) != 0 {
					guessed = append(guessed, name)
				}
			}
		}
		ww := "were"
		if len(guessed) == 1 {
			ww = "was"
		}
		reason = strings.ReplaceAll(reason, "{undeclared}", strings.Join(guessed, ", "))
		reason = strings.ReplaceAll(reason, "{was_were}", ww)
	}
	return id, reason
}
