package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/golden"
	"github.com/reflect-mcp/reflect/pipeline"
)

// extract --batch -> calibrate --audit-sample (seeded, reproducible) -> the
// sample reviewed (here: settled to the hand labels, as a reviewer would,
// written as reflect export writes) -> calibrate --audit-estimate prints the
// observed silent-wrong per field next to the budget.
func TestAuditSampleThenEstimate(t *testing.T) {
	dev, devL, _, _ := sroiePaths(t)
	rows, _, err := golden.LoadDataset(dev)
	if err != nil {
		t.Fatal(err)
	}
	labels, _, err := golden.LoadLabels(devL)
	if err != nil {
		t.Fatal(err)
	}
	labels.Apply(rows)
	var in strings.Builder
	for _, r := range rows {
		b, _ := json.Marshal(map[string]any{"id": r.ID, "text": r.Text})
		in.Write(append(b, '\n'))
	}
	res := run(t, "", "extract", "--batch", "--provider", "local", "--file", writeFile(t, "docs.jsonl", in.String()))
	results := writeFile(t, "results.jsonl", res.out)
	args := []string{"calibrate", "--audit-sample", results, "--max-silent-wrong", "0.05", "--seed", "3"}
	a, b := run(t, "", args...), run(t, "", args...)
	if a.code != ExitOK || a.out != b.out || a.out == "" {
		t.Fatalf("audit sample: exit %d, reproducible %v\n%s\n%s", a.code, a.out == b.out, a.out, a.err)
	}
	docsFile := writeFile(t, "docs2.jsonl", in.String())
	c := run(t, "", append(args, "--dataset", docsFile)...)
	if c.code != ExitOK || strings.Count(c.out, `"text"`) != strings.Count(a.out, "\n") {
		t.Errorf("--dataset: want the sampled documents' lines, got exit %d\n%s\n%s", c.code, c.out, c.err)
	}
	if !strings.Contains(a.err, "auto-accepted documents") {
		t.Errorf("no summary on stderr: %s", a.err)
	}
	sampled := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(a.out), "\n") {
		var x struct{ ID string }
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatal(err)
		}
		sampled[x.ID] = true
	}
	byID := map[string]pipeline.Result{}
	for _, r := range decodeLines(t, res.out) {
		byID[r.ID] = r
	}
	s := pipeline.Invoice()
	var export strings.Builder
	wrong := 0
	for _, row := range rows {
		r, ok := byID[row.ID]
		if !sampled[row.ID] {
			continue
		}
		if !ok || r.Status != pipeline.StatusOK {
			t.Fatalf("%s sampled but not auto-accepted", row.ID)
		}
		er := golden.ExportRow{ID: row.ID, Text: row.Text, Expected: row.Expected}
		er.Review.Original = map[string]any{}
		for _, f := range s.Fields {
			er.Review.Original[f.Name] = r.Data[f.Name]
			if golden.FieldCorrect(f, row.Expected[f.Name], r.Data[f.Name]) {
				er.Review.Confirmed = append(er.Review.Confirmed, f.Name)
			} else {
				er.Review.Corrected = append(er.Review.Corrected, f.Name)
				if r.Data[f.Name] != nil {
					wrong++
				}
			}
		}
		b, _ := json.Marshal(er)
		export.Write(append(b, '\n'))
	}
	exp := writeFile(t, "audited.jsonl", export.String())
	e := run(t, "", "calibrate", "--audit-estimate", exp, "--audit-ids", writeFile(t, "ids.jsonl", a.out), "--max-silent-wrong", "0.05", "--json")
	if e.code != ExitOK && e.code != ExitNeedsReview {
		t.Fatalf("audit estimate: exit %d\n%s", e.code, e.err)
	}
	var rep golden.AuditReport
	if err := json.Unmarshal([]byte(e.out), &rep); err != nil {
		t.Fatal(err, e.out)
	}
	if rep.Docs != len(sampled) || rep.All.SilentWrong != wrong || rep.All.N != 7*len(sampled) {
		t.Errorf("estimate: %d docs, %d silent of %d; want %d docs, %d silent of %d", rep.Docs, rep.All.SilentWrong, rep.All.N, len(sampled), wrong, 7*len(sampled))
	}
	if (e.code == ExitNeedsReview) != rep.Breached {
		t.Errorf("exit %d but breached %v", e.code, rep.Breached)
	}
	t.Logf("audited %d of the ok documents: %d wrong values passed of %d (%s, upper %.2f%%)", rep.Docs, rep.All.SilentWrong, rep.All.N, rep.All.Status, 100*rep.All.Upper)
}

// New user report #15: results gated under a profile are sampled for the
// profile's budget, not the default 0.5%; --max-silent-wrong still wins.
func TestAuditSampleTakesTheProfileBudget(t *testing.T) {
	dev, devL, _, _ := sroiePaths(t)
	gate := filepath.Join(t.TempDir(), "gate.yaml")
	if r := run(t, "", "calibrate", "--dataset", dev, "--labels", devL, "--max-silent-wrong", "0.007", "--allow-unsupported", "--out", gate); r.code != ExitOK && r.code != ExitNeedsReview {
		t.Fatalf("calibrate: exit %d\n%s", r.code, r.err)
	}
	res := run(t, "", "extract", "--batch", "--provider", "local", "--gate", gate, "--file", dev)
	results := writeFile(t, "results.jsonl", res.out)
	a := run(t, "", "calibrate", "--audit-sample", results, "--seed", "3")
	if a.code != ExitOK || !strings.Contains(a.err, "budget 0.70% from gate profile") || !strings.Contains(a.err, "to bound a 0.70% silent-wrong rate") {
		t.Fatalf("audit sample under a 0.7%% profile: exit %d\n%s", a.code, a.err)
	}
	b := run(t, "", "calibrate", "--audit-sample", results, "--seed", "3", "--max-silent-wrong", "0.01")
	if b.code != ExitOK || strings.Contains(b.err, "from gate profile") || !strings.Contains(b.err, "to bound a 1.00% silent-wrong rate") {
		t.Fatalf("--max-silent-wrong given: exit %d\n%s", b.code, b.err)
	}
}
