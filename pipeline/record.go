package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
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
// field present (nil when absent), money as a finite float64, text trimmed. It
// returns an error naming the field when a value has the wrong type.
func (s *Schema) NormalizeRecord(raw map[string]any, mode NormalizeMode) (Record, error) {
	if mode == Strict {
		var unknown []string
		for k := range raw {
			if _, ok := s.Field(k); !ok {
				unknown = append(unknown, strconv.Quote(k))
			}
		}
		if len(unknown) > 0 {
			// Sorted, so the same bad input always gets the same message.
			sort.Strings(unknown)
			what := "field " + unknown[0] + " is"
			if len(unknown) > 1 {
				what = "fields " + strings.Join(unknown, ", ") + " are"
			}
			return nil, fmt.Errorf("%s not in schema %q (fields: %s)", what, s.Name, strings.Join(s.FieldNames(), ", "))
		}
	}
	rec := make(Record, len(s.Fields))
	for _, f := range s.Fields {
		v, err := checkedValue(f, raw[f.Name])
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
	x, isNum, err := number(v)
	if err != nil {
		return nil, err
	}
	if f.Kind == KindMoney {
		switch {
		case isNum:
			return sameOr(v, x), nil
		case isString(v):
			str := strings.TrimSpace(v.(string))
			if str == "" {
				return nil, nil
			}
			n, ok := ParseAmount(str)
			if !ok {
				return nil, fmt.Errorf("%q is not an amount", str)
			}
			return n + 0, nil
		}
		return nil, fmt.Errorf("want a number, got %s", jsonType(v))
	}
	switch {
	case isString(v):
		str := strings.TrimSpace(v.(string))
		if str == "" {
			return nil, nil
		}
		if f.Kind == KindCurrency {
			str = strings.ToUpper(str)
		}
		if str == v.(string) {
			return v, nil // unchanged: the value as given, not a new copy of it
		}
		return str, nil
	case isNum && (f.Kind == KindIdentifier || f.Kind == KindText):
		// Identifiers such as invoice numbers are often emitted as bare numbers.
		return formatNumber(x), nil
	}
	return nil, fmt.Errorf("want a string, got %s", jsonType(v))
}

// sameOr is v when it is the float64 x already, else x: a number that
// needs no normalizing keeps the value it was given in.
func sameOr(v any, x float64) any {
	if f, ok := v.(float64); ok && math.Float64bits(f) == math.Float64bits(x) {
		return v
	}
	return x
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// number reads the numeric types JSON decoding and Go callers produce. A
// number that is not finite is an error, and -0 becomes 0 so that no
// "-0.00" reaches a reason or a printed record.
func number(v any) (x float64, ok bool, err error) {
	switch n := v.(type) {
	case float64:
		x = n
	case float32:
		x = float64(n)
	case int:
		x = float64(n)
	case int32:
		x = float64(n)
	case int64:
		x = float64(n)
	case json.Number:
		f, perr := strconv.ParseFloat(string(n), 64)
		if perr != nil && !errors.Is(perr, strconv.ErrRange) {
			return 0, false, fmt.Errorf("number %q: %w", string(n), perr)
		}
		x = f
	default:
		return 0, false, nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, fmt.Errorf("number %v is not finite", v)
	}
	return x + 0, true, nil
}

// jsonType names v's JSON type for error messages: callers wrote JSON, not Go.
func jsonType(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	}
	if _, ok, _ := number(v); ok {
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

// formatNumber writes a number as an identifier would be printed: all its
// digits, never an exponent ("1e+20" is no invoice number).
func formatNumber(x float64) string {
	return strconv.FormatFloat(x+0, 'f', -1, 64)
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
	// Primary marks the occurrence the checks accepted (the labelled one),
	// listed first, when a value occurs more than once; the others are
	// secondary. A lone span is the value's only occurrence and carries no
	// mark, so single-span output is unchanged.
	Primary bool `json:"primary,omitempty"`
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

// Result is what verify returns for one document. Its JSON form is the documented
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
	// NotGiven names the fields a validate call's data left out: their null
	// in Data is no claim (only an explicit null is), so a reviewer's accept
	// must not settle them as null (new-user report #5).
	NotGiven []string `json:"not_given,omitempty"`
	// FieldOrder is the schema's field order, used to print maps in that order.
	FieldOrder []string `json:"-"`
}

// Given reports whether the named field was stated (see NotGiven).
func (r *Result) Given(field string) bool {
	return !slices.Contains(r.NotGiven, field)
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
// reads like the record it describes. An error result is only the envelope:
// id, status, error_message, and trace_id and usage when known.
func (r Result) MarshalJSON() ([]byte, error) {
	if b, ok := appendResult(make([]byte, 0, 2048), &r); ok {
		return b, nil
	}
	return r.marshalReflective()
}

// marshalReflective is MarshalJSON by encoding/json: appendResult's
// reference, and its fallback for what it does not write itself.
func (r Result) marshalReflective() ([]byte, error) {
	var o ordered
	if r.ID != "" {
		o.add("id", r.ID)
	}
	o.add("status", r.Status)
	if r.Status == StatusError {
		o.add("error_message", r.ErrorMessage)
		if r.TraceID != "" {
			o.add("trace_id", r.TraceID)
		}
	} else {
		flags := r.FlaggedFields
		if flags == nil {
			flags = []FlaggedField{}
		}
		pv := r.PromptVersions
		if pv == nil {
			pv = map[string]string{}
		}
		o.add("data", orderedMap(r.Data, r.FieldOrder))
		o.add("field_confidence", orderedMap(r.FieldConfidence, r.FieldOrder))
		o.add("overall_confidence", r.OverallConfidence)
		o.add("flagged_fields", flags)
		o.add("field_provenance", orderedMap(r.FieldProvenance, r.FieldOrder))
		o.add("trace_id", r.TraceID)
		o.add("critic_summary", r.CriticSummary)
		o.add("notes", r.Notes)
		o.add("schema", r.Schema)
		o.add("prompt_versions", pv)
		if len(r.NotGiven) > 0 {
			o.add("not_given", r.NotGiven)
		}
	}
	if r.Usage != nil {
		o.add("usage", r.Usage)
	}
	b, err := o.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	return b, nil
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

func (o *ordered) add(k string, v any) {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := o.appendTo(&b, enc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendTo writes o to b with one encoder for every key and value, and
// nested objects written in place: marshalling each value on its own (and
// encoding/json compacting a nested object's bytes again at every level)
// was a fifth of a cached pipeline run. The bytes are the same.
func (o ordered) appendTo(b *bytes.Buffer, enc *json.Encoder) error {
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeTrimmed(b, enc, k); err != nil {
			return err
		}
		b.WriteByte(':')
		var err error
		if v, ok := o.vals[i].(ordered); ok {
			err = v.appendTo(b, enc)
		} else {
			err = encodeTrimmed(b, enc, o.vals[i])
		}
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	b.WriteByte('}')
	return nil
}

// encodeTrimmed encodes v into b, the encoder's writer, without the
// newline Encode ends with; on error b is left as it was.
func encodeTrimmed(b *bytes.Buffer, enc *json.Encoder, v any) error {
	n := b.Len()
	if err := enc.Encode(v); err != nil {
		b.Truncate(n)
		return err
	}
	b.Truncate(b.Len() - 1)
	return nil
}

// orderedMap lists m's keys in order first, then any others sorted.
func orderedMap[V any](m map[string]V, order []string) any {
	if m == nil {
		return map[string]V{}
	}
	var o ordered
	seen := make(map[string]bool, len(m))
	for _, k := range order {
		if v, ok := m[k]; ok {
			o.add(k, v)
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
		o.add(k, m[k])
	}
	return o
}
