package local

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline"
)

// roleOther marks labels that take a number away from every role: cash
// tendered, change, rounding, discounts, quantities, reference numbers.
const roleOther pipeline.Role = "other"

// otherLabels compete with the schema's role labels, so "CASH 50.00" is not
// read as a total and "total qty" beats "total".
var otherLabels = []string{
	"cash", "change", "change due", "tendered", "tender", "paid", "paid amount", "payment", "received", "cash received",
	"visa", "mastercard", "master", "amex", "card", "credit card", "debit", "credit", "voucher", "deposit", "eftpos",
	"rounding", "round", "round amt", "round adj", "rounding adj", "rounding adjustment", "rounding adjustement",
	"round adjustmt", "rounded", "adjustment",
	"discount", "disc", "savings", "saving", "you saved", "total savings", "total saving", "total discount",
	"total item discount", "total promotional saving",
	"qty", "qnty", "quantity", "total qty", "total quantity", "total items", "total item", "total item s", "item count",
	"hours", "hrs", "total hours", "total hrs", "total time", "units", "total units", "pcs", "total pcs", "pieces",
	"kg", "total kg", "weight", "total weight", "pages", "total pages", "km", "total km", "miles",
	"no of items", "points", "total points", "member points", "pax", "table", "total qty tender",
	"tel", "fax", "phone", "no", "id", "reg", "reg no", "ref", "invoice no", "receipt no", "bill no", "doc no",
	"approval code", "terminal", "batch", "trace", "cashier", "slip", "pos", "rc earned", "total sv", "total gv",
	"total ev", "total qu", "changes", "posted change",
}

// extraLabels widen a role's default labels with the forms receipts print.
// They are used only when the schema field keeps the default labels.
var extraLabels = map[pipeline.Role][]string{
	pipeline.RoleSubtotal: {"total sales excluding", "sub total", "nett of tax", "net of tax", "montant net", "net ht",
		"montant ht", "total ht", "amt paid excl", "amount paid excl", "total excl of", "total excluded"},
	pipeline.RoleTax: {"tax total", "gst total", "total tax", "total gst", "total vat", "gst payable", "tax amount",
		"vat amount", "消費税", "mwst", "ust"},
	pipeline.RoleTotal: {"final total", "total after rounding", "total atter rounding", "rounded total", "total sales",
		"amt paid incl", "amount paid incl", "total amt payable", "amt payable", "total amount payable", "total amount due",
		"total rm", "total myr", "合計", "ttl", "gesamtsumme", "endbetrag", "total a pagar", "importe total"},
}

// finalTotalLabels name the amount actually payable after rounding; they win
// over a plain or tax-inclusive "total".
var finalTotalLabels = map[string]bool{
	"final total": true, "total after rounding": true, "total atter rounding": true, "rounded total": true,
	"grand total": true, "nett total": true, "net total": true, "total payable": true, "amount payable": true,
	"amt payable": true, "total amt payable": true, "total amount payable": true, "total due": true, "amount due": true,
	"total amount due": true, "balance due": true, "total rm": true, "total myr": true, "gesamtbetrag": true,
	"total ttc": true, "to pay": true, "please pay": true, "montant total": true,
}

// modifierWords turn a neighbouring tax label into a qualifier of another
// label: "total incl. gst", "total (excluding gst)", "total due (gst inc)".
var modifierWords = map[string]bool{
	"incl": true, "inc": true, "including": true, "inclusive": true, "include": true, "included": true, "includes": true,
	"excl": true, "exc": true, "ex": true, "excluding": true, "exclude": true, "exclusive": true, "excluded": true,
	"before": true, "after": true, "with": true, "w": true, "without": true, "of": true, "plus": true, "less": true,
}

// exclusionWords make a total a pre-tax amount.
var exclusionWords = map[string]bool{
	"excl": true, "exc": true, "ex": true, "excluding": true, "exclude": true, "exclusive": true, "excluded": true,
	"before": true, "without": true, "less": true,
}

// inclusionWords mark a total that already holds its tax.
var inclusionWords = map[string]bool{
	"incl": true, "inc": true, "including": true, "inclusive": true, "include": true, "included": true, "with": true,
}

type label struct {
	tokens []string
	key    string
	role   pipeline.Role
}

// labelSet is every label that can claim a number. Roles the schema lacks
// still compete: "total excl. GST" is not a total even when no field takes
// the subtotal.
type labelSet struct {
	labels []label
	// byFirst indexes labels by their first token, so classify compares a
	// token only with the labels that can start there.
	byFirst map[string][]int
}

func newLabelSet(s *pipeline.Schema) *labelSet {
	ls := &labelSet{byFirst: map[string][]int{}}
	seen := map[string]bool{}
	add := func(text string, r pipeline.Role) {
		toks := tokens(text)
		key := strings.Join(toks, " ")
		if key == "" || seen[key] {
			return
		}
		seen[key] = true
		ls.byFirst[toks[0]] = append(ls.byFirst[toks[0]], len(ls.labels))
		ls.labels = append(ls.labels, label{tokens: toks, key: key, role: r})
	}
	declared := map[pipeline.Role]bool{}
	for _, f := range s.Fields {
		if f.Kind != pipeline.KindMoney || f.Role == pipeline.RoleNone {
			continue
		}
		declared[f.Role] = true
		for _, l := range f.RoleLabels() {
			add(l, f.Role)
		}
		if len(f.Labels) == 0 {
			for _, l := range extraLabels[f.Role] {
				add(l, f.Role)
			}
		}
	}
	for _, r := range []pipeline.Role{pipeline.RoleSubtotal, pipeline.RoleTax, pipeline.RoleTotal} {
		if !declared[r] {
			for _, l := range pipeline.DefaultRoleLabels(r) {
				add(l, r)
			}
			for _, l := range extraLabels[r] {
				add(l, r)
			}
		}
	}
	for _, l := range otherLabels {
		add(l, roleOther)
	}
	return ls
}

// tokens lowercases s and splits it into words, dropping punctuation so
// "TOTAL(INCL.GST)" and "total incl gst" read alike. Chinese and Japanese
// write no spaces, so each of their characters is a token of its own and
// "消費税" is found inside "うち消費税".
func tokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '&')
	}) {
		if !strings.ContainsFunc(w, isCJK) {
			out = append(out, w)
			continue
		}
		start := 0
		for i, r := range w {
			if isCJK(r) {
				if start < i {
					out = append(out, w[start:i])
				}
				out = append(out, string(r))
				start = i + utf8.RuneLen(r)
			}
		}
		if start < len(w) {
			out = append(out, w[start:])
		}
	}
	return out
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

type hit struct {
	start, end int // token indexes, end exclusive
	lab        *label
}

// verdict is what a label segment says about the number next to it.
type verdict struct {
	role      pipeline.Role
	label     string // the chosen label, normalized
	final     bool   // a final-payable total label
	inclusive bool   // a total that states it includes tax
	ok        bool
}

// classify reads the label segment next to a number and decides its role:
// the nearest label that is not a qualifier of another one.
func (ls *labelSet) classify(seg string) verdict {
	toks := tokens(seg)
	if len(toks) == 0 {
		return verdict{}
	}
	var hits []hit
	for k, t := range toks {
		for _, i := range ls.byFirst[t] {
			l := &ls.labels[i]
			if n := len(l.tokens); k+n <= len(toks) && tokensEqual(toks[k:k+n], l.tokens) {
				hits = append(hits, hit{start: k, end: k + n, lab: l})
			}
		}
	}
	if len(hits) == 0 {
		return verdict{}
	}
	kept := uncovered(hits)
	nonTax := false
	for _, h := range kept {
		if h.lab.role != pipeline.RoleTax {
			nonTax = true
		}
	}
	excluded, included := false, false
	var best *hit
	for i := range kept {
		h := &kept[i]
		before := window(toks, h.start-2, h.start)
		after := window(toks, h.end, h.end+1)
		if h.lab.role == pipeline.RoleTax && nonTax && (anyIn(before, modifierWords) || best != nil && anyIn(after, modifierWords)) {
			excluded = excluded || anyIn(before, exclusionWords)
			included = included || anyIn(before, inclusionWords) || anyIn(after, inclusionWords)
			continue
		}
		if h.lab.role == roleOther && best != nil && anyIn(window(toks, h.start-1, h.start), modifierWords) {
			continue // "total after rounding"
		}
		best = h
	}
	if best == nil {
		return verdict{}
	}
	v := verdict{role: best.lab.role, label: best.lab.key, ok: true}
	if v.role == pipeline.RoleTotal {
		if excluded || anyIn(toks[best.end:], exclusionWords) {
			v.role = pipeline.RoleSubtotal
		}
		v.final = finalTotalLabels[best.lab.key]
		v.inclusive = included || anyIn(toks[best.end:], inclusionWords)
	}
	return v
}

// uncovered drops hits covered by a longer one ("total" inside "total incl
// gst") and returns the rest in text order. Sorted by start, longest first,
// a hit is covered exactly when an earlier hit reaches at least as far.
func uncovered(hits []hit) []hit {
	slices.SortFunc(hits, func(a, b hit) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(b.end, a.end)
	})
	kept := hits[:0:0]
	reach := -1
	for _, h := range hits {
		if h.end > reach {
			kept = append(kept, h)
		}
		reach = max(reach, h.end)
	}
	return kept
}

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

func anyIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}
