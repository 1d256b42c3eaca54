package pipeline

import (
	"strings"
	"unicode"
)

// seriesNumber grounds an identifier a model joins from a series and a
// number printed apart on one line ("Serie A Nº 000123" returned as
// "A-000123", "A000123" or "A/000123"; "Serie: F   Folio: 4471" as
// "F-4471"): the number opens val's last digit run, the series is the rest,
// and the line prints the series as a token before the number with at most
// two number signs or words between ("Nº", "Folio:"). It returns the span
// from the series to the number, or the number's when a label between
// names it.
func (d *doc) seriesNumber(val string) (Span, bool) {
	rs := []rune(val)
	k := len(rs)
	for k > 0 && isDigit(rs[k-1]) {
		k--
	}
	if k == len(rs) || k == 0 {
		return Span{}, false
	}
	num := string(rs[k:])
	series := strings.TrimRight(string(rs[:k]), " -/._")
	if series == "" || strings.ContainsAny(series, " ") || !strings.ContainsFunc(series, unicode.IsLetter) && !strings.ContainsFunc(series, unicode.IsDigit) {
		return Span{}, false
	}
	for _, sp := range bounded(d.rs, d.fold.find(foldNeedle(num, foldSpaces))) {
		if sp.Start > 0 && !unicode.IsSpace(d.rs[sp.Start-1]) && d.rs[sp.Start-1] != ':' ||
			sp.End < len(d.rs) && !unicode.IsSpace(d.rs[sp.End]) && !strings.ContainsRune(",;.", d.rs[sp.End]) {
			continue // a part of a longer token
		}
		if s, ok := d.seriesBefore(sp.Start, series); ok {
			if h, labelled := d.labelBefore(sp.Start); labelled && h.start >= s {
				return sp, true // "Serie: F   Folio: 4471": Folio's number
			}
			return Span{Start: s, End: sp.End}, true
		}
	}
	return Span{}, false
}

// seriesBefore finds token series after a series word ("Serie", "Série")
// before p on p's line, with at most two number signs or words between
// ("Nº", "Folio:"); it returns where the series starts.
func (d *doc) seriesBefore(p int, series string) (int, bool) {
	ls := d.lineStarts[d.lineOf(p)]
	want := []rune(series)
	q := p
	for words := 0; words <= 2 && q > ls; {
		for q > ls && d.rs[q-1] == ' ' || q > ls && d.rs[q-1] == '\t' {
			q--
		}
		s := q
		for s > ls && !unicode.IsSpace(d.rs[s-1]) {
			s--
		}
		if s == q {
			break
		}
		tok := d.rs[s:q]
		for len(tok) > 0 && strings.ContainsRune(":-/.,", tok[len(tok)-1]) {
			tok = tok[:len(tok)-1]
		}
		if strings.EqualFold(string(tok), series) && len(tok) == len(want) {
			return s, d.seriesWordBefore(ls, s)
		}
		var buf [16]byte
		w, ok := lowerWord(buf[:0], tok)
		if !ok || !numberSigns[string(w)] && !seriesNumberWords[string(w)] {
			return 0, false // only a number sign or word stands between
		}
		words++
		q = s
	}
	return 0, false
}

// seriesNumberWords name the number after a series ("Serie: F  Folio: 4471").
var seriesNumberWords = map[string]bool{"folio": true, "número": true, "numero": true, "number": true, "nro": true,
	"nro.": true, "número:": true, "numero:": true, "folio:": true, "nº:": true, "n°:": true, "no:": true, "nr:": true}

// seriesWords name a series ("Serie A 000123").
var seriesWords = map[string]bool{"serie": true, "série": true, "series": true, "seria": true, "serija": true, "sèrie": true}

// seriesWordBefore reports a series word just before s on the line that
// starts at ls.
func (d *doc) seriesWordBefore(ls, s int) bool {
	q := s
	for q > ls && (d.rs[q-1] == ' ' || d.rs[q-1] == ':' || d.rs[q-1] == '\t') {
		q--
	}
	b := q
	for b > ls && unicode.IsLetter(d.rs[b-1]) {
		b--
	}
	var buf [16]byte
	w, ok := lowerWord(buf[:0], d.rs[b:q])
	return ok && seriesWords[string(w)]
}
