package pipeline

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// folded is a text lowered and with whitespace runs collapsed to one space,
// remembering where each folded rune came from in the original.
type folded struct {
	r []rune
	// start is the original code-point offset of each folded rune, nil
	// while folding dropped none (each is where it was): most documents
	// print no run of spaces, and the offsets were a third of analyze's
	// bytes.
	start []int32
	// b is r as bytes when every folded rune is ASCII (an ASCII text's
	// fold, textRunes'), nil otherwise: find then searches it with the
	// vectorised byte search instead of comparing rune by rune.
	b []byte
}

// origin is the original offset of folded rune k.
func (f folded) origin(k int) int {
	if f.start == nil {
		return k
	}
	return int(f.start[k])
}

// endOf is the original end (exclusive) of folded rune k. Needles and labels
// are trimmed, so a match never ends on a collapsed space run.
func (f folded) endOf(k int) int { return f.origin(k) + 1 }

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
	f := folded{r: make([]rune, 0, len(rs))}
	for i, r := range rs {
		if uint32(r) >= utf8.RuneSelf {
			r = narrowRune(r) // only non-ASCII runes narrow
		}
		switch {
		case mode == foldSpaces && isSpace(r):
			if n := len(f.r); n > 0 && f.r[n-1] == ' ' {
				f.dropped(len(rs))
				continue
			}
			r = ' '
		case mode != foldSpaces && !keepRune(r, mode):
			f.dropped(len(rs))
			continue
		default:
			r = toLower(r)
		}
		f.r = append(f.r, r)
		if f.start != nil {
			f.start = append(f.start, int32(i))
		}
	}
	return f
}

// dropped notes that folding dropped a rune of a text of n runes: from here
// on the folded runes are not where they were, so their offsets are kept.
func (f *folded) dropped(n int) { f.droppedIn(n, nil) }

// droppedIn is dropped with the offsets in sc's list when sc is not nil:
// a document that prints a run of spaces (a column gap) needs a list as
// long as its text, most of what folding it allocated.
func (f *folded) droppedIn(n int, sc *scratch) {
	if f.start != nil {
		return
	}
	f.start = sc.startBuf(n)[:len(f.r)]
	for k := range f.start {
		f.start[k] = int32(k)
	}
}

// isSpace is unicode.IsSpace with the ASCII runes decided inline: folding
// asks it of every rune of every document.
func isSpace(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return r == ' ' || uint32(r)-'\t' < 5 // \t \n \v \f \r
	}
	return unicode.IsSpace(r)
}

// toLower is unicode.ToLower with the ASCII runes lowered inline.
func toLower(r rune) rune {
	if uint32(r) < utf8.RuneSelf {
		if uint32(r)-'A' < 26 {
			r += 'a' - 'A'
		}
		return r
	}
	return wideLower(r)
}

// wideLower is unicode.ToLower of a rune beyond ASCII, the runes from
// U+2CF3 to U+A63F (CJK, kana, Hangul jamo, Yi) answered without unicode's
// case tables: none of them has a lowercase. It is not inlined, so that
// toLower is.
//
//go:noinline
func wideLower(r rune) rune {
	if uint32(r)-0x2CF3 < 0xA640-0x2CF3 {
		return r
	}
	return unicode.ToLower(r)
}

// foldNeedle folds a needle the same way as foldRunes, trimming surrounding
// whitespace. It folds the string in place of converting it to runes first and
// keeps no offsets: checks fold a needle per field, and the two extra lists
// were a third of what they allocated.
func foldNeedle(s string, mode foldMode) []rune {
	s = strings.TrimSpace(s)
	return appendNeedle(make([]rune, 0, len(s)), s, mode)
}

// appendNeedle is foldNeedle of a trimmed s appended to out, which is
// empty: a check that looks its value up once folds it into a list on its
// stack.
func appendNeedle(out []rune, s string, mode foldMode) []rune {
	for _, r := range s {
		if uint32(r) >= utf8.RuneSelf {
			r = narrowRune(r)
		}
		switch {
		case mode == foldSpaces && isSpace(r):
			if n := len(out); n > 0 && out[n-1] == ' ' {
				continue
			}
			r = ' '
		case mode != foldSpaces && !keepRune(r, mode):
			continue
		default:
			r = toLower(r)
		}
		out = append(out, r)
	}
	return out
}

// find returns the non-overlapping occurrences of needle as original spans.
func (f folded) find(needle []rune) []Span {
	m := len(needle)
	if m == 0 || m > len(f.r) {
		return nil
	}
	if m >= skipFindMin {
		return f.findSkipping(needle)
	}
	if f.b != nil {
		return f.findBytes(needle)
	}
	var out []Span
	for k := 0; k+m <= len(f.r); {
		if f.r[k] == needle[0] && runesEqual(f.r[k:k+m], needle) {
			out = append(out, Span{Start: f.origin(k), End: f.endOf(k + m - 1)})
			k += m
			continue
		}
		k++
	}
	return out
}

// findBytes is find of a needle shorter than skipFindMin in an ASCII fold
// (f.b): narrowed to bytes, it is looked for by bytes.Index, which reads
// the text many bytes at a time. A needle beyond ASCII is in no ASCII
// text. (A longer needle is found sooner by findSkipping: its first byte,
// often a digit, recurs too often for bytes.Index.)
func (f folded) findBytes(needle []rune) []Span {
	var buf [skipFindMin]byte
	m := len(needle)
	for i, r := range needle {
		if uint32(r) >= utf8.RuneSelf {
			return nil
		}
		buf[i] = byte(r)
	}
	nb := buf[:m]
	var out []Span
	for k := 0; k+m <= len(f.b); {
		i := bytes.Index(f.b[k:], nb)
		if i < 0 {
			break
		}
		k += i
		out = append(out, Span{Start: f.origin(k), End: f.endOf(k + m - 1)})
		k += m
	}
	return out
}

// skipFindMin is the shortest needle findSkipping looks for: a shorter one
// skips too little to pay for its table.
const skipFindMin = 4

// findSkipping is find by Horspool's rule: the window's last rune says how
// far the needle can move, so a search reads about one rune in len(needle)
// of a text where it does not occur, where reading every rune was most of
// what grounding a value cost. The table is indexed by the runes' low byte;
// runes sharing one keep the shortest move, which misses no occurrence.
func (f folded) findSkipping(needle []rune) []Span {
	m := len(needle)
	// last is 1 + the last index before m-1 at which a rune with that low
	// byte stands in needle, 0 for none: a window ending in such a rune
	// moves m - last.
	var last [256]int32
	for i, r := range needle[:m-1] {
		last[byte(r)] = int32(i + 1)
	}
	var out []Span
	hay, tail, head := f.r, needle[m-1], needle[:m-1]
	for k := 0; k+m <= len(hay); {
		c := hay[k+m-1]
		if c == tail && runesEqual(hay[k:k+m-1], head) {
			out = append(out, Span{Start: f.origin(k), End: f.endOf(k + m - 1)})
			k += m
			continue
		}
		k += m - int(last[byte(c)])
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
	return keepSpans(spans, func(s Span) bool { return isBounded(rs, s, word) })
}

// keepSpans keeps the spans keep accepts: nil when none is, and spans
// itself, not a copy, when all are, as most often.
func keepSpans(spans []Span, keep func(Span) bool) []Span {
	all := 0
	for all < len(spans) && keep(spans[all]) {
		all++
	}
	if all == len(spans) {
		if all == 0 {
			return nil
		}
		return spans
	}
	out := append([]Span(nil), spans[:all]...) // nil when none is kept
	for _, s := range spans[all+1:] {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// isBounded reports a span keepBounded keeps.
func isBounded(rs []rune, s Span, word func(rune) bool) bool {
	if s.Start > 0 && word(rs[s.Start]) && word(rs[s.Start-1]) {
		return false
	}
	return s.End >= len(rs) || !(word(rs[s.End-1]) && word(rs[s.End]) || unicode.Is(unicode.M, rs[s.End]))
}

// currencyMarker is a symbol or word that names a currency in running text.
type currencyMarker struct {
	text string
	// shared is true when the marker names several currencies ("$", "¥");
	// primary is the currency a bare marker conventionally means, if any.
	shared  bool
	primary bool
	// weak markers are also common words or units ("KM" a distance, "BD"
	// an abbreviation, "sol" a word): they ground their own currency but
	// never decide the document's, and are not stripped from amounts.
	weak bool
}

// currencyMarkers maps ISO 4217 codes to how documents write them. The code
// itself always counts too.
var currencyMarkers = map[string][]currencyMarker{
	// A bare "$" is USD only by habit: it is the symbol of a dozen dollars.
	"USD": {{text: "US$"}, {text: "U.S. dollars"}, {text: "U.S."}, {text: "$", shared: true}, {text: "dollars", shared: true}, {text: "dollar", shared: true}},
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
	"ARS": {{text: "AR$"}, {text: "$", shared: true}},
	"CLP": {{text: "CLP$"}, {text: "$", shared: true}},
	"COP": {{text: "COL$"}, {text: "$", shared: true}},
	"INR": {{text: "₹"}, {text: "Rs."}, {text: "Rs"}, {text: "rupees"}, {text: "rupee"}},
	"IDR": {{text: "Rp"}, {text: "rupiah"}},
	"KRW": {{text: "₩"}, {text: "원"}},
	"PHP": {{text: "₱"}},
	"THB": {{text: "฿"}, {text: "baht"}, {text: "บาท"}},
	// Signs and local abbreviations printed next to amounts.
	"ILS": {{text: "₪"}, {text: "ש\"ח"}, {text: "NIS"}},
	"NGN": {{text: "₦"}, {text: "naira"}},
	"TRY": {{text: "₺"}, {text: "TL"}},
	"CZK": {{text: "Kč"}},
	"HUF": {{text: "Ft"}, {text: "forint"}},
	"KES": {{text: "KSh"}, {text: "Ksh"}, {text: "KShs"}},
	"SAR": {{text: "ر.س"}, {text: "﷼"}, {text: "ريال", shared: true}},
	"EGP": {{text: "ج.م"}, {text: "E£"}},
	"BRL": {{text: "R$"}},
	"RUB": {{text: "₽"}},
	"PLN": {{text: "zł"}},
	"CHF": {{text: "Fr."}},
	// "kr" is the krona and both kroner: the issuer's country decides.
	"SEK": {{text: "kr", shared: true}},
	"NOK": {{text: "kr", shared: true}},
	"DKK": {{text: "kr", shared: true}},
	// A dollar sign with a prefix names its own dollar ("FJ$ 120.00" is
	// the Fiji dollar, never USD); "B$" is Brunei's and the Bahamas', so
	// the issuer's country decides between those two. "C$" is Canada's
	// and Nicaragua's: placedSigns decides between them.
	"BND": {{text: "B$", shared: true}, {text: "BN$"}},
	"BSD": {{text: "B$", shared: true}, {text: "BS$"}},
	"FJD": {{text: "FJ$"}},
	"JMD": {{text: "J$"}, {text: "JA$"}},
	"XCD": {{text: "EC$"}},
	"BZD": {{text: "BZ$"}},
	"BBD": {{text: "Bds$"}, {text: "BDS$"}, {text: "BB$"}},
	"KYD": {{text: "CI$"}, {text: "KY$"}},
	"GYD": {{text: "G$"}, {text: "GY$"}},
	"NAD": {{text: "N$"}},
	"TWD": {{text: "NT$"}},
	"MOP": {{text: "MOP$"}},
	"SBD": {{text: "SI$"}},
	"WST": {{text: "WS$"}},
	"TOP": {{text: "T$"}},
	"DOP": {{text: "RD$"}},
	"TTD": {{text: "TT$"}},
	"ZWL": {{text: "Z$"}},
	// Local signs and abbreviations of less common currencies. The
	// two-letter ones that are also words or units are weak.
	"BAM": {{text: "KM", weak: true}, {text: "konvertibilna marka", weak: true}},
	"MKD": {{text: "ден"}, {text: "ден."}, {text: "denar", weak: true}, {text: "denari", weak: true}},
	"AMD": {{text: "֏"}, {text: "դր."}, {text: "dram", weak: true}},
	"GEL": {{text: "₾"}, {text: "lari", weak: true}},
	"AZN": {{text: "₼"}, {text: "manat", weak: true, shared: true}},
	"TMT": {{text: "manat", weak: true, shared: true}},
	"UZS": {{text: "so'm"}, {text: "soʻm"}, {text: "сўм"}, {text: "som", weak: true, shared: true}},
	"KGS": {{text: "сом"}, {text: "som", weak: true, shared: true}},
	"KZT": {{text: "₸"}, {text: "тенге", weak: true}, {text: "tenge", weak: true}},
	"LAK": {{text: "₭"}, {text: "kip", weak: true}},
	"MMK": {{text: "Ks"}, {text: "ကျပ်"}, {text: "kyat", weak: true}, {text: "kyats", weak: true}},
	"NPR": {{text: "रु"}, {text: "NRs"}, {text: "रू"}},
	"GHS": {{text: "GH₵"}, {text: "GH¢"}, {text: "₵"}, {text: "cedi", weak: true}, {text: "cedis", weak: true}},
	"TND": {{text: "DT", weak: true}, {text: "د.ت"}},
	"KWD": {{text: "KD", weak: true}, {text: "د.ك"}},
	"BHD": {{text: "BD", weak: true}, {text: "د.ب"}},
	"OMR": {{text: "RO", weak: true}, {text: "ر.ع."}, {text: "ر.ع"}, {text: "ريال", shared: true}},
	"JOD": {{text: "JD", weak: true}, {text: "د.أ"}, {text: "د.ا"}},
	"RON": {{text: "Lei"}, {text: "lei"}, {text: "LEI", weak: true}},
	"BGN": {{text: "лв"}, {text: "лв."}, {text: "лева", weak: true}},
	"MNT": {{text: "₮"}, {text: "төгрөг", weak: true}},
	"KHR": {{text: "៛"}, {text: "riel", weak: true}, {text: "riels", weak: true}},
	"TZS": {{text: "TSh"}, {text: "TShs"}},
	"UGX": {{text: "USh"}, {text: "UShs"}},
	"ETB": {{text: "Br", weak: true}, {text: "ብር"}, {text: "birr", weak: true}},
	"HNL": {{text: "Lps."}, {text: "Lps"}, {text: "lempiras", weak: true}, {text: "lempira", weak: true}},
	"ALL": {{text: "Lekë"}, {text: "lekë"}, {text: "Lek", weak: true}, {text: "lek", weak: true}},
	"BTN": {{text: "Nu.", weak: true}, {text: "ngultrum", weak: true}},
	"GTQ": {{text: "quetzales", weak: true}, {text: "quetzal", weak: true}},
	"PYG": {{text: "₲"}, {text: "Gs."}, {text: "Gs"}, {text: "guaraníes", weak: true}},
	"BOB": {{text: "Bs", weak: true, shared: true}, {text: "bolivianos", weak: true}},
	"VES": {{text: "Bs", weak: true, shared: true}, {text: "Bs.S", weak: true}},
	"PEN": {{text: "S/"}, {text: "soles", weak: true}},
	"CRC": {{text: "₡"}, {text: "colones", weak: true}},
	"UAH": {{text: "₴"}, {text: "грн", weak: true}},
	"VND": {{text: "₫"}},
	"BDT": {{text: "৳"}, {text: "টাকা"}, {text: "taka", weak: true}, {text: "Tk", weak: true}},
	// Local words and signs in their own scripts: a receipt in Reykjavík
	// prints "kr.", one in Riyadh or Doha "ريال", one in Tehran "ریال"
	// (the Persian yeh), one in Yangon "ကျပ်". A shared one ("ريال",
	// "درهم") is read by the issuer's country as "kr" is.
	"ISK": {{text: "kr", shared: true}},
	"IRR": {{text: "ریال"}},
	"QAR": {{text: "QR", weak: true}, {text: "ر.ق"}, {text: "ريال", shared: true}},
	"YER": {{text: "ر.ي"}, {text: "ريال", shared: true}},
	"AED": {{text: "د.إ"}, {text: "درهم", shared: true}, {text: "Dhs", weak: true}},
	"MAD": {{text: "د.م."}, {text: "درهم", shared: true}},
	"LKR": {{text: "රු"}, {text: "ரூ"}},
	"IQD": {{text: "د.ع"}},
	"DZD": {{text: "د.ج"}},
	"LBP": {{text: "ل.ل"}},
	"SYP": {{text: "ل.س"}},
	"AFN": {{text: "؋"}},
}

// foldedMarkers is currencyMarkers with each marker folded as foldNeedle
// folds it (foldSpaces), index for index: currencyEvidence reads every
// marker of a code for each currency it grounds, and folding them there
// each time was about 4k instructions a golden document. Built once, never
// written.
var foldedMarkers = func() map[string][][]rune {
	out := make(map[string][][]rune, len(currencyMarkers))
	for code, ms := range currencyMarkers {
		fs := make([][]rune, len(ms))
		for i, m := range ms {
			fs[i] = foldNeedle(m.text, foldSpaces)
		}
		out[code] = fs
	}
	return out
}()

// amountMarkers are the currency markers that may sit glued to an amount,
// longest first so "US$" is stripped before "$".
var amountMarkers = func() []string {
	seen := map[string]bool{}
	var out []string
	for code, ms := range currencyMarkers {
		for _, m := range append([]currencyMarker{{text: code}}, ms...) {
			if !seen[m.text] && !strings.Contains(m.text, " ") && !m.weak {
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
	if len(w) == 3 && strings.ToUpper(w) == w && w[0] < 0x80 {
		_, known := currencyMarkers[w]
		return known || w == "SEK" || w == "NOK" || w == "DKK" || w == "ZAR"
	}
	switch w {
	case "RM", "Rs", "Rp", "kr", "RMB", "円", "元", "원":
		return true
	}
	return false
}

// currencyEvidence finds where the source states currency code by a symbol
// or name that maps to it; the code itself its caller grounds in context.
// factor is below 1 when the only evidence is a marker shared with other
// currencies.
func currencyEvidence(rs []rune, f folded, t *trigramSet, code string) (spans []Span, factor float64, reason string) {
	var sharedSpans []Span
	var sharedMarker string
	primary := false
	folded := foldedMarkers[code]
	for i, m := range currencyMarkers[code] {
		// Most markers are absent from a document: the trigram set says
		// so without reading the text.
		n := folded[i]
		if !t.mayHoldRunes(n) {
			continue
		}
		sp := letterBounded(rs, f.find(n))
		if m.text == "$" {
			sp = bareDollars(rs, sp)
		}
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
	if sharedSpans == nil && code == "CVE" {
		// The cifrão ("1.250$00") is the escudo's, and Cape Verde's the one
		// escudo left.
		for p, r := range rs {
			if r == '$' && isCifrao(rs, p) {
				sharedSpans = append(sharedSpans, Span{Start: p, End: p + 1})
			}
		}
		if sharedSpans != nil {
			return sharedSpans, 1, ""
		}
	}
	if sharedSpans == nil {
		for sign, c := range letterSigns {
			if c == code {
				if sp := letterSignSpans(rs, sign); len(sp) > 0 {
					return sp, 1, ""
				}
			}
		}
		return nil, 0, ""
	}
	if primary {
		return sharedSpans, 1, ""
	}
	if code == "USD" {
		if other, hint := dollarHint(rs, f); other != "" {
			return sharedSpans, 0.3, fmt.Sprintf(`a bare %q with "%s" in the document points to %s, not USD`, sharedMarker, hint, other)
		}
		return sharedSpans, 0.85, fmt.Sprintf(`a bare %q could be USD, AUD, CAD, …; USD is not stated`, sharedMarker)
	}
	if code == "JPY" || code == "CNY" {
		// "¥" is the yen and the yuan: the document's script decides.
		if other, hint := yenScript(rs); other != "" && other != code {
			return sharedSpans, 0.3, fmt.Sprintf(`a bare %q on a document written in %s points to %s, not %s`, sharedMarker, hint, other, code)
		} else if other == code {
			return sharedSpans, 1, ""
		}
	}
	if other, _ := dollarHint(rs, f); other == code && sharedMarker == "$" {
		return sharedSpans, 1, ""
	}
	// A shared sign ("$") while the document states another currency's code
	// ("USD") names that currency, not this one.
	if other := statedCode(rs, f, code); other != "" {
		return sharedSpans, 0.3, fmt.Sprintf(`%q is shared, and the document states %s, not %s`, sharedMarker, other, code)
	}
	return sharedSpans, 0.85, `"` + sharedMarker + `" is shared by several currencies; ` + code + " is not stated"
}

// bareDollars drops the "$" of a prefixed dollar ("FJ$", "NT$", "B$"):
// its prefix names another currency, so it is no bare "$". It drops the
// cifrão too, the "$" that separates escudos from centavos between digits
// ("1.250$00", Cape Verde's and once Portugal's): no dollar is written so.
func bareDollars(rs []rune, spans []Span) []Span {
	out := spans[:0:0]
	for _, s := range spans {
		if s.Start > 0 && unicode.IsLetter(rs[s.Start-1]) || isCifrao(rs, s.Start) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// isCifrao reports a "$" at p with a digit before it and exactly two
// digits after it.
func isCifrao(rs []rune, p int) bool {
	return p > 0 && p+2 < len(rs) && isDigit(rs[p-1]) && isDigit(rs[p+1]) && isDigit(rs[p+2]) &&
		(p+3 == len(rs) || !isDigit(rs[p+3]))
}

// letterSignSpans are the places a letter sign (letterSigns) stands for
// its currency: at a word's start, right before an amount with cents
// (past one space).
func letterSignSpans(rs []rune, sign string) []Span {
	r := []rune(sign)[0]
	var out []Span
	for p := 0; p < len(rs); p++ {
		if rs[p] != r || p > 0 && isAlnum(rs[p-1]) {
			continue
		}
		q := p + 1
		if q < len(rs) && rs[q] == ' ' {
			q++
		}
		e := q
		for e < len(rs) && (isDigit(rs[e]) || (rs[e] == ',' || rs[e] == '.' || rs[e] == ' ') && e+1 < len(rs) && isDigit(rs[e+1])) {
			e++
		}
		if e > q && centsEnd(rs, q, e) && (e == len(rs) || !isAlnum(rs[e])) {
			out = append(out, Span{Start: p, End: p + 1})
		}
	}
	return out
}

// statedCode is another currency's ISO code that the document writes out and
// whose markers include one of code's shared signs.
func statedCode(rs []rune, f folded, code string) string {
	shared := map[string]bool{}
	for _, m := range currencyMarkers[code] {
		if m.shared {
			shared[m.text] = true
		}
	}
	for _, other := range slices.Sorted(maps.Keys(currencyMarkers)) {
		if other == code {
			continue
		}
		for _, m := range currencyMarkers[other] {
			if shared[m.text] && len(bounded(rs, f.find(foldNeedle(other, foldSpaces)))) > 0 {
				return other
			}
		}
	}
	return ""
}

// dollarHints are words that place a "$" document outside the US, checked in
// order: a stated code or prefixed symbol first, then tax and company forms.
var dollarHints = []struct{ code, text string }{
	{"AUD", "AUD"}, {"AUD", "A$"}, {"AUD", "AU$"},
	{"CAD", "CAD"}, {"CAD", "C$"}, {"CAD", "CA$"},
	{"NZD", "NZD"}, {"NZD", "NZ$"},
	{"SGD", "SGD"}, {"SGD", "S$"}, {"SGD", "SG$"},
	{"HKD", "HKD"}, {"HKD", "HK$"},
	{"ARS", "ARS"}, {"CLP", "CLP"}, {"COP", "COP"},
	{"CAD", "HST"},
	// The peso countries' tax identifiers and tax offices: an Argentine
	// CUIT or IIBB perception, a Chilean R.U.T., a Colombian NIT or DIAN.
	{"ARS", "CUIT"}, {"ARS", "IIBB"}, {"ARS", "AFIP"}, {"CLP", "R.U.T."}, {"CLP", "RUT"},
	{"COP", "NIT"}, {"COP", "DIAN"},
	{"AUD", "ABN"}, {"AUD", "Pty Ltd"}, {"AUD", "Pty. Ltd"}, {"AUD", "Pty. Ltd."},
	// The currency named in words: "Montants en dollars canadiens", "(… PESOS 50/100 M.N.)".
	{"CAD", "dollars canadiens"}, {"CAD", "Canadian dollars"}, {"CAD", "dollar canadien"},
	{"MXN", "MXN"}, {"MXN", "M.N."}, {"MXN", "pesos"}, {"MXN", "S.A. de C.V."},
	{"AUD", "Australian dollars"}, {"NZD", "New Zealand dollars"}, {"SGD", "Singapore dollars"},
}

// provinces name Canada's provinces: with "GST" they make a "$" Canadian.
var provinces = []string{"Ontario", "Quebec", "Québec", "British Columbia", "Alberta", "Manitoba",
	"Saskatchewan", "Nova Scotia", "New Brunswick", "Newfoundland", "Prince Edward Island"}

// provinceCodes must be written in capitals: "on" and "ab" are words.
var provinceCodes = []string{"ON", "QC", "BC", "AB", "MB", "SK", "NS", "NB", "NL", "PE"}

// dollarHint names the non-US dollar a document points to and the words that
// say so, or "" when nothing does.
func dollarHint(rs []rune, f folded) (code, hint string) {
	has := func(t string) bool { return len(letterBounded(rs, f.find(foldNeedle(t, foldSpaces)))) > 0 }
	for _, h := range dollarHints {
		if has(h.text) {
			return h.code, h.text
		}
	}
	if !has("GST") {
		return "", ""
	}
	for _, p := range provinces {
		if has(p) {
			return "CAD", "GST" + `" and "` + p
		}
	}
	for _, p := range provinceCodes {
		for _, sp := range bounded(rs, f.find(foldNeedle(p, foldSpaces))) {
			if string(rs[sp.Start:sp.End]) == p {
				return "CAD", "GST" + `" and "` + p
			}
		}
	}
	return "AUD", "GST"
}

// otherFieldLabels are built-in labels that name a value of a kind no schema
// field takes: a due date is a date, but not the invoice date. They compete
// with the fields' own labels, longest match first, as money roles do.
var otherFieldLabels = map[Kind][]string{
	KindDate: otherDateLabels,
	KindIdentifier: {"po", "p.o.", "po no", "po number", "po #", "purchase order", "purchase order no", "order",
		"order no", "order number", "order #", "order id", "customer", "customer no", "customer id", "customer number",
		"account", "account no", "account number", "acct", "acct no", "abn", "vat", "vat no", "vat reg", "vat number",
		"vat id", "tax id", "gst reg", "gst reg no", "gst id", "tel", "phone", "fax", "kundennummer", "kunden-nr",
		"ust-idnr", "bestellnummer", "auftragsnummer", "siret", "n° tva", "nif", "cif", "partita iva", "p.iva",
		// Another party's reference: "ref" alone is the invoice's, "your ref" is not.
		"your ref", "your reference", "your order", "customer ref", "client ref", "buyer's ref", "shipper's ref",
		"shipper ref", "shippers ref", "order ref", "po ref", "kundennr", "kunden nr", "kd-nr", "kd nr",
		"ihre bestellung", "ihr zeichen", "votre référence", "votre réf", "su referencia",
		// Registration and tax numbers of the parties.
		"ust-id", "ust id", "ust-id-nr", "steuernummer", "steuer-nr", "st.-nr", "hrb", "handelsregister", "uid",
		"siren", "rcs", "tva intracommunautaire", "n° tva intracommunautaire", "cnpj", "cpf", "rfc", "uuid",
		"folio fiscal", "gstin", "pan", "vat reg no", "vat registration", "vat registration no", "company reg",
		"company reg no", "company registration", "company no", "registration no", "reg. no", "co reg no",
		"co. reg. no", "roc no", "brn", "uen", "tin", "統一社会信用代码", "统一社会信用代码", "纳税人识别号", "登録番号",
		// Places, payment and other documents.
		"zip", "postcode", "room", "room no", "zimmer", "zimmer nr", "table no", "tisch", "auth", "auth code",
		"approval", "account ends", "card no", "member no", "store", "store no", "store #", "markt", "filiale",
		"tracking", "tracking no", "awb", "b/l no", "container"},
}

// fieldLabelOwner keys a label to the field that owns it; built-in
// competitors are owned by no field. Labels of different owners are kept
// in one set, so the longest match decides between "invoice" and "invoice
// date".
func fieldLabelOwner(name string) Role { return Role("field:" + name) }

const builtinLabelOwner Role = "field:"

// fieldLabelSet is every non-money field's own labels and the built-in
// competitors, or nil when no such field lists labels.
func fieldLabelSet(s *Schema) []roleLabel {
	var out []roleLabel
	for _, f := range s.Fields {
		if f.Kind == KindMoney || f.Kind == KindCurrency {
			continue
		}
		for _, l := range f.Labels {
			out = append(out, roleLabel{folded: foldLabel(l), key: LabelKey(l), role: fieldLabelOwner(f.Name)})
		}
	}
	if out == nil {
		return nil
	}
	for _, ls := range [][]string{otherFieldLabels[KindDate], otherFieldLabels[KindIdentifier], notTheNumberLabels, otherNumberLabels, referenceLabels} {
		for _, l := range ls {
			out = append(out, roleLabel{folded: foldLabel(l), key: LabelKey(l), role: builtinLabelOwner})
		}
	}
	return out
}

// tokenAfter is the value a label names on its own line: the next run of
// non-space characters after separators, if it holds a digit.
func tokenAfter(rs []rune, end int) (Span, bool) {
	p := end
	// A spreadsheet pasted as text separates its cells with ';' or '|', or
	// quotes them and separates them with ',' ("Invoice no","GT-041").
	for p < len(rs) && (strings.ContainsRune(" \t:：#.;|\"", rs[p]) || rs[p] == ',' && p > end && rs[p-1] == '"') {
		p++
	}
	// "INV NO/DATE:15403-119386(29/07/2016)": a second label glued to the
	// first names a pair, whose first value is the number.
	if p < len(rs) && rs[p] == '/' {
		k := p + 1
		for k < len(rs) && unicode.IsLetter(rs[k]) {
			k++
		}
		if k > p+1 && k < len(rs) && rs[k] == ':' {
			p = k + 1
			for p < len(rs) && rs[p] == ' ' {
				p++
			}
		}
	}
	p = skipNumberSign(rs, p)
	q := p
	for q < len(rs) && !unicode.IsSpace(rs[q]) && !(rs[q] == '(' && q > p) && rs[q] != ';' && rs[q] != '|' && rs[q] != '"' {
		q++
	}
	for q > p && strings.ContainsRune(",;.:)", rs[q-1]) {
		q--
	}
	if q == p || !slices.ContainsFunc(rs[p:q], unicode.IsDigit) {
		return Span{}, false
	}
	return Span{Start: p, End: q}, true
}

// hasComponent reports whether val is one of the parts of a composite token
// ("51234" in "180605134500_51234_ABC"): the label names the composite, and
// the value inside it is the document's number, not a contradiction.
func hasComponent(tok, val string) bool {
	parts := strings.FieldsFunc(strings.ToUpper(tok), func(r rune) bool { return !isAlnum(r) })
	return len(parts) > 1 && slices.Contains(parts, strings.ToUpper(val))
}

// lineAfter is the text a label names when the value is a name: the rest of
// its line after separators, trimmed.
func lineAfter(rs []rune, end int) string {
	p := end
	for p < len(rs) && (rs[p] == ' ' || rs[p] == '\t' || rs[p] == ':' || rs[p] == '-') {
		p++
	}
	q := p
	for q < len(rs) && rs[q] != '\n' && rs[q] != '\r' {
		q++
	}
	return strings.TrimSpace(string(rs[p:q]))
}

// checkLabelled penalizes a grounded date, identifier or text value that the
// source labels as something else (a due date, a PO number) while it labels
// another value with the field's own labels. With no own-labelled value
// elsewhere there is nothing to go on, and no penalty.
func (d *doc) checkLabelled(c *FieldCheck, f Field, val string) {
	own := fieldLabelOwner(f.Name)
	var other labelHit
	q := d.quotedFrom()
	quotedOut := q >= 0 && d.statesOutside(f, q)
	if f.Kind == KindIdentifier {
		if phrase := d.otherInvoiceOnly(f, c.Spans, val); phrase != "" {
			c.penalizeOtherInvoice(f, val, phrase)
			return
		}
		if phrase, what := d.otherDocOnly(f, c.Spans); phrase != "" {
			c.penalizeOtherDoc(f, val, phrase, what)
			return
		}
	}
	for _, sp := range c.Spans {
		if quotedOut && sp.Start >= q {
			continue // the quoted earlier message's labels name its own values
		}
		h, ok := d.labelBefore(sp.Start)
		if ok && h.role == own && f.Kind == KindDate {
			if o, dated := d.datedForOther(h); dated {
				h = o
			}
		}
		if a, above := d.labelAbove(sp); !ok && above && a.role == builtinLabelOwner && other.text == "" {
			other = a // named by the heading over it
		}
		switch {
		case !ok:
		case h.role == own:
			if f.Kind == KindIdentifier {
				if loose, tok, rank, ok := d.outranked(f, c.Spans, val); ok {
					c.penalizeOutranked(f, val, loose, tok, rank)
				}
			}
			if f.Kind == KindDate {
				if l := d.qualifiedDateLabel(h); l != "" && d.issueDateElsewhere(own, val) {
					c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, another date than the %s", val, l, f.Words()))
					return
				}
				d.twoLabelledDates(c, f, val, q, quotedOut)
			}
			return
		case other.text == "":
			other = h
		}
	}
	// No occurrence carries the field's own label. If the document labels a
	// different value with it, this one is not the field's, whatever label
	// (or none) stands before it.
	if f.Kind == KindIdentifier {
		if mask, ok := d.cardDigits(c.Spans); ok {
			c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed only as the last digits of a masked card number (%s%s): the card's, not the %s",
				val, mask, val, f.Words()))
			return
		}
	}
	var labelled string
	var by labelHit
	if f.Kind == KindDate {
		for _, m := range d.dates {
			h, ok := d.labelBefore(m.Start)
			if !ok {
				h, ok = d.labelAbove(Span{Start: m.Start, End: m.End})
			}
			if _, dated := d.datedForOther(h); ok && dated {
				continue // "Договор № 12 от 15.01.2025": the contract's date
			}
			if anchored := !ok && !readsAs(m.ISO, val) && d.anchoredDate(m); anchored ||
				ok && h.role == own && !readsAs(m.ISO, val) && !d.otherEventDate(own, h, m) {
				labelled = m.ISO[0]
				if m.Ambiguous || buddhistEra(labelled) {
					labelled = m.Raw
				}
				break
			}
		}
		if labelled == "" {
			if iso, ok := d.vietnameseIssueDate(); ok && iso != val {
				labelled = iso
			}
		}
	} else if f.Kind == KindText {
		// A name runs to the end of its line: "Patient: Maria Gonzalez".
		want := string(foldNeedle(val, foldAlnum))
		for _, h := range d.fieldHits {
			if h.role != own {
				continue
			}
			if rest := lineAfter(d.rs, h.end); rest != "" && string(foldNeedle(rest, foldAlnum)) != want {
				labelled = rest
				break
			}
		}
	} else {
		// The number the surest own label names; a loose one ("Ref",
		// "Folio") is no proof of which number is the document's.
		rank := 0
		for _, h := range d.fieldHits {
			if h.role != own {
				continue
			}
			if r := d.ownRank(h); r > rank {
				sp, ok := numberAfter(d.rs, h.end)
				if !ok {
					sp, ok = d.tokenBelow(h)
				}
				if ok {
					if tok := string(d.rs[sp.Start:sp.End]); !sameNumber(tok, val) &&
						(!hasComponent(tok, val) || d.storeNumber(tok, val)) {
						labelled, by, rank = tok, h, r
					}
				}
			}
		}
		if rank == rankLoose {
			c.penalizeLooseOther(f, val, other, by, labelled)
			return
		}
	}
	if labelled == "" {
		if h := d.otherNamed(f, c.Spans); h.text != "" {
			c.penalizeOtherNamed(f, val, h)
		} else if h := d.neverIssueNamed(f, c.Spans); h.text != "" {
			c.penalizeOtherNamed(f, val, h)
		} else if h, n, ok := d.listedUnder(f, c.Spans); ok && f.Kind == KindIdentifier {
			c.penalize(factorWrongLabel, fmt.Sprintf("%s is one of %d numbers listed under %q: the document lists other documents, it is not its own %s",
				val, n, strings.TrimSpace(h.text), f.Words()))
		}
		return
	}
	name := f.Words()
	if under := d.unlistedLabel(f, c.Spans); other.text == "" && under != "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed under %q; the document's %s is %s", val, under, name, labelled))
		return
	}
	if other.text == "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is not the %s the document labels (%s)", val, name, labelled))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q; the document's %s is %s", val,
		strings.Join(strings.Fields(other.text), " "), name, labelled))
}

// yenScript names the currency a "¥" means from the document's script:
// kana is Japanese (JPY); Han characters without kana are Chinese (CNY).
func yenScript(rs []rune) (code, hint string) {
	han := false
	for _, r := range rs {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return "JPY", "Japanese (kana)"
		case unicode.Is(unicode.Han, r):
			han = true
		}
	}
	if han {
		return "CNY", "Chinese (Han characters, no kana)"
	}
	return "", ""
}
