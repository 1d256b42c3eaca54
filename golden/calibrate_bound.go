package golden

import "math"

// Exact binomial bounds for an observed error count: the claims calibrate
// and stats make ("at most x% of passed values are wrong") rest on these,
// so they are computed exactly, not by a normal approximation.

// binomCDF is P(X <= k) for X ~ Binomial(n, p), summed in log space so
// n in the millions neither overflows nor underflows.
func binomCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n || p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lgn, _ := math.Lgamma(float64(n + 1))
	var sum float64
	for i := 0; i <= k; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lgn - a - b + float64(i)*lp + float64(n-i)*lq)
	}
	return math.Min(sum, 1)
}

// solveP finds p in [0,1] with f(p) = target for f decreasing in p.
func solveP(f func(float64) float64, target float64) float64 {
	lo, hi := 0.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// UpperBound is the one-sided Clopper-Pearson upper confidence bound on a
// rate after k events in n trials: the largest p under which seeing k or
// fewer has probability 1-conf. With k = 0 it is 1-(1-conf)^(1/n), about
// 3/n at 95%. n = 0 bounds nothing: 1.
func UpperBound(k, n int, conf float64) float64 {
	if n <= 0 || k >= n {
		return 1
	}
	k = max(k, 0)
	if k == 0 {
		return 1 - math.Pow(1-conf, 1/float64(n))
	}
	return solveP(func(p float64) float64 { return binomCDF(k, n, p) }, 1-conf)
}

// ClopperPearson is the two-sided exact interval at conf (each tail
// (1-conf)/2), as R's binom.test reports it.
func ClopperPearson(k, n int, conf float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	tail := (1 - conf) / 2
	hi = 1
	if k < n {
		hi = solveP(func(p float64) float64 { return binomCDF(k, n, p) }, tail)
	}
	if k > 0 {
		// P(X >= k) = 1 - P(X <= k-1) increases in p.
		lo = solveP(func(p float64) float64 { return binomCDF(k-1, n, p) }, 1-tail)
	}
	return lo, hi
}

// Wilson is the Wilson score interval for k of n at normal quantile z
// (1.96 for 95% two-sided).
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, center-half), math.Min(1, center+half)
}

// NeededTrials is the smallest n at which an observed rate of rate (the
// errors growing with n) would put UpperBound at or under budget; 0 when no
// n would (the rate itself is at or over the budget), capped at limit.
func NeededTrials(rate, budget, conf float64, limit int) int {
	if rate >= budget || budget <= 0 {
		return 0
	}
	ok := func(n int) bool { return UpperBound(int(math.Ceil(rate*float64(n)-1e-9)), n, conf) <= budget }
	hi := 1
	for !ok(hi) {
		if hi >= limit {
			return 0
		}
		hi = min(hi*2, limit)
	}
	lo := hi / 2
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
