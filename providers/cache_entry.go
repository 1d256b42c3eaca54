package providers

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
)

// encodeEntry encodes e exactly as json.Marshal does (FuzzEncodeEntry),
// without reflection: the writer encodes every reply it commits, while a
// round of replies may be queuing on the cores. A value json.Marshal
// refuses (a NaN or infinite cost, a year it cannot write) and a time
// outside UTC go to json.Marshal, for its bytes or its error.
func encodeEntry(e cacheEntry) ([]byte, error) {
	if math.IsNaN(e.CostUSD) || math.IsInf(e.CostUSD, 0) || e.Stored.Location() != time.UTC ||
		e.Stored.Year() < 0 || e.Stored.Year() > 9999 {
		return json.Marshal(e)
	}
	b := make([]byte, 0, len(e.Text)+len(e.Text)/8+len(e.Model)+160)
	b = append(b, `{"text":"`...)
	b = jsonstr.AppendChars(b, e.Text, true)
	b = append(b, `","model":"`...)
	b = jsonstr.AppendChars(b, e.Model, true)
	b = append(b, `","input_tokens":`...)
	b = strconv.AppendInt(b, int64(e.InputTokens), 10)
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, int64(e.OutputTokens), 10)
	b = append(b, `,"cost_usd":`...)
	b = jsonstr.AppendFloat(b, e.CostUSD)
	b = append(b, `,"stored":"`...)
	b = e.Stored.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...), nil
}

// decodeEntry decodes a stored reply as json.Unmarshal into a cacheEntry
// would, with the same result and the same verdict on every input
// (FuzzDecodeEntry): the layout json.Marshal writes (the six keys in order,
// no spaces) is read directly, anything else by encoding/json. Decoding by
// reflection was a tenth of a cached rerun's CPU.
func decodeEntry(b []byte) (cacheEntry, error) {
	if e, ok := decodeEntryLayout(b); ok {
		return e, nil
	}
	var e cacheEntry
	err := json.Unmarshal(b, &e)
	return e, err
}

// decodeEntryLayout reads b when it is exactly what json.Marshal makes of a
// cacheEntry; ok is false for anything else, valid or not.
func decodeEntryLayout(b []byte) (e cacheEntry, ok bool) {
	r := entryReader{b: b}
	if !r.lit(`{"text":`) || !r.str(&e.Text) ||
		!r.lit(`,"model":`) || !r.str(&e.Model) ||
		!r.lit(`,"input_tokens":`) || !r.integer(&e.InputTokens) ||
		!r.lit(`,"output_tokens":`) || !r.integer(&e.OutputTokens) ||
		!r.lit(`,"cost_usd":`) || !r.float(&e.CostUSD) ||
		!r.lit(`,"stored":`) {
		return cacheEntry{}, false
	}
	start := r.i
	var skip string
	if !r.str(&skip) || e.Stored.UnmarshalJSON(b[start:r.i]) != nil || !r.lit("}") {
		return cacheEntry{}, false
	}
	if jsonstr.SkipSpace(b, r.i) != len(b) {
		return cacheEntry{}, false
	}
	return e, true
}

type entryReader struct {
	b []byte
	i int
}

func (r *entryReader) lit(s string) bool {
	if len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// str reads a JSON string as encoding/json decodes it; it gives up on one
// holding invalid UTF-8 (never in what json.Marshal writes).
func (r *entryReader) str(dst *string) bool {
	s, end, ok := jsonstr.Read(r.b, r.i)
	if ok {
		*dst, r.i = s, end
	}
	return ok
}

// integer reads what json.Marshal writes for an int: -?(0|[1-9][0-9]*).
func (r *entryReader) integer(dst *int) bool {
	end, ok := jsonstr.IntegerEnd(r.b, r.i)
	if !ok {
		return false
	}
	n, err := strconv.Atoi(string(r.b[r.i:end]))
	if err != nil {
		return false
	}
	*dst, r.i = n, end
	return true
}

// float reads a JSON number.
func (r *entryReader) float(dst *float64) bool {
	end, ok := jsonstr.NumberEnd(r.b, r.i)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(r.b[r.i:end]), 64)
	if err != nil {
		return false
	}
	*dst, r.i = f, end
	return true
}
