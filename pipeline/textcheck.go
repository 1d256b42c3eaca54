package pipeline

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// CheckTextValue is the one rule for a text value reflect accepts, from an
// agent, a batch line, --data or a model reply: valid UTF-8 with no NUL or
// other control character except tab, LF, CR and form feed. A NUL in
// "ACME LTD\u0000" is invisible in every view yet makes the record differ
// from what the reviewer saw; it is refused, never returned ok.
func CheckTextValue(s string) error {
	// Every document is checked: eight allowed ASCII bytes (line breaks
	// too) are decided at once, and a window that is not (a non-ASCII rune,
	// a control character) is read byte by byte and rune by rune to its end.
	for i := 0; i < len(s); {
		if i+8 <= len(s) && allowedASCII8(s[i:i+8]) {
			i += 8
			continue
		}
		for end := min(i+8, len(s)); i < end; {
			if c := s[i]; c < utf8.RuneSelf {
				if c >= 0x20 && c != 0x7f || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
					i++
					continue
				}
				return controlError(rune(c), i)
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Errorf("is not valid UTF-8 (first bad byte at offset %d)", i)
			}
			if r >= 0x7f && r <= 0x9f {
				return controlError(r, i)
			}
			i += size
		}
	}
	return nil
}

// allowedASCII8 reports whether the eight bytes of s are all ASCII the
// rule allows: printable (0x20-0x7E), tab, LF, CR or form feed. Line
// breaks are allowed here too: a receipt breaks its lines every few dozen
// bytes, and a window holding one was read byte by byte.
func allowedASCII8(s string) bool {
	_ = s[7]
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if w&highs != 0 {
		return false
	}
	// With every byte below 0x80 no sum below carries into the next byte:
	// b+0x60 reaches 0x80 exactly when b >= 0x20, and (b^v)+0x7F exactly
	// when b != v.
	low := ^(w + 0x60*ones) & highs
	is := func(v uint64) uint64 { return ^((w ^ v*ones) + 0x7F*ones) & highs }
	return is(0x7F) == 0 && low&^(is('\t')|is('\n')|is('\r')|is('\f')) == 0
}

// controlError names the control character r at byte i.
func controlError(r rune, i int) error {
	if r == 0 {
		return fmt.Errorf("contains a NUL character (U+0000) at byte %d", i)
	}
	return fmt.Errorf("contains the control character %U at byte %d", r, i)
}

// CheckJSONText scans raw JSON, before it is decoded, for what encoding/json
// would let through or silently change: bytes that are not UTF-8 and
// \uD800-\uDFFF escapes that are not a high surrogate followed by a low one
// (both become U+FFFD), and \u0000 escapes. Batch lines, --data, MCP
// arguments and model replies all go through it, so they follow one rule.
func CheckJSONText(raw []byte) error {
	if !utf8.Valid(raw) {
		for off := 0; off < len(raw); {
			r, size := utf8.DecodeRune(raw[off:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Errorf("%w: not valid UTF-8 (first bad byte at offset %d)", ErrInput, off)
			}
			off += size
		}
	}
	hex4 := func(i int) (uint64, bool) {
		if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		return v, err == nil
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // skip the escaped character, which may be a backslash
			continue
		}
		v, ok := hex4(i)
		if !ok {
			continue
		}
		switch {
		case v == 0:
			return fmt.Errorf("%w: a NUL character (\\u0000) at byte %d of the JSON", ErrInput, i)
		case v >= 0xDC00 && v <= 0xDFFF:
			return fmt.Errorf("%w: not valid UTF-8 (unpaired UTF-16 surrogate escape at byte %d of the JSON)", ErrInput, i)
		case v >= 0xD800 && v <= 0xDBFF:
			lo, ok := hex4(i + 6)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return fmt.Errorf("%w: not valid UTF-8 (unpaired UTF-16 surrogate escape at byte %d of the JSON)", ErrInput, i)
			}
			i += 11
		default:
			i += 5
		}
	}
	return nil
}

// checkedValue is normalizeValue with CheckTextValue on a string value.
func checkedValue(f Field, v any) (any, error) {
	if s, ok := v.(string); ok {
		if err := CheckTextValue(s); err != nil {
			return nil, fmt.Errorf("%w: the value %s", ErrInput, err)
		}
	}
	return normalizeValue(f, v)
}

// checkTextChars is CheckText's character rule.
func checkTextChars(text string) error {
	if err := CheckTextValue(text); err != nil {
		return fmt.Errorf("%w: text %s", ErrInput, err)
	}
	return nil
}
