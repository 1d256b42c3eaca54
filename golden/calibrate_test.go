package golden

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

func val(key string, conf float64, wrong bool) CalValue {
	return CalValue{Field: key, Key: key, Gated: true, Conf: conf, Scored: true, Wrong: wrong}
}

// The fit spends the allowance the bound leaves where it lets the most
// values through, and never more.
func TestFitSpendsAllowanceOnBestKey(t *testing.T) {
	var docs []CalDoc
	// 2000 docs, two keys. Key a: one wrong value at 0.6 unlocks 1000 values
	// at 0.6; key b: one wrong value at 0.5 unlocks 100.
	for i := range 2000 {
		d := CalDoc{ID: string(rune('A'+i%26)) + string(rune(i)), Group: "g", OverallOK: true}
		ca, cb := 0.9, 0.9
		if i < 1000 {
			ca = 0.6
		}
		if i < 100 {
			cb = 0.5
		}
		d.Values = []CalValue{val("a", ca, i == 0), val("b", cb, i == 1)}
		docs = append(docs, d)
	}
	o := CalOptions{Budget: 0.001, Conf: 0.95, MinKeyValues: 30}
	// 4000 values at a 0.1% budget: UpperBound(1, 4000) = 0.12% > 0.1%, so
	// no wrong value may pass: both keys stay above their wrong value.
	f := fit(docs, o)
	if f.thr["a"] != 0.9 || f.thr["b"] != 0.9 {
		t.Errorf("zero allowance: thresholds %v, want a and b at 0.9", f.thr)
	}
	if got := allowance(4000, 0.001, 0.95); got != 0 {
		t.Fatalf("allowance(4000, 0.1%%) = %d, want 0", got)
	}
	// At 0.15% one wrong value may pass (UpperBound(1, 4000) ~ 0.12%, (2,
	// 4000) ~ 0.16%): it is spent on a, which gains 1000 values, not on b.
	o.Budget = 0.0015
	if got := allowance(4000, o.Budget, 0.95); got != 1 {
		t.Fatalf("allowance(4000, 0.15%%) = %d, want 1", got)
	}
	f = fit(docs, o)
	if f.thr["a"] != 0.6 || f.thr["b"] != 0.9 {
		t.Errorf("one allowed: thresholds %v, want a 0.6 and b 0.9", f.thr)
	}
}

// Folds keep every group whole, are reproducible from the seed, and do not
// depend on row order.
func TestFoldsByGroup(t *testing.T) {
	groups := []string{"v1", "v2", "v1", "v3", "v4", "v2", "v5", "v6"}
	a := Folds(groups, 3, 7)
	rev := append([]string(nil), groups...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	b := Folds(rev, 3, 7)
	if len(a) != 6 {
		t.Fatalf("%d groups assigned, want 6", len(a))
	}
	sizes := map[int]int{}
	for g, k := range a {
		if b[g] != k {
			t.Errorf("group %s: fold %d, %d reversed", g, k, b[g])
		}
		sizes[k]++
	}
	if sizes[0] != 2 || sizes[1] != 2 || sizes[2] != 2 {
		t.Errorf("fold sizes %v, want 2 each", sizes)
	}
}

// Too few rows: the estimate is not supported, and it says how many values
// would be (598 at zero errors for a 0.5% budget).
func TestCalibrateRefusesTooFewRows(t *testing.T) {
	s := pipeline.Invoice()
	var docs []CalDoc
	for i := range 50 {
		docs = append(docs, CalDoc{ID: string(rune('a' + i)), Group: string(rune('a' + i%10)), OverallOK: true,
			Values: []CalValue{val("total", 0.9, false)}})
	}
	rep, _, err := Calibrate(s, docs, CalOptions{Budget: 0.005, Folds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Values.Supported || rep.Values.SilentWrong != 0 || rep.Values.NeedN != 598 {
		t.Errorf("50 clean values: supported %v, silent %d, need %d; want unsupported, 0, 598",
			rep.Values.Supported, rep.Values.SilentWrong, rep.Values.NeedN)
	}
	if rep.Feasible {
		t.Error("50 values cannot bound a 0.5% rate, yet the fit says feasible")
	}
	if _, _, err := Calibrate(s, docs[:3], CalOptions{Budget: 0.005, Folds: 5}); err == nil {
		t.Error("3 groups split into 5 folds: no error")
	}
}

// tierGen records the local extractor's evidence tiers per document.
type tierGen struct {
	g  pipeline.Generator
	mu sync.Mutex
	m  map[string]map[string]string
}

func (t *tierGen) Generate(ctx context.Context, doc pipeline.Document, s *pipeline.Schema) (pipeline.Extraction, error) {
	ext, err := t.g.Generate(ctx, doc, s)
	t.mu.Lock()
	defer t.mu.Unlock()
	m := map[string]string{}
	for f, e := range ext.Evidence {
		m[f] = e.Tier
	}
	t.m[doc.ID] = m
	return ext, err
}

// sroieRows loads receipts-dev and -check with the hand labels and their
// vendor groups. (ICDAR 2019 SROIE, CC-BY-4.0, ../shared/data.)
func sroieRows(t *testing.T) ([]Row, []string) {
	t.Helper()
	var rows []Row
	var groups []string
	for _, set := range []string{"dev", "check"} {
		path := filepath.Join("..", "..", "shared", "data", "receipts-"+set+".jsonl")
		rs, _, err := LoadDataset(path)
		if err != nil {
			t.Skipf("receipts not available: %v", err)
		}
		labels, _, err := LoadLabels(filepath.Join("testdata", "sroie", "labels-"+set+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		labels.Apply(rs)
		g, err := LoadGroups(path, DefaultGroupKey)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if g[r.ID] == "" {
				t.Fatalf("%s has no %s", r.ID, DefaultGroupKey)
			}
			groups = append(groups, g[r.ID])
		}
		rows = append(rows, rs...)
	}
	return rows, groups
}

// A profile fitted (with its own vendor-grouped CV) on half of the SROIE
// vendors holds on the other half: the silent-wrong rate eval measures
// there, under the real gate loaded with the profile, is within the bound
// the profile states.
func TestProfileHoldsOnOtherVendors(t *testing.T) {
	rows, groups := sroieRows(t)
	s := pipeline.Invoice()
	half := Folds(groups, 2, 16)
	var trainRows, testRows []Row
	var trainGroups []string
	for i, r := range rows {
		if half[groups[i]] == 0 {
			trainRows, trainGroups = append(trainRows, r), append(trainGroups, groups[i])
		} else {
			testRows = append(testRows, r)
		}
	}
	ctx := context.Background()
	for _, by := range []string{pipeline.ProfileByField, pipeline.ProfileByKind, pipeline.ProfileByEvidence} {
		gen := &tierGen{g: local.New(), m: map[string]map[string]string{}}
		p, err := pipeline.New(pipeline.Config{Schema: s, Generator: gen, Gate: pipeline.DefaultGate()})
		if err != nil {
			t.Fatal(err)
		}
		results, errs := RunRows(ctx, p, trainRows, 2)
		docs := make([]CalDoc, len(trainRows))
		for i, r := range trainRows {
			docs[i] = CalDocFrom(s, r, trainGroups[i], results[i], errs[i], gen.m[r.ID], by, pipeline.DefaultGate().OverallThreshold)
		}
		// The budget is set where this half's data can state a bound.
		rep, prof, err := Calibrate(s, docs, CalOptions{Budget: 0.01, By: by, Folds: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		g := pipeline.DefaultGate()
		g.Profile = prof
		gated, err := pipeline.New(pipeline.Config{Schema: s, Generator: local.New(), Gate: g})
		if err != nil {
			t.Fatal(err)
		}
		ev := Evaluate(ctx, gated, s, testRows, Options{Concurrency: 2})
		silent := ev.SilentWrong - ev.SilentNull
		t.Logf("by %s: fitted on %d docs (CV rate %.2f%%, bound %.2f%%, docs auto-accept %.1f%%); other half %d docs: silent %d of %d = %.2f%%, ok %.1f%%",
			by, len(trainRows), 100*rep.Values.Rate, 100*rep.Values.Upper, 100*rep.DocsAccepted, len(testRows), silent, ev.FieldsScored, 100*ev.SilentValueRate, 100*ev.OKRate)
		if ev.SilentValueRate > rep.Values.Upper {
			t.Errorf("by %s: other half's silent-wrong %.2f%% is over the stated bound %.2f%%", by, 100*ev.SilentValueRate, 100*rep.Values.Upper)
		}
	}
}
