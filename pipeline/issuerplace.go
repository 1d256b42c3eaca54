package pipeline

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Where the issuer is, read from the numbers it prints about itself when it
// names no country: a tax registration number in one country's format, a
// telephone number with its country code, a company register number. A
// document that prints no currency and no date proving its day/month order
// is still placed by them, as a reader places it.

// issuerNumber is one printed form that places its issuer. code is the
// currency the place implies, "" when the form is shared by countries with
// different currencies (it still settles the date order when dayFirst).
type issuerNumber struct {
	re       issuerRegexp
	code     string
	dayFirst bool
	what     string
	// need is what every match has, checked before the regexp runs: most
	// texts lack it, and a regexp reads the whole text.
	need textNeed
	// valid, when set, reads the text around a match (m as
	// FindStringSubmatchIndex gives it) for what the regexp cannot say:
	// the first valid match counts.
	valid func(text string, m []int) bool
}

// textNeed is what a text must hold for a regexp to match in it: one of
// any (when set), one of fold in any case (when set) and a run of at least
// digits ASCII digits.
type textNeed struct {
	any    []string
	fold   []string // lowercase ASCII, for a (?i) regexp
	digits int
	// shape, when set, reads the runes for the shape every match has (a
	// state code, a space and five digits): one pass, where a regexp with
	// no literal to start from tries every position.
	shape func(rs []rune) bool
}

func (n textNeed) met(d *doc) bool {
	if n.digits > 0 && d.digitRun() < n.digits {
		return false
	}
	return (len(n.any) == 0 || containsAny(d.text(), n.any)) && (len(n.fold) == 0 || d.containsFold(n.fold)) &&
		(n.shape == nil || n.shape(d.rs))
}

// digitsAt reports n ASCII digits at rs[i:].
func digitsAt(rs []rune, i, n int) bool {
	if i < 0 || i+n > len(rs) {
		return false
	}
	for _, r := range rs[i : i+n] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// upperAt reports an ASCII capital at rs[i].
func upperAt(rs []rune, i int) bool { return i >= 0 && i < len(rs) && rs[i] >= 'A' && rs[i] <= 'Z' }

// stateZipShape: two capitals, a space and five digits ("NY 10013").
func stateZipShape(rs []rune) bool {
	for i, r := range rs {
		if r == ' ' && upperAt(rs, i-1) && upperAt(rs, i-2) && digitsAt(rs, i+1, 5) {
			return true
		}
	}
	return false
}

// southAfricanShape: "(Pty) Ltd", or four digits, a slash, six digits and
// a slash ("2019/123456/07").
func southAfricanShape(rs []rune) bool {
	for i, r := range rs {
		if r == '/' && digitsAt(rs, i-4, 4) && digitsAt(rs, i+1, 6) && i+7 < len(rs) && rs[i+7] == '/' {
			return true
		}
		if r == '(' && runesAre(rs[i:min(len(rs), i+9)], "(Pty) Ltd") {
			return true
		}
	}
	return false
}

// registerShape: six digits, then a hyphen between optional spaces, then a
// capital ("872981-V", "0828301 - X").
func registerShape(rs []rune) bool {
	run := 0
	for i, r := range rs {
		if r >= '0' && r <= '9' {
			run++
			continue
		}
		if run >= 6 {
			k := i
			if k < len(rs) && rs[k] == ' ' {
				k++
			}
			if k < len(rs) && rs[k] == '-' {
				if k++; k < len(rs) && rs[k] == ' ' {
					k++
				}
				if upperAt(rs, k) {
					return true
				}
			}
		}
		run = 0
	}
	return false
}

// runesAre reports whether rs are the bytes of the ASCII w.
func runesAre(rs []rune, w string) bool {
	if len(rs) != len(w) {
		return false
	}
	for i := range rs {
		if rs[i] != rune(w[i]) {
			return false
		}
	}
	return true
}

// containsFold reports whether the text holds one of the lowercase ASCII
// words in any case, as a (?i) regexp reads it: the lowercased text holds
// it, or the text holds a long s (ſ), which (?i) reads as "s" and
// lowercasing keeps.
func (d *doc) containsFold(words []string) bool {
	if t := d.text(); len(t) == len(d.rs) {
		// An ASCII text: lowercasing changes only A-Z: the text is searched as it is.
		for _, w := range words {
			if asciiContainsFold(t, w) {
				return true
			}
		}
		return false
	}
	return containsAny(d.lowerText(), words) || strings.ContainsRune(d.text(), 'ſ')
}

// asciiContainsFold reports whether the ASCII t holds the lowercase ASCII
// w, the letters of t compared in any case.
func asciiContainsFold(t, w string) bool {
	for i := 0; i+len(w) <= len(t); i++ {
		if asciiLower(t[i]) == w[0] && foldPrefix(t[i:], w) {
			return true
		}
	}
	return false
}

var issuerNumbers = []issuerNumber{
	// Malaysia's GST registration numbers are twelve digits (Singapore's
	// mix letters, India's GSTIN is fifteen characters, Canada's ends RT0001).
	{handRegexp{regexp.MustCompile(`(?i)\bGST\b[^\n\d]{0,24}?(\d{4} ?\d{4} ?\d{4})(?:[^\d]|$)`), gstNumberIndex}, "MYR", true, "a Malaysian GST registration number", textNeed{fold: []string{"gst"}, digits: 4}, nil},
	// Germany's VAT ID after its label; Japan's qualified-invoice number.
	{regexp.MustCompile(`(?i)\bUSt[-. ]?Id(?:Nr)?\.?[^\n\w]{0,6}(DE ?\d{9})\b`), "EUR", true, "a German VAT ID", textNeed{fold: []string{"ust"}, digits: 9}, nil},
	{regexp.MustCompile(`登録番号[^\n\d]{0,6}(T\d{13})`), "JPY", false, "a Japanese invoice registration number", textNeed{any: []string{"登録番号"}, digits: 13}, nil},
	// VAT IDs that carry their country: Sweden's ends in 01, the UK's,
	// Denmark's, Norway's with MVA, Poland's. A US address; a South African
	// "(Pty) Ltd" or company registration number.
	{regexp.MustCompile(`\b(SE ?\d{10}01)\b`), "SEK", true, "a Swedish VAT number", textNeed{any: []string{"SE"}, digits: 12}, nil},
	{regexp.MustCompile(`\b(GB ?\d{3} ?\d{4} ?\d{2})\b`), "GBP", true, "a UK VAT number", textNeed{any: []string{"GB"}, digits: 3}, nil},
	{regexp.MustCompile(`\b(DK ?\d{8})\b`), "DKK", true, "a Danish VAT number", textNeed{any: []string{"DK"}, digits: 8}, nil},
	{regexp.MustCompile(`\b(NO ?\d{9} ?MVA)\b`), "NOK", true, "a Norwegian VAT number", textNeed{any: []string{"MVA"}, digits: 9}, nil},
	{regexp.MustCompile(`\b(PL ?\d{10})\b`), "PLN", true, "a Polish VAT number", textNeed{any: []string{"PL"}, digits: 10}, nil},
	// New Zealand's GST and IRD numbers (eight or nine digits, written
	// 123-456-789), its business number and telephone code, an Australian
	// Business Number; web and e-mail addresses under .nz and .au. Before
	// the US address: a tax number says where its issuer is more surely
	// than a state code and five digits, which a label and an ID can
	// print ("Patient ID 40235").
	{regexp.MustCompile(`(?i)\bGST\b[^\n\d]{0,24}?(\d{2,3}-\d{3}-\d{3})\b`), "NZD", true, "a New Zealand GST number", textNeed{fold: []string{"gst"}, digits: 3}, nil},
	{regexp.MustCompile(`\bIRD\b[^\n\d]{0,16}?(\d{2,3}-?\d{3}-?\d{3})\b`), "NZD", true, "a New Zealand IRD number", textNeed{any: []string{"IRD"}, digits: 3}, nil},
	{regexp.MustCompile(`\bNZBN\b[^\n\d]{0,8}(94\d{11})\b`), "NZD", true, "a New Zealand business number", textNeed{any: []string{"NZBN"}, digits: 13}, nil},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?64)[ \-()]*\d[\d \-()]{5,}`), "NZD", true, "the New Zealand telephone code", textNeed{any: []string{"+64", "+ 64"}}, nil},
	{regexp.MustCompile(`(?i)[a-z0-9-]\.((?:co|org|net|govt|ac|school)\.nz)\b`), "NZD", true, "a New Zealand web address", textNeed{fold: []string{".nz"}}, nil},
	{regexp.MustCompile(`\bABN\b[^\n\d]{0,8}(\d{2} ?\d{3} ?\d{3} ?\d{3})\b`), "AUD", true, "an Australian Business Number", textNeed{any: []string{"ABN"}, digits: 2}, nil},
	{regexp.MustCompile(`(?i)[a-z0-9-]\.((?:com|net|org|gov|edu|asn)\.au)\b`), "AUD", true, "an Australian web address", textNeed{fold: []string{".au"}}, nil},
	{handRegexp{regexp.MustCompile(`\b((?:AL|AK|AZ|AR|CA|CO|CT|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC) \d{5})(?:-\d{4})?\b`), usAddressIndex}, "USD", false, "a US address", textNeed{digits: 5, shape: stateZipShape}, usAddress},
	{regexp.MustCompile(`(\(Pty\) Ltd|\b\d{4}/\d{6}/\d{2}\b)`), "ZAR", true, "a South African company", textNeed{any: []string{"(Pty) Ltd", "/"}, shape: southAfricanShape}, nil},
	// A telephone number written with its country code.
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?60)[ \-(]*1?\d[\d \-()]{6,}`), "MYR", true, "the Malaysian telephone code", textNeed{any: []string{"+60", "+ 60"}}, nil},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?65)[ \-()]*[689]\d[\d \-()]{5,}`), "SGD", true, "the Singapore telephone code", textNeed{any: []string{"+65", "+ 65"}}, nil},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?49)[ \-()]*\d[\d \-()/]{5,}`), "EUR", true, "the German telephone code", textNeed{any: []string{"+49", "+ 49"}}, nil},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?43)[ \-()]*\d[\d \-()/]{5,}`), "EUR", true, "the Austrian telephone code", textNeed{any: []string{"+43", "+ 43"}}, nil},
	{regexp.MustCompile(`(?:^|[^\d+])(\+ ?33)[ \-()]*\d[\d \-().]{5,}`), "EUR", true, "the French telephone code", textNeed{any: []string{"+33", "+ 33"}}, nil},
	phoneCode("44", "GBP", true, "the UK telephone code"),
	phoneCode("61", "AUD", true, "the Australian telephone code"),
	phoneCode("81", "JPY", false, "the Japanese telephone code"),
	// The countries that share "$" or "kr" with others, by telephone code
	// and by web or e-mail address: a "$" in Hong Kong is HKD, a "kr" in
	// Norway NOK.
	phoneCode("852", "HKD", true, "the Hong Kong telephone code"),
	phoneCode("52", "MXN", true, "the Mexican telephone code"),
	phoneCode("54", "ARS", true, "the Argentine telephone code"),
	phoneCode("56", "CLP", true, "the Chilean telephone code"),
	phoneCode("57", "COP", true, "the Colombian telephone code"),
	phoneCode("46", "SEK", true, "the Swedish telephone code"),
	phoneCode("47", "NOK", true, "the Norwegian telephone code"),
	phoneCode("45", "DKK", true, "the Danish telephone code"),
	webAddress("ca", "CAD", false, "a Canadian web address"),
	webAddress("com.sg", "SGD", true, "a Singapore web address"),
	webAddress("com.hk", "HKD", true, "a Hong Kong web address"),
	webAddress("com.mx", "MXN", true, "a Mexican web address"),
	webAddress("com.ar", "ARS", true, "an Argentine web address"),
	webAddress("cl", "CLP", true, "a Chilean web address"),
	webAddress("com.co", "COP", true, "a Colombian web address"),
	webAddress("se", "SEK", true, "a Swedish web address"),
	webAddress("no", "NOK", true, "a Norwegian web address"),
	webAddress("dk", "DKK", true, "a Danish web address"),
	// Malaysia's company and business register numbers: digits and a check
	// letter ("(872981-V)", "JM0828301-X"), in brackets or alone on a line.
	// Spain's NIF shares the shape; both write dates day first.
	{regexp.MustCompile(`(?m)(?:^|[(<]|\bCO\.? ?NO\.? ?)\s*((?:[A-Z]{2})?\d{6,12} ?- ?[A-Z])\s*(?:$|[)>])`), "", true, "a company register number", textNeed{any: []string{"-"}, digits: 6, shape: registerShape}, nil},
}

// phoneCode is a telephone number written with the country code cc.
func phoneCode(cc, code string, dayFirst bool, what string) issuerNumber {
	re := regexp.MustCompile(`(?:^|[^\d+])(\+ ?` + cc + `)[ \-()]*\d[\d \-()]{5,}`)
	return issuerNumber{re, code, dayFirst, what, textNeed{any: []string{"+" + cc, "+ " + cc}}, nil}
}

// webAddress is a web or e-mail address under the top-level domain tld
// ("www.kowhai.co.nz", "post@fjordvik.no"): after "www." or "@", so that
// "Ref.No 12" is no Norwegian domain.
func webAddress(tld, code string, dayFirst bool, what string) issuerNumber {
	re := regexp.MustCompile(`(?i)(?:www\.|@)[a-z0-9-]+(?:\.[a-z0-9-]+)*?\.(` + regexp.QuoteMeta(tld) + `)\b`)
	return issuerNumber{re, code, dayFirst, what, textNeed{fold: []string{"." + tld}}, nil}
}

// usAddress reports a state code and ZIP code that end a town's address
// ("Boise, ID 83702", "SPRINGFIELD IL 62704"), not a label and a number: a
// code after a comma, or after a word that is no identifier's label
// ("Patient ID 40235", "Member NO 12345"); "ID" itself, with no comma
// before it, is a label.
func usAddress(text string, m []int) bool {
	before := strings.TrimRight(text[max(0, m[2]-40):m[2]], " ")
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	if strings.HasSuffix(before, ",") {
		return true
	}
	if text[m[2]:m[2]+2] == "ID" {
		return false
	}
	words := strings.Fields(before)
	return len(words) > 0 && !idLabelWords[strings.ToLower(strings.Trim(words[len(words)-1], ".:#"))]
}

// idLabelWords are the words before a code and a number that make them a
// label and an identifier, not a state and a ZIP code.
var idLabelWords = map[string]bool{"patient": true, "customer": true, "client": true, "member": true, "account": true,
	"acct": true, "order": true, "invoice": true, "ref": true, "reference": true, "user": true, "employee": true,
	"staff": true, "student": true, "policy": true, "claim": true, "case": true, "file": true, "booking": true,
	"transaction": true, "store": true, "terminal": true, "tax": true, "no": true, "nr": true, "number": true}

// issuerPlace reads the issuer's place from its printed numbers: the
// currency that place implies ("" when the form does not fix one), whether
// its dates are day first, a hint naming the evidence for reasons, and where
// it is printed.
func (d *doc) issuerPlace(wantCurrency bool) (code string, dayFirst bool, hint string, sp Span, ok bool) {
	text := d.text()
	for i, n := range issuerNumbers {
		if d.st.err() != nil {
			return "", false, "", Span{}, false // each regexp reads the whole text
		}
		if wantCurrency && n.code == "" {
			continue
		}
		m := d.issuerNumberMatch(i)
		if m == nil {
			continue
		}
		s := utf8.RuneCountInString(text[:m[2]])
		sp := Span{Start: s, End: s + utf8.RuneCountInString(text[m[2]:m[3]])}
		return n.code, n.dayFirst, n.what + " (" + text[m[2]:m[3]] + ")", sp, true
	}
	if wantCurrency {
		return "", false, "", Span{}, false
	}
	if line, at, ok := d.postcodeFirstLine(); ok {
		return "", true, "an address written postcode first (" + line + ")", Span{Start: at, End: at + utf8.RuneCountInString(line)}, true
	}
	return "", false, "", Span{}, false
}

// postcodeLine is a five-digit postcode before its town, alone on a line:
// "40150 SHAH ALAM", "10115 Berlin", "75001 Paris". Countries that write
// it so write dates day first; the US writes "New York, NY 10013".
var postcodeLine = regexp.MustCompile(`^\d{5} +(\pL[\pL.'\- ]{2,30}?)[.,]?$`)

// streetWords make "12345 Main St" a house number and street, not a postcode
// and town.
var streetWords = map[string]bool{"st": true, "street": true, "ave": true, "avenue": true, "blvd": true, "rd": true,
	"road": true, "dr": true, "drive": true, "way": true, "lane": true, "ln": true, "ct": true, "court": true, "pl": true,
	"place": true, "hwy": true, "highway": true, "pkwy": true, "parkway": true, "suite": true, "ste": true, "apt": true,
	"floor": true, "fl": true, "camino": true, "jalan": true, "jln": true}

// findPostcodeFirstLine finds such a line in the document's head: among the
// first twelve lines and above the first amount with cents, where an item line with a
// five-digit code cannot be.
func (d *doc) findPostcodeFirstLine() (string, int, bool) {
	last := min(len(d.lineStarts), 12)
	for _, a := range d.amounts {
		if a.Line >= last {
			break
		}
		if centsForm(a.Raw) {
			last = a.Line
		}
	}
	for li := 0; li < last; li++ {
		ls, le := d.lineBounds(li)
		line := strings.TrimSpace(d.str(ls, min(le, ls+60)))
		m := postcodeLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		street := false
		for _, w := range strings.Fields(strings.ToLower(strings.NewReplacer(".", " ", ",", " ").Replace(m[1]))) {
			street = street || streetWords[w]
		}
		if !street {
			return line, ls, true
		}
	}
	return "", 0, false
}

// headerCode is an ISO currency code in brackets after a column or amount
// label: "Amount (AED)", "Betrag (EUR)", "Total (in USD)".
var headerCode = regexp.MustCompile(`(?i)\b(amount|amt|betrag|montant|importe|importo|bedrag|belopp|beløp|kwota|valor|price|preis|prix|total|summe|total amount)\s*\((?:in )?([A-Z]{3})\)`)

// proseCode is an ISO currency code a sentence names as the one to pay or
// price in: "Please pay in GBP", "payable in USD", "amounts in EUR",
// "zahlbar in CHF", "à payer en EUR", "pagare in EUR".
var proseCode = regexp.MustCompile(`\b(?i:pay|paid|payable|payment|amounts?|prices?|billed|invoiced|charged|settled?|remit|zahlbar|zahlen|payer|pagar|pagare|pagabile)\s+(?i:in|en)\s+([A-Z]{3})\b`)

// proseCurrency finds a currency a sentence names ("Please pay in GBP").
func (d *doc) proseCurrency() (code, phrase string, sp Span, ok bool) {
	text := d.text()
	if !mayPayIn(text) {
		return "", "", Span{}, false
	}
	for _, m := range proseCode.FindAllStringSubmatchIndex(text, 8) {
		c := text[m[2]:m[3]]
		if _, known := currencyMarkers[c]; !known && !slices.Contains(extraCodes, c) {
			continue
		}
		s := utf8.RuneCountInString(text[:m[0]])
		return c, text[m[0]:m[1]], Span{Start: s, End: s + utf8.RuneCountInString(text[m[0]:m[1]])}, true
	}
	return "", "", Span{}, false
}

// headerCurrency finds a currency stated only in a column header.
func (d *doc) headerCurrency() (code, header string, sp Span, ok bool) {
	text := d.text()
	if !mayHeadCode(text) {
		return "", "", Span{}, false
	}
	for _, m := range headerCode.FindAllStringSubmatchIndex(text, 8) {
		c := text[m[4]:m[5]]
		if _, known := currencyMarkers[c]; !known && !slices.Contains(extraCodes, c) {
			continue
		}
		s := utf8.RuneCountInString(text[:m[0]])
		return c, text[m[0]:m[1]], Span{Start: s, End: s + utf8.RuneCountInString(text[m[0]:m[1]])}, true
	}
	return "", "", Span{}, false
}

// mayHeadCode reports whether text can match headerCode: whether a ")"
// follows three runes that (?i)[A-Z] matches (ASCII letters, and "ſ" and
// the Kelvin sign, which fold to s and k). Most documents print none, and
// the backtracking scan for the labels costs more than the whole of some
// checks.
func mayHeadCode(text string) bool {
	for at := 0; ; {
		i := strings.IndexByte(text[at:], ')')
		if i < 0 {
			return false
		}
		at += i + 1
		head, n := text[:at-1], 0
		for ; n < 3; n++ {
			r, size := utf8.DecodeLastRuneInString(head)
			if !('a' <= r|0x20 && r|0x20 <= 'z' || r == 'ſ' || r == '\u212A') {
				break
			}
			head = head[:len(head)-size]
		}
		if n == 3 {
			return true
		}
	}
}

// mayPayIn reports whether text can match proseCode, whose tail is
// case-sensitive: "in" or "en" in any case, ASCII spaces, then three
// capitals that end a word. A document that names no currency so is
// not scanned for the verbs before it.
func mayPayIn(text string) bool {
	for p := 1; p+3 <= len(text); p++ {
		if !isCap(text[p]) || !isCap(text[p+1]) || !isCap(text[p+2]) || !isRE2Space(text[p-1]) ||
			p+3 < len(text) && isRE2Word(text[p+3]) {
			continue
		}
		q := p - 1
		for q > 0 && isRE2Space(text[q-1]) {
			q--
		}
		if q >= 2 && text[q-1]|0x20 == 'n' && (text[q-2]|0x20 == 'i' || text[q-2]|0x20 == 'e') {
			return true
		}
	}
	return false
}

func isCap(c byte) bool { return 'A' <= c && c <= 'Z' }

// isRE2Space is a byte regexp's \s matches: \t \n \f \r and space.
func isRE2Space(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isRE2Word is a byte regexp's \b counts as a word's: an ASCII letter or
// digit, or "_".
func isRE2Word(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// extraCodes are currencies the marker table has no sign for.
var extraCodes = []string{"SEK", "NOK", "DKK", "ZAR", "AED", "SAR", "QAR", "KWD", "BHD", "OMR", "TWD", "VND", "TRY",
	"CZK", "HUF", "RON", "ILS", "EGP", "NGN", "KES", "CLP", "COP", "PEN", "ARS", "UAH"}
