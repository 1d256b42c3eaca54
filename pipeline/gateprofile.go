package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Calibration keys: what a gate profile's thresholds are indexed by.
const (
	ProfileByField    = "field"
	ProfileByKind     = "kind"
	ProfileByEvidence = "evidence"
)

// GateProfile is a measured gate: per-key field thresholds fitted by
// `reflect calibrate` to keep wrong-and-unflagged values under a budget.
// The pipeline reads only By, Thresholds and Default; the rest (the budget,
// what it was fitted on, the held-out estimate) travels with the file so a
// profile says what it promises and on what evidence.
type GateProfile struct {
	// ID is a hash of what decides (schema, by, budget, thresholds,
	// default): two files that gate alike share it, and a hand edit that
	// changes a threshold without a new id is refused on load.
	ID     string  `json:"id" yaml:"id"`
	Schema string  `json:"schema" yaml:"schema"`
	By     string  `json:"by" yaml:"by"`
	Budget float64 `json:"max_silent_wrong" yaml:"max_silent_wrong"`
	// Thresholds maps a key (a field name, a kind, or an evidence tier) to
	// the confidence below which its values are flagged.
	Thresholds map[string]float64 `json:"thresholds" yaml:"thresholds"`
	// Default applies to a key the calibration never saw (a new evidence
	// tier, a Generator that reports none): the single threshold fitted on
	// all values pooled.
	Default float64 `json:"default_threshold" yaml:"default_threshold"`
	// Fit describes the data and the held-out estimate; free-form for the
	// pipeline, written by golden.
	Fit map[string]any `json:"fit,omitempty" yaml:"fit,omitempty"`
}

// Threshold is the threshold for one field with the given kind and
// evidence tier (empty when the Generator gave none).
func (p *GateProfile) Threshold(f Field, tier string) float64 {
	var key string
	switch p.By {
	case ProfileByKind:
		key = string(f.Kind)
	case ProfileByEvidence:
		key = tier
	default:
		key = f.Name
	}
	if t, ok := p.Thresholds[key]; ok && key != "" {
		return t
	}
	return p.Default
}

// ComputeID is the profile's content id.
func (p *GateProfile) ComputeID() string {
	keys := make([]string, 0, len(p.Thresholds))
	for k := range p.Thresholds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	fmt.Fprintf(&b, "schema=%s\nby=%s\nbudget=%g\ndefault=%g\n", p.Schema, p.By, p.Budget, p.Default)
	for _, k := range keys {
		fmt.Fprintf(&b, "%q=%g\n", k, p.Thresholds[k])
	}
	sum := sha256.Sum256(b.Bytes())
	return "gp-" + hex.EncodeToString(sum[:6])
}

// Check refuses a profile the gate could not apply as written.
func (p *GateProfile) Check() error {
	switch p.By {
	case ProfileByField, ProfileByKind, ProfileByEvidence:
	default:
		return fmt.Errorf("%w: gate profile: by must be field, kind or evidence, got %q", ErrInput, p.By)
	}
	if err := CheckThreshold("default_threshold", p.Default); err != nil {
		return fmt.Errorf("gate profile: %w", err)
	}
	for k, t := range p.Thresholds {
		if err := CheckThreshold("threshold "+k, t); err != nil {
			return fmt.Errorf("gate profile: %w", err)
		}
	}
	if want := p.ComputeID(); p.ID != want {
		return fmt.Errorf("%w: gate profile id %q does not match its thresholds (want %q): edited by hand? re-run reflect calibrate", ErrInput, p.ID, want)
	}
	return nil
}

// LoadGateProfile reads a profile file (YAML or JSON) and checks it.
func LoadGateProfile(path string) (*GateProfile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: gate profile: %w", ErrInput, err)
	}
	var p GateProfile
	if err := yaml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%w: gate profile %s: %w", ErrInput, path, err)
	}
	if err := checkProfileKeys(b); err != nil {
		return nil, fmt.Errorf("%w: gate profile %s: %w", ErrInput, path, err)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &p, nil
}

// profileKeys are a profile's keys, as its JSON and YAML spell them.
var profileKeys = []string{"id", "schema", "by", "max_silent_wrong", "thresholds", "default_threshold", "fit"}

// checkProfileKeys refuses a key the profile does not have: read past, a
// misspelt max_silent_wrong would leave the budget at 0 and the file be
// refused as "edited by hand". fit is what calibrate measured, free-form.
func checkProfileKeys(b []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil // the struct decode above already said what is wrong, or there is nothing
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		known := false
		for _, name := range profileKeys {
			known = known || k.Value == name
		}
		if !known {
			return fmt.Errorf("line %d: unknown key %q (a gate profile has %s)", k.Line, k.Value, strings.Join(profileKeys, ", "))
		}
	}
	return nil
}

// Marshal writes the profile as YAML for a .yaml/.yml path, else JSON.
func (p *GateProfile) Marshal(path string) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(p); err != nil {
			return nil, fmt.Errorf("gate profile: %w", err)
		}
		return b.Bytes(), enc.Close()
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("gate profile: %w", err)
	}
	return append(b, '\n'), nil
}

// fieldThreshold is the gate's threshold for one field: the profile's when
// one is loaded, else the flat FieldThreshold.
func (g GateConfig) fieldThreshold(f Field, tier string) float64 {
	if g.Profile == nil {
		return g.FieldThreshold
	}
	return g.Profile.Threshold(f, tier)
}

// profileNote is the sentence every result gated under a profile carries,
// so a decision can be traced to the thresholds that made it.
func (g GateConfig) profileNote(notes []string) []string {
	if g.Profile == nil {
		return notes
	}
	return append(notes, fmt.Sprintf("Gate profile %s (by %s: %s; silent-wrong budget %s).", g.Profile.ID, g.Profile.By,
		g.Profile.thresholdsText(), strconv.FormatFloat(100*g.Profile.Budget, 'f', -1, 64)+"%"))
}

// thresholdsText names the profile's thresholds, "total 62%, otherwise
// 80%", so a reader of one result sees which bar its fields were held to
// without the profile file.
func (p *GateProfile) thresholdsText() string {
	keys := make([]string, 0, len(p.Thresholds))
	for k := range p.Thresholds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pct := func(t float64) string { return strconv.FormatFloat(math.Round(1000*t)/10, 'f', -1, 64) + "%" }
	parts := make([]string, 0, len(keys)+1)
	for _, k := range keys {
		parts = append(parts, k+" "+pct(p.Thresholds[k]))
	}
	return strings.Join(append(parts, "otherwise "+pct(p.Default)), ", ")
}

// VersionSuffix folds the profile id into a pipeline version, so results
// stored under different profiles stay apart.
func (g GateConfig) VersionSuffix() string {
	if g.Profile == nil {
		return ""
	}
	return "+gate:" + g.Profile.ID
}
