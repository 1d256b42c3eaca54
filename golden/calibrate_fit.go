package golden

import (
	"math"
	"sort"
)

type fitted struct {
	thr  map[string]float64
	def  float64
	feas bool
}

func (f fitted) threshold(key string) float64 {
	if t, ok := f.thr[key]; ok && key != "" {
		return t
	}
	return f.def
}

// ladder is one key's thresholds from strict to loose: at step i the
// threshold is t[i] and acc[i] scored values pass, wrong[i] of them wrong.
type ladder struct {
	t          []float64
	acc, wrong []int
	at         int // the step chosen
}

func newLadder(vals []CalValue) *ladder {
	var confs []float64
	wrongAt := map[float64]int{}
	accAt := map[float64]int{}
	for _, v := range vals {
		if !v.Scored || !v.Gated || v.Forced {
			continue
		}
		if accAt[v.Conf] == 0 {
			confs = append(confs, v.Conf)
		}
		accAt[v.Conf]++
		if v.Wrong {
			wrongAt[v.Conf]++
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(confs)))
	l := &ladder{t: []float64{1}, acc: []int{0}, wrong: []int{0}}
	a, w := 0, 0
	for _, c := range confs {
		if c >= 1 {
			// Passes even at the strictest threshold the gate takes.
			l.acc[0] += accAt[c]
			l.wrong[0] += wrongAt[c]
			a, w = l.acc[0], l.wrong[0]
			continue
		}
		a += accAt[c]
		w += wrongAt[c]
		l.t = append(l.t, c)
		l.acc = append(l.acc, a)
		l.wrong = append(l.wrong, w)
	}
	// Free steps: loosen while no more wrong values pass.
	for l.at+1 < len(l.t) && l.wrong[l.at+1] == l.wrong[0] {
		l.at++
	}
	return l
}

// best is the loosening from the current step with the most values gained
// per wrong value admitted, within spare; ok false when none fits.
func (l *ladder) best(spare int) (to int, ratio float64, ok bool) {
	for j := l.at + 1; j < len(l.t); j++ {
		dw := l.wrong[j] - l.wrong[l.at]
		if dw > spare {
			break
		}
		da := float64(l.acc[j] - l.acc[l.at])
		// A step that costs nothing is taken first.
		r := math.Inf(1)
		if dw > 0 {
			r = da / float64(dw)
		}
		if !ok || r > ratio || (r == ratio && j > to) {
			to, ratio, ok = j, r, true
		}
	}
	return to, ratio, ok
}

// allowance is how many wrong values n scored values may let through and
// still bound the rate under budget: the largest k with UpperBound(k, n) <=
// budget, or -1 when even none would (n too small). Fitting to the bound,
// not to the point rate, leaves room for what the fit did not see: fitted
// to the point rate, SROIE's held-out rate came out half again over budget.
func allowance(n int, budget, conf float64) int {
	k := -1
	for UpperBound(k+1, n, conf) <= budget {
		k++
	}
	return k
}

// fitThreshold is the lowest threshold (the most values accepted) whose
// silent-wrong share over vals is at or under budget; ok is false when
// none is.
func fitThreshold(vals []CalValue, budget, conf float64) (float64, bool) {
	l := newLadder(vals)
	n := 0
	for _, v := range vals {
		if v.Scored {
			n++
		}
	}
	allowed := allowance(n, budget, conf)
	for j := len(l.t) - 1; j >= 0; j-- {
		if l.wrong[j] <= allowed {
			return l.t[j], true
		}
	}
	return 1, false
}

// fit chooses every key's threshold on docs so that wrong values passed,
// pooled over all scored values, stay at or under the budget, spending the
// allowance where it lets the most values through. Every key starts at the
// loosest threshold that admits no wrong value its data shows; the spare
// errors then go, greedily, to the loosening that gains most values per
// error. A key with fewer than MinKeyValues values (and values with no key)
// are held at the pooled single threshold or stricter: too few to trust a
// looser one.
func fit(docs []CalDoc, o CalOptions) fitted {
	var all []CalValue
	byKey := map[string][]CalValue{}
	for _, d := range docs {
		for _, v := range d.Values {
			all = append(all, v)
			byKey[v.Key] = append(byKey[v.Key], v)
		}
	}
	f := fitted{thr: map[string]float64{}, feas: true}
	f.def, f.feas = fitThreshold(all, o.Budget, o.Conf)
	n := 0
	for _, v := range all {
		if v.Scored {
			n++
		}
	}
	spare := allowance(n, o.Budget, o.Conf)
	ladders := map[string]*ladder{}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vals := byKey[k]
		l := newLadder(vals)
		scored := 0
		for _, v := range vals {
			if v.Scored {
				scored++
			}
		}
		if k == "" || scored < o.MinKeyValues {
			// Held at the pooled threshold or stricter.
			for l.at > 0 && l.t[l.at] < f.def {
				l.at--
			}
			if k != "" {
				f.thr[k] = l.t[l.at]
			}
			spare -= l.wrong[l.at]
			continue
		}
		ladders[k] = l
		spare -= l.wrong[l.at]
	}
	if spare < 0 {
		f.feas, spare = false, 0
	}
	for spare > 0 {
		var bestKey string
		var bestTo int
		var bestR float64
		found := false
		for _, k := range keys {
			l := ladders[k]
			if l == nil {
				continue
			}
			if to, r, ok := l.best(spare); ok && (!found || r > bestR) {
				bestKey, bestTo, bestR, found = k, to, r, true
			}
		}
		if !found {
			break
		}
		l := ladders[bestKey]
		spare -= l.wrong[bestTo] - l.wrong[l.at]
		l.at = bestTo
	}
	for k, l := range ladders {
		f.thr[k] = l.t[l.at]
	}
	return f
}
