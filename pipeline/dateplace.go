package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Dates that are printed in a document but are not its date, read from how
// they are printed rather than from a label: a bound of a period ("24
// NOVEMBER 2017 - 4 MARCH 2018", "01.03.2026 – 31.03.2026",
// "2026年3月1日～3月31日") and a date later than the moment the document was
// issued (a date printed with its time) and printed without one: a due,
// expiry or validity date, never the issue date.

// rangeWords join the two bounds of a period.
var rangeWords = map[string]bool{"-": true, "–": true, "—": true, "~": true, "～": true, "to": true, "bis": true,
	"till": true, "until": true, "through": true, "thru": true, "au": true, "al": true, "hasta": true, "tot": true}

// rangeBound reports whether d.dates[i] is joined to the date before or
// after it on its line by a range word.
func (d *doc) rangeBound(i int) bool {
	joined := func(a, b DateMatch) bool {
		if b.Start < a.End || d.lineOf(a.Start) != d.lineOf(b.Start) {
			return false
		}
		gap := strings.ToLower(strings.TrimSpace(d.str(a.End, b.Start)))
		return rangeWords[gap]
	}
	return i > 0 && joined(d.dates[i-1], d.dates[i]) || i+1 < len(d.dates) && joined(d.dates[i], d.dates[i+1])
}

// timeNear reports a time printed right after the date ("14-01-2018 (SUN)
// 16:02") or right before it ("21:07:08 05/06/2018").
func (d *doc) timeNear(m DateMatch) bool {
	// Bounded windows: a line of a thousand dates costs no more per date.
	ls, le := d.lineBounds(d.lineOf(m.Start))
	ls, le = max(ls, m.Start-16), min(le, m.End+24)
	after := strings.TrimLeft(d.str(m.End, le), " ,")
	if strings.HasPrefix(after, "(") { // a weekday in brackets
		if k := strings.IndexByte(after, ')'); k > 0 && k < 12 {
			after = after[k+1:]
		}
	}
	if timeFollows(after) {
		return true
	}
	before := strings.TrimRight(d.str(ls, m.Start), " ,")
	before = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(before, " "), "AM"), "PM")
	before = strings.TrimRight(before, " ")
	n := len(before)
	return n >= 5 && before[n-3] == ':' && digitAt(before, n-1) && digitAt(before, n-2) && digitAt(before, n-4) &&
		(n == 5 || !unicode.IsLetter(rune(before[n-6])))
}

// readingOf is m's ISO date when its order is known.
func readingOf(m DateMatch, order DateOrder) (string, bool) {
	if len(m.ISO) == 1 {
		return m.ISO[0], true
	}
	switch {
	case len(m.ISO) == 2 && order == OrderDMY:
		return m.ISO[0], true
	case len(m.ISO) == 2 && order == OrderMDY:
		return m.ISO[1], true
	}
	return "", false
}

// checkDatePlace flags a date whose every printing is a period bound, or
// that is later than the document's issue moment and printed without a time.
func (d *doc) checkDatePlace(c *FieldCheck, iso string) {
	var own []int
	for i, m := range d.dates {
		for _, r := range m.ISO {
			if r == iso {
				own = append(own, i)
				break
			}
		}
	}
	if len(own) == 0 {
		return
	}
	allBounds, timed := true, false
	for _, i := range own {
		allBounds = allBounds && d.rangeBound(i)
		timed = timed || d.timeNear(d.dates[i])
	}
	first := d.dates[own[0]]
	order := d.order
	if order == OrderUnknown && slices.ContainsFunc(d.dates, func(m DateMatch) bool { return len(m.ISO) == 2 }) {
		// Only a date of two readings needs the order, and the document's
		// locale is costly to settle (currency, addresses, issuer numbers):
		// most receipts print their dates so that one reading is possible.
		order, _ = d.localeOrder()
	}
	if allBounds {
		for i, m := range d.dates {
			if r, ok := readingOf(m, order); ok && r != iso && !d.rangeBound(i) {
				c.penalize(factorContradiction, fmt.Sprintf("%s is a bound of the period printed on line %d (%q), not the document's date %q",
					iso, d.lineOf(first.Start)+1, strings.TrimSpace(d.lineText(first.Start)), m.Raw))
				return
			}
		}
		return
	}
	if timed {
		return
	}
	for i, m := range d.dates {
		if r, ok := readingOf(m, order); ok && r < iso && !d.rangeBound(i) && d.timeNear(m) {
			c.penalize(factorContradiction, fmt.Sprintf("%s is later than %q, the date the document was issued at with its time; a later date printed without one is a due, expiry or validity date",
				iso, m.Raw))
			return
		}
	}
}

// lineText is the line p is on, clipped to 80 characters around p.
func (d *doc) lineText(p int) string {
	ls, le := d.lineBounds(d.lineOf(p))
	return d.str(max(ls, p-40), min(le, p+40))
}
