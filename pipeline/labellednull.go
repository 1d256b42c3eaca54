package pipeline

import (
	"fmt"
	"strings"
	"unicode"
)

// A null text field whose own label the document prints with a value
// after it ("Customer: Jane Doe", "Project: Harbour Bridge") states what
// the record left out, as a date or a number after its label does; the
// issuer's name has its own reading (issuerOmission).

// labelledTextOmission reports a null text field with labels when one of
// them is printed with a value after it on its line.
func (d *doc) labelledTextOmission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	if len(f.Labels) == 0 {
		return c, false
	}
	own := fieldLabelOwner(f.Name)
	for _, h := range d.fieldHits {
		if h.role != own {
			continue
		}
		sp, ok := d.valueAfterLabel(h.end)
		if !ok {
			continue
		}
		c.Spans = append(c.Spans, sp)
		c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %q after %q",
			f.Words(), d.str(sp.Start, sp.End), strings.TrimSpace(h.text)))
		return c, true
	}
	return c, false
}

// valueAfterLabel is the rest of the line after a label that ends at p,
// past a colon, dash or spaces, when it holds a letter or a digit.
func (d *doc) valueAfterLabel(p int) (Span, bool) {
	ls, le := d.lineBounds(d.lineOf(max(p-1, 0)))
	if p < ls || p > le {
		return Span{}, false
	}
	s := p
	for s < le && (unicode.IsSpace(d.rs[s]) || d.rs[s] == ':' || d.rs[s] == '-' || d.rs[s] == '#' || d.rs[s] == '：') {
		s++
	}
	e := le
	for e > s && unicode.IsSpace(d.rs[e-1]) {
		e--
	}
	for k := s; k < e; k++ {
		if isWordRune(d.rs[k]) {
			return Span{Start: s, End: e}, true
		}
	}
	return Span{}, false
}
