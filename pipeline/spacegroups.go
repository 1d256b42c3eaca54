package pipeline

import "math"

// South African, French and Nordic documents group thousands with a space
// before a decimal point ("83 382.61") even where no currency sits beside
// the amount; receipts print a quantity and a price the same way ("TOTAL
// QTY: 20 599.43"). The scan reads the two apart; joinSpaceGroups joins
// them where the document's own arithmetic says they are one amount.

// maxSpaceGroups bounds the candidates weighed: a document prints a
// handful of amounts in thousands, and the check is quadratic.
const maxSpaceGroups = 24

// spaceGroup is a run of found amounts that may be one space-grouped
// amount: found[first:last+1].
type spaceGroup struct {
	first, last int
	value       float64
}

// joinSpaceGroups joins each run "1-3 digits, space, 3 digits… .dd" of
// found into one amount when such runs, read whole, take part in a sum the
// document prints: two of them add up to a third, or one and another
// amount with cents add up to another run (a subtotal, its tax and their
// total). found is rewritten in place.
func joinSpaceGroups(rs []rune, ascii string, found []AmountMatch) []AmountMatch {
	var groups []spaceGroup
	for k := 0; k < len(found) && len(groups) < maxSpaceGroups; k++ {
		if g, ok := spaceGroupAt(rs, ascii, found, k); ok {
			groups = append(groups, g)
			k = g.last
		}
	}
	if len(groups) < 2 || !addUp(groups, found) {
		return found
	}
	out := found[:0]
	g := 0
	for k := 0; k < len(found); k++ {
		if g < len(groups) && k == groups[g].first {
			a, b := found[k], found[groups[g].last]
			raw := cut(rs, ascii, a.Start, b.End)
			out = append(out, AmountMatch{Value: groups[g].value, Start: a.Start, End: b.End, Line: a.Line, Raw: raw})
			k = groups[g].last
			g++
			continue
		}
		out = append(out, found[k])
	}
	return out
}

// spaceGroupAt is the run starting at found[k]: one to three digits, then
// groups of three digits each one space after the last, the final one with
// a decimal point and two digits. It is read from the text, since the scan
// drops a middle group that starts with 0 ("1 043 478.26") as a code.
func spaceGroupAt(rs []rune, ascii string, found []AmountMatch, k int) (spaceGroup, bool) {
	a := found[k]
	if a.End-a.Start > 3 || !digitsAt(rs, a.Start, a.End-a.Start) {
		return spaceGroup{}, false
	}
	p := a.End
	for p+3 < len(rs) && isGroupSpace(rs[p]) && digitsAt(rs, p+1, 3) {
		p += 4
	}
	if p == a.End || p+2 >= len(rs) || rs[p] != '.' || !digitsAt(rs, p+1, 2) || p+3 < len(rs) && isAlnum(rs[p+3]) {
		return spaceGroup{}, false
	}
	end := p + 3
	for m := k + 1; m < len(found) && found[m].Start < end; m++ {
		if found[m].End == end {
			v, ok := parseNumberCore(cut(rs, ascii, a.Start, end))
			return spaceGroup{first: k, last: m, value: v}, ok
		}
	}
	return spaceGroup{}, false
}

func isGroupSpace(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' }

// addUp reports two of the groups adding up to a third, or a group and
// another amount with cents (one outside every group) adding up to a
// second group.
func addUp(groups []spaceGroup, found []AmountMatch) bool {
	for i := range groups {
		for j := i + 1; j < len(groups); j++ {
			for _, c := range groups {
				if near(groups[i].value+groups[j].value, c.value, 0.011) {
					return true
				}
			}
		}
	}
	g, others := 0, 0
	for k := 0; k < len(found) && others < maxSpaceGroups; k++ {
		if g < len(groups) && k >= groups[g].first {
			if k == groups[g].last {
				g++
			}
			continue
		}
		if !centsForm(found[k].Raw) {
			continue
		}
		others++
		for i := range groups {
			for _, c := range groups {
				if c.first != groups[i].first && near(groups[i].value+math.Abs(found[k].Value), c.value, 0.011) {
					return true
				}
			}
		}
	}
	return false
}
