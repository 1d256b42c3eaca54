package pipeline

import (
	"strings"
	"unicode"
)

// Party blocks that PDF text lays out in two columns, interleaved line by
// line ("ACME GmbH            Rechnungsempfänger:" / "Hauptstr. 1
// Beta AG"), and customer headings set apart from their block by one blank
// line ("BILL TO" / "" / "Greenfield School").

// columnBlockLabel is the customer label heading the column that holds the
// name at p on line li, when the line is cut in columns (a gap of three
// spaces before the name, or after it when it opens the line): the nearest
// segment above in p's column, through at most three lines of that block
// and none blank there, that is a customer heading. A heading naming
// another party (the seller's "Verkäufer:") ends the search.
func (d *doc) columnBlockLabel(li, p int) string {
	ls, le := d.lineBounds(li)
	if !d.inColumn(ls, le, p) {
		return ""
	}
	col := p - ls
	for k := li - 1; k >= 0 && k >= li-4; k-- {
		seg := d.columnSegment(k, col)
		if seg == "" {
			return ""
		}
		if l := customerHeading(seg); l != "" {
			return l
		}
		if partyHeading(strings.TrimRight(seg, ":：")) {
			return ""
		}
	}
	return ""
}

// inColumn reports a name at p on the line [ls, le) that stands in one of
// its columns: after a gap of three spaces, or opening a line that has one
// after it.
func (d *doc) inColumn(ls, le, p int) bool {
	if p-ls >= 3 && d.rs[p-1] == ' ' && d.rs[p-2] == ' ' && d.rs[p-3] == ' ' {
		return strings.TrimSpace(d.str(ls, p)) != ""
	}
	if strings.TrimSpace(d.str(ls, p)) != "" {
		return false
	}
	rest := strings.TrimSpace(d.str(p, le))
	return strings.Contains(rest, "   ")
}

// columnSegment is the text of line k in the column at col: from where the
// column starts (two runes of slack, back to the start of a word the
// column cuts) to the next gap of three spaces; "" when the line is
// shorter or blank there.
func (d *doc) columnSegment(k, col int) string {
	ks, ke := d.lineBounds(k)
	if col < 0 || ks+col >= ke {
		return ""
	}
	start := ks + max(col-2, 0)
	for start > ks && !unicode.IsSpace(d.rs[start-1]) {
		start--
	}
	seg := strings.TrimSpace(d.str(start, ke))
	if i := strings.Index(seg, "   "); i > 0 {
		seg = seg[:i]
	}
	return strings.TrimSpace(seg)
}

// headingOverBlank is the customer label of line k when the line is a
// customer heading of at most two words more than its label ("BILL TO",
// "Datos del Cliente:"), for a block under it after one blank line: a
// heading some layouts set one blank line above its block.
func (d *doc) headingOverBlank(k int) string {
	if k < 0 {
		return ""
	}
	l := d.lineHeading(k)
	if l == "" {
		return ""
	}
	ks, ke := d.lineBounds(k)
	if len(LabelTokens(d.str(ks, ke))) > len(LabelTokens(l))+2 {
		return ""
	}
	return l
}

// underCustomerLabel reports a line inside a block a customer label opens:
// the label alone on a line above ("Bill to:", "Herrn", "Datos del
// cliente"), with no blank line between, or one under a heading alone
// (headingOverBlank).
func (d *doc) underCustomerLabel(li int) bool { return d.customerBlockLabel(li) != "" }

// customerBlockLabel is the label of the customer block holding line li, or
// "": a label line (ending in a colon, the label alone, or a short heading
// naming the customer) above it with no blank line between; or, for the
// block's first line, a heading alone one blank line above it.
func (d *doc) customerBlockLabel(li int) string {
	for k := li - 1; k >= 0 && k >= li-4; k-- {
		ls, le := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ls, le); a == b {
			if k == li-1 {
				return d.headingOverBlank(k - 1)
			}
			return ""
		}
		if l := d.lineHeading(k); l != "" {
			return l
		}
	}
	return ""
}

// lineHeading is customerHeading of line k, once per document: the party
// checks ask it of the lines above each name they read.
func (d *doc) lineHeading(k int) string {
	if d.facts.headings == nil {
		d.facts.headings = d.lent.headingBuf(len(d.lineStarts))
	}
	return d.facts.headings[k].get(func() string {
		ls, le := d.lineBounds(k)
		return customerHeading(strings.TrimSpace(d.str(ls, le)))
	})
}
