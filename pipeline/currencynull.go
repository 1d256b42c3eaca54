package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A null currency is an honest abstention only where the document prints
// none. omission reads a marker beside any amount, a column header and a
// sentence; these read what it misses: a code it knows as no marker
// ("RWF", "GEL" beside the total), the billed one of two ("Total RWF" over
// "Total USD"), a shared sign ("kr", "ريال") or a placed one ("Rs",
// "FCFA") that the issuer's country reads. A sign no cue reads (a bare
// "$") leaves the null alone: the document does not say which.

// billedOmission is the currency a document billing in two currencies
// bills in, decided as convertedCurrency decides it, for a null field.
func (d *doc) billedOmission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	b, code, why, ok := d.billedOfTwo()
	if !ok {
		return c, false
	}
	sp, _ := b.has(code)
	c.Spans = append(c.Spans, sp)
	c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document bills in %s (%s)", f.Words(), code, why))
	return c, true
}

// currencyOmission reads, for a null currency field, a currency the
// billed lines print that omission's readings missed.
func (d *doc) currencyOmission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	b := d.billed()
	if b.n > 0 && !b.shared {
		sp := b.spans[0]
		li := d.lineOf(sp.Start)
		ls, le := d.lineBounds(li)
		c.Spans = append(c.Spans, sp)
		c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %q beside its billed amounts (line %d: %q)",
			f.Words(), d.str(sp.Start, sp.End), li+1, strings.TrimSpace(d.str(ls, le))))
		return c, true
	}
	if code, sign, sp, hint, ok := d.placedSignRead(); ok {
		c.Spans = append(c.Spans, sp)
		c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints %q beside its amounts, and %s places it where that is %s",
			f.Words(), sign, hint, code))
		return c, true
	}
	return c, false
}

// placedSignRead is a sign several currencies share, printed beside an
// amount, and the currency the issuer's country reads it as: "kr" by
// Iceland's or Norway's names and numbers, "Rs" by Sri Lanka's, "FCFA" by
// Senegal's. ok is false where no cue says which.
func (d *doc) placedSignRead() (code, sign string, sp Span, hint string, ok bool) {
	first := d.firstPlacedSigns()
	for i, s := range placedSigns {
		if sp := first[i]; sp.End > sp.Start {
			if place, h, _ := d.placeOf(s.codes); place != "" {
				return place, s.sign, sp, "\"" + h + "\"", true
			}
		}
	}
	for _, a := range d.amounts {
		ls, le := d.lineBounds(a.Line)
		for _, w := range [...]Span{markerBefore(d.rs, ls, a.Start), markerAfter(d.rs, a.End, le)} {
			if w.End <= w.Start {
				continue
			}
			m := d.str(w.Start, w.End)
			if !sharedSigns[m] || d.asideCue(w.Start) != "" {
				continue
			}
			implied, h, _ := d.countryCurrency()
			if implied != "" && slicesHasSign(currencyMarkers[implied], m) {
				return implied, m, w, h, true
			}
			return "", "", Span{}, "", false // the first shared sign beside an amount decides nothing
		}
	}
	return "", "", Span{}, "", false
}

// maxPlacedSigns bounds placedSigns, so that firstPlacedSigns answers in
// an array.
const maxPlacedSigns = 16

// signNeedle is a placed sign folded as signSpans searches for it, and the
// signs of placedSigns it finds ("lei" finds "lei" and "Lei").
type signNeedle struct {
	r     []rune
	signs []int
}

// signNeedles are the placed signs that are no letter, by their folded
// first rune, the ASCII ones in an array: firstPlacedSigns asks of every
// rune of the text. Built once, read-only.
type signNeedles struct {
	ascii [utf8.RuneSelf][]signNeedle
	wide  map[rune][]signNeedle
}

func (s *signNeedles) of(r rune) []signNeedle {
	if r < utf8.RuneSelf {
		return s.ascii[r]
	}
	if len(s.wide) == 0 {
		return nil
	}
	return s.wide[r]
}

var placedSignNeedles = func() *signNeedles {
	s := &signNeedles{wide: map[rune][]signNeedle{}}
	for i, p := range placedSigns {
		if p.letter {
			continue
		}
		r := foldNeedle(p.sign, foldSpaces)
		ns := s.of(r[0])
		k := slices.IndexFunc(ns, func(n signNeedle) bool { return slices.Equal(n.r, r) })
		if k < 0 {
			k = len(ns)
			ns = append(ns, signNeedle{r: r})
		}
		ns[k].signs = append(ns[k].signs, i)
		if r[0] < utf8.RuneSelf {
			s.ascii[r[0]] = ns
		} else {
			s.wide[r[0]] = ns
		}
	}
	return s
}()

// firstPlacedSigns is, for each placed sign that is no letter, the first
// span signSpans gives it (zero for none), from one pass over the folded
// text: a search for each sign was most of what a null currency cost.
// No sign's folded text overlaps itself, so every occurrence is one the
// search would find.
func (d *doc) firstPlacedSigns() (first [maxPlacedSigns]Span) {
	f := d.fold
	for k, r := range f.r {
		for _, n := range placedSignNeedles.of(r) {
			m := len(n.r)
			if k+m > len(f.r) || !runesEqual(f.r[k:k+m], n.r) {
				continue
			}
			sp := Span{Start: f.origin(k), End: f.endOf(k + m - 1)}
			for _, i := range n.signs {
				if first[i].End == 0 && d.printsSign(placedSigns[i], sp) {
					first[i] = sp
				}
			}
		}
	}
	return first
}

// sharedSigns are the markers several currencies share ("$", "kr",
// "ريال"), weak words aside; built once, read-only.
var sharedSigns = func() map[string]bool {
	m := map[string]bool{}
	for _, ms := range currencyMarkers {
		for _, x := range ms {
			if x.shared && !x.weak {
				m[x.text] = true
			}
		}
	}
	return m
}()

// slicesHasSign reports a shared marker of ms printed as m.
func slicesHasSign(ms []currencyMarker, m string) bool {
	for _, x := range ms {
		if x.shared && x.text == m {
			return true
		}
	}
	return false
}
