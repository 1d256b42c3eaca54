package golden

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/reflect-mcp/reflect/pipeline"
)

// CalValue is one field of one document as the gate saw it.
type CalValue struct {
	Field string `json:"field"`
	// Key is what the threshold is indexed by (field name, kind or tier).
	Key string `json:"key"`
	// Gated: a non-null value whose flag depends on the threshold.
	Gated bool    `json:"gated"`
	Conf  float64 `json:"conf"`
	// Forced: flagged whatever the threshold (an omission, a required
	// field missing, an error row).
	Forced bool `json:"forced"`
	Scored bool `json:"scored"`
	Wrong  bool `json:"wrong"`
}

// flagged says whether the value is flagged under threshold t.
func (v CalValue) flagged(t float64) bool { return v.Forced || (v.Gated && v.Conf < t) }

// silent: a scored value, wrong, let through. A wrong null is not a value
// the gate passed (no threshold can flag it; catching omissions is the
// verify stage's job): it is counted apart, as missed.
func (v CalValue) silent(t float64) bool { return v.Scored && v.Wrong && v.Gated && !v.flagged(t) }

// missed: a scored null that should hold a value, not flagged.
func (v CalValue) missed() bool { return v.Scored && v.Wrong && !v.Gated && !v.Forced }

// CalDoc is one labelled document's fields and what does not depend on the
// field thresholds (the overall-confidence bar, an error).
type CalDoc struct {
	ID        string     `json:"id"`
	Group     string     `json:"group"`
	OverallOK bool       `json:"overall_ok"`
	Values    []CalValue `json:"values"`
}

// CalKey keys a value for by: its field, its kind, or its evidence tier
// (empty when the Generator gave none: the profile's default covers it).
func CalKey(by string, f pipeline.Field, tier string) string {
	switch by {
	case pipeline.ProfileByKind:
		return string(f.Kind)
	case pipeline.ProfileByEvidence:
		return tier
	}
	return f.Name
}

// CalDocFrom turns one row's result into a CalDoc. tiers is the Generator's
// evidence tier per field (nil when it gave none); err is the row's error.
func CalDocFrom(s *pipeline.Schema, row Row, group string, res pipeline.Result, err error, tiers map[string]string, by string, overall float64) CalDoc {
	d := CalDoc{ID: row.ID, Group: group, OverallOK: err == nil && res.OverallConfidence >= overall}
	for _, f := range s.Fields {
		want, scored := row.Expected[f.Name]
		v := CalValue{Field: f.Name, Key: CalKey(by, f, tiers[f.Name]), Scored: scored}
		if err != nil {
			v.Forced, v.Wrong = true, scored
			d.Values = append(d.Values, v)
			continue
		}
		got := res.Data[f.Name]
		v.Wrong = scored && !FieldCorrect(f, want, got)
		if got == nil {
			v.Forced = res.Flagged(f.Name)
		} else {
			v.Gated, v.Conf = true, res.FieldConfidence[f.Name]
		}
		d.Values = append(d.Values, v)
	}
	return d
}

// CalOptions tunes Calibrate.
type CalOptions struct {
	Budget float64 // most silent-wrong share of scored values
	By     string  // field, kind or evidence
	Folds  int     // cross-validation folds over groups (default 5)
	Seed   uint64  // fold assignment seed
	Conf   float64 // bound confidence (default 0.95)
	// MinKeyValues: a key with fewer training values than this gets no
	// threshold below the pooled one (default 30).
	MinKeyValues int
}

func (o *CalOptions) defaults() {
	if o.Folds < 2 {
		o.Folds = 5
	}
	if o.Conf <= 0 || o.Conf >= 1 {
		o.Conf = 0.95
	}
	if o.MinKeyValues <= 0 {
		o.MinKeyValues = 30
	}
	if o.By == "" {
		o.By = pipeline.ProfileByField
	}
}

// Estimate is a held-out silent-wrong estimate.
type Estimate struct {
	N           int `json:"n"`
	Accepted    int `json:"accepted"`
	SilentWrong int `json:"silent_wrong"`
	// Missed are wrong nulls left unflagged: not in the rate (no threshold
	// reaches them), reported so they are not hidden.
	Missed     int     `json:"missed_nulls"`
	Rate       float64 `json:"rate"`
	Upper      float64 `json:"upper_bound"`
	AutoAccept float64 `json:"auto_accept"`
	// Supported: the upper bound is at or under the budget.
	Supported bool `json:"supported"`
	// NeedN is how many values would support the budget at the observed
	// rate (0: none would, the rate is at or over it).
	NeedN int `json:"need_n,omitempty"`
}

func (e *Estimate) finish(budget, conf float64) {
	if e.N > 0 {
		e.Rate = float64(e.SilentWrong) / float64(e.N)
		e.AutoAccept = float64(e.Accepted) / float64(e.N)
	}
	e.Upper = UpperBound(e.SilentWrong, e.N, conf)
	e.Supported = e.N > 0 && e.Upper <= budget
	if !e.Supported {
		e.NeedN = NeededTrials(e.Rate, budget, conf, 1<<22)
	}
}

// KeyReport is one key's line of a calibration.
type KeyReport struct {
	Key       string  `json:"key"`
	Threshold float64 `json:"threshold"`
	Estimate
}

// CalReport is what calibrate prints and the profile's fit records.
type CalReport struct {
	By      string  `json:"by"`
	Budget  float64 `json:"max_silent_wrong"`
	Conf    float64 `json:"confidence"`
	Folds   int     `json:"folds"`
	Seed    uint64  `json:"seed"`
	Docs    int     `json:"docs"`
	Groups  int     `json:"groups"`
	Default float64 `json:"default_threshold"`
	// Feasible: the fitted thresholds meet the budget on all the data.
	Feasible bool        `json:"feasible"`
	Keys     []KeyReport `json:"keys"`
	// Values pools every scored value; DocsAccepted is the held-out share
	// of documents auto-accepted (status ok).
	Values       Estimate `json:"values"`
	DocsAccepted float64  `json:"docs_auto_accept"`
}

// Folds assigns each group to one of k folds, seeded and independent of
// input order: groups are sorted, shuffled, and dealt round-robin.
func Folds(groups []string, k int, seed uint64) map[string]int {
	uniq := map[string]bool{}
	for _, g := range groups {
		uniq[g] = true
	}
	names := make([]string, 0, len(uniq))
	for g := range uniq {
		names = append(names, g)
	}
	sort.Strings(names)
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	out := make(map[string]int, len(names))
	for i, g := range names {
		out[g] = i % k
	}
	return out
}

// Score applies thresholds to docs and accumulates per-key and pooled
// counts into keys and pool; it returns how many documents pass.
func score(docs []CalDoc, th func(string) float64, keys map[string]*Estimate, pool *Estimate) int {
	okDocs := 0
	for _, d := range docs {
		ok := d.OverallOK
		for _, v := range d.Values {
			t := th(v.Key)
			if v.flagged(t) {
				ok = false
			}
			if !v.Scored {
				continue
			}
			e := keys[v.Key]
			if e == nil {
				e = &Estimate{}
				keys[v.Key] = e
			}
			for _, x := range []*Estimate{e, pool} {
				x.N++
				if !v.flagged(t) {
					x.Accepted++
				}
				if v.silent(t) {
					x.SilentWrong++
				}
				if v.missed() {
					x.Missed++
				}
			}
		}
		if ok {
			okDocs++
		}
	}
	return okDocs
}

// Calibrate fits the profile's thresholds on all docs and estimates what
// they do by cross-validation over groups: each fold's documents are scored
// under thresholds fitted on the other folds only.
func Calibrate(s *pipeline.Schema, docs []CalDoc, o CalOptions) (CalReport, *pipeline.GateProfile, error) {
	o.defaults()
	if err := pipeline.CheckThreshold("budget", o.Budget); err != nil {
		return CalReport{}, nil, err
	}
	groups := make([]string, len(docs))
	for i, d := range docs {
		groups[i] = d.Group
	}
	fold := Folds(groups, o.Folds, o.Seed)
	nGroups := len(fold)
	if nGroups < o.Folds {
		return CalReport{}, nil, fmt.Errorf("%w: %d groups cannot be split into %d folds (use fewer --folds or a finer --group-by)", pipeline.ErrInput, nGroups, o.Folds)
	}
	keys := map[string]*Estimate{}
	var pool Estimate
	okDocs := 0
	for k := range o.Folds {
		var train, test []CalDoc
		for _, d := range docs {
			if fold[d.Group] == k {
				test = append(test, d)
			} else {
				train = append(train, d)
			}
		}
		f := fit(train, o)
		okDocs += score(test, f.threshold, keys, &pool)
	}
	final := fit(docs, o)
	rep := CalReport{By: o.By, Budget: o.Budget, Conf: o.Conf, Folds: o.Folds, Seed: o.Seed, Docs: len(docs),
		Groups: nGroups, Default: final.def, Feasible: final.feas}
	if len(docs) > 0 {
		rep.DocsAccepted = float64(okDocs) / float64(len(docs))
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		e := keys[k]
		e.finish(o.Budget, o.Conf)
		rep.Keys = append(rep.Keys, KeyReport{Key: k, Threshold: final.threshold(k), Estimate: *e})
	}
	pool.finish(o.Budget, o.Conf)
	rep.Values = pool
	prof := &pipeline.GateProfile{Schema: s.Name, By: o.By, Budget: o.Budget, Default: final.def, Thresholds: final.thr}
	prof.ID = prof.ComputeID()
	return rep, prof, nil
}

// Tightest is the smallest budget the data supports, when a calibration
// refused the one asked for: what a profile fitted there would promise and
// auto-accept, so a refusal still says what the data can do.
type Tightest struct {
	Budget       float64  `json:"max_silent_wrong"`
	Values       Estimate `json:"values"`
	DocsAccepted float64  `json:"docs_auto_accept"`
	// Profile is the profile fitted at Budget (not serialised: calibrate
	// writes it only when asked to, at that budget).
	Profile *pipeline.GateProfile `json:"-"`
}

// TightestBudgetStep is the grid TightestBudget searches: a twentieth of a
// percentage point, finer than anyone states a budget.
const TightestBudgetStep = 0.0005

// TightestBudget tries budgets from o.Budget up, TightestBudgetStep apart,
// to limit and returns the first whose held-out bound supports it; ok is
// false when none up to limit does. A grid, not a bisection: whether a
// budget is supported need not be monotone in it (a looser budget moves
// thresholds, and so the held-out folds' rates).
func TightestBudget(s *pipeline.Schema, docs []CalDoc, o CalOptions, limit float64) (Tightest, bool, error) {
	base := o.Budget
	for i := 1; ; i++ {
		b := math.Round((base+float64(i)*TightestBudgetStep)*1e6) / 1e6
		if b > limit || b >= 1 {
			return Tightest{}, false, nil
		}
		o.Budget = b
		rep, prof, err := Calibrate(s, docs, o)
		if err != nil {
			return Tightest{}, false, err
		}
		if rep.Values.Supported {
			return Tightest{Budget: b, Values: rep.Values, DocsAccepted: rep.DocsAccepted, Profile: prof}, true, nil
		}
	}
}
