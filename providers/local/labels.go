package local

import (
	"github.com/reflect-mcp/reflect/pipeline"
)

// Money labels come from pipeline's lexicon, the one the heuristics read, so
// a role the extractor gives a number is the role the checks expect for it
// (TestExtractorAndHeuristicsAgreeOnEveryLabel).

// roleOther marks labels that take a number away from every role: cash
// tendered, change, rounding, discounts, quantities, reference numbers.
const roleOther = pipeline.RoleOther

// tokens lowercases s and splits it into words the way the lexicon does.
func tokens(s string) []string { return pipeline.LabelTokens(s) }

func window(toks []string, a, b int) []string {
	a = max(a, 0)
	b = min(b, len(toks))
	if a >= b {
		return nil
	}
	return toks[a:b]
}

func tokensEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// classify is the lexicon's verdict on a label segment, with the two ways a
// tax word qualifies another quantity rather than naming the tax:
//   - "GST included in total", "total included GST", "includes GST of": the
//     amount is the tax a total holds, whatever "total" says;
//   - "TOTAL (GST INCL)", "AMOUNT INCL. GST", "AMT EXCL. GST": a tax word
//     after another word and next to incl/excl says what the amount holds;
//     the amount is a total (incl) or a pre-tax amount (excl).
func (d *doc) classify(seg string) pipeline.LabelVerdict {
	v := d.labels.Classify(seg)
	if !v.OK {
		return v
	}
	toks := tokens(seg)
	if v.Role == pipeline.RoleTotal && v.Label == "total" {
		// "ITEM TOTAL 3": the count or sum of one line, not the document's.
		for i := 1; i < len(toks); i++ {
			if toks[i] == "total" && (toks[i-1] == "item" || toks[i-1] == "items" || toks[i-1] == "line") {
				return pipeline.LabelVerdict{Role: roleOther, Label: "item total", Start: v.Start, End: v.End, OK: true}
			}
		}
	}
	isTax := func(i int) bool {
		if i < 0 || i >= len(toks) {
			return false
		}
		r, ok := d.labels.Role(toks[i])
		return ok && r == pipeline.RoleTax
	}
	for i, t := range toks {
		if t != "included" && t != "includes" && t != "enthalten" && t != "enthaltene" {
			continue
		}
		taxBefore := false
		for k := range i {
			taxBefore = taxBefore || isTax(k)
		}
		if isTax(i+1) || i+1 < len(toks) && toks[i+1] == "in" && taxBefore {
			return pipeline.LabelVerdict{Role: pipeline.RoleTax, Label: v.Label, Start: v.Start, End: v.End, OK: true}
		}
	}
	if v.Role != pipeline.RoleTax {
		return v
	}
	qualifier := func(i int) (incl, excl bool) {
		if i < 0 || i >= len(toks) {
			return false, false
		}
		return pipeline.IsInclusionWord(toks[i]), pipeline.IsExclusionWord(toks[i])
	}
	for i := range toks {
		if !isTax(i) {
			continue
		}
		inA, exA := qualifier(i + 1)
		inB, exB := qualifier(i - 1)
		var incl, excl bool
		switch {
		case i >= 1 && (inA || exA):
			incl, excl = inA, exA
		case i >= 2 && (inB || exB):
			incl, excl = inB, exB
		}
		if incl {
			return pipeline.LabelVerdict{Role: pipeline.RoleTotal, Label: v.Label, Start: v.Start, End: v.End, Inclusive: true, OK: true}
		}
		if excl {
			return pipeline.LabelVerdict{Role: pipeline.RoleSubtotal, Label: v.Label, Start: v.Start, End: v.End, Excluded: true, OK: true}
		}
	}
	return v
}
