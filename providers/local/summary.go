package local

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A tax summary is a small table receipts and invoices print below the
// total: a header naming its columns ("GST SUMMARY AMOUNT TAX", "Netto MwSt
// Brutto") and rows of amounts under it, often with a TOTAL row. Its base and
// tax columns are the subtotal and tax when nothing else labels them, and,
// when they add up to the total, the arithmetic corroborates all three.

// summaryCols name a summary's columns: the taxed base, the tax, the gross.
var summaryCols = map[string]byte{
	"amount": 'B', "amt": 'B', "net": 'B', "nett": 'B', "netto": 'B', "excl": 'B', "goods": 'B', "value": 'B',
	"taxable": 'B', "ht": 'B', "base": 'B',
	"tax": 'T', "gst": 'T', "vat": 'T', "sst": 'T', "mwst": 'T', "ust": 'T', "tva": 'T', "iva": 'T',
	"total": 'G', "gross": 'G', "brutto": 'G', "incl": 'G', "ttc": 'G',
}

// summaryRows is how many lines under a header are read as its rows.
const summaryRows = 8

type taxSummary struct {
	base, tax float64
	ok        bool
}

// summaryCols reads a header line's column order, or "" when the line is no
// summary header: a base column followed by a tax column. Words before the
// first base column ("GST SUMMARY", "TAX CODE") are the table's title.
func headerCols(toks []string) string {
	var cols []byte
	for i := 0; i < len(toks); i++ {
		c, ok := summaryCols[toks[i]]
		// Two-word names: "GST EXCL" is the base, "GST AMT" and "TAX
		// AMOUNT" the tax.
		if ok && c == 'T' && i+1 < len(toks) {
			switch toks[i+1] {
			case "excl", "exc", "ex", "net", "nett":
				c, i = 'B', i+1
			case "amt", "amount":
				i++
			}
		}
		if ok && (len(cols) == 0 || cols[len(cols)-1] != c) {
			cols = append(cols, c)
		}
	}
	i := slices.Index(cols, 'B')
	if i < 0 {
		return ""
	}
	cols = cols[i:]
	if j := slices.Index(cols, 'T'); j < 0 {
		return ""
	}
	return string(cols)
}

// taxSummary finds the first tax summary: its TOTAL row, else the sum of its
// rows (one row per rate).
func (d *doc) taxSummary() taxSummary {
	for li, ln := range d.lines {
		if len(ln.text) > maxNameLine || d.amountsOn(li) != nil {
			continue
		}
		cols := headerCols(tokens(ln.text))
		if cols == "" {
			continue
		}
		var sum taxSummary
		rows := 0
		for k := li + 1; k < len(d.lines) && k <= li+summaryRows; k++ {
			ams := d.amountsOn(k)
			if len(ams) < len(cols) {
				if rows > 0 {
					break
				}
				continue // a units line, "(RM) (RM)"
			}
			row := ams[len(ams)-len(cols):]
			base, tax := row[strings.IndexByte(cols, 'B')].Value, row[strings.IndexByte(cols, 'T')].Value
			label := tokens(d.slice(d.lines[k].start, row[0].Start))
			if slices.Contains(label, "total") {
				return taxSummary{base: base, tax: tax, ok: true}
			}
			sum.base, sum.tax, sum.ok = round2(sum.base+base), round2(sum.tax+tax), true
			rows++
		}
		if sum.ok {
			return sum
		}
	}
	return taxSummary{}
}

// amountsOn lists the amounts printed on line li.
func (d *doc) amountsOn(li int) []amount {
	ln := d.lines[li]
	i := sort.Search(len(d.amounts), func(k int) bool { return d.amounts[k].Start >= ln.start })
	j := i
	for j < len(d.amounts) && d.amounts[j].Start < ln.end {
		j++
	}
	if i == j {
		return nil
	}
	return d.amounts[i:j]
}

var rateRE = regexp.MustCompile(`(\d{1,2}(?:[.,]\d{1,2})?)\s*%`)

// rateAgrees reports whether a tax label prints a rate ("GST @6%", "MwSt.
// 19 %") that gives the tax from the total it is part of: tax = rate × (total
// − tax), to the cent, allowing the total's rounding.
func rateAgrees(label string, tax, total float64) bool {
	m := rateRE.FindStringSubmatch(label)
	if m == nil {
		return false
	}
	r, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", "."), 64)
	if err != nil || r <= 0 || tax <= 0 || tax >= total {
		return false
	}
	diff := tax - r/100*(total-tax)
	return diff < 0.015 && diff > -0.015
}
