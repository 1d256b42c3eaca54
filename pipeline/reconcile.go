package pipeline

import (
	"fmt"
	"math"
	"strings"
)

// reconcile checks one relation and penalizes the fields that can be blamed.
// explained reports a difference the document prints (a rounding adjustment).
// fix, when not nil, names a figure printed under a field's role that would
// make the relation hold in place of the field's value.
func reconcile(rep HeuristicReport, rel Relation, rec Record, tol float64, anchored map[string]bool, explained func(float64) bool,
	fix func(field string, want, tol float64) (labelledAmount, bool)) {
	// A relation has a few fields: their values are looked up in a list on
	// the stack, and the reason is written only for a relation that fails.
	var valBuf [8]fieldValue
	vals := valBuf[:0]
	for _, name := range append(termFields(rel), rel.Result) {
		x, ok := moneyValue(rec[name])
		if !ok {
			return
		}
		vals = append(vals, fieldValue{name, x})
	}
	val := func(name string) float64 {
		for _, v := range vals {
			if v.name == name {
				return v.x
			}
		}
		return 0
	}
	sum := 0.0
	for _, t := range rel.Terms {
		sum += float64(t.Sign) * val(t.Field)
	}
	if math.Abs(sum-val(rel.Result)) <= tol+1e-9 || explained(val(rel.Result)-sum) {
		return
	}
	var expr strings.Builder
	for i, t := range rel.Terms {
		switch {
		case t.Sign < 0 && i == 0:
			expr.WriteString("-")
		case t.Sign < 0:
			expr.WriteString(" - ")
		case i > 0:
			expr.WriteString(" + ")
		}
		fmt.Fprintf(&expr, "%s(%s)", t.Field, FormatFloat(val(t.Field)))
	}
	reason := fmt.Sprintf("%s != %s(%s)", expr.String(), rel.Result, FormatFloat(val(rel.Result)))
	var blamed []string
	for _, name := range append(termFields(rel), rel.Result) {
		if !anchored[name] {
			blamed = append(blamed, name)
		}
	}
	if len(blamed) == 0 && fix != nil {
		// Every figure is where the source labels it, but the source also
		// labels one that balances the relation: the value beside it is the
		// wrong one of the two ("TAX 0.00" on a zero-rate row, "GST 1.22").
		// Terms only: a result beyond the balancing figure may be a later,
		// final one (a total with the tip), which the total's own checks read.
		for _, t := range rel.Terms {
			name, sign := t.Field, float64(t.Sign)
			want := (val(rel.Result) - (sum - sign*val(name))) * sign
			if math.Abs(want-val(name)) <= tol+1e-9 {
				continue
			}
			if a, ok := fix(name, want, tol); ok {
				c := rep[name]
				c.penalize(factorArithmetic, fmt.Sprintf("%s; the document also labels %s as %s (%s, line %d), which balances it",
					reason, a.Raw, strings.ReplaceAll(name, "_", " "), strings.TrimSpace(a.label), a.Line+1))
				rep[name] = c
				blamed = append(blamed, name)
			}
		}
		if len(blamed) > 0 {
			return
		}
	}
	if len(blamed) == 0 {
		c := rep[rel.Result]
		c.penalize(factorSourceDiffers, reason+" (the source's own figures disagree)")
		rep[rel.Result] = c
		return
	}
	for _, name := range blamed {
		c := rep[name]
		c.penalize(factorArithmetic, reason)
		rep[name] = c
	}
}

// fieldValue is a field's value in a relation.
type fieldValue struct {
	name string
	x    float64
}

func termFields(rel Relation) []string {
	out := make([]string, 0, len(rel.Terms)+1)
	for _, t := range rel.Terms {
		out = append(out, t.Field)
	}
	return out
}

// printedFix finds, for a money field with a role, an amount the document
// labels with that role and whose value is want.
func (d *doc) printedFix(s *Schema) func(field string, want, tol float64) (labelledAmount, bool) {
	return func(field string, want, tol float64) (labelledAmount, bool) {
		f, ok := s.Field(field)
		if !ok || f.Kind != KindMoney || f.Role == RoleNone {
			return labelledAmount{}, false
		}
		for _, a := range d.amounts {
			if a.role == f.Role && math.Abs(a.Value-want) <= tol+1e-9 {
				return a, true
			}
		}
		// Two parts on their own lines, each with its rate, that add up to
		// it: two rates' tax (10% and 8% 消費税, TVA A and B), CGST and SGST.
		// Without a rate a part may be a rounding read under a tax label.
		if a, b, ok := d.twoRateRows(f.Role, want); ok {
			sum := a
			sum.Raw = a.Raw + " and " + b.Raw
			sum.label = a.label + ", " + b.label
			return sum, true
		}
		return labelledAmount{}, false
	}
}

// rateOnLine reports a percentage printed on a's line: a rate row; or, for
// a tax alone under its rate's base ("8%対象 ¥302" / "内消費税 ¥22"), on the
// line above.
func (d *doc) rateOnLine(a labelledAmount) bool {
	if d.percentOn(a.Line) {
		return true
	}
	return a.role == RoleTax && a.Line > 0 && d.percentOn(a.Line-1) && d.baseAbove(a)
}

// baseAbove reports a tax alone on its line under a line that prints a
// base and no tax of its own ("8%対象 ¥302" over "内消費税 ¥22"), not
// under another tax's rate row ("VAT 11% 312,400" over "Airport tax").
func (d *doc) baseAbove(a labelledAmount) bool {
	n, base := 0, false
	for _, b := range d.amounts {
		if b.Line > a.Line {
			break
		}
		switch {
		case b.Line == a.Line:
			n++
		case b.Line == a.Line-1:
			if b.role == RoleTax {
				return false
			}
			base = true
		}
	}
	return n == 1 && base
}

func (d *doc) percentOn(li int) bool {
	ls, le := d.lineBounds(li)
	for k := ls; k < le && k < ls+200; k++ {
		if d.rs[k] == '%' || d.rs[k] == '％' {
			return true
		}
	}
	return false
}

// twoRateRows finds two amounts labelled r on their own lines (or under two
// different labels on one: "CGST 9%: 900.00   SGST 9%: 900.00"), each with
// its rate printed, that add up to x.
func (d *doc) twoRateRows(r Role, x float64) (labelledAmount, labelledAmount, bool) {
	var parts []labelledAmount
	for _, a := range d.amounts {
		if a.role == r && len(parts) < 16 && d.rateOnLine(a) {
			parts = append(parts, a)
		}
	}
	for i, a := range parts {
		for _, b := range parts[i+1:] {
			if (a.Line != b.Line || a.key != b.key) && math.Abs(a.Value+b.Value-x) < amountEpsilon {
				return a, b, true
			}
		}
	}
	return labelledAmount{}, labelledAmount{}, false
}
