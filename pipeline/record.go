package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Record is one extracted (or supplied) record: field name to value. Values are
// string for text, identifier, date and currency fields, float64 for money, and
// nil for a field the source does not state.
type Record map[string]any

// Clone returns a shallow copy (values are immutable scalars).
func (r Record) Clone() Record {
	out := make(Record, len(r))
	for k, v := range r {
		out[k] = v
	}
	return out
}

// NormalizeMode says how strictly NormalizeRecord treats keys the schema lacks.
type NormalizeMode int

const (
	// Lenient drops unknown keys: model output may carry extras.
	Lenient NormalizeMode = iota
	// Strict rejects unknown keys: user-supplied data with a typo must not
	// silently lose a field.
	Strict
)

// NormalizeRecord turns decoded JSON into a Record of this schema: every schema
// field present (nil when absent), money as float64, text trimmed. It returns
// an error naming the field when a value has the wrong type.
func (s *Schema) NormalizeRecord(raw map[string]any, mode NormalizeMode) (Record, error) {
	rec := make(Record, len(s.Fields))
	for k := range raw {
		if _, ok := s.Field(k); !ok && mode == Strict {
			return nil, fmt.Errorf("field %q is not in schema %q (fields: %s)", k, s.Name, strings.Join(s.FieldNames(), ", "))
		}
	}
	for _, f := range s.Fields {
		v, err := normalizeValue(f, raw[f.Name])
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		rec[f.Name] = v
	}
	return rec, nil
}

func normalizeValue(f Field, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch f.Kind {
	case KindMoney:
		switch x := v.(type) {
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("amount must be finite")
			}
			return x, nil
		case json.Number:
			n, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("amount %q: %w", x, err)
			}
			return n, nil
		case int:
			return float64(x), nil
		case string:
			if strings.TrimSpace(x) == "" {
				return nil, nil
			}
			n, ok := ParseAmount(x)
			if !ok {
				return nil, fmt.Errorf("%q is not an amount", x)
			}
			return n, nil
		default:
			return nil, fmt.Errorf("want a number, got %T", v)
		}
	default:
		switch x := v.(type) {
		case string:
			x = strings.TrimSpace(x)
			if x == "" {
				return nil, nil
			}
			if f.Kind == KindCurrency {
				x = strings.ToUpper(x)
			}
			return x, nil
		case float64:
			// Identifiers such as invoice numbers are often emitted as bare numbers.
			if f.Kind == KindIdentifier || f.Kind == KindText {
				return formatNumber(x), nil
			}
			return nil, fmt.Errorf("want a string, got a number")
		default:
			return nil, fmt.Errorf("want a string, got %T", v)
		}
	}
}

func formatNumber(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%g", x)
}

// FormatValue renders a field value the way reasons and the UI show it.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return fmt.Sprintf("%.2f", x)
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}

// Span is a provenance span: Unicode code-point offsets into the source text
// exactly as received, end exclusive.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Status is the gate's decision.
type Status string

const (
	StatusOK          Status = "ok"
	StatusNeedsReview Status = "needs_review"
	StatusError       Status = "error"
)

// FlaggedField names a field a human must confirm and why.
type FlaggedField struct {
	Field      string  `json:"field"`
	Value      any     `json:"value"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
}

// Usage is what the model calls behind one result cost.
type Usage struct {
	Calls        int     `json:"calls"`
	CachedCalls  int     `json:"cached_calls,omitempty"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    int64   `json:"latency_ms"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
}

// Add accumulates another usage into u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.CachedCalls += o.CachedCalls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.LatencyMS += o.LatencyMS
	u.CostUSD += o.CostUSD
}

// Result is what verify returns for one document. Its JSON form is the seed's
// result envelope plus schema, prompt_versions and usage; an error result is
// {"status":"error","error_message":...}.
type Result struct {
	ID                string             `json:"id,omitempty"`
	Status            Status             `json:"status"`
	Data              Record             `json:"data"`
	FieldConfidence   map[string]float64 `json:"field_confidence"`
	OverallConfidence float64            `json:"overall_confidence"`
	FlaggedFields     []FlaggedField     `json:"flagged_fields"`
	FieldProvenance   map[string][]Span  `json:"field_provenance"`
	TraceID           string             `json:"trace_id"`
	CriticSummary     string             `json:"critic_summary"`
	Notes             string             `json:"notes"`
	Schema            string             `json:"schema"`
	PromptVersions    map[string]string  `json:"prompt_versions"`
	Usage             *Usage             `json:"usage,omitempty"`
	ErrorMessage      string             `json:"error_message,omitempty"`
	// FieldOrder is the schema's field order, used to print maps in that order.
	FieldOrder []string `json:"-"`
}

// Flagged reports whether the named field was flagged.
func (r *Result) Flagged(field string) bool {
	for _, f := range r.FlaggedFields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// ErrorResult is the error envelope for one document.
func ErrorResult(id, traceID string, err error) Result {
	return Result{ID: id, Status: StatusError, TraceID: traceID, ErrorMessage: err.Error()}
}

// MarshalJSON writes the result with map keys in schema order, so the output
// reads like the record it describes.
func (r Result) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	put := func(key string, v any) error {
		raw, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("result %s: %w", key, err)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	if r.ID != "" {
		if err := put("id", r.ID); err != nil {
			return nil, err
		}
	}
	if err := put("status", r.Status); err != nil {
		return nil, err
	}
	if r.Status == StatusError {
		if err := put("error_message", r.ErrorMessage); err != nil {
			return nil, err
		}
		if r.TraceID != "" {
			if err := put("trace_id", r.TraceID); err != nil {
				return nil, err
			}
		}
		if r.Usage != nil {
			if err := put("usage", r.Usage); err != nil {
				return nil, err
			}
		}
		b.WriteByte('}')
		return []byte(b.String()), nil
	}
	flags := r.FlaggedFields
	if flags == nil {
		flags = []FlaggedField{}
	}
	parts := []struct {
		k string
		v any
	}{
		{"data", orderedMap(r.Data, r.FieldOrder)},
		{"field_confidence", orderedMap(r.FieldConfidence, r.FieldOrder)},
		{"overall_confidence", r.OverallConfidence},
		{"flagged_fields", flags},
		{"field_provenance", orderedMap(r.FieldProvenance, r.FieldOrder)},
		{"trace_id", r.TraceID},
		{"critic_summary", r.CriticSummary},
		{"notes", r.Notes},
		{"schema", r.Schema},
		{"prompt_versions", r.PromptVersions},
	}
	for _, p := range parts {
		if err := put(p.k, p.v); err != nil {
			return nil, err
		}
	}
	if r.Usage != nil {
		if err := put("usage", r.Usage); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// marshalNoEscape is json.Marshal without HTML escaping: results are read by
// people and programs, not embedded in HTML, and "Müller & Söhne" should stay so.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// ordered is a JSON object whose keys keep a chosen order.
type ordered struct {
	keys []string
	vals []any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalNoEscape(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// orderedMap lists m's keys in order first, then any others sorted.
func orderedMap[V any](m map[string]V, order []string) any {
	if m == nil {
		return map[string]V{}
	}
	o := ordered{}
	seen := make(map[string]bool, len(m))
	for _, k := range order {
		if v, ok := m[k]; ok {
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, v)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		o.keys = append(o.keys, k)
		o.vals = append(o.vals, m[k])
	}
	return o
}
