package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// A phone number is never the invoice number. A model short of a labelled
// number takes the longest run of digits in the head, and the head prints
// the shop's phone ("Telp. 0812 555 0182", "Call/WhatsApp 0722123456",
// "+33 1 45 67 89 10"). The label lists know "Tel" and "Phone"; this check
// reads what the value is: a number of seven to fifteen digits printed
// only after a phone word of any language, or dialled with a country code,
// and never under one of the field's own labels.

// checkPhoneNumber flags an invoice number every occurrence of which is a
// phone number. It runs on a grounded identifier no other check flagged.
func (d *doc) checkPhoneNumber(c *FieldCheck, f Field, val string) {
	if len(c.Reasons) > 0 || len(c.Spans) == 0 || !phoneShaped(val) || !slices.Contains(f.Labels, "invoice number") {
		return
	}
	own := fieldLabelOwner(f.Name)
	word := ""
	for _, sp := range capped(c.Spans) {
		if h, ok := d.labelBefore(sp.Start); ok && h.role == own {
			return // the document labels it its own
		}
		w := d.phoneWordBefore(sp.Start)
		if w == "" && !dialled(d.rs[sp.Start:sp.End]) {
			return // an occurrence nothing calls a phone number
		}
		if word == "" {
			word = w
		}
	}
	if word == "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is a phone number (dialled with its country code), not the invoice number", val))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is a phone number (printed after %q), not the invoice number", val, word))
}

// phoneShaped reports seven to fifteen digits with nothing but a leading
// plus and spaces, hyphens, dots, slashes or brackets between them.
func phoneShaped(val string) bool {
	digits := 0
	for i, r := range val {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0, r == ' ' || r == '-' || r == '.' || r == '(' || r == ')' || r == '/':
		default:
			return false
		}
	}
	return digits >= 7 && digits <= 15
}

// dialled reports a number printed with its country code ("+254 722 123
// 456"): no document numbers itself so.
func dialled(tok []rune) bool {
	return len(tok) > 1 && tok[0] == '+' && isDigit(tok[1])
}

// phoneWordBefore is the phone word among the three words before p on its
// line ("Tel/Fax:", "Telp.", "Call/WhatsApp", "電話"), or "".
func (d *doc) phoneWordBefore(p int) string {
	ls := d.lineStarts[d.lineOf(p)]
	s := max(ls, p-28)
	window := d.str(s, p)
	words := strings.FieldsFunc(window, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("/:.,;|()[]-", r)
	})
	for i := len(words) - 1; i >= 0 && i >= len(words)-3; i-- {
		if phoneWord(strings.ToLower(words[i])) {
			return strings.TrimSpace(window[strings.LastIndex(window, words[i]):])
		}
	}
	for _, w := range phoneGlued {
		if strings.Contains(window, w) {
			return w
		}
	}
	return ""
}

// phoneWord reports a word that says "telephone" in a language documents
// are written in: the stems of telephone, mobile, cell, fax and
// messaging in Latin, Greek, Cyrillic, Hebrew, Arabic, Thai and
// Vietnamese letters.
func phoneWord(w string) bool {
	for _, stem := range phoneStems {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return phoneExact[w]
}

var phoneStems = []string{"tel", "tél", "phone", "fone", "mob", "cell", "whatsapp", "hotline", "fax", "tlf", "tlp",
	"puhelin", "τηλ", "тел", "факс", "моб", "טל", "נייד", "هاتف", "جوال", "تلفن", "โทร", "điện"}

var phoneExact = map[string]bool{"ph": true, "hp": true, "call": true, "wa": true, "đt": true, "sđt": true, "ruf": true,
	"handphone": true, "contact": true, "mob": true}

// phoneGlued are phone words CJK text glues to its number ("電話03-1234-5678").
var phoneGlued = []string{"電話", "电话", "전화", "☎", "📞", "☏", "手机", "携帯"}
