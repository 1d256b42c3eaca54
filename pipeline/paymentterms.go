package pipeline

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// termDays are the days a payment term grants ("Net 30", "netto 15 dage",
// "14 pv netto", "30 days net", "zahlbar 14 Tage netto").
var termDays = map[int]bool{7: true, 8: true, 10: true, 14: true, 15: true, 20: true, 21: true, 28: true, 30: true,
	45: true, 60: true, 90: true, 120: true}

// netWords and dayWords are the words around the days of a payment term.
var netWords = map[string]bool{"net": true, "netto": true, "nett": true}

var dayWords = map[string]bool{"days": true, "day": true, "pv": true, "päivää": true, "päivän": true, "dage": true,
	"dagen": true, "dagar": true, "dager": true, "tage": true, "tagen": true, "jours": true, "días": true, "dias": true,
	"giorni": true, "gg": true, "dni": true, "dnů": true, "dní": true, "dana": true, "gün": true, "napon": true}

// paymentTerm reports the days of a payment term: a plain number of days
// after "net"/"netto", or before a day word that "net"/"netto" follows.
// They are no amounts, and a "net" beside them is no subtotal's label.
func paymentTerm(rs []rune, start, end int) bool {
	if end-start > 3 || slices.ContainsFunc(rs[start:end], func(r rune) bool { return r < '0' || r > '9' }) ||
		!termDays[atoiRunes(rs[start:end])] {
		return false
	}
	if w, _ := wordAt(rs, start, -1); netWords[w] {
		return true
	}
	w, after := wordAt(rs, end, 1)
	if !dayWords[w] {
		return false
	}
	w, _ = wordAt(rs, after, 1)
	return netWords[w]
}

// wordAt is the lowered word before p (dir -1) or after p (dir +1) past
// spaces and a dot or colon, and the offset past it in that direction.
func wordAt(rs []rune, p, dir int) (string, int) {
	k := p
	if dir < 0 {
		for k > 0 && (rs[k-1] == ' ' || rs[k-1] == ':' || rs[k-1] == '\u00a0') && p-k < 3 {
			k--
		}
		e := k
		for k > 0 && isLetter(rs[k-1]) && e-k < 8 {
			k--
		}
		if k > 0 && isLetter(rs[k-1]) {
			return "", k
		}
		return strings.ToLower(string(rs[k:e])), k
	}
	for k < len(rs) && (rs[k] == ' ' || rs[k] == '\u00a0') && k-p < 3 {
		k++
	}
	s := k
	for k < len(rs) && isLetter(rs[k]) && k-s < 8 {
		k++
	}
	if k < len(rs) && isLetter(rs[k]) {
		return "", k
	}
	w := strings.ToLower(string(rs[s:k]))
	if k < len(rs) && rs[k] == '.' {
		k++ // "14 pv. netto"
	}
	return w, k
}

// termPrinted is the line of a payment term that prints x as its days
// ("Terms: Net 30"), or "": a money field that took the days is told so.
func (d *doc) termPrinted(x float64) string {
	if x != math.Trunc(x) || !termDays[int(x)] {
		return ""
	}
	want := []rune(strconv.Itoa(int(x)))
	rs := d.rs
	for i := 0; i+len(want) <= len(rs); i++ {
		end := i + len(want)
		if !slices.Equal(rs[i:end], want) || i > 0 && isDigit(rs[i-1]) || end < len(rs) && isDigit(rs[end]) {
			continue
		}
		if paymentTerm(rs, i, end) {
			ls, le := d.lineBounds(d.lineOf(i))
			return strings.TrimSpace(string(rs[ls:le]))
		}
	}
	return ""
}
