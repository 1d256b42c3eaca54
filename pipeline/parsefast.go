package pipeline

import (
	"strconv"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
)

// decodeObject decodes the JSON object that is all of b into the values
// encoding/json gives an any (map[string]any, []any, string, float64, bool,
// nil) without reflection: encoding/json was ~11% of a cached batch rerun.
// ok is false for anything it is not sure encoding/json would read the same
// way, invalid input included; the caller then decodes b with encoding/json,
// so results and errors stay as they were (FuzzDecodeObject).
func decodeObject(b []byte) (m map[string]any, ok bool) {
	i := jsonstr.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	v, i, ok := decodeValue(b, i, 0)
	if !ok || jsonstr.SkipSpace(b, i) != len(b) {
		return nil, false
	}
	m, ok = v.(map[string]any)
	return m, ok
}

// maxDepth keeps deep nesting for encoding/json, which has its own limit.
const maxDepth = 64

func decodeValue(b []byte, i, depth int) (any, int, bool) {
	if i >= len(b) || depth > maxDepth {
		return nil, i, false
	}
	switch c := b[i]; {
	case c == '"':
		return readString(b, i)
	case c == '{':
		m := map[string]any{}
		i = jsonstr.SkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return m, i + 1, true
		}
		for {
			k, j, ok := jsonstr.Read(b, i)
			if !ok {
				return nil, i, false
			}
			j = jsonstr.SkipSpace(b, j)
			if j >= len(b) || b[j] != ':' {
				return nil, j, false
			}
			v, j, ok := decodeValue(b, jsonstr.SkipSpace(b, j+1), depth+1)
			if !ok {
				return nil, j, false
			}
			m[k] = v
			j = jsonstr.SkipSpace(b, j)
			if j < len(b) && b[j] == '}' {
				return m, j + 1, true
			}
			if j >= len(b) || b[j] != ',' {
				return nil, j, false
			}
			i = jsonstr.SkipSpace(b, j+1)
		}
	case c == '[':
		a := []any{}
		i = jsonstr.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return a, i + 1, true
		}
		for {
			v, j, ok := decodeValue(b, i, depth+1)
			if !ok {
				return nil, j, false
			}
			a = append(a, v)
			j = jsonstr.SkipSpace(b, j)
			if j < len(b) && b[j] == ']' {
				return a, j + 1, true
			}
			if j >= len(b) || b[j] != ',' {
				return nil, j, false
			}
			i = jsonstr.SkipSpace(b, j+1)
		}
	case c == '-' || '0' <= c && c <= '9':
		return readNumber(b, i)
	}
	for _, lit := range [...]struct {
		s string
		v any
	}{{"null", nil}, {"true", true}, {"false", false}} {
		if len(b)-i >= len(lit.s) && string(b[i:i+len(lit.s)]) == lit.s {
			return lit.v, i + len(lit.s), true
		}
	}
	return nil, i, false
}

func readString(b []byte, i int) (any, int, bool) {
	s, j, ok := jsonstr.Read(b, i)
	return s, j, ok
}

// readNumber reads a number in JSON's grammar (no leading zeros, no bare
// dot, no plus) as encoding/json does, with strconv.ParseFloat; one out of
// float64's range is left to encoding/json's error.
func readNumber(b []byte, i int) (any, int, bool) {
	end, ok := jsonstr.NumberEnd(b, i)
	if !ok {
		return nil, end, false
	}
	f, err := strconv.ParseFloat(string(b[i:end]), 64)
	if err != nil {
		return nil, end, false
	}
	return f, end, true
}
