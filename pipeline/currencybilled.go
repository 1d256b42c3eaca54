package pipeline

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The currency a document bills in is the one printed beside its billed
// amounts: on the lines its total, subtotal and tax labels head. A code
// or sign printed anywhere else (a reference or equivalent amount, an
// exchange rate, a customs or insured value, a bank account, a price
// list) may be any other currency, and the first one printed is often
// such an aside ("REF. USD 125,20" under "TOTAL VES 4.582,00").

// billedCurrency is what the billed lines print: up to four distinct
// codes, each with where it was first read.
type billedCurrency struct {
	// shared is set when a billed line prints a sign several currencies
	// share ("$", "kr", "Rs"): the codes then do not decide alone.
	shared bool
	// open is set when a total line prints no currency beside an amount
	// the coded total lines do not print ("Total 1,000.00" above "Total
	// en soles S/ 3,700.00"): that total may be in any currency.
	open  bool
	n     int
	codes [4]string
	spans [4]Span
	// own are the codes printed beside any amount outside an aside (an
	// item's price, a reference line's "REF. USD 125,20" excepted).
	own codeSet
}

// codeSet is a small set of currency codes.
type codeSet struct {
	n     int
	codes [6]string
}

func (s *codeSet) add(code string) {
	if !s.has(code) && s.n < len(s.codes) {
		s.codes[s.n] = code
		s.n++
	}
}

func (s *codeSet) has(code string) bool {
	return slices.Contains(s.codes[:s.n], code)
}

// has reports the span code was read at, if the billed lines print it.
func (b *billedCurrency) has(code string) (Span, bool) {
	for i := range b.n {
		if b.codes[i] == code {
			return b.spans[i], true
		}
	}
	return Span{}, false
}

func (b *billedCurrency) add(code string, sp Span) {
	if _, seen := b.has(code); !seen && b.n < len(b.codes) {
		b.codes[b.n], b.spans[b.n] = code, sp
		b.n++
	}
}

// billed is findBilled, once per document.
func (d *doc) billed() *billedCurrency {
	if d.billedCur == nil {
		d.billedCur = d.findBilled()
	}
	return d.billedCur
}

// noBilled is what billedFor gives when the billed lines need not be read.
var noBilled = &billedCurrency{}

// billedFor is billed, unless the first marker printed beside an amount
// outside an aside is code's, on a line that states no reference or goods
// value: then code is beside the document's own amounts, which the billed
// lines can neither refute nor decide more surely, and most documents
// (the right currency, printed beside every amount) are not read again.
func (d *doc) billedFor(code string) *billedCurrency {
	if d.billedCur == nil {
		if printed, _, sp, ok := d.amountCurrency(); ok && printed == code {
			if ls, le := d.lineBounds(d.lineOf(sp.Start)); !d.referenceLine(ls, le) && !d.valueLine(ls, sp.Start) {
				return noBilled
			}
		}
	}
	return d.billed()
}

// indexRune is the first offset from p on where the text prints r, or
// -1: an ASCII text's bytes, which are its runes, are searched by the
// vectorised IndexByte.
func (d *doc) indexRune(p int, r rune) int {
	k := -1
	if d.ascii && r < utf8.RuneSelf {
		k = strings.IndexByte(d.text()[p:], byte(r))
	} else {
		k = slices.Index(d.rs[p:], r)
	}
	if k < 0 {
		return -1
	}
	return p + k
}

// isBillingRole reports a role whose amount the document bills.
func isBillingRole(r Role) bool { return r == RoleTotal || r == RoleSubtotal || r == RoleTax }

// findBilled reads the currency on each line that holds a total, subtotal
// or tax amount: a code or an unambiguous sign beside one of its amounts,
// or a code in brackets ("Total (AED)"), from the line's start to the end
// of its first billed amount and the marker after it, so that "Total EUR
// 120.00 (USD 129.84)" bills EUR. A clause an aside cue covers ("≈ USD")
// counts for nothing.
func (d *doc) findBilled() *billedCurrency {
	b := &billedCurrency{}
	last := -1
	var bare [4]float64 // totals on lines that print no currency
	nBare := 0
	var coded [4]float64 // totals on lines that print one
	nCoded := 0
	for i, a := range d.amounts {
		if !isBillingRole(a.role) || a.Line == last {
			continue
		}
		last = a.Line
		before := b.n
		ls, le := d.lineBounds(a.Line)
		end := max(a.End, markerAfter(d.rs, a.End, le).End)
		if at := d.lineCueOf(a.Line).at; at >= 0 && at < end {
			// "Equivalent total in soles: S/ 370.00", "Total (USD
			// equivalent) 100.00": the line bills nothing before its
			// cue; after its amount the cue marks only an aside.
			if at < a.Start {
				continue
			}
			end = at
		}
		for _, o := range d.amounts[i:] {
			if o.Line != a.Line || o.Start >= end {
				break
			}
			d.billedBeside(b, o, ls, le)
		}
		for k := i - 1; k >= 0 && d.amounts[k].Line == a.Line; k-- {
			d.billedBeside(b, d.amounts[k], ls, le)
		}
		d.billedBracketed(b, ls, end)
		if a.role == RoleTotal {
			switch {
			case b.n > before && nCoded < len(coded):
				coded[nCoded] = a.Value
				nCoded++
			case b.n == before && nBare < len(bare):
				bare[nBare] = a.Value
				nBare++
			}
		}
	}
	for _, v := range bare[:nBare] {
		if nCoded > 0 && !slices.Contains(coded[:nCoded], v) {
			b.open = true
		}
	}
	// Where no billed line prints its currency, a column header over the
	// amounts ("Amount (AED)"), a sentence ("All amounts in NGN", "Please
	// pay in GBP") or a label ("Currency: EUR") states it for all of them.
	if b.n == 0 {
		if code, sp, ok := d.headedCode(); ok {
			b.add(code, sp)
		} else if code, sp, ok := d.payInCode(); ok {
			b.add(code, sp)
		} else if code, sp, ok := d.labelledCurrency(); ok {
			b.add(code, sp)
		}
	}
	if b.n > 0 {
		d.ownCodes(&b.own) // only read against the billed codes
	}
	return b
}

// headerWords head a column of amounts whose currency follows in
// brackets: "Amount (AED)", "Betrag (EUR)", "Total (in USD)".
var headerWords = map[string]bool{"amount": true, "amt": true, "betrag": true, "montant": true, "importe": true,
	"importo": true, "bedrag": true, "belopp": true, "beløp": true, "kwota": true, "valor": true, "price": true,
	"preis": true, "prix": true, "total": true, "summe": true}

// headedCode is the first ISO code in brackets after a header word, as
// headerCurrency reads it (any ISO code, not only the known ones), by one
// scan for brackets instead of its backtracking expression.
func (d *doc) headedCode() (string, Span, bool) {
	rs := d.rs
	for p := d.indexRune(0, '('); p >= 0 && p+4 < len(rs); p = d.indexRune(p+1, '(') {
		q := p + 1
		if q+3 < len(rs) && rs[q] == 'i' && rs[q+1] == 'n' && rs[q+2] == ' ' {
			q += 3
		}
		if q+3 >= len(rs) || rs[q+3] != ')' || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) {
			continue
		}
		c := isoCodeAt(rs, q)
		if c == "" {
			continue
		}
		k, e := wordBefore(rs, p, func(r rune) bool { return unicode.IsSpace(r) && r != '\n' })
		if e-k >= 3 && e-k <= 7 && headerWords[strings.ToLower(string(rs[k:e]))] {
			return c, Span{Start: q, End: q + 3}, true
		}
	}
	return "", Span{}, false
}

// payInWords name the amounts or their payment in a sentence that names
// their currency: "Please pay in GBP", "All amounts in NGN", "zahlbar in
// CHF", "montants en EUR".
var payInWords = map[string]bool{"pay": true, "paid": true, "payable": true, "payment": true, "amount": true,
	"amounts": true, "price": true, "prices": true, "billed": true, "invoiced": true, "charged": true, "settle": true,
	"settled": true, "remit": true, "zahlbar": true, "zahlen": true, "payer": true, "pagar": true, "pagare": true,
	"pagabile": true, "beträge": true, "montants": true, "importes": true, "bedragen": true, "preise": true, "prezzi": true}

// payInCode is the first ISO code such a sentence names, found by one
// scan for "in"/"en" before three capitals rather than by proseCurrency's
// backtracking expression. An ASCII text's fold (its bytes lowered, a run
// of spaces one) is searched for "n " by bytes.Index instead, each "in "
// or "en " after a space a place to read the text at: a space in the text
// is one in the fold.
func (d *doc) payInCode() (string, Span, bool) {
	if f := d.fold; f.b != nil {
		for k := 0; k < len(f.b); {
			i := bytes.Index(f.b[k:], []byte("n "))
			if i < 0 {
				break
			}
			n := k + i
			k = n + 1
			if n >= 2 && f.b[n-2] == ' ' && (f.b[n-1] == 'i' || f.b[n-1] == 'e') {
				if c, sp, ok := d.payInAt(f.origin(n - 1)); ok {
					return c, sp, true
				}
			}
		}
		return "", Span{}, false
	}
	for p := 1; p+6 <= len(d.rs); p++ {
		if d.rs[p-1] != ' ' || d.rs[p+2] != ' ' {
			continue // payInAt's first test, without a call
		}
		if c, sp, ok := d.payInAt(p); ok {
			return c, sp, true
		}
	}
	return "", Span{}, false
}

// payInAt reads a sentence naming its currency whose "in" or "en" is at p.
func (d *doc) payInAt(p int) (string, Span, bool) {
	rs := d.rs
	if p < 1 || p+6 > len(rs) || rs[p-1] != ' ' || rs[p]|0x20 != 'i' && rs[p]|0x20 != 'e' || rs[p+1]|0x20 != 'n' || rs[p+2] != ' ' {
		return "", Span{}, false
	}
	q := p + 3
	for q < len(rs) && rs[q] == ' ' {
		q++
	}
	if q+3 > len(rs) || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) ||
		q+3 < len(rs) && isWordRune(rs[q+3]) {
		return "", Span{}, false
	}
	c := isoCodeAt(rs, q)
	if c == "" {
		return "", Span{}, false
	}
	k, e := wordBefore(rs, p-1, func(r rune) bool { return r == ' ' })
	if e-k >= 3 && e-k <= 9 && payInWords[strings.ToLower(string(rs[k:e]))] {
		return c, Span{Start: q, End: q + 3}, true
	}
	return "", Span{}, false
}

// currencyLabels are words that label the currency of a document's
// amounts ("Currency: EUR", "Moneda: MXN", "Währung: CHF").
var currencyLabels = map[string]bool{"currency": true, "curr": true, "ccy": true, "währung": true, "devise": true,
	"moneda": true, "divisa": true, "valuta": true, "moeda": true, "waluta": true, "měna": true, "mena": true,
	"valūta": true, "valuuta": true, "pénznem": true, "birimi": true, "uang": true, "валюта": true, "νόμισμα": true,
	"通貨": true, "币种": true, "货币": true, "幣別": true, "통화": true}

// bankLineWords put a currency label on a bank account's line ("Account
// currency: USD", "IBAN … Currency: USD"), not on the amounts.
var bankLineWords = []string{"account", "iban", "bank", "konto", "compte", "cuenta", "conta", "swift"}

// labelledCurrency is the first ISO code a currency label names, after a
// colon, on a line that names no bank account.
func (d *doc) labelledCurrency() (string, Span, bool) {
	rs := d.rs
	for p := 1; p < len(rs); p++ {
		if d.ascii {
			// An ASCII text's colons are found in its bytes, its runes.
			if p = d.indexRune(p, ':'); p < 0 {
				break
			}
		} else if rs[p] != ':' && rs[p] != '：' {
			continue
		}
		q := p + 1
		for q < len(rs) && rs[q] == ' ' {
			q++
		}
		if q+3 > len(rs) || !isCapRune(rs[q]) || !isCapRune(rs[q+1]) || !isCapRune(rs[q+2]) ||
			q+3 < len(rs) && isWordRune(rs[q+3]) {
			continue
		}
		code := isoCodeAt(rs, q)
		if code == "" {
			continue
		}
		k := p
		for k > 0 && rs[k-1] == ' ' {
			k--
		}
		e := k
		for k > 0 && isWordRune(rs[k-1]) {
			k--
		}
		if e-k < 3 || e-k > 8 || !currencyLabels[strings.ToLower(string(rs[k:e]))] {
			continue
		}
		ls, le := d.lineBounds(d.lineOf(p))
		line := strings.ToLower(d.str(ls, le))
		if slices.ContainsFunc(bankLineWords, func(w string) bool { return strings.Contains(line, w) }) {
			continue
		}
		return code, Span{Start: q, End: q + 3}, true
	}
	return "", Span{}, false
}

// lineCue is the last line whose aside cue was read: its bounds, and its
// first aside cue and where that starts (-1: none). Documents ask several
// times in a row of one line (its marker, its code, its billed amount),
// and a line is scanned once for all of them.
type lineCue struct {
	read           bool
	li, ls, le, at int
	cue            string
}

// lineCueOf is line li's aside cue, read unless it was the last asked.
func (d *doc) lineCueOf(li int) *lineCue {
	m := &d.cueLine
	if !m.read || m.li != li {
		m.read, m.li = true, li
		m.ls, m.le = d.lineBounds(li)
		m.at, m.cue = -1, ""
		if d.mayPrintCue(asideCueIndex) {
			m.at, m.cue = asideCueIndex.firstCue(d.rs, m.ls, m.le)
		}
	}
	return m
}

// besideAmount is where a currency may stand right beside amount a on its
// line (ls to le): a sign before it, a sign after it, a code before it, a
// code after it, past any run of spaces. Empty spans mean none there.
func (d *doc) besideAmount(a labelledAmount, ls, le int) [4]Span {
	return [...]Span{markerBefore(d.rs, ls, a.Start), markerAfter(d.rs, a.End, le), d.codeBefore(ls, a.Start), d.codeAfter(a.End, le)}
}

// billedBeside adds the currency printed right before or after amount a:
// a sign or a code, past any run of spaces, as column layouts print it
// ("TOTAL A PAGAR        VES 4.582,00").
func (d *doc) billedBeside(b *billedCurrency, a labelledAmount, ls, le int) {
	for _, w := range d.besideAmount(a, ls, le) {
		if w.End <= w.Start {
			continue
		}
		code, shared := d.billedCodeAt(w)
		if shared && !b.shared && d.asideCue(w.Start) == "" {
			b.shared = true
		}
		if code != "" && d.asideCue(w.Start) == "" {
			b.add(code, w)
		}
	}
}

// billedBracketed adds a code printed in brackets on a billed line before
// end: "Total (AED)", "Summe (in EUR)".
func (d *doc) billedBracketed(b *billedCurrency, ls, end int) {
	for p := ls; p+4 < end; p++ {
		if d.rs[p] != '(' {
			continue
		}
		q := p + 1
		if q+3 < end && (d.rs[q] == 'i' || d.rs[q] == 'e') && d.rs[q+1] == 'n' && d.rs[q+2] == ' ' {
			q += 3 // "(in EUR)", "(en EUR)"
		}
		if q+3 < end && d.rs[q+3] == ')' {
			sp := Span{Start: q, End: q + 3}
			if code := isoCodes[d.str(sp.Start, sp.End)]; code != "" && d.asideCue(sp.Start) == "" {
				b.add(code, sp)
			}
		}
	}
}

// ownCodes adds to set the codes printed beside the document's amounts
// outside an aside clause and a reference line.
func (d *doc) ownCodes(set *codeSet) {
	last, ref := -1, false
	for _, a := range d.amounts {
		ls, le := d.lineBounds(a.Line)
		if a.Line != last {
			last, ref = a.Line, d.referenceLine(ls, le)
		}
		if ref {
			continue
		}
		for _, w := range d.besideAmount(a, ls, le) {
			if w.End <= w.Start {
				continue
			}
			if code, _ := d.billedCodeAt(w); code != "" && !set.has(code) && d.asideCue(w.Start) == "" &&
				!d.valueLine(ls, w.Start) {
				set.add(code)
			}
		}
	}
}

// valueCues mark a line that states a value of goods, for customs or
// insurance, or a price list's price: in the currency the goods were
// bought in, which need not be the one billed. They keep a code from
// deciding against the billed lines; alone (a customs declaration) they
// are what the document is about.
var valueCues = []string{"customs value", "value for customs", "declared value", "insured value", "insurance value",
	"sum insured", "goods value", "value of goods", "valor declarado", "valor en aduana", "valor aduanero",
	"valor asegurado", "valor da mercadoria", "valeur en douane", "valeur déclarée", "valeur assurée", "zollwert",
	"warenwert", "versicherungswert", "price list", "pricelist", "lista de precios", "preisliste", "liste de prix",
	"listino"}

// valueCueIndex indexes valueCues for firstCue.
var valueCueIndex = newCueIndex(valueCues, 1)

// valueLine reports a line that holds a value cue before offset p.
func (d *doc) valueLine(ls, p int) bool {
	if !d.mayPrintCue(valueCueIndex) {
		return false
	}
	at, _ := valueCueIndex.firstCue(d.rs, ls, p)
	return at >= 0
}

// referenceWords open a line that prints an amount for reference: "REF.
// USD 125,20" under a bolívar total, "Referencia: 34,72 USD".
var referenceWords = map[string]bool{"ref": true, "réf": true, "reference": true, "référence": true,
	"referencia": true, "referência": true, "riferimento": true, "referință": true, "referinta": true}

// referenceLine reports a line whose first word is a reference word.
func (d *doc) referenceLine(ls, le int) bool {
	k := ls
	for k < le && (d.rs[k] == ' ' || d.rs[k] == '\t' || d.rs[k] == '(') {
		k++
	}
	if k == le || d.rs[k]|0x20 != 'r' {
		return false
	}
	e := k
	for e < le && unicode.IsLetter(d.rs[e]) {
		e++
	}
	if e-k < 3 || e-k > 11 {
		return false
	}
	return referenceWords[strings.ToLower(d.str(k, e))]
}

// billedCodeAt is the currency the marker at w names beside a billed
// amount: an ISO 4217 code, or a sign only one currency uses; "" for a
// shared sign ("$", "kr"), a sign whose place decides ("Rs", "FCFA") and
// anything else. A code that is also a word printed in capitals ("ALL",
// "TOP", "CUP") counts only in brackets (billedBracketed). shared reports
// a sign several currencies share or one whose issuer's place
// decides. The marker is looked up from a buffer on the stack: most are
// not currencies ("x", "kg", "="), and a string for each was a tenth of
// this check.
func (d *doc) billedCodeAt(w Span) (code string, shared bool) {
	if w.End-w.Start > 6 || !markerFirstRunes[d.rs[w.Start]] {
		return "", false
	}
	var buf [32]byte
	m := buf[:0]
	for _, r := range d.rs[w.Start:w.End] {
		m = utf8.AppendRune(m, r)
	}
	if len(m) == 3 && isCap(m[0]) && isCap(m[1]) && isCap(m[2]) && isoCodes[string(m)] != "" {
		if wordCodes[string(m)] {
			return "", false
		}
		return isoCodes[string(m)], false
	}
	if _, placed := placedSignAt[string(m)]; placed {
		return "", true
	}
	i, ok := markerCodes[string(m)]
	switch {
	case !ok || len(m) == 3 && i.code == string(m) && strings.ToUpper(string(m)) != string(m):
		return "", false
	case i.shared:
		return "", true
	}
	return i.code, false
}

// markerFirstRunes are the runes a currency marker or code can start
// with; built once, read-only.
var markerFirstRunes = func() map[rune]bool {
	m := map[rune]bool{}
	for k := range markerCodes {
		r, _ := utf8.DecodeRuneInString(k)
		m[r] = true
	}
	for k := range placedSignAt {
		r, _ := utf8.DecodeRuneInString(k)
		m[r] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		m[c] = true
	}
	return m
}()

// decides reports whether the billed lines name code as the one currency
// they bill in.
func (b *billedCurrency) decides(code string) bool {
	if b.n != 1 || b.shared || b.open || b.codes[0] != code {
		return false
	}
	for _, c := range b.own.codes[:b.own.n] {
		if c != code {
			return false // "Price USD 500.00" on an item line, "Total S/ 1,850.00"
		}
	}
	return true
}

// refutes reports whether the billed lines name currencies and code is
// none of them, nor possibly a shared sign they print.
func (b *billedCurrency) refutes(code string) bool {
	return b.n > 0 && !b.shared && !b.open && !b.hasCode(code) && !b.own.has(code)
}

// codeBefore is the word of three capitals that ends right before p past a
// run of spaces (or a colon), on the line that starts at ls; codeAfter the
// one that starts right after p.
func (d *doc) codeBefore(ls, p int) Span {
	k := p
	for k > ls && (d.rs[k-1] == ' ' || d.rs[k-1] == '\t' || d.rs[k-1] == ':') {
		k--
	}
	if k-3 < ls || k == p || !isCapRune(d.rs[k-1]) || !isCapRune(d.rs[k-2]) || !isCapRune(d.rs[k-3]) ||
		k-3 > ls && isWordRune(d.rs[k-4]) {
		return Span{}
	}
	return Span{Start: k - 3, End: k}
}

func (d *doc) codeAfter(p, le int) Span {
	k := p
	for k < le && (d.rs[k] == ' ' || d.rs[k] == '\t') {
		k++
	}
	if k+3 > le || k == p || !isCapRune(d.rs[k]) || !isCapRune(d.rs[k+1]) || !isCapRune(d.rs[k+2]) ||
		k+3 < le && isWordRune(d.rs[k+3]) {
		return Span{}
	}
	return Span{Start: k, End: k + 3}
}

func isCapRune(r rune) bool { return 'A' <= r && r <= 'Z' }

// hasCode reports whether the billed lines print code.
func (b *billedCurrency) hasCode(code string) bool {
	_, ok := b.has(code)
	return ok
}

// flagUnbilled flags a code the billed lines do not print, naming the
// marker they print and its line.
func (d *doc) flagUnbilled(c *FieldCheck, b *billedCurrency, code string) {
	sp := b.spans[0]
	c.Spans, c.Grounded = []Span{sp}, true
	li := d.lineOf(sp.Start)
	ls, le := d.lineBounds(li)
	marker := fmt.Sprintf("%q", d.str(sp.Start, sp.End))
	if m := d.str(sp.Start, sp.End); m != b.codes[0] {
		marker += " (" + b.codes[0] + ")"
	}
	c.penalize(factorContradiction, fmt.Sprintf("the document prints %s for its billed amounts on line %d (%q), not %s",
		marker, li+1, strings.TrimSpace(d.str(ls, le)), code))
}

// wordCodes are ISO codes that are also words printed in capitals.
var wordCodes = map[string]bool{"ALL": true, "TOP": true, "CUP": true, "SHP": true, "SVC": true, "BAM": true,
	"MAD": true, "SOS": true}

// isoCodes are the active ISO 4217 currency codes, each mapped to itself
// so that a lookup from a buffer returns the code without a new string.
var isoCodes = func() map[string]string {
	m := map[string]string{}
	for _, c := range strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL
		BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL
		GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
		LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB
		PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB
		TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL`) {
		m[c] = c
	}
	return m
}()

// signFamilies are the currencies each widely shared sign is printed for,
// beyond those currencyMarkers lists with it: a "$" is also Jamaica's,
// Liberia's or Uruguay's, a "£" Egypt's or Lebanon's, a "kr" Iceland's.
var signFamilies = map[string]map[string]bool{
	"$": setOf("USD", "AUD", "CAD", "NZD", "SGD", "HKD", "MXN", "ARS", "CLP", "COP", "JMD", "TTD", "BBD", "BSD", "BZD",
		"BMD", "KYD", "FJD", "GYD", "LRD", "NAD", "SBD", "SRD", "TWD", "XCD", "BND", "UYU", "DOP", "CUP", "ZWL", "ZWG",
		"TOP", "WST", "KID", "NIO"),
	"£":  setOf("GBP", "EGP", "LBP", "SYP", "SDG", "SSP", "FKP", "GIP", "SHP"),
	"kr": setOf("SEK", "NOK", "DKK", "ISK"),
}

// familyScreens are signFamilies' codes lowered, as the trigram set holds
// them; built once, read-only.
var familyScreens = func() map[string][]familyScreen {
	m := map[string][]familyScreen{}
	for sign, family := range signFamilies {
		for _, code := range slices.Sorted(maps.Keys(family)) {
			m[sign] = append(m[sign], familyScreen{code: code, n: newTriNeedles(strings.ToLower(code))[0]})
		}
	}
	return m
}()

// familyScreen is a family's code and its needle for the trigram set.
type familyScreen struct {
	code string
	n    triNeedle
}

func setOf(codes ...string) map[string]bool {
	m := make(map[string]bool, len(codes))
	for _, c := range codes {
		m[c] = true
	}
	return m
}

// familySignCode flags a code grounded only by a shared sign ("$", "£",
// "kr") while the document prints, as a currency, the code of another
// currency written with that sign: "$" beside the amounts and "All amounts
// in JMD" is no USD, "£" and "EGP" no GBP. It reports whether it flagged.
func (d *doc) familySignCode(c *FieldCheck, code string, spans []Span) bool {
	sign := d.str(spans[0].Start, spans[0].End)
	family := signFamilies[sign]
	if family == nil || !family[code] {
		return false
	}
	for _, sp := range spans[1:] {
		if d.str(sp.Start, sp.End) != sign {
			return false
		}
	}
	if !slices.ContainsFunc(familyScreens[sign], func(m familyScreen) bool {
		return m.code != code && d.trigrams().mayHold(m.n)
	}) {
		return false // the text cannot hold another of the family's codes
	}
	rs := d.rs
	for p := 0; p+3 <= len(rs); p++ {
		if !isCapRune(rs[p]) || p > 0 && isWordRune(rs[p-1]) || !isCapRune(rs[p+1]) || !isCapRune(rs[p+2]) ||
			p+3 < len(rs) && isWordRune(rs[p+3]) {
			continue
		}
		other := isoCodeAt(rs, p)
		if other == "" || other == code || !family[other] {
			continue
		}
		sp := Span{Start: p, End: p + 3}
		if !d.inCurrencyContext(sp) || d.asideCue(p) != "" {
			continue
		}
		c.Spans = append(c.Spans, sp)
		c.penalize(factorContradiction, fmt.Sprintf("%q is the sign of several currencies, and the document prints %q (line %d), not %s",
			sign, other, d.lineOf(p)+1, code))
		return true
	}
	return false
}

// isoCodeAt is the ISO code whose three capitals the caller found at
// rs[q:q+3], "" when they name none.
func isoCodeAt(rs []rune, q int) string {
	return isoCodes[string([]byte{byte(rs[q]), byte(rs[q+1]), byte(rs[q+2])})]
}

// wordBefore is the run of letters rs[k:e] that ends at p once the runes
// space accepts are stepped over backwards: the word before a code.
func wordBefore(rs []rune, p int, space func(rune) bool) (k, e int) {
	k = p
	for k > 0 && space(rs[k-1]) {
		k--
	}
	e = k
	for k > 0 && unicode.IsLetter(rs[k-1]) {
		k--
	}
	return k, e
}
