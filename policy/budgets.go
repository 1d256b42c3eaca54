package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Budget dimensions, in the alphabetical order that picks R5's rule id.
var Dimensions = []string{"deletions", "external_sends", "money", "objects_touched"}

// Limit is one dimension's limit. Money also has per-currency Limits.
type Limit struct {
	Limit  *float64           `json:"limit,omitempty"`
	Limits map[string]float64 `json:"limits,omitempty"`
}

// Budgets is the reference's budget data: default limits per dimension and
// per-session overrides keyed by agent.session_id.
type Budgets struct {
	Default   map[string]Limit            `json:"default_budgets"`
	Principal map[string]map[string]Limit `json:"principal_budgets"`
}

func ptr(f float64) *float64 { return &f }

// DefaultBudgets are the base pack's limits.
func DefaultBudgets() Budgets {
	return Budgets{
		Default: map[string]Limit{
			"money":           {Limit: ptr(5000), Limits: map[string]float64{"EUR": 5000, "USD": 5500, "GBP": 4300, "CHF": 4700, "JPY": 800000}},
			"deletions":       {Limit: ptr(20)},
			"external_sends":  {Limit: ptr(50)},
			"objects_touched": {Limit: ptr(200)},
		},
		Principal: map[string]map[string]Limit{},
	}
}

func (b Budgets) clone() Budgets {
	out := Budgets{Default: map[string]Limit{}, Principal: map[string]map[string]Limit{}}
	for k, v := range b.Default {
		out.Default[k] = v.clone()
	}
	for s, dims := range b.Principal {
		m := map[string]Limit{}
		for k, v := range dims {
			m[k] = v.clone()
		}
		out.Principal[s] = m
	}
	return out
}

func (l Limit) clone() Limit {
	c := Limit{Limits: maps.Clone(l.Limits)}
	if l.Limit != nil {
		c.Limit = ptr(*l.Limit)
	}
	return c
}

// Override applies o over b: a dimension's limit is replaced when o sets
// it, per-currency limits are merged, principal entries replace whole.
func (b *Budgets) Override(o Budgets) {
	if b.Default == nil {
		b.Default = map[string]Limit{}
	}
	if b.Principal == nil {
		b.Principal = map[string]map[string]Limit{}
	}
	for dim, l := range o.Default {
		cur := b.Default[dim].clone()
		if l.Limit != nil {
			cur.Limit = ptr(*l.Limit)
		}
		if len(l.Limits) > 0 {
			if cur.Limits == nil {
				cur.Limits = map[string]float64{}
			}
			maps.Copy(cur.Limits, l.Limits)
		}
		b.Default[dim] = cur
	}
	for s, dims := range o.Principal {
		m := map[string]Limit{}
		for k, v := range dims {
			m[k] = v.clone()
		}
		b.Principal[s] = m
	}
}

// Validate rejects unknown dimensions, negative or non-finite limits and
// currency codes that are not three upper-case letters.
func (b Budgets) Validate() error {
	check := func(where string, dims map[string]Limit) error {
		for dim, l := range dims {
			if !slices.Contains(Dimensions, dim) {
				return fmt.Errorf("%s: unknown budget dimension %q (want one of %v)", where, dim, Dimensions)
			}
			if l.Limit != nil && (math.IsNaN(*l.Limit) || math.IsInf(*l.Limit, 0)) {
				return fmt.Errorf("%s.%s.limit must be a finite number", where, dim)
			}
			if len(l.Limits) > 0 && dim != "money" {
				return fmt.Errorf("%s.%s: per-currency limits only apply to money", where, dim)
			}
			for c := range l.Limits {
				if canonCurrency(c) != c {
					return fmt.Errorf("%s.money.limits: %q is not a three-letter currency code", where, c)
				}
			}
		}
		return nil
	}
	if err := check("default_budgets", b.Default); err != nil {
		return err
	}
	for s, dims := range b.Principal {
		if err := check(fmt.Sprintf("principal_budgets[%q]", s), dims); err != nil {
			return err
		}
	}
	return nil
}

// ParseBudgets reads budget JSON shaped like the reference's data
// ({"default_budgets": ..., "principal_budgets": ...}), strictly.
func ParseBudgets(data []byte) (Budgets, error) {
	var b Budgets
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&b); err != nil {
		return Budgets{}, fmt.Errorf("budgets: %w", err)
	}
	if d.More() {
		return Budgets{}, fmt.Errorf("budgets: trailing data after the JSON object")
	}
	if err := b.Validate(); err != nil {
		return Budgets{}, fmt.Errorf("budgets: %w", err)
	}
	return b, nil
}

func (b *Budgets) countLimit(session, dim string) (float64, bool) {
	if p, ok := b.Principal[session]; ok {
		if l, ok := p[dim]; ok && l.Limit != nil {
			return *l.Limit, true
		}
	}
	if l, ok := b.Default[dim]; ok && l.Limit != nil {
		return *l.Limit, true
	}
	return 0, false
}

func (b *Budgets) moneyLimit(session, cur string) (float64, bool) {
	p, hasP := b.Principal[session]["money"]
	d, hasD := b.Default["money"]
	if hasP {
		if v, ok := p.Limits[cur]; ok {
			return v, true
		}
	}
	if hasD {
		if v, ok := d.Limits[cur]; ok {
			return v, true
		}
	}
	if hasP && p.Limit != nil {
		return *p.Limit, true
	}
	if hasD && d.Limit != nil {
		return *d.Limit, true
	}
	return 0, false
}

// exceeded appends the exceeded dimensions, alphabetically (spec §3.3).
func (b *Budgets) exceeded(f *facts, c *Cumulative, dst []string) []string {
	s := f.sessionID
	countOver := func(dim string, prior, current int64) bool {
		lim, ok := b.countLimit(s, dim)
		return ok && float64(satAdd(prior, current)) > lim
	}
	var del, out int64
	if f.verb == "delete" {
		del = f.count
	}
	if f.external == "outbound" {
		out = f.count
	}
	if countOver("deletions", c.CountByVerb["delete"], del) {
		dst = append(dst, "deletions")
	}
	if countOver("external_sends", c.CountByExternality["outbound"], out) {
		dst = append(dst, "external_sends")
	}
	if b.moneyOver(f, c) {
		dst = append(dst, "money")
	}
	if countOver("objects_touched", c.TotalCount, f.count) {
		dst = append(dst, "objects_touched")
	}
	return dst
}

func (b *Budgets) moneyOver(f *facts, c *Cumulative) bool {
	cur, amt := "XXX", 0.0
	if f.hasAmount {
		cur, amt = f.currency, math.Abs(f.amount)
	}
	util, over := 0.0, false
	visit := func(ccy string, total float64) {
		lim, ok := b.moneyLimit(f.sessionID, ccy)
		if !ok {
			return
		}
		if lim > 0 {
			util += total / lim
		} else if total > 0 {
			over = true
		}
	}
	// Sorted, so the float sum is the same on every run.
	var arr [8]string
	keys := arr[:0]
	for ccy := range c.AmountByCurrency {
		keys = append(keys, ccy)
	}
	if _, ok := c.AmountByCurrency[cur]; !ok && amt > 0 {
		keys = append(keys, cur)
	}
	slices.Sort(keys)
	for _, ccy := range keys {
		total := c.AmountByCurrency[ccy]
		if ccy == cur {
			total += amt
		}
		visit(ccy, total)
	}
	return over || util > 1
}
