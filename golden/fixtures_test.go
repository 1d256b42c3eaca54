package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

// The replay fixtures are generated from the datasets so their SHA-256 keys
// can never drift from the texts. Regenerate after editing a dataset with
//
//	REFLECT_WRITE_FIXTURES=1 go test ./golden -run TestWriteFixtures
//
// The recorded Generator returns each row's labels except where a spec below
// injects a failure; those failures live only here, never in the labels.

// fixtureSpec describes the recorded model outputs for one row.
type fixtureSpec struct {
	// generator overrides the labelled values in the Generator's record.
	generator map[string]any
	// style wraps the Generator's JSON as models do: "fenced" (```json),
	// "fenced-bare" (```), "preamble" (a sentence before it) or "" (bare).
	style string
	// base is the Critic's confidence for fields it has no opinion on.
	base float64
	// verdicts overrides the Critic's verdict for named fields.
	verdicts map[string]pipeline.FieldVerdict
	overall  float64
	summary  string
}

type fixtureSet struct {
	dataset, schema, out string
	specs                map[string]fixtureSpec
}

func fixtureSets() []fixtureSet {
	return []fixtureSet{
		{
			dataset: "dataset.jsonl", schema: "invoice", out: filepath.Join("fixtures", "replay.json"),
			specs: map[string]fixtureSpec{
				"inv-002": {style: "fenced"},
				"inv-004": {
					generator: map[string]any{"total": 683.2},
					verdicts: map[string]pipeline.FieldVerdict{"total": {Confidence: 0.12, Grounded: false,
						Reason: "683.20 does not reconcile with 540.00 + 43.20 and is not in the source"}},
					overall: 0.7, summary: "Total appears hallucinated; escalate.",
				},
				"inv-005": {style: "preamble", base: 0.92},
				// The Critic is fooled here on purpose: only date grounding
				// notices that 2026-04-14 appears nowhere in the source.
				"inv-006": {
					generator: map[string]any{"invoice_date": "2026-04-14"},
					verdicts: map[string]pipeline.FieldVerdict{"invoice_date": {Confidence: 0.9, Grounded: true,
						Reason: "issue date is stated in the invoice header"}},
				},
				// The name is in the source, so grounding passes; only the
				// Critic knows a bill-to customer is not the vendor.
				"inv-007": {
					generator: map[string]any{"vendor_name": "Contoso Ltd"},
					verdicts: map[string]pipeline.FieldVerdict{"vendor_name": {Confidence: 0.2, Grounded: false,
						Reason: "Contoso Ltd is the bill-to customer; the invoice is issued by NORTHWIND TRADERS"}},
					overall: 0.6, summary: "Vendor looks like the bill-to customer, not the issuer; escalate.",
				},
				// The Critic is fooled: 45.00 is in the source. Only amount-role
				// grounding sees that the source labels 75.00 as the total.
				"inv-008": {
					generator: map[string]any{"total": 45.0},
					verdicts: map[string]pipeline.FieldVerdict{"total": {Confidence: 0.93, Grounded: true,
						Reason: "45.00 appears in the source"}},
				},
				"inv-009": {style: "fenced-bare", base: 0.93},
				"inv-010": {style: "preamble", base: 0.91},
				"inv-012": {base: 0.92},
				"inv-016": {base: 0.9},
			},
		},
		{
			dataset: filepath.Join("testdata", "purchase_orders.jsonl"), schema: filepath.Join("testdata", "purchase_order.yaml"),
			out: filepath.Join("testdata", "purchase_orders.replay.json"),
			specs: map[string]fixtureSpec{
				"po-002": {style: "fenced"},
				"po-003": {style: "preamble", base: 0.92},
				// The Generator copied the net into gross and the Critic missed
				// it; reconciliation and amount-role grounding catch it.
				"po-004": {
					generator: map[string]any{"gross": 1000.0},
					verdicts: map[string]pipeline.FieldVerdict{"gross": {Confidence: 0.92, Grounded: true,
						Reason: "1,000.00 appears in the source"}},
				},
			},
		},
	}
}

// injectedFailures is every field where a recorded Generator deliberately
// disagrees with the labels: eval must flag exactly these.
func injectedFailures() map[string]string {
	return map[string]string{
		"inv-004": "total", "inv-006": "invoice_date", "inv-007": "vendor_name", "inv-008": "total", "po-004": "gross",
	}
}

func buildFixture(set fixtureSet) (*providers.Fixture, error) {
	s, err := pipeline.LoadSchema(set.schema)
	if err != nil {
		return nil, err
	}
	rows, lineErrs, err := LoadDataset(set.dataset)
	if err != nil {
		return nil, err
	}
	if len(lineErrs) > 0 {
		return nil, fmt.Errorf("%s: %v", set.dataset, lineErrs)
	}
	fix := &providers.Fixture{Version: 1}
	for _, row := range rows {
		spec := set.specs[row.ID]
		key := providers.SourceKey(row.Text)
		gen, err := generatorOutput(s, row, spec)
		if err != nil {
			return nil, err
		}
		crit, err := criticOutput(s, row, spec)
		if err != nil {
			return nil, err
		}
		fix.Entries = append(fix.Entries,
			providers.FixtureEntry{ID: row.ID, Purpose: "generator", SourceSHA256: key, Output: gen},
			providers.FixtureEntry{ID: row.ID, Purpose: "critic", SourceSHA256: key, Output: crit})
	}
	return fix, nil
}

// orderedJSON writes an object with keys in the schema's order, as a model
// following the schema would.
func orderedJSON(keys []string, m map[string]any, indent bool) (string, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if indent {
			b.WriteString("\n  ")
		}
		kb, err := marshalPlain(k)
		if err != nil {
			return "", err
		}
		vb, err := marshalPlain(m[k])
		if err != nil {
			return "", err
		}
		b.Write(kb)
		b.WriteByte(':')
		if indent {
			b.WriteByte(' ')
		}
		b.Write(vb)
	}
	if indent {
		b.WriteByte('\n')
	}
	b.WriteByte('}')
	return b.String(), nil
}

func generatorOutput(s *pipeline.Schema, row Row, spec fixtureSpec) (string, error) {
	rec := map[string]any{}
	for _, name := range s.FieldNames() {
		rec[name] = row.Expected[name]
		if v, ok := spec.generator[name]; ok {
			rec[name] = v
		}
	}
	obj, err := orderedJSON(s.FieldNames(), rec, spec.style != "")
	if err != nil {
		return "", err
	}
	switch spec.style {
	case "fenced":
		return "```json\n" + obj + "\n```", nil
	case "fenced-bare":
		return "```\n" + obj + "\n```", nil
	case "preamble":
		return "Here is the extracted record as JSON:\n\n" + obj, nil
	default:
		return obj, nil
	}
}

func criticOutput(s *pipeline.Schema, row Row, spec fixtureSpec) (string, error) {
	base := spec.base
	if base == 0 {
		base = 0.95
	}
	c := pipeline.Critique{OverallConfidence: spec.overall, Summary: spec.summary}
	if c.OverallConfidence == 0 {
		c.OverallConfidence = math.Round((base-0.02)*100) / 100
	}
	if c.Summary == "" {
		c.Summary = "All fields are grounded in the source."
	}
	for _, f := range s.Fields {
		v, ok := spec.verdicts[f.Name]
		if !ok {
			v = pipeline.FieldVerdict{Confidence: base, Grounded: true, Reason: "value is stated in the source"}
			if row.Expected[f.Name] == nil {
				v.Reason = "not stated in the source; null is correct"
			}
		}
		v.Field = f.Name
		c.FieldVerdicts = append(c.FieldVerdicts, v)
	}
	b, err := marshalPlain(c)
	return string(b), err
}

// marshalPlain is json.Marshal without HTML escaping: a model writes "&", not
// "\u0026".
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func TestWriteFixtures(t *testing.T) {
	if os.Getenv("REFLECT_WRITE_FIXTURES") != "1" {
		t.Skip("set REFLECT_WRITE_FIXTURES=1 to regenerate the replay fixtures")
	}
	for _, set := range fixtureSets() {
		fix, err := buildFixture(set)
		if err != nil {
			t.Fatal(err)
		}
		if err := fix.Save(set.out); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d entries)", set.out, len(fix.Entries))
	}
}

// TestFixturesUpToDate fails when a dataset was edited without regenerating
// its fixture, which would otherwise surface as a confusing replay miss.
func TestFixturesUpToDate(t *testing.T) {
	for _, set := range fixtureSets() {
		fix, err := buildFixture(set)
		if err != nil {
			t.Fatal(err)
		}
		tmp := filepath.Join(t.TempDir(), "replay.json")
		if err := fix.Save(tmp); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(tmp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(set.out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run REFLECT_WRITE_FIXTURES=1 go test ./golden -run TestWriteFixtures", set.out)
		}
	}
}

// TestFixturesCoverDataset reads the committed fixture files the way replay
// does and checks each row has usable Generator and Critic outputs, and that
// the Generator departs from the labels exactly where a failure was injected.
func TestFixturesCoverDataset(t *testing.T) {
	for _, set := range fixtureSets() {
		s, err := pipeline.LoadSchema(set.schema)
		if err != nil {
			t.Fatal(err)
		}
		rows, lineErrs, err := LoadDataset(set.dataset)
		if err != nil || len(lineErrs) > 0 {
			t.Fatalf("%s: %v %v", set.dataset, err, lineErrs)
		}
		if errs := CheckRows(s, rows); len(errs) > 0 {
			t.Fatalf("%s: labels do not fit schema: %v", set.dataset, errs)
		}
		fix, err := providers.LoadFixture(set.out)
		if err != nil {
			t.Fatal(err)
		}
		if len(fix.Entries) != 2*len(rows) {
			t.Errorf("%s: %d entries for %d rows, want 2 per row", set.out, len(fix.Entries), len(rows))
		}
		byKey := map[string]string{}
		for _, e := range fix.Entries {
			byKey[e.Purpose+"/"+e.SourceSHA256] = e.Output
		}
		for _, row := range rows {
			key := providers.SourceKey(row.Text)
			gen, ok := byKey["generator/"+key]
			if !ok {
				t.Errorf("%s: no generator entry", row.ID)
				continue
			}
			crit, ok := byKey["critic/"+key]
			if !ok {
				t.Errorf("%s: no critic entry", row.ID)
				continue
			}
			raw, err := pipeline.ExtractJSON(gen)
			if err != nil {
				t.Errorf("%s: generator output: %v", row.ID, err)
				continue
			}
			rec, err := s.NormalizeRecord(raw, pipeline.Strict)
			if err != nil {
				t.Errorf("%s: generator output does not fit the schema: %v", row.ID, err)
				continue
			}
			var wrong []string
			for _, f := range s.Fields {
				if !FieldCorrect(f, row.Expected[f.Name], rec[f.Name]) {
					wrong = append(wrong, f.Name)
				}
			}
			var want []string
			if f, ok := injectedFailures()[row.ID]; ok {
				want = []string{f}
			}
			if !slices.Equal(wrong, want) {
				t.Errorf("%s: generator departs from labels on %v, want %v", row.ID, wrong, want)
			}
			var c pipeline.Critique
			if err := json.Unmarshal([]byte(crit), &c); err != nil {
				t.Errorf("%s: critic output: %v", row.ID, err)
				continue
			}
			var fields []string
			for _, v := range c.FieldVerdicts {
				fields = append(fields, v.Field)
				if v.Confidence < 0 || v.Confidence > 1 {
					t.Errorf("%s: %s confidence %v out of [0,1]", row.ID, v.Field, v.Confidence)
				}
			}
			sort.Strings(fields)
			names := s.FieldNames()
			sort.Strings(names)
			if !slices.Equal(fields, names) {
				t.Errorf("%s: critic verdicts for %v, want one per field %v", row.ID, fields, names)
			}
		}
	}
}

// TestDemoRow pins inv-004 to the README's demo, byte for byte.
func TestDemoRow(t *testing.T) {
	rows, _, err := LoadDataset("dataset.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 14 {
		t.Errorf("dataset has %d rows, want at least 14", len(rows))
	}
	const demo = "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\nItems came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"
	for _, r := range rows {
		if r.ID == "inv-004" {
			if r.Text != demo {
				t.Fatalf("inv-004 text differs from the README demo:\n%q", r.Text)
			}
			if r.Expected["total"] != 583.2 || r.Expected["vendor_name"] != "Globex Ltd" {
				t.Fatalf("inv-004 labels: %v", r.Expected)
			}
			return
		}
	}
	t.Fatal("inv-004 missing")
}
