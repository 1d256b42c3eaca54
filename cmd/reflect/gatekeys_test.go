package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

// A gate profile spells its held-out estimate the same in YAML as in JSON
// and in calibrate --json (silent_wrong, auto_accept, upper_bound), not
// as Go field names (silentwrong, autoaccept); a key a profile does not
// have is refused by every verb that loads it, naming the keys it has.
func TestGateProfileKeysAreOneSpelling(t *testing.T) {
	small, devL := smallDevDataset(t)
	dir := t.TempDir()
	values := map[string][]string{}
	for _, name := range []string{"gate.yaml", "gate.json"} {
		out := filepath.Join(dir, name)
		if r := run(t, "", "calibrate", "--dataset", small, "--labels", devL, "--folds", "2", "--allow-unsupported", "--out", out); r.code != ExitOK {
			t.Fatalf("calibrate --out %s: exit %d\n%s", name, r.code, r.err)
		}
		prof, err := pipeline.LoadGateProfile(out)
		if err != nil {
			t.Fatal(err)
		}
		est, _ := prof.Fit["estimate"].(map[string]any)
		v, _ := est["values"].(map[string]any)
		values[name] = slices.Sorted(maps.Keys(v))
	}
	if !slices.Equal(values["gate.yaml"], values["gate.json"]) || !slices.Contains(values["gate.yaml"], "silent_wrong") || !slices.Contains(values["gate.yaml"], "auto_accept") {
		t.Errorf("estimate keys: YAML %v, JSON %v; want one spelling, silent_wrong and auto_accept among them", values["gate.yaml"], values["gate.json"])
	}

	yml := filepath.Join(dir, "gate.yaml")
	data, err := os.ReadFile(yml)
	if err != nil {
		t.Fatal(err)
	}
	txt := writeFile(t, "t.txt", "ACME Ltd\nTotal 10.00 EUR")
	// A profile written before spelled the estimate silentwrong/autoaccept/
	// needn: what was measured is not what gates, so it still loads.
	old := strings.NewReplacer(" silent_wrong:", " silentwrong:", " auto_accept:", " autoaccept:", " upper_bound:", " upper:").Replace(string(data))
	if !strings.Contains(old, " silentwrong:") || !strings.Contains(old, "\nmax_silent_wrong:") {
		t.Fatalf("the old spelling was not made:\n%s", old)
	}
	if r := run(t, "", "validate", "--heuristics-only", "--file", txt, "--data", `{"total":10}`, "--gate", writeFile(t, "old.yaml", old)); r.code == ExitUsage {
		t.Errorf("a profile with the old estimate spelling is refused: %s", r.err)
	}
	typo := strings.Replace(string(data), "max_silent_wrong:", "max_silentwrong:", 1)
	r := run(t, "", "validate", "--heuristics-only", "--file", txt, "--data", `{"total":10}`, "--gate", writeFile(t, "typo.yaml", typo))
	if r.code != ExitUsage || !strings.Contains(r.err, `unknown key "max_silentwrong"`) ||
		!strings.Contains(r.err, "id, schema, by, max_silent_wrong, thresholds, default_threshold, fit") {
		t.Errorf("a misspelt key: exit %d, stderr %q; want it refused naming the known keys", r.code, r.err)
	}
}
