package pipeline

import (
	"math"
	"slices"
	"strconv"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
)

// appendResult appends r's JSON (Result.MarshalJSON's bytes) to dst without
// reflection: encoding/json was ~11 us a document, an eighth of a cached
// batch rerun. ok is false for anything it does not write exactly as
// encoding/json would (a value of another type, a float that is not
// finite); the caller then encodes the whole result the reflective way, so
// output and errors stay as they were (TestAppendResultMatchesReflective).
func appendResult(dst []byte, r *Result) (out []byte, ok bool) {
	b := append(dst, '{')
	if r.ID != "" {
		b = appendKey(b, "id")
		b = jsonstr.AppendQuote(b, r.ID)
		b = append(b, ',')
	}
	b = appendKey(b, "status")
	b = jsonstr.AppendQuote(b, string(r.Status))
	if r.Status == StatusError {
		b = append(b, ',')
		b = appendKey(b, "error_message")
		b = jsonstr.AppendQuote(b, r.ErrorMessage)
		if r.TraceID != "" {
			b = append(b, ',')
			b = appendKey(b, "trace_id")
			b = jsonstr.AppendQuote(b, r.TraceID)
		}
	} else {
		if b, ok = appendBody(b, r); !ok {
			return dst, false
		}
	}
	if u := r.Usage; u != nil {
		b = append(b, ',')
		b = appendKey(b, "usage")
		b = append(b, `{"calls":`...)
		b = strconv.AppendInt(b, int64(u.Calls), 10)
		if u.CachedCalls != 0 {
			b = append(b, `,"cached_calls":`...)
			b = strconv.AppendInt(b, int64(u.CachedCalls), 10)
		}
		b = append(b, `,"input_tokens":`...)
		b = strconv.AppendInt(b, int64(u.InputTokens), 10)
		b = append(b, `,"output_tokens":`...)
		b = strconv.AppendInt(b, int64(u.OutputTokens), 10)
		b = append(b, `,"latency_ms":`...)
		b = strconv.AppendInt(b, u.LatencyMS, 10)
		if u.CostUSD != 0 {
			b = append(b, `,"cost_usd":`...)
			if b, ok = appendFloat(b, u.CostUSD); !ok {
				return dst, false
			}
		}
		b = append(b, '}')
	}
	return append(b, '}'), true
}

// appendBody writes a result's fields from data to not_given, each after a comma.
func appendBody(b []byte, r *Result) ([]byte, bool) {
	var ok bool
	order := r.FieldOrder
	b = append(b, `,"data":`...)
	if b, ok = appendOrdered(b, r.Data, order, appendAny); !ok {
		return b, false
	}
	b = append(b, `,"field_confidence":`...)
	if b, ok = appendOrdered(b, r.FieldConfidence, order, appendFloat); !ok {
		return b, false
	}
	b = append(b, `,"overall_confidence":`...)
	if b, ok = appendFloat(b, r.OverallConfidence); !ok {
		return b, false
	}
	b = append(b, `,"flagged_fields":[`...)
	for i, f := range r.FlaggedFields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"field":`...)
		b = jsonstr.AppendQuote(b, f.Field)
		b = append(b, `,"value":`...)
		if b, ok = appendAny(b, f.Value); !ok {
			return b, false
		}
		b = append(b, `,"confidence":`...)
		if b, ok = appendFloat(b, f.Confidence); !ok {
			return b, false
		}
		b = append(b, `,"reason":`...)
		b = jsonstr.AppendQuote(b, f.Reason)
		b = append(b, '}')
	}
	b = append(b, `],"field_provenance":`...)
	b, _ = appendOrdered(b, r.FieldProvenance, order, appendSpans)
	b = append(b, `,"trace_id":`...)
	b = jsonstr.AppendQuote(b, r.TraceID)
	b = append(b, `,"critic_summary":`...)
	b = jsonstr.AppendQuote(b, r.CriticSummary)
	b = append(b, `,"notes":`...)
	b = jsonstr.AppendQuote(b, r.Notes)
	b = append(b, `,"schema":`...)
	b = jsonstr.AppendQuote(b, r.Schema)
	b = append(b, `,"prompt_versions":{`...)
	// encoding/json writes a plain map's keys sorted.
	var keys [8]string
	pv := keys[:0]
	for k := range r.PromptVersions {
		pv = append(pv, k)
	}
	slices.Sort(pv)
	for i, k := range pv {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, k)
		b = jsonstr.AppendQuote(b, r.PromptVersions[k])
	}
	b = append(b, '}')
	if len(r.NotGiven) > 0 {
		b = append(b, `,"not_given":[`...)
		for i, s := range r.NotGiven {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.AppendQuote(b, s)
		}
		b = append(b, ']')
	}
	return b, true
}

func appendKey(b []byte, k string) []byte {
	b = jsonstr.AppendQuote(b, k)
	return append(b, ':')
}

// appendOrdered writes m as orderedMap orders it: the keys in order first
// (a key listed twice is written twice, as there), then any others sorted;
// a nil map is {}.
func appendOrdered[V any](b []byte, m map[string]V, order []string, val func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	b = append(b, '{')
	n, distinct, ok := 0, 0, true
	for i, k := range order {
		v, in := m[k]
		if !in {
			continue
		}
		if !slices.Contains(order[:i], k) {
			distinct++
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, k)
		if b, ok = val(b, v); !ok {
			return b, false
		}
		n++
	}
	if distinct < len(m) {
		rest := make([]string, 0, len(m)-distinct)
		for k := range m {
			if !slices.Contains(order, k) {
				rest = append(rest, k)
			}
		}
		slices.Sort(rest)
		for _, k := range rest {
			if n > 0 {
				b = append(b, ',')
			}
			b = appendKey(b, k)
			if b, ok = val(b, m[k]); !ok {
				return b, false
			}
			n++
		}
	}
	return append(b, '}'), true
}

// appendFloat writes f as encoding/json does; false for NaN and ±Inf,
// which encoding/json refuses.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	return jsonstr.AppendFloat(b, f), true
}

// appendAny writes the values a Record holds; anything else is left to
// encoding/json.
func appendAny(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case string:
		return jsonstr.AppendQuote(b, x), true
	case float64:
		return appendFloat(b, x)
	case bool:
		return strconv.AppendBool(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	}
	return b, false
}

func appendSpans(b []byte, spans []Span) ([]byte, bool) {
	if spans == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, s := range spans {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"start":`...)
		b = strconv.AppendInt(b, int64(s.Start), 10)
		b = append(b, `,"end":`...)
		b = strconv.AppendInt(b, int64(s.End), 10)
		if s.Primary {
			b = append(b, `,"primary":true`...)
		}
		b = append(b, '}')
	}
	return append(b, ']'), true
}
