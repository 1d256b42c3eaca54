package golden

import (
	"math"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.9f, want %.9f (±%g)", name, got, want, tol)
	}
}

// Reference values: R's binom.test (two-sided, and alternative = "less" for
// the one-sided upper bound), and the Wilson interval by hand.
func TestClopperPearsonKnownValues(t *testing.T) {
	lo, hi := ClopperPearson(1, 10, 0.95)
	near(t, "CP(1,10) lo", lo, 0.002528579, 1e-8)
	near(t, "CP(1,10) hi", hi, 0.445016117, 1e-8)
	lo, hi = ClopperPearson(0, 10, 0.95)
	near(t, "CP(0,10) lo", lo, 0, 0)
	near(t, "CP(0,10) hi", hi, 0.3084971, 1e-7)
	lo, hi = ClopperPearson(5, 10, 0.95)
	near(t, "CP(5,10) lo", lo, 0.1870860, 1e-7)
	near(t, "CP(5,10) hi", hi, 0.8129140, 1e-7)
	near(t, "upper(1,10)", UpperBound(1, 10, 0.95), 0.3941633, 1e-7)
	near(t, "upper(0,10)", UpperBound(0, 10, 0.95), 1-math.Pow(0.05, 0.1), 1e-12)
	near(t, "upper(10,10)", UpperBound(10, 10, 0.95), 1, 0)
	near(t, "upper(0,0)", UpperBound(0, 0, 0.95), 1, 0)
}

// At zero errors the one-sided 95% bound is the "rule of three": about 3/n.
func TestUpperBoundRuleOfThree(t *testing.T) {
	for _, n := range []int{300, 600, 2100, 100000} {
		u := UpperBound(0, n, 0.95)
		// n(1-0.05^(1/n)) rises to -ln 0.05 = 2.9957 from below.
		if r := u * float64(n); r < 2.97 || r > -math.Log(0.05) {
			t.Errorf("n=%d: n*upper = %.4f, want just under 2.9957", n, r)
		}
	}
	// The exact bound solved by bisection agrees with the closed form.
	near(t, "bisection k=0", solveP(func(p float64) float64 { return binomCDF(0, 300, p) }, 0.05), UpperBound(0, 300, 0.95), 1e-12)
}

func TestWilsonKnownValues(t *testing.T) {
	lo, hi := Wilson(1, 10, 1.959963985)
	near(t, "Wilson(1,10) lo", lo, 0.017876, 1e-5)
	near(t, "Wilson(1,10) hi", hi, 0.404150, 1e-5)
	lo, hi = Wilson(0, 20, 1.959963985)
	near(t, "Wilson(0,20) lo", lo, 0, 0)
	near(t, "Wilson(0,20) hi", hi, 0.1611252, 1e-6)
}

func TestBinomCDFLargeN(t *testing.T) {
	// P(X <= 5) for Binomial(1e6, 5e-6): Poisson(5) to within 1e-5.
	near(t, "cdf", binomCDF(5, 1000000, 5e-6), 0.6159607, 1e-5)
}

func TestNeededTrials(t *testing.T) {
	// Zero errors at a 0.5% budget: the smallest n with 1-0.05^(1/n) <= 0.005.
	n := NeededTrials(0, 0.005, 0.95, 1<<22)
	if UpperBound(0, n, 0.95) > 0.005 || UpperBound(0, n-1, 0.95) <= 0.005 {
		t.Fatalf("NeededTrials(0) = %d is not the smallest n", n)
	}
	if n != 598 {
		t.Errorf("NeededTrials(0, 0.5%%) = %d, want 598", n)
	}
	if got := NeededTrials(0.005, 0.005, 0.95, 1<<22); got != 0 {
		t.Errorf("a rate at the budget can never be supported, got %d", got)
	}
	m := NeededTrials(0.002, 0.005, 0.95, 1<<22)
	if m <= n || UpperBound(int(math.Ceil(0.002*float64(m))), m, 0.95) > 0.005 {
		t.Errorf("NeededTrials(0.2%%) = %d: not above the zero-error need or not enough", m)
	}
}
