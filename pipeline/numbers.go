package pipeline

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AmountMatch is one number-like token found in a text.
type AmountMatch struct {
	// Value is the amount, negative when the source writes it with a leading or
	// trailing minus or in parentheses.
	Value float64
	// Start and End are code-point offsets of the number itself (no sign, no
	// currency marker), end exclusive.
	Start, End int
	// Line is the 0-based index of the line the number is on.
	Line int
	// Raw is the number as written, e.g. "1,250.00".
	Raw string
}

// ParseAmount parses an amount written in any common form: "1,250.00",
// "1.234,56", "2 400,00", "1'250.00", with a currency symbol or code before or
// after ("$", "€", "RM", "USD"), and a leading "-", trailing "-" or
// parentheses for negatives. A lone comma followed by exactly three digits
// groups thousands ("1,250" is 1250); any other lone comma is a decimal comma.
// A lone dot is always a decimal point, so every float formatted by
// strconv.FormatFloat(v, 'f', -1, 64) parses back to itself.
func ParseAmount(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && len(s) >= 2 {
		neg = true
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	// Sign and currency marker may come in either order ("-$5", "$-5", "5 EUR-").
	for range 3 {
		t := strings.TrimSpace(s)
		if r, ok := cutSignPrefix(t); ok {
			neg = !neg
			t = r
		}
		if r, ok := cutSignSuffix(t); ok {
			neg = !neg
			t = r
		}
		t = strings.TrimSpace(t)
		t = trimCurrencyPrefix(t)
		t = trimCurrencySuffix(t)
		if t == s {
			break
		}
		s = t
	}
	v, ok := parseNumberCore(s)
	if !ok {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

func cutSignPrefix(s string) (string, bool) {
	for _, p := range []string{"-", "−", "–"} {
		if r, ok := strings.CutPrefix(s, p); ok {
			return r, true
		}
	}
	if r, ok := strings.CutPrefix(s, "+"); ok {
		return r, false
	}
	return s, false
}

func cutSignSuffix(s string) (string, bool) {
	for _, p := range []string{"-", "−"} {
		if r, ok := strings.CutSuffix(s, p); ok {
			return r, true
		}
	}
	return s, false
}

func trimCurrencyPrefix(s string) string {
	for _, m := range amountMarkers {
		if len(s) > len(m) && strings.EqualFold(s[:len(m)], m) {
			rest := s[len(m):]
			// "RMB5" must not lose "RM" and leave "B5": the next char must not be a letter.
			if r := firstRune(rest); !unicode.IsLetter(r) {
				return strings.TrimSpace(rest)
			}
		}
	}
	return s
}

func trimCurrencySuffix(s string) string {
	for _, m := range amountMarkers {
		if len(s) > len(m) && strings.EqualFold(s[len(s)-len(m):], m) {
			rest := s[:len(s)-len(m)]
			if r := lastRune(rest); !unicode.IsLetter(r) {
				return strings.TrimSpace(rest)
			}
		}
	}
	return s
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	if s == "" {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// isGroupSep reports separators that can only group thousands.
func isGroupSep(r rune) bool {
	switch r {
	case ' ', '\'', '’', '\u00a0', '\u202f', '\u2009':
		return true
	}
	return false
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// parseNumberCore parses digits and separators only, deciding which separator
// is the decimal one. It works on offsets into s, so a number costs no
// allocation: it runs for every digit run of every document.
func parseNumberCore(s string) (float64, bool) {
	if v, ok, plain := parsePlainNumber(s); plain {
		return v, ok
	}
	if s == "" || utf8.RuneCountInString(s) > 64 || !isDigit(lastRune(s)) {
		return 0, false
	}
	var groups [65][2]int // byte offsets of each digit run
	var seps [64]rune     // separator before groups[i+1]
	ng, ns := 0, 0
	curStart, curLen := 0, 0
	i := 0
	for off, r := range s {
		switch {
		case isDigit(r):
			if curLen == 0 {
				curStart = off
			}
			curLen++
		case r == '.' || r == ',' || isGroupSep(r):
			if curLen == 0 && i != 0 {
				return 0, false // two separators in a row
			}
			groups[ng] = [2]int{curStart, curStart + curLen}
			ng++
			seps[ns] = r
			ns++
			curLen = 0
		default:
			return 0, false
		}
		i++
	}
	groups[ng] = [2]int{curStart, curStart + curLen}
	ng++
	glen := func(k int) int { return groups[k][1] - groups[k][0] }
	if ns == 0 {
		return finishNumber(s, groups[:1], [2]int{})
	}
	dots, commas, grp := 0, 0, rune(0)
	for _, r := range seps[:ns] {
		switch {
		case r == '.':
			dots++
		case r == ',':
			commas++
		default:
			if grp != 0 && grp != r {
				return 0, false
			}
			grp = r
		}
	}
	dec := rune(0)
	last := seps[ns-1]
	switch {
	case dots > 0 && commas > 0:
		if last != '.' && last != ',' {
			return 0, false
		}
		dec = last
	case dots == 1:
		dec = '.'
	case commas == 1:
		if glen(ng-1) != 3 || grp != 0 {
			dec = ','
		}
	}
	if dec != 0 {
		n := 0
		for _, r := range seps[:ns] {
			if r == dec {
				n++
			}
		}
		if n != 1 || last != dec {
			return 0, false
		}
	}
	intGroups := groups[:ng]
	var frac [2]int
	if dec != 0 {
		intGroups = groups[:ng-1]
		frac = groups[ng-1]
	}
	// Every remaining separator groups thousands, and must all be the same.
	var g rune
	for i := 0; i < len(intGroups)-1; i++ {
		if g != 0 && seps[i] != g {
			return 0, false
		}
		g = seps[i]
	}
	if len(intGroups) == 1 {
		if intGroups[0][0] == intGroups[0][1] && frac[0] == frac[1] {
			return 0, false
		}
		return finishNumber(s, intGroups, frac)
	}
	lens := make([]int, len(intGroups))
	for k := range intGroups {
		lens[k] = glen(k)
	}
	if !validGrouping(lens) {
		return 0, false
	}
	return finishNumber(s, intGroups, frac)
}

// parsePlainNumber is parseNumberCore of the shape most numbers of a
// document have, ASCII digits with at most one dot ("193.00", "12", ".50"),
// without the group tables; plain is false for any other shape.
func parsePlainNumber(s string) (v float64, ok, plain bool) {
	if s == "" || len(s) > 64 {
		return 0, false, false
	}
	dot := -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && dot < 0:
			dot = i
		default:
			return 0, false, false
		}
	}
	if !isDigit(rune(s[len(s)-1])) {
		return 0, false, true
	}
	if dot < 0 {
		g := [1][2]int{{0, len(s)}}
		v, ok = finishNumber(s, g[:], [2]int{})
		return v, ok, true
	}
	g := [1][2]int{{0, dot}}
	v, ok = finishNumber(s, g[:], [2]int{dot + 1, len(s)})
	return v, ok, true
}

// validGrouping accepts 1,234,567 and the Indian 12,34,567 forms, given the
// digit count of each group.
func validGrouping(g []int) bool {
	if g[0] < 1 || g[0] > 3 || g[len(g)-1] != 3 {
		return false
	}
	mid := g[1 : len(g)-1]
	all3, all2 := true, true
	for _, x := range mid {
		all3 = all3 && x == 3
		all2 = all2 && x == 2
	}
	if all3 {
		return true
	}
	return all2 && g[0] <= 2
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// finishNumber is the value of the integer digit groups and fraction digits
// (byte ranges of s). A mantissa below 2^53 over an exact power of ten is
// the correctly rounded value, as strconv would give; longer numbers go
// through strconv.
func finishNumber(s string, intGroups [][2]int, frac [2]int) (float64, bool) {
	var mant uint64
	digits := 0
	fast := true
	add := func(a, b int) {
		for k := a; k < b; k++ {
			if mant > (1<<53)/10 {
				fast = false
				return
			}
			mant = mant*10 + uint64(s[k]-'0')
			digits++
		}
	}
	for _, g := range intGroups {
		add(g[0], g[1])
	}
	fl := frac[1] - frac[0]
	add(frac[0], frac[1])
	if fast && fl < len(pow10) && mant < 1<<53 {
		return float64(mant) / pow10[fl], true
	}
	var b strings.Builder
	for _, g := range intGroups {
		b.WriteString(s[g[0]:g[1]])
	}
	if b.Len() == 0 {
		b.WriteByte('0')
	}
	if fl > 0 {
		b.WriteByte('.')
		b.WriteString(s[frac[0]:frac[1]])
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// taxCodeSuffixes are GST codes receipts print glued to an amount ("7.90SR").
var taxCodeSuffixes = map[string]bool{"SR": true, "ZR": true, "ZRL": true, "S": true, "Z": true, "T": true, "E": true}

// FindAmounts lists every number-like token in text that could be an amount.
// It skips numbers that are parts of dates and times, percentages, numbers
// glued to letters (codes such as "X0001" or "B05", except currency markers
// like "RM12.00" and GST codes like "7.90SR"), numbers joined by hyphens or
// slashes (phone numbers, registration numbers, addresses), and integers with
// a leading zero.
func FindAmounts(text string) []AmountMatch {
	rs, ascii := []rune(text), asciiText(text)
	return findAmounts(rs, ascii, scanDates(rs, ascii, nil), nil)
}

// findAmounts is FindAmounts over rs; ascii is the text when it is all
// ASCII (asciiText), else "".
func findAmounts(rs []rune, ascii string, dates []DateMatch, st *stopper) []AmountMatch {
	out := make([]AmountMatch, 0, amountsCap(rs))
	scanAmounts(rs, ascii, dates, nil, nil, st, func(a AmountMatch) { out = append(out, a) })
	return out
}

// amountsCap sizes a list of a text's amounts: a receipt prints one every
// 12 to 50 runes (about 30 on SROIE's), and growing a list of
// labelledAmounts copies more than sizing it for one every 16 wastes.
func amountsCap(rs []rune) int { return len(rs)/16 + 4 }

// scanAmounts passes each amount findAmounts lists to emit, in order, so
// analyze keeps them in its own list instead of copying a second one.
// starts, when not nil, are rs's line starts (lineStartsOf): each amount's
// line is read from them instead of counted. runs, when not nil, are where
// each run of digits of rs starts (scanDatesRuns): the scan goes from one
// to the next instead of reading every rune between.
func scanAmounts(rs []rune, ascii string, dates []DateMatch, starts []int, runs []int32, st *stopper, emit func(AmountMatch)) {
	line, lineAt := 0, 0
	next := 0 // the first run not passed
	n := len(rs)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return 0
		}
		return rs[i]
	}
	for i := 0; i < n && !st.stop(); {
		// Most runes are no digits: they are passed over in a tight loop,
		// the context asked once per digit run instead of once per rune.
		// An amount may end inside a run ("1 2345"), so the next starts
		// there; else at the next run.
		switch {
		case runs == nil:
			for i < n && !isDigit(rs[i]) {
				i++
			}
		case !isDigit(rs[i]):
			for next < len(runs) && int(runs[next]) < i {
				next++
			}
			i = n
			if next < len(runs) {
				i = int(runs[next])
			}
		}
		if i == n {
			break
		}
		start := i
		if at(i-1) == '.' && !isAlnum(at(i-2)) {
			start = i - 1 // ".50"
		}
		j := i
		for j < n {
			if isDigit(rs[j]) {
				j++
				continue
			}
			if (rs[j] == '.' || rs[j] == ',' || (isGroupSep(rs[j]) && rs[j] != ' ')) && isDigit(at(j+1)) {
				j++
				continue
			}
			break
		}
		if j-i <= 3 {
			j = extendSpaceGrouped(rs, i, j)
		}
		i = j
		switch {
		case starts != nil:
			for line+1 < len(starts) && starts[line+1] <= start {
				line++
			}
		case ascii != "":
			line += strings.Count(ascii[lineAt:start], "\n")
			lineAt = start
		default:
			for ; lineAt < start; lineAt++ {
				if rs[lineAt] == '\n' {
					line++
				}
			}
		}
		// The cheap rune checks first: most digit runs of a document are
		// parts of dates, codes and phone numbers, and need no string.
		if overlapsDate(dates, start, j) || excludedAmount(rs, start, j) {
			continue
		}
		raw := cut(rs, ascii, start, j)
		v, ok := parseNumberCore(raw)
		if !ok {
			continue
		}
		if amountNegative(rs, start, j) {
			v = -v
		}
		emit(AmountMatch{Value: v, Start: start, End: j, Line: line, Raw: raw})
	}
}

// extendSpaceGrouped joins "2 400 000,00" (the digits rs[i:j] and the
// groups after): plain spaces group thousands only in the comma-decimal
// form (two decimals, or three for the dinars: "5 062,000"), since "1 193.00" on a receipt is a quantity and a price, or when a
// currency opens or closes the amount ("CHF 1 297.20", "R 5 154.80",
// "HUF 51 800", "32 400 Ft").
func extendSpaceGrouped(rs []rune, i, j int) int {
	k := j
	groups := 0
	for k+3 < len(rs) && rs[k] == ' ' && isDigit(rs[k+1]) && isDigit(rs[k+2]) && isDigit(rs[k+3]) {
		k += 4
		groups++
	}
	if groups == 0 {
		return j
	}
	if currencyFollows(rs, k) {
		return k // "32 400 Ft", "120 000 Kč": a whole amount its currency closes
	}
	if k+2 < len(rs) && rs[k] == '.' && isDigit(rs[k+1]) && isDigit(rs[k+2]) && (k+3 == len(rs) || !isAlnum(rs[k+3])) &&
		currencyFollows(rs, k+3) {
		return k + 3 // "1 297.20 CHF"
	}
	prefixed := currencyPrecedes(rs, i)
	if k >= len(rs) || rs[k] != ',' && !(prefixed && rs[k] == '.') {
		if prefixed && (k == len(rs) || !isAlnum(rs[k]) && rs[k] != '.' && rs[k] != ',') {
			return k // "HUF 51 800": a whole amount its currency opens
		}
		return j
	}
	m := k + 1
	for m < len(rs) && isDigit(rs[m]) {
		m++
	}
	if (m-(k+1) == 2 || m-(k+1) == 3 && rs[k] == ',') && (m == len(rs) || !isAlnum(rs[m])) {
		return m // "2 400 000,00"; "5 062,000": dinars have three decimals
	}
	return j
}

// currencyPrecedes reports a currency code or sign right before i (past one
// space) that starts a word: "CHF 1 297.20", "R 5 154.80", "€ 1 200,00".
func currencyPrecedes(rs []rune, i int) bool {
	k := i
	if k > 0 && (rs[k-1] == ' ' || rs[k-1] == '\u00a0') {
		k--
	}
	s := k
	if s > 0 && rs[s-1] == '.' {
		s-- // "Fr. 1 297.20"
	}
	for s > 0 && k-s < 4 && !unicode.IsSpace(rs[s-1]) && !unicode.IsDigit(rs[s-1]) && !isMarkerStop(rs[s-1]) {
		s--
	}
	if s == k || s > 0 && isAlnum(rs[s-1]) {
		return false
	}
	m := string(rs[s:k])
	if _, ok := letterSigns[m]; ok || isAmountMarker(m) {
		return true
	}
	code, _ := markerCode(m)
	return code != ""
}

// letterSigns are currencies written with one capital letter before the
// amount: "N29,240.00" (naira), "R 5 154.80" (rand), "P 493.00" (Philippine
// peso). A single letter is also an initial, a code or a size, so it stands
// for the currency only before an amount with cents.
var letterSigns = map[string]string{"N": "NGN", "R": "ZAR", "P": "PHP"}

// centsEnd reports an amount rs[start:end] that ends in a decimal
// separator and two digits ("29,240.00", "5 154,80").
func centsEnd(rs []rune, start, end int) bool {
	return end-start >= 4 && (rs[end-3] == '.' || rs[end-3] == ',') && isDigit(rs[end-2]) && isDigit(rs[end-1])
}

// currencyFollows reports a currency sign or code right after k (past one
// space) that ends there: the space-grouped digits before it are one amount.
func currencyFollows(rs []rune, k int) bool {
	if k < len(rs) && (rs[k] == ' ' || rs[k] == '\u00a0') {
		k++
	}
	e := k
	for e < len(rs) && e-k < 4 && !unicode.IsSpace(rs[e]) && !unicode.IsDigit(rs[e]) && !isMarkerStop(rs[e]) {
		e++
	}
	if e == k || e < len(rs) && isAlnum(rs[e]) {
		return false
	}
	code, _ := markerCode(string(rs[k:e]))
	return code != ""
}

func isAlnum(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		// ASCII from a table: this runs for nearly every rune of every
		// document, so it must stay small enough to inline.
		return asciiClass[r]&classAlnum != 0
	}
	return wideAlnum(r)
}

//go:noinline
func wideAlnum(r rune) bool {
	if letter, ok := wideClassKnown(r); ok {
		return letter
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isLetter is unicode.IsLetter with the ASCII runes decided inline.
func isLetter(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r]&classLetter != 0
	}
	return wideLetter(r)
}

//go:noinline
func wideLetter(r rune) bool {
	if letter, ok := wideClassKnown(r); ok {
		return letter
	}
	return unicode.IsLetter(r)
}

// wideClassKnown answers isLetter and isAlnum alike, without unicode's
// tables, for the runes beyond ASCII that texts hold most: the CJK
// ideographs (and Yi after them) are letters, and general punctuation
// (dashes, quotes, bullets) is neither letter nor digit. ok is false for
// any other rune (TestWideRunesAreUnicodes checks every rune).
func wideClassKnown(r rune) (letter, ok bool) {
	switch {
	case uint32(r)-0x4E00 < 0xA48D-0x4E00:
		return true, true
	case uint32(r)-0x2000 < 0x2070-0x2000:
		return false, true
	}
	return false, false
}

// asciiClass is what unicode says of each ASCII rune, read once.
var asciiClass = func() (c [utf8.RuneSelf]uint8) {
	for r := range rune(utf8.RuneSelf) {
		if unicode.IsLetter(r) {
			c[r] |= classLetter | classAlnum
		}
		if unicode.IsDigit(r) {
			c[r] |= classAlnum
		}
	}
	return c
}()

const (
	classLetter = 1 << iota
	classAlnum
)

func excludedAmount(rs []rune, start, end int) bool {
	n := len(rs)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return 0
		}
		return rs[i]
	}
	prev, next := at(start-1), at(end)
	if isLetter(prev) {
		k := start
		for k > 0 && isLetter(rs[k-1]) {
			k--
		}
		w := string(rs[k:start])
		if !isAmountMarker(w) && !(letterSigns[w] != "" && centsEnd(rs, start, end)) {
			return true
		}
	}
	if isLetter(next) {
		k := end
		for k < n && isLetter(rs[k]) {
			k++
		}
		w := string(rs[end:k])
		if !isAmountMarker(w) && !taxCodeSuffixes[w] {
			return true
		}
	}
	switch {
	case prev == '/' || prev == '#' || prev == '\\' || prev == '%':
		// "%20": Turkish and Arabic write the sign before the rate.
		return true
	case (prev == '-' || prev == '.') && isAlnum(at(start-2)), prev == ':' && isDigit(at(start-2)):
		return true // "PEGIV-1030765", "NO.343", the "05" of "11:05"
	case next == '%' || next == '/' && isDigit(at(end+1)):
		return true
	case percentAfterSpace(rs, end):
		return true // "MwSt. 19 %", "TVA 20 %": a rate, as written in German and French
	case (next == '-' || next == ':') && isAlnum(at(end+1)):
		return true
	case next == '.' && isDigit(at(end+1)):
		return true // a run the core parser rejected the tail of, e.g. "1.2.3"
	}
	if end-start > 1 && rs[start] == '0' && !slices.ContainsFunc(rs[start:end], func(r rune) bool { return r == '.' || r == ',' }) {
		return true // "07", "000000111": codes, not amounts
	}
	return citedProvision(rs, start) || paymentTerm(rs, start, end)
}

// provisionWords number a provision of a law or a contract: "Art. 196
// Directive 2006/112/EC", "§ 13b UStG", "Sec. 4". The number is a
// reference, not an amount.
var provisionWords = map[string]bool{"art": true, "article": true, "artikel": true, "articolo": true, "artículo": true,
	"sec": true, "section": true, "abs": true, "absatz": true, "para": true, "paragraph": true, "ziff": true, "§": true, "第": true}

// provisionShapes are provisionWords' shapes.
var provisionShapes = shapesOf(provisionWords)

// citedProvision reports a number right after a provision word (and an
// optional dot).
func citedProvision(rs []rune, start int) bool {
	k := start
	for k > 0 && k > start-3 && (rs[k-1] == ' ' || rs[k-1] == '.' || rs[k-1] == '\u00a0') {
		k--
	}
	if k > 0 && (rs[k-1] == '§' || rs[k-1] == '第') {
		return true
	}
	e := k
	for k > 0 && e-k < 10 && isLetter(rs[k-1]) {
		k--
	}
	if e == k || e == start || k > 0 && isLetter(rs[k-1]) || !provisionShapes.mayHold(toLower(rs[k]), e-k) {
		return false
	}
	var buf [48]byte // at most 10 runes
	w, _ := lowerWord(buf[:0], rs[k:e])
	return provisionWords[string(w)]
}

// percentAfterSpace reports a '%' after spaces (including no-break and narrow
// no-break spaces) following position end.
func percentAfterSpace(rs []rune, end int) bool {
	k := end
	for k < len(rs) && (rs[k] == ' ' || rs[k] == '\u00a0' || rs[k] == '\u202f') {
		k++
	}
	return k > end && k < len(rs) && rs[k] == '%'
}

// hasDecimalMark reports a '.' or ',' in s: strings.ContainsAny(s, ".,")
// without building a set per call, for amounts' raw text.
func hasDecimalMark(s string) bool {
	return strings.IndexByte(s, '.') >= 0 || strings.IndexByte(s, ',') >= 0
}

// isSignBeforeAmount reports the currency signs amountNegative reads past
// ("$€£¥₹₩").
func isSignBeforeAmount(r rune) bool {
	switch r {
	case '$', '€', '£', '¥', '₹', '₩':
		return true
	}
	return false
}

// isMarkerStop reports the punctuation that ends a currency marker after
// or before an amount (":;,.()").
func isMarkerStop(r rune) bool {
	switch r {
	case ':', ';', ',', '.', '(', ')':
		return true
	}
	return false
}

func amountNegative(rs []rune, start, end int) bool {
	n := len(rs)
	k := start - 1
	for k >= 0 && (rs[k] == ' ' || isLetter(rs[k]) || isSignBeforeAmount(rs[k])) && start-k <= 5 {
		k--
	}
	if k >= 0 && (rs[k] == '-' || rs[k] == '−') && (k == 0 || !isAlnum(rs[k-1])) {
		return true
	}
	if end < n && rs[end] == ')' {
		// "(68.75)" and "(£68.75)" are negative; "(VAT £68.75)" is an
		// amount in an aside. Only spaces and currency symbols may stand
		// between the parenthesis and the number.
		p := start - 1
		for p >= 0 && (rs[p] == ' ' || isSignBeforeAmount(rs[p])) && start-p <= 3 {
			p--
		}
		if p >= 0 && rs[p] == '(' {
			return true
		}
	}
	return end < n && rs[end] == '-' && (end+1 == n || !isAlnum(rs[end+1]))
}

func overlapsDate(dates []DateMatch, start, end int) bool {
	// dates are sorted and disjoint, so their ends increase too.
	k := sort.Search(len(dates), func(i int) bool { return dates[i].End > start })
	return k < len(dates) && dates[k].Start < end
}
