package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestGateContract(t *testing.T) {
	s := Invoice()
	rec := Record{"vendor_name": "Acme", "total": 10.0, "tax": nil}
	h := HeuristicReport{"vendor_name": {Factor: 1, Grounded: true}, "total": {Factor: 1, Grounded: true}}
	cfg := DefaultGate()

	// Duplicate verdicts take the minimum; a tie goes to grounded:false.
	crit := &Critique{OverallConfidence: 0.9, FieldVerdicts: []FieldVerdict{
		{Field: "vendor_name", Confidence: 0.9, Grounded: true},
		{Field: "vendor_name", Confidence: 0.6, Grounded: true},
		{Field: "total", Confidence: 0.9, Grounded: true},
		{Field: "total", Confidence: 0.9, Grounded: false},
	}}
	res := Gate(s, rec, crit, h, nil, cfg)
	if got := res.FieldConfidence["vendor_name"]; got != 0.6 {
		t.Errorf("duplicate verdicts: confidence %v, want the minimum 0.6", got)
	}
	if got := res.FieldConfidence["total"]; got != 0.5 {
		t.Errorf("tie: grounded:false should win and cap at 0.5, got %v", got)
	}
	// Order does not matter.
	crit.FieldVerdicts[2], crit.FieldVerdicts[3] = crit.FieldVerdicts[3], crit.FieldVerdicts[2]
	if got := Gate(s, rec, crit, h, nil, cfg).FieldConfidence["total"]; got != 0.5 {
		t.Errorf("verdict order changed the result: %v", got)
	}

	// No verdict for a committed field: capped at 0.5 and flagged.
	crit = &Critique{OverallConfidence: 0.95, FieldVerdicts: []FieldVerdict{{Field: "vendor_name", Confidence: 0.95, Grounded: true}}}
	res = Gate(s, rec, crit, h, nil, cfg)
	if !res.Flagged("total") || res.FieldConfidence["total"] != 0.5 {
		t.Errorf("missing verdict should cap at 0.5 and flag: %+v", res.FlaggedFields)
	}
	// Null fields are never flagged, even with a damning verdict.
	crit.FieldVerdicts = append(crit.FieldVerdicts, FieldVerdict{Field: "tax", Confidence: 0, Grounded: false}, FieldVerdict{Field: "total", Confidence: 0.95, Grounded: true})
	res = Gate(s, rec, crit, h, nil, cfg)
	if res.Flagged("tax") {
		t.Error("a null field was flagged")
	}
	if res.Status != StatusOK {
		t.Errorf("want ok, got %s %+v", res.Status, res.FlaggedFields)
	}

	// Multiplicative: a heuristic factor lowers a confident critic.
	h["total"] = FieldCheck{Factor: 0.3, Grounded: false, Reasons: []string{"amount 10.00 not found in source text"}}
	res = Gate(s, rec, crit, h, nil, cfg)
	if got := res.FieldConfidence["total"]; got != 0.285 {
		t.Errorf("combined = 0.95 x 0.3 = 0.285, got %v", got)
	}
	if !res.Flagged("total") || res.FlaggedFields[0].Reason != "amount 10.00 not found in source text" {
		t.Errorf("flag reason should carry the heuristic's: %+v", res.FlaggedFields)
	}

	// Overall below its threshold escalates even with no field flagged.
	h["total"] = FieldCheck{Factor: 1, Grounded: true}
	crit.OverallConfidence = 0.5
	res = Gate(s, rec, crit, h, nil, cfg)
	if res.Status != StatusNeedsReview || len(res.FlaggedFields) != 0 {
		t.Errorf("low overall should give needs_review with no flags: %s %+v", res.Status, res.FlaggedFields)
	}
}

func TestGateHeuristicsOnlyUsesEvidence(t *testing.T) {
	s := Invoice()
	rec := Record{"vendor_name": "Acme", "total": 10.0}
	h := HeuristicReport{"vendor_name": {Factor: 1, Grounded: true}, "total": {Factor: 1, Grounded: true}}
	ev := map[string]Evidence{"vendor_name": {Confidence: 0.6, Method: "first line of the document"}}
	res := Gate(s, rec, nil, h, ev, DefaultGate())
	if !res.Flagged("vendor_name") || res.Flagged("total") {
		t.Fatalf("a weakly found vendor should be flagged, the labelled total not: %+v", res.FlaggedFields)
	}
	if res.FieldConfidence["total"] != 0.95 {
		t.Fatalf("heuristics-only base is 0.95, got %v", res.FieldConfidence["total"])
	}
	// Not found in the source: capped like a critic's grounded:false.
	h["total"] = FieldCheck{Factor: 1, Grounded: false}
	if got := Gate(s, rec, nil, h, nil, DefaultGate()).FieldConfidence["total"]; got != 0.5 {
		t.Fatalf("ungrounded heuristics-only field should cap at 0.5, got %v", got)
	}
	// Nothing extracted at all is not silently ok.
	if res := Gate(s, Record{}, nil, HeuristicReport{}, nil, DefaultGate()); res.Status != StatusNeedsReview {
		t.Fatal("an empty record should need review")
	}
}

func TestGateFlagsMissingRequiredField(t *testing.T) {
	s := Invoice()
	rec := Record{"vendor_name": "Acme", "total": nil, "tax": nil}
	h := HeuristicReport{"vendor_name": {Factor: 1, Grounded: true}}
	res := Gate(s, rec, nil, h, nil, DefaultGate())
	if !res.Flagged("total") || res.Flagged("tax") || res.Status != StatusNeedsReview {
		t.Fatalf("a missing required total is flagged, an optional null tax is not: %+v", res.FlaggedFields)
	}
	if res.FieldConfidence["total"] != 0 || len(res.FieldProvenance["total"]) != 0 {
		t.Fatalf("missing field: confidence %v spans %v", res.FieldConfidence["total"], res.FieldProvenance["total"])
	}
}

// A reason on a field that passes (an ambiguous day/month order) is reported
// in notes, not lost and not flagged.
func TestGateReportsReasonsOfPassingFields(t *testing.T) {
	s := Invoice()
	rec := Record{"invoice_date": "2026-03-04", "total": 5.0}
	h := HeuristicReport{
		"invoice_date": {Factor: 0.85, Grounded: true, Reasons: []string{`ambiguous day/month order in "03/04/2026"`}},
		"total":        {Factor: 1, Grounded: true},
	}
	res := Gate(s, rec, nil, h, nil, DefaultGate())
	if res.Flagged("invoice_date") || !strings.Contains(res.Notes, `invoice_date: ambiguous day/month order in "03/04/2026"`) {
		t.Fatalf("notes %q, flags %+v", res.Notes, res.FlaggedFields)
	}
}

// A flag's reason joins, in order, the Critic's reason, the grounded:false
// note and every heuristic's reason; the confidence is the capped Critic
// confidence times the heuristic factor.
func TestGateFlagReasonJoinsCriticAndHeuristics(t *testing.T) {
	s := Invoice()
	rec := Record{"total": 683.2}
	h := HeuristicReport{"total": {Factor: 0.3 * 0.3, Reasons: []string{"amount 683.2 not found in source text", "subtotal(540.0) + tax(43.2) != total(683.2)"}}}
	crit := &Critique{OverallConfidence: 0.7, Summary: "Total appears hallucinated; escalate.", FieldVerdicts: []FieldVerdict{
		{Field: "total", Confidence: 0.9, Grounded: false, Reason: "683.20 is not in the source"},
	}}
	res := Gate(s, rec, crit, h, nil, DefaultGate())
	if len(res.FlaggedFields) != 1 {
		t.Fatalf("flags %+v", res.FlaggedFields)
	}
	f := res.FlaggedFields[0]
	want := "683.20 is not in the source; critic marked the value not grounded in the source; " +
		"amount 683.2 not found in source text; subtotal(540.0) + tax(43.2) != total(683.2)"
	if f.Reason != want || f.Confidence != 0.045 || f.Value != 683.2 {
		t.Fatalf("flag %+v\nwant reason %q, confidence 0.5 x 0.09 = 0.045", f, want)
	}
	if res.CriticSummary != crit.Summary || res.OverallConfidence != 0.045 {
		t.Fatalf("summary %q overall %v", res.CriticSummary, res.OverallConfidence)
	}
}

// The gate's notes name the threshold as a whole percent: all fields
// passed, or how many fell below it.
func TestGateNotesNameTheThreshold(t *testing.T) {
	s := Invoice()
	rec := Record{"vendor_name": "Acme", "total": 10.0, "tax": 1.0}
	for _, th := range []float64{0.7, 0.755, 0.8, 1, 0, 0.005, 0.333} {
		cfg := GateConfig{FieldThreshold: th, OverallThreshold: 0}
		pass := HeuristicReport{"vendor_name": {Factor: 1, Grounded: true}, "total": {Factor: 1, Grounded: true}, "tax": {Factor: 1, Grounded: true}}
		res := Gate(s, rec, nil, pass, nil, cfg)
		if want := fmt.Sprintf("All fields passed the %.0f%% confidence threshold.", th*100); res.Status == StatusOK && res.Notes != want {
			t.Errorf("threshold %v: notes %q, want %q", th, res.Notes, want)
		}
		low := HeuristicReport{"vendor_name": {Factor: 0.1, Grounded: true}, "total": {Factor: 0.1, Grounded: true}, "tax": {Factor: 1, Grounded: true}}
		res = Gate(s, rec, nil, low, nil, cfg)
		if k := len(res.FlaggedFields); k > 0 {
			want := fmt.Sprintf("%d field(s) below the %.0f%% confidence threshold require human review before use.", k, th*100)
			if !strings.HasPrefix(res.Notes, want) {
				t.Errorf("threshold %v: notes %q, want them to open with %q", th, res.Notes, want)
			}
		}
	}
}

// Validate's result keeps its own copy of the data as its Data: the
// caller's map, changed afterwards, changes nothing in it, and a second
// result does not share the first's.
func TestValidateResultDataIsItsOwn(t *testing.T) {
	p, err := New(Config{Gate: DefaultGate()})
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"total": 10.60, "invoice_number": "1234"}
	text := "ACME\nINVOICE NO: 1234\nTOTAL 10.60\n"
	first, err := p.Validate(context.Background(), Document{Text: text}, data)
	if err != nil {
		t.Fatal(err)
	}
	data["total"] = 99.0
	second, err := p.Validate(context.Background(), Document{Text: text}, data)
	if err != nil {
		t.Fatal(err)
	}
	if first.Data["total"] != 10.60 || second.Data["total"] != 99.0 {
		t.Fatalf("totals %v and %v, want 10.6 and 99", first.Data["total"], second.Data["total"])
	}
	for _, f := range Invoice().Fields {
		if _, ok := first.Data[f.Name]; !ok {
			t.Errorf("Data has no %s: every field is listed, null or not", f.Name)
		}
	}
	if len(first.Data) != len(Invoice().Fields) || !slices.Equal(first.FieldOrder, Invoice().FieldNames()) {
		t.Errorf("Data %v, FieldOrder %v", first.Data, first.FieldOrder)
	}
}
