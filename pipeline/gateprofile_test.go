package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testProfile(t *testing.T) *GateProfile {
	t.Helper()
	p := &GateProfile{Schema: "invoice", By: ProfileByEvidence, Budget: 0.005, Default: 0.8,
		Thresholds: map[string]float64{"total:labelled": 0.5}}
	p.ID = p.ComputeID()
	return p
}

// A profile's threshold replaces the flat one per evidence tier; an unseen
// tier gets the default; the note names the profile.
func TestGateAppliesProfile(t *testing.T) {
	s, err := LoadSchema("invoice")
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{"total": 12.0, "vendor_name": "ACME SDN BHD"}
	h := HeuristicReport{"total": {Factor: 1, Grounded: true}, "vendor_name": {Factor: 1, Grounded: true}}
	ev := map[string]Evidence{
		"total":       {Confidence: 0.6, Tier: "total:labelled"},
		"vendor_name": {Confidence: 0.75, Tier: "vendor:new-tier"},
	}
	flat := Gate(s, rec, nil, h, ev, DefaultGate())
	if !flat.Flagged("total") || flat.Flagged("vendor_name") {
		t.Fatalf("flat gate: flagged %v, want total only", flat.FlaggedFields)
	}
	g := DefaultGate()
	g.Profile = testProfile(t)
	res := Gate(s, rec, nil, h, ev, g)
	if res.Flagged("total") {
		t.Errorf("total at 0.6 flagged under its tier's 0.5 threshold")
	}
	if !res.Flagged("vendor_name") {
		t.Errorf("vendor_name at 0.75 on an unseen tier passed the 0.8 default")
	}
	if !strings.Contains(res.Notes, "Gate profile "+g.Profile.ID) {
		t.Errorf("notes %q do not name profile %s", res.Notes, g.Profile.ID)
	}
	// The notes name the bars the fields were held to, so one result says
	// why it passed without the profile file.
	if want := "(by evidence: total:labelled 50%, otherwise 80%; silent-wrong budget 0.5%)"; !strings.Contains(res.Notes, want) {
		t.Errorf("notes %q do not name the thresholds %q", res.Notes, want)
	}
	// The flagged note names the profile's bars, not the flat 70%.
	if !strings.HasPrefix(res.Notes, "1 field(s) below the gate profile's confidence thresholds require human review") || strings.Contains(res.Notes, "70%") {
		t.Errorf("notes %q name another threshold than the profile's", res.Notes)
	}
	ev["vendor_name"] = Evidence{Confidence: 0.9, Tier: "vendor:new-tier"}
	passed := Gate(s, rec, nil, h, ev, g)
	if passed.Status != StatusOK || !strings.HasPrefix(passed.Notes, "All fields passed the gate profile's confidence thresholds. Gate profile "+g.Profile.ID+" (by evidence: total:labelled 50%, otherwise 80%") ||
		strings.Contains(passed.Notes, "70%") {
		t.Errorf("passing notes %q do not name the profile's thresholds", passed.Notes)
	}
	if flat := Gate(s, rec, nil, h, ev, DefaultGate()); !strings.HasPrefix(flat.Notes, "1 field(s) below the 70% confidence threshold") {
		t.Errorf("flat gate notes %q", flat.Notes)
	}
	if g.VersionSuffix() != "+gate:"+g.Profile.ID || DefaultGate().VersionSuffix() != "" {
		t.Errorf("version suffix %q", g.VersionSuffix())
	}
}

func TestGateProfileFileRoundTrip(t *testing.T) {
	p := testProfile(t)
	p.Fit = map[string]any{"rows": 300}
	dir := t.TempDir()
	for _, name := range []string{"gate.yaml", "gate.json"} {
		path := filepath.Join(dir, name)
		b, err := p.Marshal(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := LoadGateProfile(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.ID != p.ID || got.Thresholds["total:labelled"] != 0.5 || got.Default != 0.8 || got.By != p.By {
			t.Errorf("%s: read back %+v", name, got)
		}
	}
}

// A threshold edited by hand without a new id is refused: results would
// name a profile whose thresholds they were not gated by.
func TestGateProfileRefusesEdits(t *testing.T) {
	p := testProfile(t)
	p.Thresholds["total:labelled"] = 0.1
	if err := p.Check(); err == nil || !errors.Is(err, ErrInput) {
		t.Errorf("edited profile: err %v, want ErrInput", err)
	}
	q := testProfile(t)
	q.By = "vendor"
	q.ID = q.ComputeID()
	if err := q.Check(); err == nil {
		t.Error("by=vendor accepted")
	}
	path := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(path, []byte("id: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGateProfile(path); err == nil {
		t.Error("malformed file accepted")
	}
	if _, err := LoadGateProfile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file accepted")
	}
}

// A key a profile does not have is refused with its line and the keys a
// profile has; fit, what calibrate measured, is free-form.
func TestGateProfileRefusesUnknownKeys(t *testing.T) {
	p := testProfile(t)
	p.Fit = map[string]any{"estimate": map[string]any{"values": map[string]any{"silentwrong": 1, "silent_wrong": 1}}}
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.yaml")
	b, err := p.Marshal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGateProfile(path); err != nil {
		t.Fatalf("a profile with free-form fit keys: %v", err)
	}
	for _, extra := range []string{"budget: 0.01\n", "default: 0.5\n", "owner: ana\n"} {
		bad := filepath.Join(dir, "bad.yaml")
		if err := os.WriteFile(bad, append(append([]byte(nil), b...), extra...), 0o644); err != nil {
			t.Fatal(err)
		}
		key, _, _ := strings.Cut(extra, ":")
		_, err := LoadGateProfile(bad)
		if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `unknown key "`+key+`"`) ||
			!strings.Contains(err.Error(), "max_silent_wrong, thresholds, default_threshold, fit") || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%q added: %v", strings.TrimSpace(extra), err)
		}
	}
}
