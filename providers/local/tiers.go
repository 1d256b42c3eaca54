package local

import "strconv"

// Evidence tiers: each way the rules find a value is a tier with its own
// confidence. The figures are what each tier's values scored against hand
// labels (SROIE receipts-dev, tuned; receipts-check, confirmed; see the
// README's "keyless extractor" section), rounded down, with one rule over
// them: evidence that nothing in the document corroborates stays below the
// gate's 0.70, however often it was right on the receipts seen so far. A
// tier whose confidence is high is one where a second, independent figure
// agrees (subtotal + tax = total, tendered − change = total, the same amount
// under two labels). The tier travels in pipeline.Evidence.Tier, so a
// calibrator can replace these figures with ones learned from reviews.
var tierConf = map[string]float64{
	"total:labelled+arithmetic": 0.95,
	"total:labelled+tendered":   0.95,
	"total:labelled+repeated":   0.9,
	"total:labelled+rounding":   0.9,
	"total:subtotal+tax":        0.85,
	"total:labelled+largest":    0.8,
	"total:labelled+items":      0.9,
	// A tax printed with its rate that the rate gives on this total (a
	// tax-included total): the till computed one from the other.
	"total:labelled+rate": 0.9,
	// No total label, but a tax "included in the total" whose rate gives it
	// on exactly one printed amount: the label and the figure agree.
	"total:tax-included+rate":        0.8,
	"total:labelled":                 0.65,
	"total:labelled-above":           0.6,
	"total:labelled-conflict":        0.5,
	"total:tendered-change=subtotal": 0.75,
	"total:tendered-change":          0.8,
	"total:guess-paid":               0.5,
	"total:guess-subtotal":           0.5,

	"subtotal:labelled+arithmetic": 0.95,
	"subtotal:labelled":            0.6,
	"subtotal:labelled-conflict":   0.3,
	"tax:labelled+arithmetic":      0.95,
	"tax:labelled":                 0.6,
	"tax:labelled-conflict":        0.5,
	"tax:labelled+rate":            0.9,
	"subtotal:summary+arithmetic":  0.95,
	"tax:summary+arithmetic":       0.95,
	"subtotal:summary":             0.3,
	"tax:summary":                  0.3,

	"date:labelled":           0.9,
	"date:labelled-several":   0.65,
	"date:only-date":          0.88,
	"date:several-unlabelled": 0.6,
	"date:fallback":           0.6,
	// The document's only date, in a shape without separators or glued to
	// its time, with the time printed next to it: the time is the second
	// signal a position alone lacks (the verify stage grounds these shapes).
	"date:fallback+time": 0.8,

	"id:transaction-label": 0.6,
	// The transaction number is also the end of the barcode's number
	// printed alone on a line: two parts of the till agree.
	"id:transaction-label+barcode": 0.85,
	"id:strong-label-short":        0.5,
	"id:strong-label":              0.9,
	"id:weak-word":                 0.65,
	// The document's word with a colon, then one whole token: a label.
	"id:word-colon":      0.8,
	"id:weak-word-short": 0.5,
	// A receipt's number under a loose word (TICKET, Bon, No., 流水号):
	// filled so a reviewer sees it, never passed on its own.
	"id:receipt-word": 0.55,

	"currency:iso-code":    0.95,
	"currency:iso-several": 0.6,
	"currency:symbol":      0.9,
	"currency:symbol-yen":  0.85,
	"currency:rm":          0.9,
	"currency:dollar-hint": 0.7,
	"currency:dollar-bare": 0.68,
	// No currency printed, but two independent kinds of issuer evidence
	// (its legal form or place name, and a number in its country's format)
	// imply the same one. The checks still mark it implied (×0.8).
	"currency:implied-issuer": 0.9,

	"vendor:label":                        0.9,
	"vendor:label+letterhead":             0.95,
	"vendor:prose":                        0.85,
	"vendor:prose+letterhead":             0.9,
	"vendor:prose-paid":                   0.65,
	"vendor:letterhead-suffix":            0.8,
	"vendor:letterhead-suffix-below-name": 0.65,
	"vendor:letterhead-joined":            0.65,
	"vendor:letterhead-suffix-not-first":  0.55,
	"vendor:letterhead-business-word":     0.6,
	// A distinctive word of the name printed again below the letterhead
	// (a footer, a web address) corroborates a one-line name; it cannot
	// tell a brand line from the company line below it, so those keep
	// their own figure.
	"vendor:first-line+repeated":                   0.85,
	"vendor:letterhead-business-word+repeated":     0.85,
	"vendor:letterhead-suffix+repeated":            0.9,
	"vendor:letterhead-suffix-below-name+repeated": 0.65,
	"vendor:letterhead-joined+repeated":            0.65,
	"vendor:letterhead-suffix-not-first+repeated":  0.55,
	"vendor:first-line":                            0.55,
	// The company line restates the short name printed above it: the
	// name is printed twice, and the line above is not a separate brand.
	"vendor:letterhead-suffix+restated": 0.85,
	// A company registration number printed with the name (in brackets on
	// its line, or alone on the line below) ties the number to that line:
	// the name the register knows. It says nothing about a brand line above
	// the company line (below-name) or where a joined name starts.
	"vendor:letterhead-joined+registered":           0.8,
	"vendor:damaged-word":                           0.4,
	"vendor:first-line+registered":                  0.8,
	"vendor:letterhead-business-word+registered":    0.8,
	"vendor:letterhead-suffix-not-first+registered": 0.8,
	"vendor:opening-suffix":                         0.75,
	"vendor:opening":                                0.55,
}

// tiered is a value found by the evidence of tier, at that tier's confidence.
func tiered(tier string, v any, method string) found {
	c, ok := tierConf[tier]
	if !ok {
		c = 0.5 // a tier nobody measured is a guess
	}
	return found{value: v, conf: c, method: method, tier: tier}
}

// TierConfidence is tier's confidence as the README's table prints it, or
// "read after the label" for a value found by a field's own label.
func TierConfidence(tier string) string {
	if c, ok := tierConf[tier]; ok {
		return strconv.FormatFloat(c, 'f', -1, 64)
	}
	return "read after the label"
}
