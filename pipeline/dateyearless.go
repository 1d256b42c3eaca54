package pipeline

import (
	"fmt"
	"sort"
	"strings"
)

// A document that prints its full dates only where both orders read them
// (05/11/2026) may still prove its order with a date it prints without a
// year: a period's start ("Period 13/10 – 12/11/2026"), a date with its time
// ("Abholung 25/11 14:30"), a date under a date's label ("Due 25/11",
// "MHD 21.11"). Its day over 12 settles day first, its second number over
// 12 month first; a number pair in any other place (a ratio, a room, a
// pack size) proves nothing.

// yearlessOrder is the order the document's yearless dates prove, and the
// first that proves it; OrderUnknown when none does or they disagree.
func (d *doc) yearlessOrder() (DateOrder, string) {
	order, raw := OrderUnknown, ""
	rs := d.rs
	for i := 0; i < len(rs); i++ {
		if !isDigit(rs[i]) || i > 0 && (isDigit(rs[i-1]) || isLetter(rs[i-1]) || strings.ContainsRune("/.-", rs[i-1])) {
			continue
		}
		x, j := pairNumber(rs, i)
		if j >= len(rs) || j-i > 2 || !strings.ContainsRune("/.-", rs[j]) {
			i = j
			continue
		}
		y, k := pairNumber(rs, j+1)
		if k == j+1 || k-j-1 > 2 || k < len(rs) && (isDigit(rs[k]) || isLetter(rs[k]) ||
			k+1 < len(rs) && strings.ContainsRune("/.-", rs[k]) && isDigit(rs[k+1])) {
			i = k
			continue // a full date, or no date at all
		}
		var o DateOrder
		switch {
		case x > 12 && x <= 31 && y >= 1 && y <= 12:
			o = OrderDMY
		case y > 12 && y <= 31 && x >= 1 && x <= 12:
			o = OrderMDY
		}
		if o != OrderUnknown && d.yearlessDateAt(i, k) {
			if order != OrderUnknown && order != o {
				return OrderUnknown, ""
			}
			order, raw = o, string(rs[i:k])
		}
		i = k
	}
	return order, raw
}

// pairNumber is the number of the digits from i and the offset past them.
func pairNumber(rs []rune, i int) (int, int) {
	n, j := 0, i
	for j < len(rs) && isDigit(rs[j]) && j-i < 3 {
		n = n*10 + int(rs[j]-'0')
		j++
	}
	return n, j
}

// yearlessDateAt reports that the number pair at rs[i:k] is printed as a
// date: a time follows it, a range word joins it to a full date, or a
// date's label names it.
func (d *doc) yearlessDateAt(i, k int) bool {
	ls, le := d.lineBounds(d.lineOf(i))
	after := d.str(min(k, le), le)
	if timeFollows(strings.TrimLeft(after, " ,")) && strings.HasPrefix(after, " ") {
		return true
	}
	if t := strings.TrimLeft(after, " "); t != after || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "–") {
		w := t
		if sp := strings.IndexAny(t, " 0123456789"); sp > 0 {
			w = t[:sp]
		}
		if rangeWords[strings.ToLower(w)] {
			next := k + len([]rune(after)) - len([]rune(strings.TrimLeft(t[len(w):], " ")))
			k := sort.Search(len(d.dates), func(i int) bool { return d.dates[i].Start >= next })
			if k < len(d.dates) && d.dates[k].Start == next && len(d.dates[k].ISO) > 0 {
				return true
			}
		}
	}
	h, ok := d.labelBefore(i)
	if !ok || h.start < ls || !d.namesDirectly(h, Span{Start: i, End: k}) {
		return false
	}
	return h.role == builtinLabelOwner && otherDateSet[h.key] || h.role != builtinLabelOwner && d.dateOwner(h.role)
}

// dateOwner reports a label role some date field of the record's schema
// owns: its own date labels print dates.
func (d *doc) dateOwner(r Role) bool {
	for _, h := range d.fieldHits {
		if h.role != r {
			continue
		}
		k := sort.Search(len(d.dates), func(i int) bool { return d.dates[i].Start >= h.end })
		if k < len(d.dates) && d.namesDirectly(h, Span{Start: d.dates[k].Start, End: d.dates[k].End}) {
			return true
		}
	}
	return false
}

// yearlessProof is the reason a yearless date gives for order o.
func yearlessProof(raw string, o DateOrder) string {
	if o == OrderMDY {
		return fmt.Sprintf("%q in the same document is month-first", raw)
	}
	return fmt.Sprintf("%q in the same document is day-first", raw)
}

// sameDateAgain is the other reading of the value's ambiguous printings
// (read is the value as printed) and a printing elsewhere that reads only
// as it: "05/11/2026" in the head and "5 November 2026" (or 2026-11-05)
// under the signature are one date, so 2026-05-11 reads the head's the
// wrong way round. "" when no such printing is found.
func (d *doc) sameDateAgain(ambiguous []DateMatch, read string) (alt, again string) {
	for n, a := range ambiguous {
		if n == 4 {
			break // the same printing repeated: the first few say it
		}
		if len(a.ISO) != 2 {
			continue
		}
		alt = a.ISO[0]
		if alt == read {
			alt = a.ISO[1]
		}
		for _, m := range d.dates {
			if !m.Ambiguous && !m.ident && readsAs(m.ISO, alt) && !readsAs(m.ISO, read) {
				return alt, m.Raw
			}
		}
	}
	return "", ""
}
