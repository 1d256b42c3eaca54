package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
)

// sroiePaths are the receipts and their hand labels (ICDAR 2019 SROIE,
// CC-BY-4.0, ../shared/data; labels in golden/testdata/sroie).
func sroiePaths(t *testing.T) (dev, devLabels, check, checkLabels string) {
	t.Helper()
	data := filepath.Join("..", "..", "..", "shared", "data")
	dev = filepath.Join(data, "receipts-dev.jsonl")
	if _, err := os.Stat(dev); err != nil {
		t.Skipf("receipts not available: %v", err)
	}
	labels := filepath.Join("..", "..", "golden", "testdata", "sroie")
	return dev, filepath.Join(labels, "labels-dev.jsonl"), filepath.Join(data, "receipts-check.jsonl"), filepath.Join(labels, "labels-check.jsonl")
}

// calibrate -> extract --batch and validate --batch under the profile (by
// --gate and by REFLECT_GATE): every result's notes carry the profile id,
// and the pipeline version the store keys results by includes it.
func TestCalibrateThenRunUnderProfile(t *testing.T) {
	dev, devL, check, checkL := sroiePaths(t)
	out := filepath.Join(t.TempDir(), "gate.yaml")
	r := run(t, "", "calibrate", "--dataset", dev, "--labels", devL, "--dataset", check, "--labels", checkL,
		"--by", "evidence", "--max-silent-wrong", "0.01", "--allow-unsupported", "--out", out)
	if r.code != ExitOK {
		t.Fatalf("calibrate: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	for _, want := range []string{"300 documents", "source.vendor_group", "all values", "documents auto-accepted (held out)", "written to " + out} {
		if !strings.Contains(r.out, want) {
			t.Errorf("calibrate output lacks %q:\n%s", want, r.out)
		}
	}
	prof, err := pipeline.LoadGateProfile(out)
	if err != nil {
		t.Fatal(err)
	}
	if prof.By != "evidence" || prof.Budget != 0.01 || len(prof.Thresholds) == 0 || prof.Fit["rows"] != 300 {
		t.Errorf("profile: by %s budget %v, %d thresholds, fit %v", prof.By, prof.Budget, len(prof.Thresholds), prof.Fit["rows"])
	}

	// A few receipts as a batch: {id,text} for extract, {id,text,data} for
	// validate (data: the labels, so validate checks a right record).
	rows, _, err := golden.LoadDataset(dev)
	if err != nil {
		t.Fatal(err)
	}
	var ext, val strings.Builder
	for _, row := range rows[:8] {
		b, _ := json.Marshal(map[string]any{"id": row.ID, "text": row.Text})
		ext.Write(append(b, '\n'))
		b, _ = json.Marshal(map[string]any{"id": row.ID, "text": row.Text, "data": row.Expected})
		val.Write(append(b, '\n'))
	}
	extFile := writeFile(t, "ext.jsonl", ext.String())
	valFile := writeFile(t, "val.jsonl", val.String())
	runs := []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"extract", "--batch", "--provider", "local", "--file", extFile, "--gate", out}},
		{map[string]string{"REFLECT_GATE": out}, []string{"extract", "--batch", "--provider", "local", "--file", extFile}},
		{nil, []string{"validate", "--batch", "--heuristics-only", "--file", valFile, "--gate", out}},
	}
	for _, c := range runs {
		r := runWith(t, c.env, "", c.args...)
		if r.code != ExitOK && r.code != ExitNeedsReview {
			t.Fatalf("%v: exit %d\n%s", c.args, r.code, r.err)
		}
		rs := decodeLines(t, r.out)
		if len(rs) != 8 {
			t.Fatalf("%v: %d results, want 8", c.args, len(rs))
		}
		for _, res := range rs {
			if !strings.Contains(res.Notes, "Gate profile "+prof.ID) {
				t.Errorf("%v: %s notes %q lack profile %s", c.args, res.ID, res.Notes, prof.ID)
			}
		}
	}
	// Without a profile: no profile note. (runWith's REFLECT_GATE lasts
	// the test: clear it.)
	t.Setenv("REFLECT_GATE", "")
	r = run(t, "", "extract", "--batch", "--provider", "local", "--file", extFile)
	for _, res := range decodeLines(t, r.out) {
		if strings.Contains(res.Notes, "Gate profile") {
			t.Errorf("no --gate, yet notes %q name a profile", res.Notes)
		}
	}

	var pf pipelineFlags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	pf.register(fs)
	if err := fs.Parse([]string{"--heuristics-only", "--gate", out}); err != nil {
		t.Fatal(err)
	}
	env, err := buildEnv(context.Background(), &pf, false, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if v := env.p.Version(); !strings.Contains(v, "+gate:"+prof.ID) {
		t.Errorf("pipeline version %q (the store's result key) lacks the profile id", v)
	}
	// mcp rebuilds its gate per call: the profile must survive.
	p2, err := env.pipelineFor(env.p.Schema(), pipeline.DefaultGate(), true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p2.Version(), "+gate:"+prof.ID) {
		t.Errorf("pipelineFor dropped the profile: %q", p2.Version())
	}
}

// Too few rows to support the budget: calibrate refuses (exit 1), says how
// many more rows it needs, and writes no profile.
func TestCalibrateRefusesUnsupportedBudget(t *testing.T) {
	small, devL := smallDevDataset(t)
	out := filepath.Join(t.TempDir(), "gate.json")
	r := run(t, "", "calibrate", "--dataset", small, "--labels", devL, "--folds", "2", "--out", out)
	if r.code != ExitNeedsReview || !strings.Contains(r.err, "refused") || !strings.Contains(r.err, "more rows") {
		t.Fatalf("exit %d, want 1 with a refusal naming the rows needed:\n%s\n%s", r.code, r.out, r.err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused calibration wrote %s", out)
	}
	// The refusal names the tightest budget the rows do support, and asked
	// for that budget calibrate writes the profile.
	_, after, ok := strings.Cut(r.out, "tightest budget this data supports: ")
	if !ok {
		t.Fatalf("refusal names no supported budget:\n%s", r.out)
	}
	_, flagVal, _ := strings.Cut(after, "--max-silent-wrong ")
	flagVal, _, _ = strings.Cut(flagVal, " ")
	r = run(t, "", "calibrate", "--dataset", small, "--labels", devL, "--folds", "2", "--max-silent-wrong", flagVal, "--out", out)
	if r.code != ExitOK {
		t.Fatalf("at the named budget %s: exit %d\n%s\n%s", flagVal, r.code, r.out, r.err)
	}
	if prof, err := pipeline.LoadGateProfile(out); err != nil || strconv.FormatFloat(prof.Budget, 'f', -1, 64) != flagVal {
		t.Errorf("profile at %s: %+v, %v", flagVal, prof, err)
	}
}

func TestCalibrateBadInput(t *testing.T) {
	dev, devL, _, _ := sroiePaths(t)
	bad := writeFile(t, "gate.yaml", "id: gp-000000000000\nby: field\nthresholds: {total: 0.1}\n")
	for _, c := range [][]string{
		{"calibrate"},
		{"calibrate", "--dataset", dev, "--by", "vendor"},
		{"calibrate", "--dataset", dev, "--labels", devL, "--labels", devL},
		{"calibrate", "--dataset", dev, "--max-silent-wrong", "0"},
		{"calibrate", "--dataset", dev, "--gate", bad},
		{"calibrate", "--dataset", dev, "--dataset", dev},
		{"extract", "--provider", "local", "--gate", bad},
	} {
		if r := run(t, demoText, c...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", c, r.code, r.err)
		}
	}
}

// smallDevDataset writes the first 25 dev receipts as a dataset (too few to
// support the default budget) and returns it with the dev labels' path.
func smallDevDataset(t *testing.T) (small, labels string) {
	t.Helper()
	dev, devL, _, _ := sroiePaths(t)
	rows, _, err := golden.LoadDataset(dev)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, row := range rows[:25] {
		line, _ := json.Marshal(map[string]any{"id": row.ID, "text": row.Text, "expected": row.Expected})
		b.Write(append(line, '\n'))
	}
	return writeFile(t, "small.jsonl", b.String()), devL
}
