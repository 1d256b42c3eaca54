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
