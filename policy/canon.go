package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The encoder below reproduces Python's json.dumps(obj, sort_keys=True,
// separators=(",", ":"), ensure_ascii=True) byte for byte: envelope_hash is
// the join key with the reference's audit and holds, and responses must be
// pure ASCII like the reference's.

const hexDigits = "0123456789abcdef"

// appendPyString appends s as a JSON string with ensure_ascii escaping.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r < 0x20:
			b = appendU(b, r)
		case r < 0x80:
			b = append(b, byte(r))
		case r > 0xffff:
			r -= 0x10000
			b = appendU(b, 0xd800+(r>>10))
			b = appendU(b, 0xdc00+(r&0x3ff))
		default:
			b = appendU(b, r)
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// appendPyFloat appends f as Python's float repr.
func appendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	// e is [-]d[.ddd]e±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	ei := strings.IndexByte(string(e), 'e')
	mant, expPart := e[:ei], e[ei+1:]
	exp, _ := strconv.Atoi(string(expPart))
	if neg {
		b = append(b, '-')
	}
	if exp < -4 || exp >= 16 {
		b = append(b, mant...)
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	var digits [24]byte
	d := digits[:0]
	for _, c := range mant {
		if c != '.' {
			d = append(d, c)
		}
	}
	if exp < 0 {
		b = append(b, '0', '.')
		for i := 0; i < -exp-1; i++ {
			b = append(b, '0')
		}
		return append(b, d...)
	}
	if len(d) <= exp+1 {
		b = append(b, d...)
		for i := len(d); i < exp+1; i++ {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	}
	b = append(b, d[:exp+1]...)
	b = append(b, '.')
	return append(b, d[exp+1:]...)
}

// isIntLiteral reports whether a JSON number literal is an int in Python.
func isIntLiteral(s string) bool { return !strings.ContainsAny(s, ".eE") }

// appendPyNumber appends a json.Number the way Python would re-emit it.
func appendPyNumber(b []byte, n json.Number) []byte {
	s := string(n)
	if isIntLiteral(s) {
		if s == "-0" {
			return append(b, '0')
		}
		return append(b, s...)
	}
	f, _ := strconv.ParseFloat(s, 64) // out of range gives ±Inf, as in Python
	return appendPyFloat(b, f)
}

// appendPyJSON appends v (a decoded JSON value, or the Go types a caller in
// process may use) with sorted keys and ensure_ascii escaping.
func appendPyJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case string:
		return appendPyString(b, x)
	case json.Number:
		return appendPyNumber(b, x)
	case float64:
		return appendPyFloat(b, x)
	case float32:
		return appendPyFloat(b, float64(x))
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyJSON(b, e)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyString(b, e)
		}
		return append(b, ']')
	case map[string]any:
		return appendPyObject(b, x, "", nil)
	default:
		// Any other Go value goes through encoding/json first, then is
		// re-emitted in the Python form.
		raw, err := json.Marshal(x)
		if err != nil {
			return append(b, "null"...)
		}
		var back any
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		if d.Decode(&back) != nil {
			return append(b, "null"...)
		}
		return appendPyJSON(b, back)
	}
}

// appendPyObject appends m with sorted keys; when overKey is not empty its
// value is replaced by over (added if m lacks it), so a normalized inner
// object can be hashed without building it.
func appendPyObject(b []byte, m map[string]any, overKey string, over any) []byte {
	// Most objects have a few keys: their sort needs no heap.
	var stack [16]string
	keys := stack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	if overKey != "" {
		if _, ok := m[overKey]; !ok {
			keys = append(keys, overKey)
		}
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPyString(b, k)
		b = append(b, ':')
		if k == overKey {
			b = appendPyJSON(b, over)
		} else {
			b = appendPyJSON(b, m[k])
		}
	}
	return append(b, '}')
}

// CanonicalJSON is the Python-compatible canonical form of v.
func CanonicalJSON(v any) []byte { return appendPyJSON(nil, v) }

// CanonicalHash is envelope_hash (spec §4) of a normalized envelope: SHA-256
// over the canonical JSON of its action, axes, magnitude and target.
func CanonicalHash(normalized Envelope) string {
	proj := make(map[string]any, 4)
	for _, k := range []string{"action", "axes", "magnitude", "target"} {
		if v, ok := normalized[k]; ok {
			proj[k] = v
		}
	}
	sum := sha256.Sum256(appendPyJSON(nil, proj))
	return hex.EncodeToString(sum[:])
}

// digestParams is the argument binding of spec §0: a SHA-256 over the
// canonical params minus amount, which check 7 already compares numerically
// (6000 must still equal 6000.0).
func digestParams(params map[string]any) string {
	var tmp [64]byte
	b := appendPyObjectWithout(tmp[:0], params, "amount")
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func appendPyObjectWithout(b []byte, m map[string]any, skip string) []byte {
	if _, ok := m[skip]; !ok {
		return appendPyObject(b, m, "", nil)
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		if k != skip {
			c[k] = v
		}
	}
	return appendPyObject(b, c, "", nil)
}
