package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// numberAfter is the number an own label names on its line: tokenAfter's
// token, or a document-type code and the number after it ("FATURA-RECIBO
// FR 2026A/1184", "FACTURA FT A/123"): a Portuguese or Spanish series
// prints its type's code, in capitals, before the series and number. After
// a number sign ("FACTURA B Nº 0003-00001234") the code is the document's
// class, and the number is what follows the sign.
func numberAfter(rs []rune, end int) (Span, bool) {
	if sp, ok := tokenAfter(rs, end); ok {
		return sp, true
	}
	p := end
	for p < len(rs) && strings.ContainsRune(" \t:：#.", rs[p]) {
		p++
	}
	p = skipNumberSign(rs, p)
	q := p
	for q < len(rs) && q-p < 4 && unicode.IsUpper(rs[q]) {
		q++
	}
	if q == p || q-p > 3 || q+1 >= len(rs) || rs[q] != ' ' || !unicode.IsDigit(rs[q+1]) && !unicode.IsUpper(rs[q+1]) {
		return Span{}, false
	}
	sp, ok := tokenAfter(rs, q)
	switch {
	case !ok:
		return Span{}, false
	case sp.Start != q+1:
		// "FACTURA B Nº 0003-00001234": a class letter, then the number
		// after its sign.
		return sp, skipNumberSign(rs, q+1) > q+1
	}
	return Span{Start: p, End: sp.End}, true
}

// sameNumber reports whether tok, the number a label names, is val: the same
// characters but for spaces and hyphens, or the number after tok's
// document-type code ("2026A/1184" of "FR 2026A/1184").
func sameNumber(tok, val string) bool {
	want := string(foldNeedle(val, foldCompact))
	if string(foldNeedle(tok, foldCompact)) == want {
		return true
	}
	code, rest, ok := strings.Cut(tok, " ")
	return ok && len(code) <= 3 && strings.ToUpper(code) == code && string(foldNeedle(rest, foldCompact)) == want
}

// numberShape names what an identifier is by its shape alone when that shape
// is never a document's printed number: an IBAN whose check digits hold, a
// Japanese registration number (T and 13 digits), an electronic document's
// access key (40 digits or more), a UUID or a hash. Empty when the shape
// says nothing.
func numberShape(val string) string {
	compact := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '.' {
			return -1
		}
		return unicode.ToUpper(r)
	}, val)
	digits, hex := 0, 0
	for _, r := range compact {
		switch {
		case r >= '0' && r <= '9':
			digits++
			hex++
		case r >= 'A' && r <= 'F':
			hex++
		}
	}
	switch {
	case validIBAN(compact):
		return "an IBAN (a bank account; its check digits hold)"
	case len(compact) == 14 && compact[0] == 'T' && digits == 13:
		return "a Japanese qualified-invoice registration number (T and 13 digits), a party's"
	case digits >= 40 && digits == len(compact):
		return "a " + strconv.Itoa(digits) + "-digit access key of an electronic document (chave de acesso, clave de acceso)"
	case isUUID(val):
		return "a UUID (an electronic document's fiscal folio, ETTN or signature id)"
	case hex >= 32 && hex == len(compact):
		return "a " + strconv.Itoa(hex) + "-character hash (an e-invoice's reference number or signature)"
	}
	return ""
}

// validIBAN reports an IBAN (letters in capitals, no spaces) whose check
// digits hold: moved to the end, with letters as 10..35, it is 1 mod 97.
func validIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 || !isUpperLetter(s[0]) || !isUpperLetter(s[1]) || !isDigitByte(s[2]) || !isDigitByte(s[3]) {
		return false
	}
	rem := 0
	for _, c := range s[4:] + s[:4] {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// isUUID reports the 8-4-4-4-12 hexadecimal shape.
func isUUID(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) != 5 {
		return false
	}
	for i, n := range []int{8, 4, 4, 4, 12} {
		if len(parts[i]) != n || strings.IndexFunc(parts[i], func(r rune) bool {
			return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F')
		}) >= 0 {
			return false
		}
	}
	return true
}

func isUpperLetter(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigitByte(c byte) bool   { return c >= '0' && c <= '9' }

// checkNumberShape flags an identifier whose shape says it is something
// else (numberShape), unless one of the field's own labels names it: a
// schema may well ask for an IBAN under its own label.
func checkNumberShape(c *FieldCheck, f Field, val string, own bool) {
	if own {
		return
	}
	if what := numberShape(val); what != "" {
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s is %s, not the %s", val, what, f.Words()))
	}
}
