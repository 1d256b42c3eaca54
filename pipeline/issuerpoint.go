package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// The issuer, positively. The other-party rules flag a vendor value the
// document names under a role they know (bill to, a bank, a carrier …),
// and every new document names its other parties in wording no list holds.
// This rule asks the other question: does the document itself point to the
// value as its issuer? Its letterhead does (the first party its head
// names, before the body), and so do the issuer's own marks beside the name
// (an issuer label before it, a registration after it). A value the
// document prints first under a label that is not an issuer's after its
// head has named another party ("Купац:", "Blerësi:", "I / To" over the
// buyer), or prints only below its head (a payment line's bank, a
// carrier's or platform's line, a note, a footer's printer or licensor)
// while its head names another party, is the issuer only by a reader's
// call: it is flagged, naming where it is printed and whom the head names.

// factorUnplacedIssuer: the document names the value, but not where it
// names its issuer, and its head names another party.
const factorUnplacedIssuer = 0.5

// checkIssuerPoint flags a vendor value the document does not point to as
// its issuer (see above). It runs after every other issuer rule, on a value
// none of them flagged.
func (d *doc) checkIssuerPoint(c *FieldCheck, val string) {
	if c.Factor < 1 || len(c.Spans) == 0 {
		return
	}
	sp := c.Spans[0] // the first printing: spans are in text order
	li := d.lineOf(sp.Start)
	ls, _ := d.lineBounds(li)
	above := 0 // printed lines above the value's, up to the head's size
	for k := 0; k < li && above < headLines; k++ {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a < b {
			above++
		}
	}
	if above == 0 && spacesOnly(d.rs[ls:sp.Start]) {
		return // the value opens the document: its letterhead
	}
	label, labelled := d.introLabel(li, sp)
	if labelled && issuerLabelText(label) {
		return // "Supplier:", "Issued by", "Payable to" point to it
	}
	inHead := above < headLines && !d.centsAbove(li)
	if inHead && !labelled {
		// In the head with no label before it: a letterhead under a
		// title, a company's line under its brand. Most values stop here,
		// before the head is read for its parties.
		return
	}
	h, strong, ok := d.headParty(li, sp, val)
	if first := !ok || sameName(h.name, val) && !h.labelled; first && labelled && inHead && !d.registeredFrom(li, sp.End) {
		// The first party the head names, under a label that is not an
		// issuer's ("I / To", "Абонент:"), while another party prints its
		// registration and bank account: the document points to that one.
		if p, ok := d.registeredOther(li, val); ok {
			c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is named only under %q (line %d), a label that is not the issuer's; the document prints another party's registration (line %d)",
				val, label, li+1, p.line+1))
		} else {
			d.checkPersonUnderLabel(c, val, label, li)
		}
		return
	}
	if !ok && labelled {
		d.checkPersonUnderLabel(c, val, label, li)
	}
	if !ok || sameName(h.name, val) {
		// The head names no party before the value (a receipt that prints
		// its shop's name only at its foot), or the value itself.
		return
	}
	if inHead {
		// After the party the head names first, under a label that is not
		// an issuer's; a brand or a platform's name with no legal form
		// (strong) may head the seller a label introduces below it.
		if strong {
			c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is named only under %q (line %d), a label that is not the issuer's, after the document's heading names another party (line %d)",
				val, label, li+1, h.line+1))
		} else if labelled {
			d.checkPersonUnderLabel(c, val, label, li)
		}
		return
	}
	if opens := !labelled && spacesOnly(d.rs[segmentStart(d.rs, ls, sp.Start):sp.Start]); opens &&
		(!strong && !d.amountOn(li) || d.registeredFrom(li, sp.End) && !d.registeredFrom(h.line, h.sp.End)) {
		// A seller's footer or block with its registration below a head
		// that prints none (a buyer's block printed first), or a name on a
		// line of its own below a head whose first name only an address
		// follows (a person's or a buyer's block over the seller's).
		return
	}
	c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is named only %s (line %d), not where the document names its issuer; the document's heading names another party (line %d)",
		val, d.bodyPlace(li), li+1, h.line+1))
}

// segmentStart is where the column segment holding offset p starts on the
// line from ls: after the last gap of three spaces or a tab before p.
func segmentStart(rs []rune, ls, p int) int {
	for i := p - 1; i >= ls; i-- {
		if rs[i] == '\t' || i >= ls+2 && rs[i] == ' ' && rs[i-1] == ' ' && rs[i-2] == ' ' {
			return i + 1
		}
	}
	return ls
}

// introLabel is the label that introduces the name at sp on line li: the
// text before it in its column when that is a label (a colon ends it, or a
// recipient's word: "To", "M/s"), or else a bare label alone above it in
// its column ("Купац:" over the buyer's block).
func (d *doc) introLabel(li int, sp Span) (string, bool) {
	ls, _ := d.lineBounds(li)
	before := strings.TrimSpace(d.str(segmentStart(d.rs, ls, sp.Start), sp.Start))
	if before != "" {
		return labelText(before)
	}
	if li == 0 {
		return "", false
	}
	above := d.columnAbove(li, sp.Start)
	if above == "" || strings.ContainsFunc(above, unicode.IsDigit) {
		return "", false
	}
	return labelText(above)
}

// recipientWords end a label that introduces an addressee without a colon:
// "To", "I / To", "Attn", "M/s", "Messrs".
var recipientWords = map[string]bool{"to": true, "attn": true, "attention": true, "messrs": true}

// maxIntroLabel is how many words a label before a name may hold.
const maxIntroLabel = 4

// labelText is s as a label: words that a colon ends, or a short line that
// ends in a recipient's word; with the colon trimmed.
func labelText(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if l := strings.TrimRight(t, ":："); l != t {
		l = strings.TrimSpace(l)
		if n := countWords(l); n == 0 || n > maxIntroLabel {
			return "", false
		}
		return l, true
	}
	// The last word, read without splitting the line: most lines before a
	// name end in none of the recipient's words.
	t = strings.TrimRight(t, ".")
	i := strings.LastIndexFunc(t, func(r rune) bool { return r == ' ' || r == '/' || r == '.' })
	last := t[i+1:]
	if len(last) > len("attention") || !isASCII(last) {
		return "", false
	}
	var buf [16]byte
	low := string(appendLower(buf[:0], last))
	if !recipientWords[low] && !(low == "s" && strings.HasSuffix(strings.ToLower(t), "m/s")) {
		return "", false
	}
	if n := countWords(t); n > 3 {
		return "", false
	}
	return t, true
}

// countWords counts the runs of letters and digits in s.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) // Devanagari vowel signs are marks
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// issuerLabelText reports a label that names the issuer: an issuer label
// ("Supplier", "Myyjä", "From"), or a phrase ending in one or naming the
// one paid ("Issued by", "Payable to").
func issuerLabelText(label string) bool {
	toks := LabelTokens(label)
	for _, t := range toks {
		if sellerWords[t] {
			return true
		}
	}
	if _, _, ok := afterIssuerLabel(label + ": x"); ok {
		return true
	}
	if len(toks) > 1 {
		// An issuer label with a word after it: "Seller name", "Supplier
		// details", "Vendor information".
		if _, _, ok := afterIssuerLabel(strings.Join(toks[:len(toks)-1], " ") + ": x"); ok {
			return true
		}
	}
	return proseNamesIssuer(label)
}

// sellerWords name the place that sells or the document's issuer where
// issuerLabels do not: a label holding one ("Store:", "Shop name:",
// "店舗:", "가게:", "Émetteur :", "Van:", "Издавач:") introduces the seller a platform's or a
// chain's receipt names below its own head, or the issuer itself.
var sellerWords = map[string]bool{"store": true, "shop": true, "restaurant": true, "outlet": true, "tienda": true,
	"loja": true, "magasin": true, "boutique": true, "geschäft": true, "filiale": true, "negozio": true,
	"winkel": true, "butik": true, "sklep": true, "店舗": true, "店铺": true, "商店": true, "门店": true, "가게": true,
	"매장": true, "상점": true, "émetteur": true, "emetteur": true, "payee": true,
	// The sender's "Van:" of a Dutch invoice over "Aan:", and the issuer
	// or seller of a Macedonian, Serbian, Croatian or Bulgarian one.
	"van": true, "издавач": true, "издавалац": true, "издател": true, "продавач": true, "добавувач": true,
	"izdavalac": true, "izdavatelj": true, "prodavac": true, "prodavatelj": true}

// centsAbove reports an amount with cents on a line above li: the body (its
// item, total or payment lines) has begun.
func (d *doc) centsAbove(li int) bool {
	for _, a := range d.amounts {
		if a.Line < li && centsForm(a.Raw) {
			return true
		}
	}
	return false
}

// registeredFrom reports a registration (not a bank account) printed on
// line li from offset p, or on the two lines under it in its block: the
// party named there states its own registration ("Nordlys Bygg AS ·
// Org.nr 987 654 321").
func (d *doc) registeredFrom(li, p int) bool {
	for k := li; k < len(d.lineStarts) && k <= li+2; k++ {
		ks, ke := d.lineBounds(k)
		if k == li {
			ks = max(ks, min(p, ke))
		}
		line := strings.TrimSpace(d.str(ks, ke))
		if line == "" {
			if k > li {
				return false // the block ends
			}
			continue
		}
		if mayHoldRegistration(line) && ownRegistration(LabelTokens(line)) {
			return true
		}
	}
	return false
}

// ownRegistration reports a registration label among toks, not counting a
// bank's (IBAN, account number): a bank account is printed for whoever is
// paid, and a bank's own line prints one.
func ownRegistration(toks []string) bool {
	for i, w := range toks {
		for _, k := range registrationsByFirst[w] {
			if k >= len(registrationLabels) {
				continue
			}
			l := registrationLabels[k]
			if i+len(l) <= len(toks) && slices.Equal(toks[i:i+len(l)], l) {
				return true
			}
		}
	}
	return false
}

// bodyPlace says where below the head line li is printed: on an amount
// line, in the footer (the document's last block), or in its body.
func (d *doc) bodyPlace(li int) string {
	if d.amountOn(li) {
		return "on an amount line"
	}
	for k := li + 1; k < len(d.lineStarts); k++ {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a == b {
			// A blank line below: the value is in the footer only when
			// nothing is printed after it.
			for j := k + 1; j < len(d.lineStarts); j++ {
				js, je := d.lineBounds(j)
				if a, b := trimmedRunes(d.rs, js, je); a < b {
					return "in the document's body"
				}
			}
			break
		}
	}
	if li+3 >= len(d.lineStarts) {
		return "in the footer"
	}
	return "in the document's body"
}

// headParty is the first party the document's head names before the
// value at sp on line li, when the head gives evidence that it is a party
// and not a brand, a platform's name or a title in a script without case
// ("电子发票", "배달의민족 주문내역"): a legal form, an issuer label, its
// registration or address lines under it.
//
// It also reports whether the evidence is strong: anything but an address
// alone, which a person's or a buyer's block printed first also has.
func (d *doc) headParty(li int, sp Span, val string) (h headIssuerName, strong, ok bool) {
	h, ok = d.headIssuer(true)
	if ok && sameName(h.name, val) {
		return h, true, true // the head's issuer label names the value further down
	}
	if ok && h.sp.Start < sp.Start && (h.line != li || h.sp.End <= sp.Start) {
		if h.labelled && !h.weak || companyForm(h.name) || d.registeredFrom(h.line, h.sp.End) {
			return h, true, true
		}
		if d.addressUnder(h.line) {
			if c, ok := d.formHeadCompany(li, sp); ok {
				return c, true, true
			}
			return h, false, true
		}
	}
	c, ok := d.formHeadCompany(li, sp)
	return c, ok, ok
}

// amountOn reports an amount printed on line li.
func (d *doc) amountOn(li int) bool {
	for _, a := range d.amounts {
		if a.Line == li {
			return true
		}
	}
	return false
}

// addressUnder reports a letterhead's address under line k: the next
// printed line of its block holds a digit, no label's colon and no amount.
func (d *doc) addressUnder(k int) bool {
	if k+1 >= len(d.lineStarts) {
		return false
	}
	ks, ke := d.lineBounds(k + 1)
	line := strings.TrimSpace(d.str(ks, ke))
	if line == "" || indexColon(line) >= 0 || !strings.ContainsFunc(line, unicode.IsDigit) || !strings.ContainsFunc(line, unicode.IsLetter) {
		return false
	}
	if toks := LabelTokens(line); len(toks) == 0 || titleWords[toks[0]] {
		return false // "INVOICE 2026-114" under a brand
	}
	return !d.lineHasCents(k + 1)
}

// formHeadCompany is the first company the head names before the value at
// sp on line li by its legal form (companyForm, which knows forms the
// shared lists miss), printed alone on its line or after a label
// ("Shitësi: Drita Ndërtim sh.p.k."), and which no customer label
// introduces.
func (d *doc) formHeadCompany(li int, sp Span) (headIssuerName, bool) {
	seen := 0
	for k := 0; k <= li && seen < headLines; k++ {
		ks, ke := d.lineBounds(k)
		if k == li {
			ke = segmentStart(d.rs, ks, sp.Start)
		}
		a, b := trimmedRunes(d.rs, ks, ke)
		if a == b {
			continue
		}
		seen++
		line := d.str(a, b)
		off := 0
		if i := indexColon(line); i >= 0 {
			if !strings.HasPrefix(line[i:], ":") {
				continue // a full-width colon: a CJK label's field
			}
			off = i + 1
			for off < len(line) && (line[off] == ' ' || line[off] == ':') {
				off++
			}
		}
		name := firstSegment(line[off:])
		if name == "" || !dottedForm(name) && (endsInLegalForm(name) || !companyForm(name)) || customerLabelOf(line) != "" || d.underCustomerLabel(k) {
			// A form the shared lists know is headIssuer's to weigh: it
			// passed such a line over for a reason.
			continue
		}
		if off > 0 && !dottedForm(name) && !issuerLabelText(strings.TrimRight(line[:off], " :")) {
			// A company after a label the head gives another role
			// ("Carrier:", "Organiser:"); the dotted forms stand for
			// the seller labels the lists miss ("Shitësi:").
			continue
		}
		start := a + len([]rune(line[:off]))
		return headIssuerName{name: name, sp: Span{Start: start, End: start + len([]rune(name))}, line: k}, true
	}
	return headIssuerName{}, false
}

// companyForm reports a name that a legal form marks as a company's: one
// the shared lists know (endsInLegalForm), dotted initials at its end, or
// a form the lists miss before the name ("ООО «Северный ветер»", "PT Maju
// Jaya", "UAB Baltų prekyba", "Công ty TNHH An Phát") or after it ("Kft.",
// "EOOD", "JSC", "TNHH").
func companyForm(name string) bool {
	if endsInLegalForm(name) || dottedForm(name) {
		return true
	}
	first, rest, ok := strings.Cut(strings.TrimSpace(name), " ")
	if !ok || strings.TrimSpace(rest) == "" {
		return false
	}
	if prefixForms[strings.TrimRight(first, ".,")] {
		return true
	}
	if strings.EqualFold(first, "công") && strings.HasPrefix(strings.ToLower(rest), "ty ") {
		return true
	}
	last := name[strings.LastIndexByte(strings.TrimRight(name, " .,)"), ' ')+1:]
	last = strings.Trim(last, " .,()")
	if len(last) > 5 {
		return false
	}
	var buf [8]byte
	low := buf[:0]
	for _, r := range last {
		if r == '.' {
			continue
		}
		if r >= 0x80 {
			return suffixForms[strings.ToLower(strings.ReplaceAll(last, ".", ""))]
		}
		low = append(low, asciiLower(byte(r)))
	}
	return suffixForms[string(low)]
}

// prefixForms are legal forms printed before a company's name, as printed
// (upper case): Indonesian, Lithuanian, Latvian, Estonian, Romanian, and
// the Russian, Ukrainian, Belarusian, Kazakh, Uzbek and Tajik ones.
var prefixForms = map[string]bool{"PT": true, "CV": true, "UAB": true, "AB": true, "SIA": true, "AS": true,
	"OÜ": true, "SC": true, "ООО": true, "ОАО": true, "ЗАО": true, "АО": true, "ПАО": true, "ИП": true,
	"ТОВ": true, "ПрАТ": true, "ПАТ": true, "ФОП": true, "ТОО": true, "ОДО": true, "ЧУП": true, "МЧЖ": true,
	"ҶДММ": true, "ООД": true, "ЕООД": true, "АД": true, "ДОО": true}

// suffixForms are legal forms printed after a company's name that the
// shared lists do not hold, lowercased without their dots: Hungarian,
// Bulgarian, Balkan, Albanian, Baltic and Nordic, Vietnamese, Latin
// American and English ones.
var suffixForms = map[string]bool{"kft": true, "zrt": true, "nyrt": true, "bt": true, "doo": true, "dd": true,
	"ad": true, "ood": true, "eood": true, "shpk": true, "sha": true, "jsc": true, "pjsc": true, "eirl": true,
	"sac": true, "saa": true, "sprl": true, "bvba": true, "ehf": true, "hf": true, "asa": true, "tnhh": true,
	"cia": true, "sas": true, "sapi": true, "srl": true, "lp": true, "pllc": true, "ltée": true, "ltee": true,
	"inc": true, "co": true, "oü": true, "uab": true, "sia": true, "ооо": true, "тов": true, "еоод": true, "оод": true,
	"доо": true}

// dottedForm reports a name of two words at least whose last word is
// dotted initials, two at least of one to three letters each: a legal form
// in many countries' style ("sh.p.k.", "d.o.o.", "S.A.C.", "Sp. z o.o.",
// "A.Ş."), whether or not the lists know it.
func dottedForm(name string) bool {
	name = strings.TrimRight(name, " ,;)")
	i := strings.LastIndexByte(name, ' ')
	if i <= 0 {
		return false
	}
	w := name[i+1:]
	groups, n := 0, 0
	for _, r := range w {
		switch {
		case r == '.':
			if n == 0 || n > 3 {
				return false
			}
			groups, n = groups+1, 0
		case unicode.IsLetter(r):
			n++
		default:
			return false
		}
	}
	return n == 0 && groups >= 2
}

// registeredOther is a party of another name than val that prints its
// registration with a bank account or a second registration (a seller's
// footer; a buyer's block may print its VAT number) in a block of its
// own, not line li's.
func (d *doc) registeredOther(li int, val string) (registeredParty, bool) {
	for _, b := range d.textBlocks() {
		if b.first <= li && li <= b.last {
			continue
		}
		if p, ok := d.blockRegistration(b); ok && !p.customerish && !sameName(p.name, val) && (p.strongCues || d.blockBank(b)) {
			return p, true
		}
	}
	return registeredParty{}, false
}

// blockBank reports a bank account's label in block b.
func (d *doc) blockBank(b textBlock) bool {
	for li := b.first; li <= b.last; li++ {
		ls, le := d.lineBounds(li)
		if line := d.str(ls, le); mayHoldRegistration(line) {
			if _, bank, _ := registrationCues(LabelTokens(line)); bank {
				return true
			}
		}
	}
	return false
}
