package pipeline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A name in a role, positively. The document points to its issuer by its
// letterhead: the business its first printed line (after a title) names.
// A name with no legal form that the document prints below that line, and
// only ever beside words that give it a role (a label before it, "Inh.",
// "Served by", a role line over it, ", CEO" after it), is a party or a
// person the document names in that role: its holder, subscriber,
// customer, parent or patient; its owner, manager, waiter, doctor or
// signatory; the principal an agent sells for. Whatever the role's words
// say, and in whichever language, the name is not where the document names
// its issuer. No list of roles is read: only the issuer's own labels
// ("From:", "Seller:", "Company name:"), a greeting ("Welcome to"), and
// the name's own registration printed after it keep a value the document
// introduces with words.

// maxRoleWords is how many words a role printed before or after a name
// may hold: "Titular de la línea", "Parent/Guardian", "Served by".
const maxRoleWords = 4

// checkNamedInRole flags a val with no legal form that the document prints
// only in a role below the business its letterhead names (see above).
func (d *doc) checkNamedInRole(c *FieldCheck, val string) {
	if c.Factor < 1 || len(c.Spans) == 0 || !personShaped(val) || !personNameWords(val) {
		return
	}
	head, hl := d.letterheadLine()
	if hl < 0 || !nameLike(head) || sameName(head, val) {
		return
	}
	role, line := "", 0
	for _, sp := range capped(c.Spans) {
		li := d.lineOf(sp.Start)
		if li <= hl {
			return // the value is on the letterhead's line or above it
		}
		r, ok := d.roleAt(li, sp)
		if !ok || d.registeredFrom(li, sp.End) {
			return // printed bare, or as a registered trader: the issuer's marks
		}
		if role == "" {
			role, line = r, li
		}
	}
	c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is named only as %q (line %d), not as the issuer: the document's head prints %q (line %d)",
		val, role, line+1, head, hl+1))
}

// personNameWords reports a name whose words read as a person's: in a
// script with case, each word starts with a capital letter or is a short
// particle ("de", "van", "bin"), and no word is a title's.
func personNameWords(val string) bool {
	caps := 0
	for _, w := range strings.Fields(val) {
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case !unicode.IsLetter(r):
			return false
		case unicode.IsUpper(r):
			caps++
		case unicode.IsLower(r) && utf8.RuneCountInString(w) > 3:
			return false // "servicios", "und": words of a firm's name
		}
		if titleWords[strings.ToLower(strings.Trim(w, ".,"))] {
			return false
		}
	}
	r, _ := utf8.DecodeRuneInString(val)
	return caps > 0 || !unicode.IsLower(r) && !unicode.IsUpper(r)
}

// letterheadLine is the document's first printed line, or the one after
// it when the first is the document's title: the line that names the
// business issuing it, if any does.
func (d *doc) letterheadLine() (string, int) {
	head, hl := d.firstPrinted()
	if hl < 0 || !documentTitle(head) {
		if !businessHead(head) {
			return "", -1
		}
		return head, hl
	}
	for k := hl + 1; k < len(d.lineStarts); k++ {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a < b {
			if next := string(d.rs[a:b]); businessHead(next) {
				return next, k
			}
			break
		}
	}
	if strings.ContainsFunc(head, unspacedScript) {
		// A Korean, Chinese or Japanese title over a table of the
		// parties: the title heads the issuer's form.
		return head, hl
	}
	return "", -1
}

// documentTitle reports a line that is the document's title: title
// words, or a word naming a kind of document ("Order Confirmation &
// Invoice", "전자세금계산서").
func documentTitle(line string) bool {
	if isTitle(line) {
		return true
	}
	for _, t := range LabelTokens(line) {
		if documentKinds[t] {
			return true
		}
	}
	if !strings.ContainsFunc(line, unspacedScript) {
		return false
	}
	for _, k := range unspacedKinds {
		if strings.Contains(line, k) {
			return true
		}
	}
	return false
}

// unspacedKinds name kinds of document inside a line written without
// spaces: Korean, Chinese and Japanese invoices, bills and receipts.
var unspacedKinds = []string{"계산서", "영수증", "청구서", "发票", "收据", "請求書", "領収書", "明細書", "納品書", "発票"}

// businessHead reports a first line that can name a business: not a
// title, not a label's field, not an address.
func businessHead(head string) bool {
	return indexColon(head) < 0 && !strings.ContainsFunc(head, unicode.IsDigit) && !documentTitle(head)
}

// documentKinds name a kind of document: a first line holding one is its
// title, whatever words stand around it.
var documentKinds = map[string]bool{"invoice": true, "invoices": true, "receipt": true, "receipts": true, "bill": true,
	"statement": true, "quotation": true, "confirmation": true, "folio": true, "rechnung": true, "quittung": true,
	"facture": true, "factura": true, "fattura": true, "recibo": true, "ricevuta": true, "領収書": true, "請求書": true,
	"proforma": true, "faktura": true, "lasku": true, "nota": true}

// roleAt is the role the document gives the name at sp on line li: the
// words before it in its column (a label, "Inh.", "Served by"), a role
// line alone over it ("Le gérant", "Authorised Signatory"), or a role
// after it (", CEO", "(Owner)"). An issuer's label, or a label naming the
// issuer's own name ("Company name:", "Trading as:"), is no role.
func (d *doc) roleAt(li int, sp Span) (string, bool) {
	ls, le := d.lineBounds(li)
	before := strings.TrimSpace(d.str(segmentStart(d.rs, ls, sp.Start), sp.Start))
	before = trimHonorifics(before)
	if before != "" {
		role := strings.TrimSpace(strings.TrimRight(before, ":："))
		if !roleWords(role) || issuerLabelText(role) || forTheIssuer(role) || ownNameLabel(role) {
			return "", false
		}
		if role == before && greeting[lastWord(role)] {
			return "", false // "Welcome to", "Thank you for shopping at": the issuer greets
		}
		return role, true
	}
	if sp.End > le {
		return "", false // a name printed over two lines is a block's, not a role's
	}
	if after := d.str(sp.End, le); after != "" {
		if i := strings.Index(after, "   "); i >= 0 {
			after = after[:i]
		}
		if t := strings.TrimSpace(after); t != "" {
			role := strings.Trim(t, ",()-– ")
			if t[0] != ',' && t[0] != '(' && t[0] != '-' && !strings.HasPrefix(t, "–") || !roleAfter(role) {
				return "", false // "(cobaltoutdoor.example)", "- Downtown": the issuer's own words
			}
			return role, true
		}
	}
	above := d.columnAbove(li, sp.Start)
	if above == "" || issuerLabelText(strings.TrimRight(above, ":： ")) || forTheIssuer(above) {
		return "", false
	}
	if l, ok := labelText(above); ok && roleWords(l) && !ownNameLabel(l) {
		return l, true
	}
	if personRole(above) {
		return above, true
	}
	return "", false
}

// greeting holds the last words of a greeting before the issuer's name.
var greeting = map[string]bool{"to": true, "at": true, "visiting": true, "choosing": true, "shopping": true,
	"dining": true, "zu": true, "bei": true, "à": true, "chez": true, "en": true, "a": true, "in": true, "im": true}

// lastWord is the last word of s, lowercased.
func lastWord(s string) string {
	s = strings.TrimSpace(s)
	return strings.ToLower(s[strings.LastIndexFunc(s, unicode.IsSpace)+1:])
}

// roleAfter reports the words after a name that give it a role: a role
// word ("Owner", "gérant"), a title of office ("Director", "Founder"), or
// its capitals ("CEO", "MD").
func roleAfter(role string) bool {
	if !roleWords(role) || strings.ContainsAny(role, ".@/") || issuerLabelText(role) {
		return false
	}
	if personRole(role) {
		return true
	}
	for _, t := range LabelTokens(role) {
		if officeTitles[t] {
			return true
		}
	}
	n := utf8.RuneCountInString(role)
	return n >= 2 && n <= 4 && strings.ToUpper(role) == role && !strings.ContainsFunc(role, unicode.IsSpace)
}

// officeTitles are the offices a person signs a document under.
var officeTitles = map[string]bool{"director": true, "directors": true, "founder": true, "partner": true,
	"president": true, "chairman": true, "chairperson": true, "principal": true, "accountant": true,
	"secretary": true, "treasurer": true, "administrator": true, "head": true}

// ownNameLabel reports a label that names the issuer's own name rather
// than a role: "Company name", "Trading as", "Razón social", "상호".
func ownNameLabel(label string) bool {
	toks := LabelTokens(label)
	for i, t := range toks {
		if ownNameWords[t] || moreIssuerWords[t] || t == "name" && i > 0 && ownNameWords[toks[i-1]+" name"] {
			return true
		}
	}
	return false
}

// moreIssuerWords name the issuer in labels the issuer labels lack: the
// Macedonian, Serbian and Bulgarian issuer and seller, the Dutch "Van".
var moreIssuerWords = map[string]bool{"издавач": true, "издавалац": true, "издател": true, "продавач": true,
	"продавец": true, "добавувач": true, "испорачател": true, "van": true, "izdavalac": true, "izdavatelj": true,
	"prodavac": true, "dobavljač": true, "izdajatelj": true, "prodajalec": true, "dobavitelj": true}

// ownNameWords name the issuer's own name in a label.
var ownNameWords = map[string]bool{"company": true, "business": true, "firm": true, "trading": true, "dba": true,
	"brand": true, "operator": true, "entity": true, "organisation": true, "organization": true, "beneficiary": true,
	"payee": true, "social": true, "sociale": true, "firma": true, "unternehmen": true, "société": true, "empresa": true,
	"azienda": true, "bedrijf": true, "商号": true, "상호": true, "名称": true, "会社名": true, "店名": true, "屋号": true,
	"account name": true, "shop name": true, "store name": true, "legal name": true, "registered name": true,
	"trade name": true, "hotel name": true, "restaurant name": true, "clinic name": true, "practice name": true}

// roleWords reports words that can give a name a role: one to four words,
// no digit.
func roleWords(s string) bool {
	n := countWords(s)
	return n > 0 && n <= maxRoleWords && !strings.ContainsFunc(s, unicode.IsDigit)
}

// forTheIssuer reports the words of a signature block that name the
// issuer the person signs for ("For Shakti Steel Traders", "pp."): they
// point to the issuer, not to a role of the name.
func forTheIssuer(s string) bool {
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), " ")
	switch w {
	case "for", "für", "pour", "por", "per", "voor", "pp", "pp.", "p.p.":
		return true
	}
	return false
}

// trimHonorifics cuts the honorifics at the end of the words before a
// name ("Abonné : Mme", "Parent/Guardian: Mrs").
func trimHonorifics(s string) string {
	for s != "" {
		i := strings.LastIndexFunc(s, unicode.IsSpace)
		w := s[i+1:]
		if !isHonorific(strings.TrimRight(w, ".")) && !isHonorific(w) {
			return s
		}
		s = strings.TrimSpace(s[:max(i, 0)])
	}
	return s
}
