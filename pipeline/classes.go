package pipeline

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Checks of codes, identifiers and names that read as something else: an ISO
// code that is a word of an address, a payment reference that embeds the
// date, a vendor cut at one line of its name or taken from the bill-to block.

// currencyContextWords make a line a currency context even without an amount.
var currencyContextWords = map[string]bool{"currency": true, "curr": true, "amount": true, "amounts": true,
	"total": true, "price": true, "prices": true, "pay": true, "paid": true, "payable": true, "due": true,
	"währung": true, "devise": true, "moneda": true, "valuta": true, "通貨": true}

// amountCurrency is the currency a document prints next to its amounts
// ("RM 12.50", "12,50 €"): the first non-shared marker glued or spaced to an
// amount on its line decides.
func (d *doc) amountCurrency() (code, marker string, sp Span, ok bool) {
	if d.currency == nil {
		d.currency = &printedCurrency{}
		d.currency.code, d.currency.marker, d.currency.span, d.currency.ok = d.findAmountCurrency()
	}
	c := d.currency
	return c.code, c.marker, c.span, c.ok
}

// printedCurrency caches amountCurrency for a document.
type printedCurrency struct {
	code, marker string
	span         Span
	ok           bool
}

func (d *doc) findAmountCurrency() (code, marker string, sp Span, ok bool) {
	var peso Span // the first "P 398.00"
	pesos := 0
	for _, a := range d.amounts {
		ls, le := d.lineBounds(a.Line)
		for _, w := range []Span{markerBefore(d.rs, ls, a.Start), markerAfter(d.rs, a.End, le)} {
			if w.End <= w.Start {
				continue
			}
			m := d.str(w.Start, w.End)
			if i, placed := placedSignAt[m]; placed {
				// "FCFA", "Rs", "C$": the issuer's place says which currency.
				if c := d.placedCode(placedSigns[i]); c != "" && d.asideCue(w.Start) == "" {
					return c, m, w, true
				}
				continue
			}
			if c, shared := markerCode(m); c != "" && !shared {
				if d.asideCue(w.Start) != "" {
					continue // "USD equivalent (for information only)": not what is billed
				}
				return c, m, w, true
			}
			// "N29,240.00" is naira; a lone "R" before a price is as often a
			// size ("LATTE -R 12.08") as the rand, so it grounds a ZAR
			// record but never contradicts another currency.
			if m == "N" && w.End <= a.Start && centsForm(a.Raw) {
				return letterSigns[m], m, w, true
			}
			// The Philippine peso's "P 398.00" counts once the document
			// writes two amounts so, each after a space or at a line start.
			if m == "P" && w.End <= a.Start && centsForm(a.Raw) && (w.Start == ls || d.rs[w.Start-1] == ' ') {
				if pesos == 0 {
					peso = w
				}
				pesos++
			}
		}
	}
	if pesos >= 2 {
		return letterSigns["P"], "P", peso, true
	}
	return "", "", Span{}, false
}

// markerBefore is the run of letters or symbols right before p (past one
// space) on its line: "RM" of "RM 12.00", "€" of "€12".
func markerBefore(rs []rune, ls, p int) Span {
	k := p
	for k > ls && k > p-2 && rs[k-1] == ' ' {
		k--
	}
	e := k
	for k > ls && e-k < 4 && !isSpace(rs[k-1]) && !isDigitRune(rs[k-1]) && !isMarkerBeforeStop(rs[k-1]) {
		k--
	}
	if k > ls && isAlnum(rs[k-1]) {
		return Span{}
	}
	return Span{Start: k, End: e}
}

// isDigitRune is unicode.IsDigit with the ASCII runes decided inline:
// markerBefore and markerAfter ask it beside every amount, and isSpace and
// isAlnum stand for unicode.IsSpace and isWordRune there likewise.
func isDigitRune(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return uint32(r)-'0' < 10
	}
	return unicode.IsDigit(r)
}

// isMarkerBeforeStop and isMarkerAfterStop are the punctuation that ends
// a marker before an amount (":(-.,") and after one (":)-.,").
func isMarkerBeforeStop(r rune) bool { return r == ':' || r == '(' || r == '-' || r == '.' || r == ',' }

func isMarkerAfterStop(r rune) bool { return r == ':' || r == ')' || r == '-' || r == '.' || r == ',' }

func markerAfter(rs []rune, p, le int) Span {
	k := p
	for k < le && k < p+1 && rs[k] == ' ' {
		k++
	}
	s := k
	for k < le && k-s < 4 && !isSpace(rs[k]) && !isDigitRune(rs[k]) && !isMarkerAfterStop(rs[k]) {
		k++
	}
	if k < le && isAlnum(rs[k]) {
		return Span{}
	}
	return Span{Start: s, End: k}
}

// localSigns are mixed-case or non-Latin abbreviations that stand next to
// amounts as a sign does ("Rp 5.000", "48 500,00 Kč", "205.00 บาท"); other
// lower-case marker words ("euro", "dollars") are words, not signs.
var localSigns = map[string]bool{"Rp": true, "Rs": true, "Fr.": true, "Kč": true, "Ft": true, "KSh": true, "Ksh": true,
	"KShs": true, "บาท": true, "ر.س": true, "ج.م": true,
	"Bds$": true, "ден": true, "ден.": true, "դր.": true, "so'm": true, "soʻm": true, "сўм": true, "сом": true,
	"Ks": true, "NRs": true, "Lei": true, "lei": true, "лв": true, "лв.": true, "TSh": true, "TShs": true,
	"USh": true, "UShs": true, "Gs.": true, "Gs": true, "Lps": true, "Lps.": true, "Lekë": true, "lekë": true, "د.ت": true, "د.ك": true, "د.ب": true, "ر.ع.": true, "ر.ع": true, "د.أ": true, "د.ا": true}

// signOnlyCodes are currencies whose ISO code next to an amount is as often
// a product or model code ("GEL", "MOP", "KWD B05"): their signs decide the
// document's currency; their codes ground only in a currency context.
var signOnlyCodes = map[string]bool{"BND": true, "BSD": true, "FJD": true, "JMD": true,
	"XCD": true, "BZD": true, "BBD": true, "KYD": true, "GYD": true, "NAD": true, "TWD": true, "MOP": true, "SBD": true,
	"WST": true, "TOP": true, "BAM": true, "MKD": true, "AMD": true, "GEL": true, "AZN": true, "TMT": true, "UZS": true,
	"KGS": true, "KZT": true, "LAK": true, "MMK": true, "NPR": true, "GHS": true, "XOF": true, "XAF": true, "TND": true,
	"KWD": true, "BHD": true, "OMR": true, "JOD": true, "RON": true, "BGN": true, "MNT": true, "KHR": true, "TZS": true,
	"UGX": true, "ETB": true, "HNL": true, "GTQ": true, "PYG": true, "BOB": true, "VES": true, "PEN": true, "CRC": true,
	"UAH": true, "VND": true, "BDT": true, "ALL": true, "BTN": true, "MDL": true, "NIO": true, "PAB": true, "PGK": true,
	"ZMW": true, "LKR": true, "PKR": true, "MUR": true, "SCR": true, "ZWL": true}

type markerInfo struct {
	code   string
	shared bool
}

// markerCodes maps each printed marker to its ISO code, the first code in
// sorted order for a shared sign; built once, read-only.
var markerCodes = func() map[string]markerInfo {
	m := map[string]markerInfo{}
	for _, c := range slices.Sorted(maps.Keys(currencyMarkers)) {
		if !signOnlyCodes[c] {
			m[c] = markerInfo{code: c}
		}
		for _, cm := range currencyMarkers[c] {
			t := cm.text
			if cm.weak {
				continue
			}
			if strings.Contains(t, " ") || !(len([]rune(t)) == 1 || strings.ToUpper(t) == t || localSigns[t]) {
				continue
			}
			if _, seen := m[t]; !seen {
				m[t] = markerInfo{code: c, shared: cm.shared}
			}
		}
	}
	return m
}()

// markerCode maps a printed marker to its ISO code; shared is true for signs
// several currencies use ("$", "¥").
func markerCode(m string) (code string, shared bool) {
	i, ok := markerCodes[m]
	if !ok || len(m) == 3 && i.code == m && strings.ToUpper(m) != m {
		return "", false
	}
	return i.code, i.shared
}

// inCurrencyContext reports whether a code found at sp reads as a currency:
// next to an amount, in a column header "(EUR)", or on a line that holds an
// amount or a currency word. "SEK" in "LOT 5, SEK U2" is none of those.
func (d *doc) inCurrencyContext(sp Span) bool {
	li := d.lineOf(sp.Start)
	ls, le := d.lineBounds(li)
	if sp.Start > ls && d.rs[sp.Start-1] == '(' || sp.End < le && d.rs[sp.End] == ')' {
		return true
	}
	// A code on a line of its own states the currency of the amounts above
	// it (a folio or a credit note that ends "GBP"); an address word shares
	// its line with the rest of the address.
	if strings.TrimSpace(d.str(ls, sp.Start)) == "" && strings.TrimSpace(d.str(sp.End, le)) == "" {
		return true
	}
	k := sort.Search(len(d.amounts), func(i int) bool { return d.amounts[i].Line >= li })
	for _, a := range d.amounts[k:] {
		if a.Line != li || a.Start > sp.End+64 {
			break
		}
		if a.End < sp.Start-64 {
			continue
		}
		// An amount with cents on the line, or any amount right next to the
		// code ("12 SEK", "SEK 12"); "LOT 5, SEK U2" is an address.
		gap := ""
		if a.End <= sp.Start {
			gap = d.str(a.End, sp.Start)
		} else if a.Start >= sp.End {
			gap = d.str(sp.End, a.Start)
		}
		if centsForm(a.Raw) || strings.TrimSpace(gap) == "" {
			return true
		}
	}
	var ws [16]wordSpan
	return anyInSpans(d.rs, wordSpans(d.rs, max(ls, sp.Start-80), +1, 16, ls, min(le, sp.End+80), ws[:0]), currencyContextWords)
}

// countryCurrencies are legal forms and country names that fix the currency
// of a document that prints none (a Malaysian receipt without "RM").
var countryCurrencies = []struct{ code, text string }{
	{"MYR", "SDN BHD"}, {"MYR", "SDN. BHD"}, {"MYR", "SDN.BHD"}, {"MYR", "BERHAD"}, {"MYR", "MALAYSIA"},
	{"MYR", "S/B"}, {"MYR", "JOHOR"}, {"MYR", "SELANGOR"}, {"MYR", "KUALA LUMPUR"}, {"MYR", "PULAU PINANG"},
	{"MYR", "PENANG"}, {"MYR", "PERAK"}, {"MYR", "KEDAH"}, {"MYR", "MELAKA"}, {"MYR", "SABAH"}, {"MYR", "SARAWAK"},
	{"MYR", "PAHANG"}, {"MYR", "NEGERI SEMBILAN"}, {"MYR", "KELANTAN"}, {"MYR", "TERENGGANU"}, {"MYR", "PUTRAJAYA"},
	{"EUR", "DEUTSCHLAND"}, {"EUR", "GERMANY"}, {"EUR", "ÖSTERREICH"}, {"EUR", "FRANCE"}, {"EUR", "ITALIA"},
	{"EUR", "ESPAÑA"}, {"EUR", "NEDERLAND"},
	{"JPY", "株式会社"}, {"JPY", "有限会社"}, {"JPY", "日本"},
	{"AUD", "PTY LTD"}, {"AUD", "PTY. LTD"}, {"MXN", "S.A. DE C.V."}, {"MXN", "M.N."},
	{"GBP", "UNITED KINGDOM"}, {"INR", "PVT LTD"}, {"INR", "PVT. LTD"},
	// "kr" is three currencies: the country's VAT word, register or legal
	// form decides (Norway's MVA, Denmark's CVR and ApS, Sweden's "varav
	// moms" and Kvitto). A VAT number says it more surely (issuerPlace).
	{"NOK", "MVA"}, {"NOK", "NORGE"}, {"NOK", "NORWAY"}, {"NOK", "FORETAKSREGISTERET"},
	{"DKK", "CVR"}, {"DKK", "CVR-NR"}, {"DKK", "APS"}, {"DKK", "DANMARK"}, {"DKK", "DENMARK"}, {"DKK", "HERAF MOMS"},
	{"SEK", "SVERIGE"}, {"SEK", "SWEDEN"}, {"SEK", "VARAV MOMS"}, {"SEK", "KVITTO"},
	// Iceland's "kr." is the króna; the Faroe Islands' and Greenland's
	// "kr." is the Danish krone, however Icelandic Faroese reads. The
	// Gulf's "ريال" is shared too.
	{"ISK", "ÍSLAND"}, {"ISK", "ICELAND"}, {"ISK", "REYKJAVÍK"}, {"DKK", "FØROYAR"}, {"DKK", "FAROE"},
	{"DKK", "TÓRSHAVN"}, {"DKK", "KLAKSVÍK"}, {"DKK", "GREENLAND"}, {"DKK", "NUUK"}, {"SAR", "السعودية"},
	{"QAR", "QATAR"},
}

// countryNeedles are countryCurrencies' texts folded as the document is,
// built once; read-only.
var countryNeedles = func() [][]rune {
	out := make([][]rune, len(countryCurrencies))
	for i, h := range countryCurrencies {
		out[i] = foldNeedle(h.text, foldSpaces)
	}
	return out
}()

// countryScreen is countryNeedles for the trigram set.
var countryScreen = func() []triNeedle {
	ns := make([]string, len(countryNeedles))
	for i, n := range countryNeedles {
		ns[i] = string(n)
	}
	return newTriNeedles(ns...)
}()

// countryByFirst and countryBySecond hold, for each ASCII rune, the bit
// set of the countryNeedles whose first (second) rune it is;
// countryNonASCII lists the needles that start with another rune, and
// countryOtherSecond is the set of those whose second rune is another. Every
// needle has two runes at least. Read-only after init.
var countryByFirst, countryBySecond, countryNonASCII, countryOtherSecond = func() (first, second [128]uint64, other []int, otherSecond uint64) {
	if len(countryNeedles) > 64 {
		panic("countryName keeps the needles in a 64-bit set")
	}
	for i, n := range countryNeedles {
		if len(n) < 2 {
			panic("countryName reads a needle's first two runes")
		}
		if n[0] < 128 {
			first[n[0]] |= 1 << i
		} else {
			other = append(other, i)
		}
		if n[1] < 128 {
			second[n[1]] |= 1 << i
		} else {
			otherSecond |= 1 << i
		}
	}
	return first, second, other, otherSecond
}()

// findCountryCurrency is countryCurrency computed.
func (d *doc) findCountryCurrency() (code, hint string, sp Span) {
	if i, s, ok := d.countryName(); ok {
		return countryCurrencies[i].code, countryCurrencies[i].text, s
	}
	if code, _, hint, sp, ok := d.issuerPlace(true); ok {
		return code, hint, sp
	}
	return "", "", Span{}
}

// countryName is the first of countryCurrencies, in list order, that the
// text prints with no letter glued to it, and its first such occurrence:
// each needle's occurrences are found as folded.find finds them (left to
// right, not overlapping) and kept as letterBounded keeps them, in one pass
// over the folded text for all of them instead of one per needle.
func (d *doc) countryName() (int, Span, bool) {
	f := d.fold.r
	var next [64]int // where each needle's next occurrence may start
	var firstAt [64]Span
	var found uint64
	// want holds the needles that can still change the answer: those the
	// trigram set lets through, listed before every needle found so far.
	// Most documents print none of them, and the text is then not read.
	var want uint64
	t := d.trigrams()
	for i, n := range countryScreen {
		if t.mayHold(n) {
			want |= 1 << i
		}
	}
	for k := 0; k+1 < len(f) && want != 0; k++ {
		var set uint64
		if r := f[k]; r < 128 {
			set = countryByFirst[r]
		} else {
			for _, i := range countryNonASCII {
				if countryNeedles[i][0] == r {
					set |= 1 << i
				}
			}
		}
		if r := f[k+1]; r < 128 {
			set &= countryBySecond[r] | countryOtherSecond
		} else {
			set &= countryOtherSecond
		}
		for set &= want; set != 0; set &= set - 1 {
			i := bits.TrailingZeros64(set)
			n := countryNeedles[i]
			if k < next[i] || k+len(n) > len(f) || !runesEqual(f[k:k+len(n)], n) {
				continue
			}
			next[i] = k + len(n)
			if s := (Span{Start: d.fold.origin(k), End: d.fold.endOf(k + len(n) - 1)}); isBounded(d.rs, s, unicode.IsLetter) {
				found |= 1 << i
				firstAt[i] = s
				want &= uint64(1)<<bits.TrailingZeros64(found) - 1
				set &= want
			}
		}
	}
	if found == 0 {
		return 0, Span{}, false
	}
	i := bits.TrailingZeros64(found)
	return i, firstAt[i], true
}

// checkCurrency2 grounds a currency code in a currency context only, and lets
// the marker printed next to the amounts decide.
func (d *doc) checkCurrencyContext(c *FieldCheck, code string) {
	if d.checkPlacedSign(c, code) || d.convertedCurrency(c, code) {
		return
	}
	// One currency on the billed lines decides; where they print two
	// (a total and its equivalent in local currency), either may be the
	// one billed, and the other checks choose.
	b := d.billedFor(code)
	billed := b.decides(code)
	if printed, marker, _, ok := d.amountCurrency(); !billed && ok && printed != code && (!b.refutes(code) || b.hasCode(printed)) {
		c.penalize(factorContradiction, fmt.Sprintf("the document prints %q next to its amounts (%s), not %s", marker, printed, code))
		return
	}
	if b.refutes(code) {
		d.flagUnbilled(c, b, code)
		return
	}
	var ctx []Span
	var nb [8]rune // a code's needle on the stack
	for _, sp := range capped(bounded(d.rs, d.findScreened(appendNeedle(nb[:0], strings.TrimSpace(code), foldSpaces)))) {
		if d.inCurrencyContext(sp) {
			ctx = append(ctx, sp)
		}
	}
	if len(ctx) > 0 {
		if billed {
			c.Spans, c.Grounded = ctx, true
		} else if ctx = d.checkAsideCurrency(c, code, ctx); len(ctx) > 0 {
			c.Spans, c.Grounded = ctx, true
		}
		return
	}
	spans, factor, note := currencyEvidence(d.rs, d.fold, d.trigrams(), code)
	if len(spans) > 0 {
		c.Spans, c.Grounded = spans, true
		if d.placedSharedSign(c, code, spans) || d.familySignCode(c, code, spans) {
			return
		}
		if factor < 1 && factor > 0.5 {
			// Only a shared sign ("kr", "$"): the issuer's country decides
			// between the currencies that share it.
			if implied, hint, _ := d.countryCurrency(); implied == code {
				return
			} else if implied != "" && sharesMarker(implied, code) {
				c.penalize(factorContradiction, fmt.Sprintf("%s; %s places the issuer where it means %s", note, hint, implied))
				return
			}
		}
		if factor < 1 {
			c.penalize(factor, note)
		}
		return
	}
	implied, hint, sp := d.countryCurrency()
	switch {
	case implied == code:
		c.Spans, c.Grounded = []Span{sp}, true
		c.penalize(factorCountryOnly, fmt.Sprintf("no currency is printed; %q implies %s", hint, code))
	case implied != "":
		c.penalize(factorNotFound, fmt.Sprintf("currency %q not found in a currency context; %q implies %s", code, hint, implied))
	default:
		c.penalize(factorNotFound, fmt.Sprintf("currency %q not found in source text", code))
	}
}

// sharesMarker reports a shared marker both currencies are written with.
func sharesMarker(a, b string) bool {
	for _, m := range currencyMarkers[a] {
		for _, n := range currencyMarkers[b] {
			if m.shared && n.shared && m.text == n.text {
				return true
			}
		}
	}
	return false
}

// labelWords are single words that label something: glued to an identifier
// ("12345DATE") they show it was read past its end.
var labelWords = map[string]bool{"date": true, "time": true, "tel": true, "fax": true, "cashier": true, "table": true,
	"total": true, "qty": true, "no": true, "invoice": true, "receipt": true, "bill": true, "ref": true, "datum": true,
	"rechnung": true, "member": true, "terminal": true, "pos": true, "gst": true, "tax": true}

// embeddedDate is the first compact digit form of the document's dates
// (20180605, 180605, 05062018, 050618; each date's day-first reading, then
// its other one) that digits holds, or "". The forms are written on the
// stack: only the one found becomes a string.
func (d *doc) embeddedDate(digits string) string {
	var buf [8]byte
	for _, m := range d.dates {
		for k, iso := range m.ISO {
			if k > 0 && !m.Ambiguous || k > 1 {
				break
			}
			y, mo, dd := iso[0:4], iso[5:7], iso[8:10]
			forms := [4][3]string{{y, mo, dd}, {y[2:], mo, dd}, {dd, mo, y}, {dd, mo, y[2:]}}
			for _, f := range forms {
				b := append(append(append(buf[:0], f[0]...), f[1]...), f[2]...)
				if strings.Contains(digits, string(b)) {
					return string(b)
				}
			}
		}
	}
	return ""
}

// embeddedTime is the first compact digit form of a time the document
// prints (1345, or 134500 with seconds) that digits holds, a form without
// seconds only when dated (the value also embeds a date), or "".
func (d *doc) embeddedTime(digits string, dated bool) string {
	rs := d.rs
	// Only a colon can stand at i+2: an ASCII text's colons are found in
	// its bytes (which are its runes), another's rune by rune.
	text, from := d.text(), 0
	for {
		c := -1
		if d.ascii {
			if k := strings.IndexByte(text[from:], ':'); k >= 0 {
				c = from + k
			}
		} else if k := slices.Index(rs[from:], ':'); k >= 0 {
			c = from + k
		}
		if c < 0 || c+2 >= len(rs) {
			return ""
		}
		from = c + 1
		i := c - 2
		if i < 0 || !isDigit(rs[i]) || !isDigit(rs[i+1]) || !isDigit(rs[i+3]) || !isDigit(rs[i+4]) ||
			i > 0 && isDigit(rs[i-1]) {
			continue
		}
		b := [6]byte{byte(rs[i]), byte(rs[i+1]), byte(rs[i+3]), byte(rs[i+4])}
		t := b[:4]
		if i+7 < len(rs) && rs[i+5] == ':' && isDigit(rs[i+6]) && isDigit(rs[i+7]) {
			b[4], b[5] = byte(rs[i+6]), byte(rs[i+7])
			t = b[:6]
		}
		if strings.Contains(digits, string(t)) && (len(t) == 6 || dated) {
			return string(t)
		}
	}
}

// longestDigitRun is the length of the longest run of ASCII digits in s.
func longestDigitRun(s string) int {
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i]-'0' < 10 {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// identifierCandidates are the values the document labels as numbers: the
// token after the field's own labels and after a bare "No." or "#".
func (d *doc) identifierCandidates(f Field) []string {
	var out []string
	own := fieldLabelOwner(f.Name)
	for _, h := range d.fieldHits {
		if h.role == own {
			if sp, ok := tokenAfter(d.rs, h.end); ok && d.lineOf(sp.Start) == d.lineOf(h.start) {
				out = append(out, d.str(sp.Start, sp.End))
			}
		}
	}
	for _, h := range d.moneyHits {
		if k := h.key; k == "no" || k == "bill no" || k == "receipt no" || k == "invoice no" || k == "doc no" {
			if sp, ok := tokenAfter(d.rs, h.end); ok && d.lineOf(sp.Start) == d.lineOf(h.start) {
				out = append(out, d.str(sp.Start, sp.End))
			}
		}
	}
	return out
}

// ownLabelled reports an identifier occurrence that follows one of its
// field's labels, or a word that starts one ("INV-NO.", "BILL").
func (d *doc) ownLabelled(f Field, sp Span) bool {
	if h, ok := d.labelBefore(sp.Start); ok && h.role == fieldLabelOwner(f.Name) {
		return true
	}
	ls := d.lineStarts[d.lineOf(sp.Start)]
	before := LabelTokens(d.str(max(ls, sp.Start-40), sp.Start))
	if len(before) == 0 {
		return false
	}
	key := strings.Join(before, " ")
	for _, l := range f.Labels {
		lk := LabelKey(l)
		if lk != "" && (strings.HasSuffix(key, " "+lk) || key == lk || before[len(before)-1] == strings.Fields(lk)[0]) {
			return true
		}
	}
	return false
}

// checkIdentifier flags an identifier that is something else: one that
// embeds the document's date and time, glues a label word, or contains the
// number the document labels.
func (d *doc) checkIdentifier(c *FieldCheck, f Field, val string, ownLabelled bool) {
	// A date's compact forms are six or eight digits, a time's four or six:
	// a value without such a run of digits embeds neither.
	var date, tm string
	if run := longestDigitRun(val); run >= 4 {
		digits := strings.Map(func(r rune) rune {
			if isDigit(r) {
				return r
			}
			return '|'
		}, val)
		if run >= 6 {
			date = d.embeddedDate(digits)
		}
		tm = d.embeddedTime(digits, date != "")
	}
	switch {
	case date != "" && tm != "":
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s embeds the document's date (%s) and time (%s)", val, date, tm))
		return
	case date != "" && !ownLabelled:
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s embeds the document's date (%s) and no number label names it", val, date))
		return
	}
	// A label word glued after the last digit: "51234DATE".
	rs := []rune(val)
	k := len(rs)
	for k > 0 && unicode.IsLetter(rs[k-1]) {
		k--
	}
	if k > 0 && k < len(rs) && isDigit(rs[k-1]) && labelWords[strings.ToLower(string(rs[k:]))] {
		c.penalize(factorBadIdentifier, fmt.Sprintf("%s ends in the label word %q", val, string(rs[k:])))
		return
	}
	if ownLabelled {
		return // a value its own label names may contain another number
	}
	var parts []string // val's words, split once a candidate needs them
	for _, cand := range d.identifierCandidates(f) {
		cu := strings.ToUpper(strings.Trim(cand, ".,:;()"))
		if len(cu) < 3 || strings.EqualFold(cu, val) || !strings.ContainsFunc(cu, unicode.IsDigit) {
			continue
		}
		if parts == nil {
			parts = strings.FieldsFunc(strings.ToUpper(val), func(r rune) bool { return !isWordRune(r) })
		}
		if len(parts) > 1 && slices.Contains(parts, cu) {
			c.penalize(factorBadIdentifier, fmt.Sprintf("%s contains %s, the number the document labels", val, cand))
			return
		}
	}
}

// fragmentReason names the printed token an identifier is only part of.
func fragmentReason(rs []rune, sp Span, val string) string {
	s, e := sp.Start, sp.End
	for s > 0 && !unicode.IsSpace(rs[s-1]) {
		s--
	}
	for e < len(rs) && !unicode.IsSpace(rs[e]) {
		e++
	}
	return fmt.Sprintf("%q ends inside the printed token %q", val, string(rs[s:e]))
}

// titleWords make up document titles and descriptors, never a name.
var titleWords = map[string]bool{"tax": true, "invoice": true, "receipt": true, "cash": true, "bill": true,
	"sales": true, "official": true, "simplified": true, "copy": true, "original": true, "duplicate": true,
	"reprint": true, "customer": true, "statement": true, "quotation": true, "delivery": true, "order": true,
	"note": true, "credit": true, "debit": true, "proforma": true, "pro": true, "forma": true, "purchase": true,
	"rechnung": true, "quittung": true, "beleg": true, "kassenbon": true, "gutschrift": true, "facture": true,
	"reçu": true, "factura": true, "recibo": true, "fattura": true, "ricevuta": true, "領収書": true, "請求書": true,
	"納品書": true, "見積書": true, "receipts": true, "invoices": true, "gst": true, "vat": true, "and": true, "&": true}

// nameContinuations are words that end a name and never start one: a line
// that begins with one continues the name above it.
var nameContinuations = map[string]bool{"sdn": true, "bhd": true, "berhad": true, "ltd": true, "limited": true,
	"enterprise": true, "enterprises": true, "trading": true, "gmbh": true, "ag": true, "kg": true, "inc": true,
	"llc": true, "plc": true, "pty": true, "co": true, "corp": true, "corporation": true, "company": true,
	"m": true, "sarl": true, "sas": true, "srl": true, "spa": true, "bv": true, "nv": true, "oy": true, "ab": true,
	"holdings": true, "industries": true, "&": true, "and": true, "mbh": true}

// checkIssuer flags a name that is a title, the customer, or one line of a
// name printed over several.
func (d *doc) checkIssuer(c *FieldCheck, val string) {
	if isTitle(val) {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is a document title, not a name", val))
		return
	}
	if len(c.Spans) == 0 {
		return
	}
	if why, ok := notAName(val); ok {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is %s, not a name", val, why))
		return
	}
	sup, selfBilled := d.selfBilledSupplier()
	if selfBilled && sameName(sup.name, val) {
		// The supplier a self-billing invoice is written for: the text
		// around it names the buyer who wrote it ("issued by the client on
		// behalf of …"), not another party.
		return
	}
	customer := ""
	for _, sp := range capped(c.Spans) {
		lab := d.otherPartyAt(sp)
		if lab == "" {
			customer = ""
			break
		}
		customer = lab
	}
	if customer == amountLineParty {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q opens a line that holds only an amount (a payer's share or a payment), not the issuer", val))
		return
	}
	if customer != "" {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is the party named after %q, not the issuer", val, strings.ToUpper(customer)))
		return
	}
	if d.taxOffice(c.Spans, val) {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is the tax office printed beside the seller's tax number, not the issuer", val))
		return
	}
	if d.checkNamedRole(c, val) {
		return
	}
	if label, head, ok := d.senderNotIssuer(c.Spans, val); ok {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is the party named after %q, not the issuer: the document's head names %q", val, strings.ToUpper(label), head))
		return
	}
	if d.checkAddresseeBlock(c, val) {
		return
	}
	if place, ok := d.datelinePlace(c.Spans); ok {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is the place of the dateline %q, not a name", val, place))
		return
	}
	if strings.Count(val, "(") != strings.Count(val, ")") {
		c.penalize(factorCutName, fmt.Sprintf("%q is cut inside its parentheses", val))
		return
	}
	sp := c.Spans[0]
	li := d.lineOf(sp.Start)
	ls, _ := d.lineBounds(li)
	if _, cont := leadWord(val); cont && strings.TrimSpace(d.str(ls, sp.Start)) == "" && li > 0 {
		ps, pe := d.lineBounds(li - 1)
		if prev := strings.TrimSpace(d.str(ps, pe)); nameLike(prev) {
			c.penalize(factorCutName, fmt.Sprintf("%q starts with %q, which continues the name on the line above (%q)", val, LabelTokens(val)[0], prev))
			return
		}
	}
	el := d.lineOf(sp.End - 1)
	_, le := d.lineBounds(el)
	if strings.TrimSpace(d.str(sp.End, le)) == "" && el+1 < len(d.lineStarts) {
		ns, ne := d.lineBounds(el + 1)
		next := strings.TrimSpace(d.str(ns, ne))
		if n, cont := leadWord(next); cont && n <= 4 && nameLike(next) {
			c.penalize(factorCutName, fmt.Sprintf("%q is cut at its line: the name continues with %q", val, next))
		}
	}
	if selfBilled {
		// The buyer at the head wrote it; the supplier it names is the vendor.
		if !sameName(sup.name, val) {
			c.penalize(factorNotIssuer, fmt.Sprintf("the document is a self-billing invoice, written by the buyer for its supplier %q (line %d): the supplier is the vendor, not %q", sup.name, sup.line+1, val))
		}
		return
	}
	sellers := d.platformSellers()
	if !slices.ContainsFunc(sellers, func(s seller) bool { return sameName(s.name, val) }) {
		// A seller the document names (on a platform's receipt, or the one
		// it is issued on behalf of) is the vendor whatever the head prints.
		d.checkHeadCompany(c, val)
		if c.Factor < 1 {
			return
		}
	}
	if len(sellers) > 0 {
		i := slices.IndexFunc(sellers, func(s seller) bool { return sameName(s.name, val) })
		switch {
		case i < 0:
			c.penalize(factorNotIssuer, fmt.Sprintf("the document names %q as the seller (line %d): the platform or agent that printed it is not the vendor", sellers[0].name, sellers[0].line+1))
			return
		case len(sellers) > 1:
			names := make([]string, len(sellers))
			for k, s := range sellers {
				names[k] = fmt.Sprintf("%q", s.name)
			}
			c.penalize(factorNotIssuer, fmt.Sprintf("the document names several sellers (%s): %q is only one of them", strings.Join(names, ", "), val))
			return
		}
	}
	d.checkEmailParty(c, val)
	if len(sellers) == 0 {
		// The one seller a platform's receipt names is its vendor below
		// the platform's head.
		d.checkIssuerPoint(c, val)
		d.checkNamedInRole(c, val)
	}
}

// nameLike is a line that can be part of a name: letters, no digits, no
// label colon, not a title.
func nameLike(line string) bool {
	if line == "" || strings.ContainsAny(line, ":@") || strings.ContainsFunc(line, unicode.IsDigit) {
		return false
	}
	ws := LabelTokens(line)
	return len(ws) > 0 && slices.ContainsFunc(ws, func(w string) bool { return !titleWords[w] })
}

// datelinePlace reports a value whose every occurrence opens a dateline, a
// place then a comma and the date ("Zürich, 10. Februar 2026", "Paris, le 3
// mars 2026"): a letter's place of writing, not its issuer. It returns the
// line.
func (d *doc) datelinePlace(spans []Span) (string, bool) {
	line := ""
	for _, sp := range capped(spans) {
		li := d.lineOf(sp.Start)
		ls, le := d.lineBounds(li)
		if strings.TrimSpace(d.str(ls, sp.Start)) != "" {
			return "", false
		}
		k := sp.End
		for k < le && d.rs[k] == ' ' {
			k++
		}
		if k >= le || d.rs[k] != ',' {
			return "", false
		}
		found := false
		for _, m := range d.dates {
			if m.Start > k && m.Start <= k+6 && m.End <= le && strings.TrimSpace(d.str(m.End, le)) == "" &&
				len(LabelTokens(d.str(k+1, m.Start))) <= 1 {
				found = true
				break
			}
		}
		if !found {
			return "", false
		}
		line = strings.TrimSpace(d.str(ls, le))
	}
	return line, line != ""
}
