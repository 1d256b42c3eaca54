package local

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/reflect-mcp/reflect/pipeline"
)

// idStrongRE finds a reference number after a label that says it is one:
// "Invoice #:", "Receipt No.", "Rechnungsnummer", "Facture n°", "Doc #".
var idStrongRE = regexp.MustCompile(`(?i)(?:\b(?:invoice|inv|receipt|rcpt|bill|doc|document|cash\s+sales?|cash\s+bill|check|chk|voucher|credit\s+note|gutschrift|transaction|trans|slip)[\s.\-]*(?:number|num|no|n0|nr|n°|nº|#)|\btaxinv\s*[:#]|\b(?:cb|trn|slip|chk)\s*[#:]|\brechnungs?\s*(?:nummer|nr)|\bfacture\s*(?:n°|nº|no|num[ée]ro)|\bfactura\s*(?:n°|nº|no|núm|num|número)|\bref(?:erence)?(?:\s*(?:no|#))?|請求書番号|請求番号|領収書番号|伝票番号)[\s.:#º°]*(?:no\.?\s*[:#]?\s*)?([\[(#]*[A-Za-z0-9][A-Za-z0-9\-/_.]*)`)

// idLabelStems are the stems every idStrongRE label starts with: a cheap
// test that spares the regexp the lines that cannot match.
var idLabelStems = []string{"inv", "receipt", "rcpt", "bill", "doc", "cash", "check", "chk", "cb", "trn", "trans", "slip", "voucher", "credit", "gutschrift", "rechnung",
	"factur", "ref", "請求", "領収", "伝票"}

func mayHoldIDLabel(low string) bool {
	for _, s := range idLabelStems {
		if strings.Contains(low, s) {
			return true
		}
	}
	return false
}

// idPartRE is a part that continues a printed number: "V031- 551345",
// "00015258 / POS01", "DPC11 53409-001-0006", "01 148409".
var idPartRE = regexp.MustCompile(`^(?:\s?[/-]\s?|-?\s)([A-Za-z0-9][A-Za-z0-9\-/_]*)`)

// extendID grows the identifier text[start:end] by the parts printed after it
// on its line: a part joined by a slash or hyphen holds a digit; a part after
// a bare space is a group of at least three digits (or digits and hyphens),
// so "No: 1234 2 x Coffee" and "No: 1234 10/12/2018" stay "1234".
func extendID(text string, start, end int) string {
	for {
		m := idPartRE.FindStringSubmatchIndex(text[end:])
		if m == nil {
			break
		}
		part := text[end+m[2] : end+m[3]]
		joiner := strings.TrimSpace(text[end : end+m[2]])
		next := end + m[3]
		if next < len(text) && strings.ContainsRune(":.,", rune(text[next])) && !(text[next] == '.' && next+1 == len(text)) {
			break // a label ("PAX:"), a time or an amount follows
		}
		if _, date := parseDateToken(part); date || !hasDigit(part) {
			break
		}
		if joiner == "" && (len(part) < 3 || strings.Trim(part, "0123456789-") != "") {
			break
		}
		end = next
	}
	return text[start:end]
}

// idWeakRE is a bare "invoice X" or "receipt X" in running text.
var idWeakRE = regexp.MustCompile(`(?i)\b(?:invoice|receipt|rechnung|facture|factura|bill)\b[ \t:]*([\[(#]*[A-Za-z0-9][A-Za-z0-9\-/_.]*)`)

// identifier finds the document's reference number by its label.
func (d *doc) identifier() (found, bool) {
	// A transaction or slip number is the document's number only when no
	// invoice, receipt or bill number is printed: it is held back.
	var secondary, receipt found
	for li, ln := range d.lines {
		if !hasDigit(ln.text) || !mayHoldIDLabel(d.lowLine(li)) {
			continue // the number must be on the label's line
		}
		for _, m := range idStrongRE.FindAllStringSubmatchIndex(ln.text, -1) {
			if referenceBefore(ln.text[:m[0]]) {
				continue // "zu Rechnung Nr. R-2026-0871": another document's number
			}
			raw := extendID(ln.text, m[2], m[3])
			if v, ok := cleanID(raw); ok {
				label := strings.TrimSpace(ln.text[m[0]:m[2]])
				tier := "id:strong-label"
				low := strings.ToLower(label)
				switch {
				case strings.HasPrefix(low, "trans") || strings.HasPrefix(low, "trn") || strings.HasPrefix(low, "slip"):
					if secondary.value == nil {
						secondary = tiered("id:transaction-label", v, "after the label "+label+" (a transaction number)")
					}
					continue
				case len(v) < 3:
					tier = "id:strong-label-short" // "NO 42": likely cut by a line break
				case strings.HasPrefix(low, "receipt") || strings.HasPrefix(low, "rcpt"):
					// A payment receipt's number gives way to the invoice
					// number printed with it ("Receipt #2291-4478" /
					// "Invoice #QS-9F3A21C-0007").
					if receipt.value == nil {
						receipt = tiered(tier, v, "after the label "+label)
					}
					continue
				}
				if receipt.value != nil && !invoiceLabel(low) {
					return receipt, true
				}
				return tiered(tier, v, "after the label "+label), true
			}
		}
	}
	if receipt.value != nil {
		return receipt, true
	}
	if secondary.value != nil {
		if d.barcodeEndsWith(secondary.value.(string)) {
			secondary = tiered("id:transaction-label+barcode", secondary.value, secondary.method+"; the barcode number printed alone on a line ends with it")
		}
		return secondary, true
	}
	// The weak pattern never crosses a line, so only lines with its words
	// need the regexp.
	for li, ln := range d.lines {
		if !mayHoldWeakIDLabel(d.lowLine(li)) {
			continue
		}
		for _, ix := range idWeakRE.FindAllStringSubmatchIndex(ln.text, -1) {
			v, ok := cleanID(ln.text[ix[2]:ix[3]])
			if !ok {
				continue
			}
			word := strings.TrimSpace(ln.text[ix[0]:ix[2]])
			tier := "id:weak-word"
			switch {
			case !hasLetter(v) && len(v) < 4:
				tier = "id:weak-word-short"
			case strings.HasSuffix(word, ":") && idEndsHere(ln.text[ix[3]:]):
				// "INVOICE : 581355", "Rechnung: 2024-017": the colon makes
				// the document's own word a label, and the token is whole.
				tier = "id:word-colon"
			}
			return tiered(tier, v, "after the word "+word+" (no number label)"), true
		}
	}
	return d.receiptNumber()
}

// receiptNumberRE is a receipt's own number under the words tills print
// for it: "TICKET: 0231-0087712", "Bonnummer 0033-18822", "DOC.N.
// 0412-0087", "Numero 145/2026", "流水号：0088-2603-1942". A bare "No." is
// left out: on a receipt it opens the address as often as the number.
var receiptNumberRE = regexp.MustCompile(`(?i)(?:^|[\s(])(ticket|bonnummer|bon-?nr|beleg-?nr|doc\.?\s*n[.°º]?|numero|número|nummer|流水号|单号|票号|伝票番号)\s*[:：#]?\s*([A-Za-z0-9][A-Za-z0-9\-/_.]*)`)

// notTheDocument are words before "No." that make it another number's.
var notTheDocument = map[string]bool{"tel": true, "fax": true, "phone": true, "reg": true, "gst": true, "co": true,
	"company": true, "account": true, "customer": true, "table": true, "vat": true, "tax": true, "member": true,
	"card": true, "order": true, "po": true, "kunden": true, "steuer": true, "cliente": true, "pedido": true, "id": true}

// receiptNumber is the last resort for the document's number: the first
// token after a receipt-number word, when no invoice, receipt or
// transaction label names one. The words are common and loose, so the
// value stays below the gate.
func (d *doc) receiptNumber() (found, bool) {
	for li, ln := range d.lines {
		if !hasDigit(ln.text) {
			continue
		}
		for _, m := range receiptNumberRE.FindAllStringSubmatchIndex(ln.text, -1) {
			ws := strings.Fields(strings.ToLower(ln.text[max(0, m[2]-16):m[2]]))
			if len(ws) > 0 && notTheDocument[strings.Trim(ws[len(ws)-1], ".:#")] {
				continue
			}
			v, ok := cleanID(ln.text[m[4]:m[5]])
			if !ok || !hasDigit(v) || d.lowLine(li) == "" {
				continue
			}
			return tiered("id:receipt-word", v, "after the word "+ln.text[m[2]:m[3]]+" (a receipt's number, loosely labelled)"), true
		}
	}
	return found{}, false
}

// idEndsHere reports whether the text after an identifier leaves it whole:
// the line ends, or a space and a word or a date follow, not
// "- 389 - 4768", a number continued after a space.
func idEndsHere(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return true
	}
	r := rest[0]
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || leadingDateRE.MatchString(rest)
}

// leadingDateRE is a numeric date opening a text: "25/03/18 ...".
var leadingDateRE = regexp.MustCompile(`^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}(?:\s|$)`)

func mayHoldWeakIDLabel(low string) bool {
	for _, s := range []string{"invoice", "receipt", "rechnung", "facture", "factura", "bill"} {
		if strings.Contains(low, s) {
			return true
		}
	}
	return false
}

// moneyShapeRE is an amount written with thousands separators and cents.
var moneyShapeRE = regexp.MustCompile(`^\d{1,3}(?:[,. ]\d{3})+[.,]\d{2}$`)

// cleanID trims brackets and trailing punctuation and rejects tokens that
// cannot be a reference: no digit, a date, or a money amount.
func cleanID(s string) (string, bool) {
	s = strings.Trim(s, "[]()#")
	s = strings.TrimRight(s, ".-/_,")
	if len(s) < 2 || len(s) > 40 || !hasDigit(s) {
		return "", false
	}
	if _, ok := parseDateToken(s); ok {
		return "", false
	}
	if strings.Count(s, ".") == 1 && !hasLetter(s) || moneyShapeRE.MatchString(s) {
		return "", false // "12.50", "2,340.00", "1.309,00" are amounts
	}
	return s, true
}

func parseDateToken(s string) (string, bool) {
	if !strings.ContainsAny(s, "/.-") {
		return "", false
	}
	ms := pipeline.FindDates(s)
	if len(ms) == 1 && ms[0].Start == 0 && ms[0].End == len([]rune(s)) {
		return ms[0].ISO[0], true
	}
	return "", false
}

func hasDigit(s string) bool {
	return strings.IndexFunc(s, unicode.IsDigit) >= 0
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// isoCodes are the currency codes recognized when written out.
var isoCodes = map[string]bool{
	"USD": true, "EUR": true, "GBP": true, "JPY": true, "MYR": true, "AUD": true, "CAD": true, "SGD": true,
	"CHF": true, "CNY": true, "HKD": true, "NZD": true, "INR": true, "IDR": true, "KRW": true, "PHP": true,
	"THB": true, "BRL": true, "RUB": true, "PLN": true, "SEK": true, "NOK": true, "DKK": true, "ZAR": true,
	"MXN": true, "TWD": true, "VND": true, "AED": true, "SAR": true, "CZK": true, "HUF": true, "TRY": true,
}

// currencyLabels introduce a currency code on their line.
var currencyLabels = []string{"currency", "amounts in", "amount in", "prices in", "all amounts", "währung", "devise",
	"moneda", "valuta", "通貨",
	// A sentence that names the currency to pay in ("Please pay in GBP").
	"pay in", "paid in", "payable in", "payment in", "billed in", "invoiced in", "zahlbar in", "payer en", "payable en",
	"pagar en", "pagare in", "pagabile in"}

// currencyCodes lists the ISO codes the document prints in a currency
// context: next to an amount ("MYR 12.00", "12,00 EUR"), in brackets as a
// column header ("AMOUNT (MYR)"), or on a line that names the currency
// ("Amounts in USD"). A code inside an address or an item name ("2 TAU SAR
// PNEAH") is a word, not a currency.
func (d *doc) currencyCodes() []string {
	var out []string
	for li, ln := range d.lines {
		labelled := false
		for _, l := range currencyLabels {
			if strings.Contains(d.lowLine(li), l) {
				labelled = true
			}
		}
		for _, c := range upperTriples(ln.text) {
			if !isoCodes[c.code] {
				continue
			}
			before := strings.TrimRight(ln.text[:c.at], " :")
			after := strings.TrimLeft(ln.text[c.at+3:], " :")
			nextToAmount := after != "" && (after[0] >= '0' && after[0] <= '9') ||
				before != "" && (before[len(before)-1] >= '0' && before[len(before)-1] <= '9')
			bracketed := strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")")
			if labelled || nextToAmount || bracketed {
				out = append(out, c.code)
			}
		}
	}
	return out
}

type codeAt struct {
	code string
	at   int
}

// upperTriples lists the words of exactly three capital ASCII letters, as
// `\b[A-Z]{3}\b` would, in one pass without a regexp.
func upperTriples(text string) []codeAt {
	var out []codeAt
	word := func(b byte) bool {
		return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_'
	}
	for i := 0; i < len(text); {
		if !word(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && word(text[j]) {
			j++
		}
		if j-i == 3 && isUpper(text[i]) && isUpper(text[i+1]) && isUpper(text[i+2]) {
			out = append(out, codeAt{text[i:j], i})
		}
		i = j
	}
	return out
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// hasRM finds the ringgit marker, alone or glued to an amount ("RM12.00"),
// never inside a word.
func hasRM(text string) bool {
	letter := func(b byte) bool { return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' }
	for from := 0; ; {
		i := strings.Index(text[from:], "RM")
		if i < 0 {
			return false
		}
		i += from
		if (i == 0 || !letter(text[i-1])) && (i+2 >= len(text) || !letter(text[i+2])) {
			return true
		}
		from = i + 1
	}
}

// symbols map currency signs and names to codes. "$" is handled last: it is
// USD unless a code or a more specific dollar sign says otherwise.
var symbols = []struct{ marker, code string }{
	{"US$", "USD"}, {"S$", "SGD"}, {"A$", "AUD"}, {"AU$", "AUD"}, {"C$", "CAD"}, {"CA$", "CAD"}, {"HK$", "HKD"},
	{"NZ$", "NZD"}, {"R$", "BRL"}, {"€", "EUR"}, {"£", "GBP"}, {"¥", "JPY"}, {"￥", "JPY"}, {"円", "JPY"},
	{"₹", "INR"}, {"₩", "KRW"}, {"원", "KRW"}, {"zł", "PLN"}, {"₱", "PHP"}, {"฿", "THB"}, {"₽", "RUB"}, {"RMB", "CNY"}, {"人民币", "CNY"},
}

// detectCurrency finds the currency the document states: the most frequent
// ISO code, else a specific symbol, else RM, else "$".
func (d *doc) detectCurrency() (string, found) {
	text := string(d.rs)
	counts := map[string]int{}
	var order []string
	for _, c := range d.currencyCodes() {
		if counts[c] == 0 {
			order = append(order, c)
		}
		counts[c]++
	}
	best := ""
	for _, c := range order {
		if counts[c] > counts[best] {
			best = c
		}
	}
	if best != "" {
		tier := "currency:iso-code"
		if len(order) > 1 {
			tier = "currency:iso-several"
		}
		return best, tiered(tier, best, "ISO code "+best+" in the text")
	}
	for _, s := range symbols {
		if strings.Contains(text, s.marker) {
			tier := "currency:symbol"
			if s.marker == "¥" || s.marker == "￥" {
				tier = "currency:symbol-yen" // shared with CNY
				if code, why, ok := yenByScript(text); ok {
					return code, tiered(tier, code, "symbol "+s.marker+" in "+why)
				}
			}
			return s.code, tiered(tier, s.code, "symbol "+s.marker)
		}
	}
	if hasRM(text) {
		return "MYR", tiered("currency:rm", "MYR", "ringgit marker RM")
	}
	if strings.Contains(text, "$") {
		for _, h := range dollarHints {
			if h.re.MatchString(text) {
				return h.code, tiered("currency:dollar-hint", h.code, `"$" with `+h.why)
			}
		}
		// A bare "$" is most often USD, but only most often: the gate
		// should ask unless something else confirms it.
		return "USD", tiered("currency:dollar-bare", "USD", `"$" with no other currency stated (could be AUD, CAD, …)`)
	}
	return "", found{}
}

// dollarHints name the dollar a document means when it writes only "$".
var dollarHints = []struct {
	re        *regexp.Regexp
	code, why string
}{
	{regexp.MustCompile(`\bABN\b|\bPty\.? Ltd\b|\bAustralia\b|\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b`), "AUD", "Australian details (ABN, Pty Ltd, state)"},
	{regexp.MustCompile(`\bHST\b|\bCanada\b|\b(?:ON|BC|QC|AB|MB|NS|NB|SK)\s+[A-Z]\d[A-Z]`), "CAD", "Canadian details (HST, province, postcode)"},
	{regexp.MustCompile(`\bNew Zealand\b|\bGST\b.*\bNZ\b|\bNZBN\b`), "NZD", "New Zealand details"},
	{regexp.MustCompile(`\bSingapore\b|\bUEN\b`), "SGD", "Singapore details"},
	{regexp.MustCompile(`\bHong Kong\b`), "HKD", "Hong Kong details"},
}

func (d *doc) currencyValue() (found, bool) {
	return d.cur, d.currency != ""
}

// barcodeEndsWith reports a line holding only one long run of digits (a
// barcode's human-readable number, 12 digits or more) that ends with the
// all-digit number id: the till encodes its transaction number there, so the
// number is printed twice by two independent parts of the receipt.
func (d *doc) barcodeEndsWith(id string) bool {
	if len(id) < 4 || strings.Trim(id, "0123456789") != "" {
		return false
	}
	for _, ln := range d.lines {
		t := strings.TrimSpace(ln.text)
		if len(t) >= 12 && len(t) > len(id) && strings.Trim(t, "0123456789") == "" && strings.HasSuffix(t, id) {
			return true
		}
	}
	return false
}

// referenceWords end the text before a number label that names another
// document: "zu Rechnung Nr.", "relates to invoice", "RE: Invoice", "do
// faktury nr".
var referenceWords = map[string]bool{"zu": true, "to": true, "for": true, "re": true, "against": true,
	"regarding": true, "betreff": true, "do": true, "original": true, "replaces": true, "cancels": true,
	"storno": true, "korrektur": true, "della": true, "al": true}

func referenceBefore(before string) bool {
	if len(before) > 24 {
		before = before[len(before)-24:] // the word right before is enough; a long line stays linear
	}
	ws := strings.Fields(strings.ToLower(before))
	return len(ws) > 0 && referenceWords[strings.Trim(ws[len(ws)-1], ":.,()")]
}

// invoiceLabel reports a number label that names an invoice.
func invoiceLabel(low string) bool {
	for _, p := range []string{"inv", "rechnung", "factur", "fattura", "faktur", "請求"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// yenByScript tells the yen from the yuan by the script around the sign:
// kana write Japanese; characters only simplified Chinese uses (计, 发票,
// 价税, 找零) write Chinese. Han characters both share (合計) settle
// nothing.
func yenByScript(text string) (code, why string, ok bool) {
	simplified := false
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return "JPY", "a Japanese text (kana)", true
		case strings.ContainsRune(simplifiedOnly, r):
			simplified = true
		}
	}
	if simplified {
		return "CNY", "a simplified Chinese text", true
	}
	return "", "", false
}

// simplifiedOnly are common receipt and invoice characters written this way
// in simplified Chinese only.
const simplifiedOnly = "计发货价额门东业单张总币们这个为关销购买卖员费码扫实闭开现银优惠应找记录电话网址"
