package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendQuote appends s as a JSON string exactly as an encoding/json
// Encoder with SetEscapeHTML(false) writes it: <, > and & stay as they are,
// control characters, invalid UTF-8 (as \ufffd) and U+2028/U+2029 are
// escaped the same way (FuzzAppendQuote holds it to that).
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = AppendChars(dst, s, false)
	return append(dst, '"')
}

// AppendChars appends s escaped as inside a JSON string, without the
// quotes; with html, <, > and & are escaped as \u003c, \u003e and \u0026,
// as encoding/json's Marshal does. Escaping goes rune by rune, so s split at
// a rune start encodes as its two halves do (the call cache's keys hash a
// prompt's shared start and its rest apart).
func AppendChars(dst []byte, s string, html bool) []byte {
	plain := &plainBytes
	if html {
		plain = &plainBytesHTML
	}
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if plain[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// plainBytes and plainBytesHTML mark the ASCII bytes a JSON string holds as
// they are, without and with HTML escaping. Read-only after init.
var plainBytes, plainBytesHTML = plainTable(false), plainTable(true)

func plainTable(html bool) (t [utf8.RuneSelf]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && !(html && (c == '<' || c == '>' || c == '&'))
	}
	return t
}
