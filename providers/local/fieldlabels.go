package local

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/reflect-mcp/reflect/pipeline"
)

// byFieldLabels reads a date, identifier or text field from the source labels its
// schema lists ("Collected: 2026-04-18", "Tracking number: JD0146…",
// "Patient: Maria Gonzalez"): the value after the label on its line. The
// gate checks the same labels, so a value taken this way is one the
// heuristics can confirm.
func (d *doc) byFieldLabels(f pipeline.Field) (found, bool) {
	if len(f.Labels) == 0 {
		return found{}, false
	}
	labels := longestFirst(f.Labels)
	lows := make([]string, len(labels))
	for i, lab := range labels {
		lows[i] = strings.ToLower(lab)
	}
	for li, ln := range d.lines {
		low := d.lowLine(li)
		for i, lab := range labels {
			at := labelAt(low, lows[i])
			if at < 0 || qualified(low[:at]) {
				continue
			}
			after := ln.start + len([]rune(ln.text[:at])) + len([]rune(lab))
			if f.Kind == pipeline.KindText && !colonFollows(d.rs, after, ln.end) {
				continue // "results for patient Ravi Shankar are attached" is prose, not a label
			}
			if v, conf, how, ok := d.valueAfter(f.Kind, after, ln.end); ok {
				return found{v, conf, fmt.Sprintf("after its label %q%s", lab, how), string(f.Kind) + ":field-label"}, true
			}
		}
	}
	return found{}, false
}

// valueAfter is the value of kind that follows a label ending at rune offset
// p, on the line ending at end.
func (d *doc) valueAfter(kind pipeline.Kind, p, end int) (any, float64, string, bool) {
	for p < end && strings.ContainsRune(" \t:#.-–", d.rs[p]) {
		p++
	}
	if p >= end {
		return nil, 0, "", false
	}
	switch kind {
	case pipeline.KindDate:
		// Dates are in text order: only the first at or after p can follow
		// the label with nothing but spaces between.
		k := sort.Search(len(d.dates), func(i int) bool { return d.dates[i].Start >= p })
		for _, m := range d.dates[k:min(k+1, len(d.dates))] {
			if m.Start < end && strings.TrimSpace(string(d.rs[p:m.Start])) == "" {
				iso, conf, how := d.resolve(m, d.dateOrder())
				if how != "" {
					how = "; " + how
				}
				return iso, 0.9 * conf, how, true
			}
		}
	case pipeline.KindIdentifier:
		q := p
		for q < end && !unicode.IsSpace(d.rs[q]) {
			q++
		}
		// "7712 3456 7890": digit groups split by single spaces are one number.
		for q+1 < end && d.rs[q] == ' ' && unicode.IsDigit(d.rs[q+1]) && unicode.IsDigit(d.rs[q-1]) {
			q++
			for q < end && !unicode.IsSpace(d.rs[q]) {
				q++
			}
		}
		tok := gluedLabelRE.ReplaceAllString(string(d.rs[p:q]), "")
		if i := strings.IndexByte(tok, '('); i > 0 {
			tok = tok[:i] // "K074-001096(06/12/2016)": the date glued after it
		}
		tok = strings.TrimRight(tok, ",;.:)")
		if _, ok := cleanID(tok); ok {
			return tok, 0.9, "", true // not an amount ("2,340.00" in a ledger) or a date
		}
	case pipeline.KindText:
		// A name runs to the end of its line, and only a short one is taken:
		// a run-on line ("Aisha Khan Specimen ID: X0042 …") is not a name.
		v := cleanName(string(d.rs[p:end]))
		if v != "" && !strings.ContainsAny(v, ":;") && len(strings.Fields(v)) <= 5 && !strings.ContainsFunc(v, unicode.IsDigit) {
			return v, 0.75, "", true
		}
	}
	return nil, 0, "", false
}

// gluedLabelRE is a second label glued to the first ("INV NO/DATE:K074"):
// the value starts after it.
var gluedLabelRE = regexp.MustCompile(`^/\p{L}+\s*[:#]\s*`)

// labelAt finds label in line at a word start, or -1.
func labelAt(line, label string) int {
	for from := 0; ; {
		i := strings.Index(line[from:], label)
		if i < 0 {
			return -1
		}
		i += from
		before := i == 0 || !isWordByte(line[i-1])
		j := i + len(label)
		after := j >= len(line) || !isWordByte(line[j])
		if before && after {
			return i
		}
		from = i + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// longestFirst orders labels so "delivery date" is tried before "date".
func longestFirst(labels []string) []string {
	out := append([]string(nil), labels...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// qualifiers turn a generic label into another one: "date" in "due date".
var qualifiers = map[string]bool{"due": true, "delivery": true, "ship": true, "shipping": true, "order": true,
	"expiry": true, "payment": true, "valid": true, "po": true, "customer": true, "account": true}

// qualified reports whether the word right before a label qualifies it.
func qualified(before string) bool {
	ws := strings.Fields(strings.TrimRight(before, " :"))
	return len(ws) > 0 && qualifiers[strings.Trim(ws[len(ws)-1], ".:#")]
}

// colonFollows reports a ':' right after p, past spaces.
func colonFollows(rs []rune, p, end int) bool {
	for p < end && rs[p] == ' ' {
		p++
	}
	return p < end && (rs[p] == ':' || rs[p] == '：')
}
