package providers

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

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
	for _, c := range b[r.i:] {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return cacheEntry{}, false
		}
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

// str reads a JSON string as encoding/json decodes it. It gives up (false)
// on what encoding/json would read differently from a plain copy and is
// rare in what json.Marshal writes: invalid UTF-8.
func (r *entryReader) str(dst *string) bool {
	b := r.b
	if r.i >= len(b) || b[r.i] != '"' {
		return false
	}
	i := r.i + 1
	start, ascii := i, true
	for ; i < len(b) && b[i] != '"' && b[i] != '\\'; i++ {
		if b[i] < 0x20 {
			return false
		}
		ascii = ascii && b[i] < utf8.RuneSelf
	}
	if i < len(b) && b[i] == '"' { // no escapes: the bytes are the string
		if !ascii && !utf8.Valid(b[start:i]) {
			return false
		}
		*dst = string(b[start:i])
		r.i = i + 1
		return true
	}
	// Built in a strings.Builder, whose String is the bytes themselves: a
	// reply is the larger part of a lookup's allocation.
	var out strings.Builder
	out.Grow(i - start + 64)
	out.Write(b[start:i])
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !ascii && !utf8.ValidString(out.String()) {
				return false
			}
			*dst = out.String()
			r.i = i + 1
			return true
		case c < 0x20:
			return false
		case c != '\\':
			ascii = ascii && c < utf8.RuneSelf
			out.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return false
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			out.WriteByte(e)
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			rr := hex4(b[i+2:])
			if rr < 0 {
				return false
			}
			i += 6
			if utf16.IsSurrogate(rr) {
				// A pair makes one rune; a lone half is U+FFFD, as encoding/json reads it.
				if r2 := surrogateLow(b[i:]); r2 >= 0 {
					if dec := utf16.DecodeRune(rr, r2); dec != utf8.RuneError {
						out.WriteRune(dec)
						i += 6
						continue
					}
				}
				rr = utf8.RuneError
			}
			out.WriteRune(rr)
			continue
		default:
			return false
		}
		i += 2
	}
	return false
}

// hex4 is the value of four hex digits at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}

// surrogateLow is the \uXXXX escape at the start of b, or -1.
func surrogateLow(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	return hex4(b[2:])
}

// integer reads what json.Marshal writes for an int: -?(0|[1-9][0-9]*).
func (r *entryReader) integer(dst *int) bool {
	end := r.number(false)
	if end < 0 {
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
	end := r.number(true)
	if end < 0 {
		return false
	}
	f, err := strconv.ParseFloat(string(r.b[r.i:end]), 64)
	if err != nil {
		return false
	}
	*dst, r.i = f, end
	return true
}

// number returns where the JSON number at r.i ends (integer digits only
// unless frac), or -1 when there is none.
func (r *entryReader) number(frac bool) int {
	b, i := r.b, r.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return -1
	}
	if !frac {
		return i
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}
