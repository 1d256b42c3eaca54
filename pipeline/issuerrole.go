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
	if c.Factor < 1 || len(c.Spans) == 0 {
		return
	}
	if li := d.lineOf(c.Spans[0].Start); li == 0 || !d.printedAbove(li) {
		return // the value opens the document: most vendors do, and stop here
	}
	if !personNameWords(val) {
		return
	}
	// The cheap reading of each printing's role first, the head next, the
	// label lists last: most vendors below a title are printed bare.
	var buf [maxRelated]roleMark
	marks := buf[:0]
	for _, sp := range capped(c.Spans) {
		li := d.lineOf(sp.Start)
		m, ok := d.roleAt(li, sp)
		if !ok {
			return // printed bare: the issuer's place may be its own
		}
		marks = append(marks, m)
	}
	for k, m := range marks {
		if !m.holds() || d.registeredFrom(m.line, capped(c.Spans)[k].End) {
			return // an issuer's label, or a registered trader: the issuer's marks
		}
	}
	if !personShaped(val) || titleWord(val) {
		return
	}
	head, hl := d.letterheadLine()
	if hl < 0 || hl >= marks[0].line || !nameLike(head) {
		head, hl = d.labelledIssuerAbove(marks[0].line)
	}
	if hl < 0 || sameName(head, val) {
		return
	}
	c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is named only as %q (line %d), not as the issuer: the document's head prints %q (line %d)",
		val, marks[0].role, marks[0].line+1, head, hl+1))
}

// roleMark is the role words beside one printing of a name, and where
// they stand.
type roleMark struct {
	role string
	line int
	kind roleKind
}

// roleKind is where a role's words stand beside the name.
type roleKind uint8

const (
	roleBefore    roleKind = iota // a label before the name or over it
	roleBare                      // a line over the name with no colon
	roleAfterName                 // words after the name
)

// holds reports role words that the label lists do not give back to the
// issuer: no issuer label, no label of the issuer's own name; a bare line
// over the name holds a person's role.
func (m roleMark) holds() bool {
	switch m.kind {
	case roleBare:
		return personRole(m.role) && !issuerLabelText(m.role)
	case roleAfterName:
		return roleAfter(m.role)
	}
	return !issuerLabelText(m.role) && !ownNameLabel(m.role)
}

// personNameWords reports a name whose words read as a person's: in a
// script with case, each word starts with a capital letter or is a short
// particle ("de", "van", "bin").
func personNameWords(val string) bool {
	if isASCII(val) {
		return asciiPersonNameWords(val)
	}
	caps, wlen, lowerWord := 0, 0, false
	for _, r := range val {
		if unicode.IsSpace(r) {
			wlen = 0
			continue
		}
		if wlen++; wlen > 1 {
			if lowerWord && wlen > 3 {
				return false // "servicios", "und": words of a firm's name
			}
			continue
		}
		switch {
		case !unicode.IsLetter(r):
			return false
		case unicode.IsUpper(r):
			caps++
		}
		lowerWord = unicode.IsLower(r)
	}
	r, _ := utf8.DecodeRuneInString(val)
	return caps > 0 || !unicode.IsLower(r) && !unicode.IsUpper(r)
}

// asciiPersonNameWords is personNameWords on an ASCII name, byte by byte:
// it runs on most vendors printed below a document's first line.
func asciiPersonNameWords(val string) bool {
	caps, wlen, lowerWord := 0, 0, false
	for i := 0; i < len(val); i++ {
		c := val[i]
		if c == ' ' || c == '\t' {
			wlen = 0
			continue
		}
		if wlen++; wlen > 1 {
			if lowerWord && wlen > 3 {
				return false
			}
			continue
		}
		switch {
		case 'A' <= c && c <= 'Z':
			caps++
			lowerWord = false
		case 'a' <= c && c <= 'z':
			lowerWord = true
		default:
			return false
		}
	}
	return caps > 0
}

// titleWord reports a word of a document's title in val ("Tax", "Invoice").
func titleWord(val string) bool {
	for _, t := range LabelTokens(val) {
		if titleWords[t] {
			return true
		}
	}
	return false
}

// printedAbove reports a printed line above line li.
func (d *doc) printedAbove(li int) bool {
	for k := 0; k < li; k++ {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a < b {
			return true
		}
	}
	return false
}

// letterheadLine is the document's first printed line, or the one after
// it when the first is the document's title: the line that names the
// business issuing it, if any does.
func (d *doc) letterheadLine() (string, int) {
	head, hl := d.firstPrinted()
	if hl < 0 {
		return "", -1
	}
	if !documentTitle(head) {
		if !plainLine(head) {
			return "", -1
		}
		return head, hl
	}
	for k := hl + 1; k < len(d.lineStarts); k++ {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a < b {
			if next := string(d.rs[a:b]); plainLine(next) && !documentTitle(next) {
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

// labelledIssuerAbove is the name an issuer's label introduces on a line
// above li ("Издавач: Вардар Трејд"): the document names its issuer there
// when no letterhead does. A sender's label ("Van:", "From:") does not
// count: an e-mail heads it with a person.
func (d *doc) labelledIssuerAbove(li int) (string, int) {
	for k := 0; k < li; k++ {
		ks, ke := d.lineBounds(k)
		line := strings.TrimSpace(d.str(ks, ke))
		i := indexColon(line)
		if i <= 0 {
			continue
		}
		label := strings.TrimSpace(line[:i])
		_, w := utf8.DecodeRuneInString(line[i:])
		name := firstSegment(strings.TrimSpace(line[i+w:]))
		if name != "" && nameLike(name) && countWords(label) <= maxIntroLabel && !sendersLabel(label) && issuerLabelText(label) {
			return name, k
		}
	}
	return "", -1
}

// sendersLabel reports a sender's label ("From:", "Von:", "Van:"), which
// an e-mail or a letter heads with a person or an address.
func sendersLabel(label string) bool {
	switch strings.ToLower(label) {
	case "from", "von", "van", "de", "da":
		return true
	}
	return false
}

// plainLine reports a line that can name a business: no label's colon,
// no digit (an address, a date).
func plainLine(line string) bool {
	return indexColon(line) < 0 && !strings.ContainsFunc(line, unicode.IsDigit)
}

// documentKinds name a kind of document: a first line holding one is its
// title, whatever words stand around it.
var documentKinds = map[string]bool{"invoice": true, "invoices": true, "receipt": true, "receipts": true, "bill": true,
	"statement": true, "quotation": true, "confirmation": true, "folio": true, "rechnung": true, "quittung": true,
	"facture": true, "factura": true, "fattura": true, "recibo": true, "ricevuta": true, "領収書": true, "請求書": true,
	"proforma": true, "faktura": true, "lasku": true, "nota": true}

// roleAt reads the words that may give the name at sp on line li a role:
// the words before it in its column (a label, "Inh.", "Served by"), the
// words after it (", CEO", "(Owner)"), or a line alone over it ("Le
// gérant", "Authorised Signatory"). roleMark.holds weighs them against the
// issuer's own labels.
func (d *doc) roleAt(li int, sp Span) (roleMark, bool) {
	ls, le := d.lineBounds(li)
	before := ""
	if r := d.rs[max(sp.Start-1, ls)]; sp.Start > ls && (r == '@' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return roleMark{}, false // inside a word or an address: "sales@dynaflex-seals.com"
	}
	if ss := segmentStart(d.rs, ls, sp.Start); !spacesOnly(d.rs[ss:sp.Start]) {
		before = trimHonorifics(strings.TrimSpace(d.str(ss, sp.Start)))
	}
	if before != "" {
		role := strings.TrimSpace(strings.TrimRight(before, ":："))
		if !roleWords(role) || forTheIssuer(role) || role == before && greeting[lastWord(role)] {
			// "Welcome to", "Thank you for shopping at": the issuer greets
			return roleMark{}, false
		}
		return roleMark{role, li, roleBefore}, true
	}
	if sp.End > le {
		return roleMark{}, false // a name printed over two lines is a block's, not a role's
	}
	p := sp.End
	for p < le && d.rs[p] == ' ' {
		p++
	}
	if p < le && p-sp.End < 3 {
		// Words after the name in its column: a role only after a comma,
		// a parenthesis or a dash.
		if r := d.rs[p]; r != ',' && r != '(' && r != '-' && r != '–' {
			return roleMark{}, false
		}
		after := d.str(sp.End, le)
		if i := strings.Index(after, "   "); i >= 0 {
			after = after[:i]
		}
		// "(cobaltoutdoor.example)", "(123456-K)": the issuer's own words;
		// "- Downtown" is weighed by roleAfter.
		role := strings.Trim(strings.TrimSpace(after), ",()-– ")
		if !roleWords(role) || strings.ContainsAny(role, ".@/") {
			return roleMark{}, false
		}
		return roleMark{role, li, roleAfterName}, true
	}
	above := d.columnAbove(li, sp.Start)
	if above == "" || !roleWords(strings.TrimRight(above, ":： ")) || forTheIssuer(above) {
		return roleMark{}, false
	}
	if l, ok := labelText(above); ok {
		return roleMark{l, li, roleBefore}, true
	}
	return roleMark{above, li, roleBare}, true
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
	return officeWord(role) && !issuerLabelText(role)
}

// officeWord reports a role word, a title of office or its capitals.
func officeWord(role string) bool {
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
		if ownNameWords[t] || t == "name" && i > 0 && ownNameWords[toks[i-1]+" name"] {
			return true
		}
	}
	return false
}

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
