package pipeline

import (
	"sort"
	"strings"
	"unicode"
)

// folded is a text lowered and with whitespace runs collapsed to one space,
// remembering where each folded rune came from in the original.
type folded struct {
	r     []rune
	start []int // original code-point offset of each folded rune
	end   []int // original end (exclusive) of each folded rune
}

// foldMode says what folding drops besides case.
type foldMode int

const (
	foldSpaces  foldMode = iota // collapse whitespace runs to one space
	foldCompact                 // drop whitespace and hyphens ("INV-1001" = "INV 1001" = "INV1001")
	foldAlnum                   // keep only letters and digits ("SDN. BHD." = "SDN BHD")
)

func keepRune(r rune, mode foldMode) bool {
	switch mode {
	case foldCompact:
		return !unicode.IsSpace(r) && !isHyphen(r)
	case foldAlnum:
		// Combining marks stay: "Re\u0301sume\u0301" is "Résumé", not "Resume",
		// exactly as its precomposed spelling is.
		return isAlnum(r) || unicode.Is(unicode.M, r)
	}
	return true
}

func isHyphen(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '−', '_':
		return true
	}
	return false
}

func foldRunes(rs []rune, mode foldMode) folded {
	f := folded{r: make([]rune, 0, len(rs)), start: make([]int, 0, len(rs)), end: make([]int, 0, len(rs))}
	for i, r := range rs {
		if mode == foldSpaces && unicode.IsSpace(r) {
			if n := len(f.r); n > 0 && f.r[n-1] == ' ' {
				f.end[n-1] = i + 1
				continue
			}
			f.r = append(f.r, ' ')
			f.start = append(f.start, i)
			f.end = append(f.end, i+1)
			continue
		}
		if !keepRune(r, mode) {
			continue
		}
		f.r = append(f.r, unicode.ToLower(r))
		f.start = append(f.start, i)
		f.end = append(f.end, i+1)
	}
	return f
}

// foldNeedle folds a needle the same way, trimming surrounding whitespace.
func foldNeedle(s string, mode foldMode) []rune {
	f := foldRunes([]rune(strings.TrimSpace(s)), mode)
	return f.r
}

// find returns the non-overlapping occurrences of needle as original spans.
func (f folded) find(needle []rune) []Span {
	m := len(needle)
	if m == 0 || m > len(f.r) {
		return nil
	}
	var out []Span
	for k := 0; k+m <= len(f.r); {
		if f.r[k] == needle[0] && runesEqual(f.r[k:k+m], needle) {
			out = append(out, Span{Start: f.start[k], End: f.end[k+m-1]})
			k += m
			continue
		}
		k++
	}
	return out
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FindSpans returns the occurrences of needle in text, ignoring case and
// treating any run of whitespace in either as one space. Spans are code-point
// offsets into text as given, end exclusive.
func FindSpans(text, needle string) []Span {
	return foldRunes([]rune(text), foldSpaces).find(foldNeedle(needle, foldSpaces))
}

// bounded keeps the spans that do not start or end inside a word: "ACME"
// must not ground in "ACMEX", nor "12" in "X12".
func bounded(rs []rune, spans []Span) []Span {
	return keepBounded(rs, spans, isAlnum)
}

// letterBounded keeps spans not glued to letters on either side; digits may
// touch ("RM12.00").
func letterBounded(rs []rune, spans []Span) []Span {
	return keepBounded(rs, spans, unicode.IsLetter)
}

// keepBounded drops spans whose edge runes and their outer neighbours are both
// word runes, and spans that end before a combining mark: "Cafe" is not in
// "Cafe\u0301" (é written as e and an accent), and a span must not cut a
// character in two.
func keepBounded(rs []rune, spans []Span, word func(rune) bool) []Span {
	var out []Span
	for _, s := range spans {
		if s.Start > 0 && word(rs[s.Start]) && word(rs[s.Start-1]) {
			continue
		}
		if s.End < len(rs) && (word(rs[s.End-1]) && word(rs[s.End]) || unicode.Is(unicode.M, rs[s.End])) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// currencyMarker is a symbol or word that names a currency in running text.
type currencyMarker struct {
	text string
	// shared is true when the marker names several currencies ("$", "¥");
	// primary is the currency a bare marker conventionally means, if any.
	shared  bool
	primary bool
}

// currencyMarkers maps ISO 4217 codes to how documents write them. The code
// itself always counts too.
var currencyMarkers = map[string][]currencyMarker{
	"USD": {{text: "US$"}, {text: "U.S. dollars"}, {text: "$", shared: true, primary: true}, {text: "dollars", shared: true, primary: true}, {text: "dollar", shared: true, primary: true}},
	"EUR": {{text: "€"}, {text: "euros"}, {text: "euro"}},
	"GBP": {{text: "£"}, {text: "pounds sterling"}, {text: "pound sterling"}, {text: "sterling"}, {text: "pounds", shared: true, primary: true}},
	"JPY": {{text: "円"}, {text: "yen"}, {text: "¥", shared: true}, {text: "￥", shared: true}},
	"CNY": {{text: "RMB"}, {text: "人民币"}, {text: "元"}, {text: "yuan"}, {text: "¥", shared: true}, {text: "￥", shared: true}},
	"MYR": {{text: "RM"}, {text: "ringgit"}},
	"SGD": {{text: "S$"}, {text: "SG$"}, {text: "$", shared: true}},
	"AUD": {{text: "A$"}, {text: "AU$"}, {text: "$", shared: true}},
	"CAD": {{text: "C$"}, {text: "CA$"}, {text: "$", shared: true}},
	"HKD": {{text: "HK$"}, {text: "$", shared: true}},
	"NZD": {{text: "NZ$"}, {text: "$", shared: true}},
	"MXN": {{text: "MX$"}, {text: "$", shared: true}},
	"INR": {{text: "₹"}, {text: "Rs."}, {text: "Rs"}, {text: "rupees"}, {text: "rupee"}},
	"IDR": {{text: "Rp"}, {text: "rupiah"}},
	"KRW": {{text: "₩"}},
	"PHP": {{text: "₱"}},
	"THB": {{text: "฿"}, {text: "baht"}},
	"BRL": {{text: "R$"}},
	"RUB": {{text: "₽"}},
	"PLN": {{text: "zł"}},
	"CHF": {{text: "Fr."}},
}

// amountMarkers are the currency markers that may sit glued to an amount,
// longest first so "US$" is stripped before "$".
var amountMarkers = func() []string {
	seen := map[string]bool{}
	var out []string
	for code, ms := range currencyMarkers {
		for _, m := range append([]currencyMarker{{text: code}}, ms...) {
			if !seen[m.text] && !strings.Contains(m.text, " ") {
				seen[m.text] = true
				out = append(out, m.text)
			}
		}
	}
	for _, c := range []string{"SEK", "NOK", "DKK", "ZAR", "TWD", "VND", "AED", "SAR", "kr"} {
		if !seen[c] {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}()

// isAmountMarker reports whether a run of letters glued to a number is a
// currency marker ("RM12.00", "12.00EUR").
func isAmountMarker(w string) bool {
	if len(w) == 3 && strings.ToUpper(w) == w {
		_, known := currencyMarkers[w]
		return known || w == "SEK" || w == "NOK" || w == "DKK" || w == "ZAR"
	}
	switch w {
	case "RM", "Rs", "Rp", "kr", "RMB":
		return true
	}
	return false
}

// currencyEvidence finds where the source states currency code: the code
// itself, or a symbol or name that maps to it. factor is below 1 when the
// only evidence is a marker shared with other currencies.
func currencyEvidence(rs []rune, f folded, code string) (spans []Span, factor float64, reason string) {
	if sp := bounded(rs, f.find(foldNeedle(code, foldSpaces))); len(sp) > 0 {
		return sp, 1, ""
	}
	var sharedSpans []Span
	var sharedMarker string
	primary := false
	for _, m := range currencyMarkers[code] {
		sp := letterBounded(rs, f.find(foldNeedle(m.text, foldSpaces)))
		if len(sp) == 0 {
			continue
		}
		if !m.shared {
			return sp, 1, ""
		}
		if sharedSpans == nil {
			sharedSpans, sharedMarker, primary = sp, m.text, m.primary
		}
	}
	if sharedSpans == nil {
		return nil, 0, ""
	}
	if primary {
		return sharedSpans, 1, ""
	}
	return sharedSpans, 0.85, `"` + sharedMarker + `" is shared by several currencies; ` + code + " is not stated"
}
