// Package jsonstr reads a JSON string as encoding/json decodes it, and finds
// where a JSON number ends, without reflection, for the few hot paths that
// read a known layout directly (the model-call cache's entries, a batch's
// input lines) and fall back to encoding/json for anything else. It imports
// nothing of ours.
package jsonstr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Read reads the JSON string that starts at b[i] (its opening quote) and
// returns it as encoding/json would decode it, and the index after its
// closing quote. ok is false when there is no well-formed string there, and
// also for one holding invalid UTF-8, which encoding/json reads as U+FFFD
// and callers either refuse or leave to it (FuzzRead).
func Read(b []byte, i int) (s string, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	i++
	start, ascii := i, true
	for ; i < len(b) && b[i] != '"' && b[i] != '\\'; i++ {
		if b[i] < 0x20 {
			return "", i, false
		}
		ascii = ascii && b[i] < utf8.RuneSelf
	}
	if i < len(b) && b[i] == '"' { // no escapes: the bytes are the string
		if !ascii && !utf8.Valid(b[start:i]) {
			return "", i, false
		}
		return string(b[start:i]), i + 1, true
	}
	// Built in a strings.Builder, whose String is the bytes themselves,
	// sized once: the string ends at the first quote not escaped, and its
	// escapes only shrink it.
	n := i
	for n < len(b) && b[n] != '"' {
		if b[n] == '\\' {
			n++
		}
		n++
	}
	var out strings.Builder
	out.Grow(min(n, len(b)) - start)
	out.Write(b[start:i])
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !ascii && !utf8.ValidString(out.String()) {
				return "", i, false
			}
			return out.String(), i + 1, true
		case c < 0x20:
			return "", i, false
		case c != '\\':
			// A run of plain bytes is copied at once.
			run := i
			for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
				ascii = ascii && b[i] < utf8.RuneSelf
				i++
			}
			out.Write(b[run:i])
			continue
		}
		if i+1 >= len(b) {
			return "", i, false
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
				return "", i, false
			}
			i += 6
			if utf16.IsSurrogate(rr) {
				// A pair makes one rune; a lone half is U+FFFD, as encoding/json reads it.
				if r2 := escapedRune(b[i:]); r2 >= 0 {
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
			return "", i, false
		}
		i += 2
	}
	return "", i, false
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

// escapedRune is the \uXXXX escape at the start of b, or -1.
func escapedRune(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	return hex4(b[2:])
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// AppendFloat appends a finite f as encoding/json writes a float64: 'f'
// format unless tiny or huge, then 'e' with a one-digit negative exponent
// unpadded ("1e-07" becomes "1e-7"). The caller rejects NaN and ±Inf,
// which encoding/json refuses.
func AppendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
