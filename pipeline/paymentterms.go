package pipeline

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// termDays reports the days a payment term grants ("Net 30", "netto 15
// dage", "14 pv netto", "30 days net", "zahlbar 14 Tage netto"). A switch,
// not a map: it is asked of every short number of a document.
func termDays(n int) bool {
	switch n {
	case 7, 8, 10, 14, 15, 20, 21, 28, 30, 45, 60, 90, 120:
		return true
	}
	return false
}

// netWords and dayWords are the words around the days of a payment term.
var netWords = map[string]bool{"net": true, "netto": true, "nett": true}

var dayWords = map[string]bool{"days": true, "day": true, "pv": true, "päivää": true, "päivän": true, "dage": true,
	"dagen": true, "dagar": true, "dager": true, "tage": true, "tagen": true, "jours": true, "días": true, "dias": true,
	"giorni": true, "gg": true, "dni": true, "dnů": true, "dní": true, "dana": true, "gün": true, "napon": true}

// paymentTerm reports the days of a payment term: a plain number of days
// after "net"/"netto", or before a day word that "net"/"netto" follows.
// They are no amounts, and a "net" beside them is no subtotal's label.
func paymentTerm(rs []rune, start, end int) bool {
	if end-start > 3 || !digitsAt(rs, start, end-start) ||
		!termDays(atoiRunes(rs[start:end])) {
		return false
	}
	// The words are lowered on the stack: a receipt prints many small
	// numbers that are some term's days ("7", "10", "30").
	var buf [4 * maxTermWord]byte
	if w, _ := wordAt(buf[:0], rs, start, -1); netWords[string(w)] {
		return true
	}
	w, after := wordAt(buf[:0], rs, end, 1)
	if !dayWords[string(w)] {
		return false
	}
	w, _ = wordAt(buf[:0], rs, after, 1)
	return netWords[string(w)]
}

// maxTermWord is the longest word wordAt reads, in runes.
const maxTermWord = 8

// wordAt appends to buf the lowered word before p (dir -1) or after p
// (dir +1) past spaces and a dot or colon, and is the offset past it in
// that direction. A word longer than maxTermWord runes is read as none.
func wordAt(buf []byte, rs []rune, p, dir int) ([]byte, int) {
	k := p
	if dir < 0 {
		for k > 0 && (rs[k-1] == ' ' || rs[k-1] == ':' || rs[k-1] == '\u00a0') && p-k < 3 {
			k--
		}
		e := k
		for k > 0 && isLetter(rs[k-1]) && e-k < maxTermWord {
			k--
		}
		if k > 0 && isLetter(rs[k-1]) {
			return buf, k
		}
		w, _ := lowerWord(buf, rs[k:e])
		return w, k
	}
	for k < len(rs) && (rs[k] == ' ' || rs[k] == '\u00a0') && k-p < 3 {
		k++
	}
	s := k
	for k < len(rs) && isLetter(rs[k]) && k-s < maxTermWord {
		k++
	}
	if k < len(rs) && isLetter(rs[k]) {
		return buf, k
	}
	w, _ := lowerWord(buf, rs[s:k])
	if k < len(rs) && rs[k] == '.' {
		k++ // "14 pv. netto"
	}
	return w, k
}

// termPrinted is the line of a payment term that prints x as its days
// ("Terms: Net 30"), or "": a money field that took the days is told so.
func (d *doc) termPrinted(x float64) string {
	if x != math.Trunc(x) || !termDays(int(x)) {
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
