package pipeline

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The issuer: who a document says issued it. Its head names the issuer (a
// line ending in a legal form, the first name-like line, a name after an
// issuer label); a null issuer the head names is an omission, and a name
// the head contradicts is flagged.

// issuerLabels introduce the issuer's name on its line.
var issuerLabels = []string{"vendor", "supplier", "seller", "issuer", "issued by", "sold by", "merchant", "verkäufer",
	"lieferant", "fournisseur", "vendeur", "proveedor", "emisor", "fornecedor", "prestador", "prestador de serviços",
	"sprzedawca", "공급자", "売主", "販売者", "発行者", "leverancier", "fornitore", "from", "von", "contractor",
	"provider", "service provider", "auftragnehmer", "prestataire", "emitente", "cedente", "cedente/prestatore",
	"prestatore", "가맹점명", "商户名称", "販売店",
	// the seller a marketplace or platform receipt names below its own brand
	"verkauf durch", "verkauf und versand durch", "verkauft von", "verkauft durch", "vendu par",
	"vendu et expédié par", "vendido por", "vendido y enviado por", "venduto da", "venduto e spedito da",
	"verkocht door", "販売元", "出品者", "卖家", "商家",
	// The seller, supplier or contractor in more languages: Russian and
	// Ukrainian, Nordic, Czech and Slovak, Hungarian, Turkish, Polish,
	// Romanian, Croatian, Greek, Chinese, Indonesian, Vietnamese, Thai,
	// Arabic, Hebrew.
	"продавец", "поставщик", "исполнитель", "продавець", "постачальник", "виконавець", "myyjä", "toimittaja",
	"laskuttaja", "säljare", "leverantör", "selger", "sælger", "leverandør", "dodavatel", "dodávateľ", "eladó",
	"satıcı", "satici", "sprzedający", "wystawca", "furnizor", "vânzător", "dobavljač", "prodavatelj",
	"πωλητής", "εκδότης", "προμηθευτής", "销售方", "销方", "卖方", "penjual", "người bán", "ผู้ขาย", "المورد",
	"البائع", "ספק",
	// Who lets a property: on a rent or service-charge invoice the
	// landlord issues it, and a building's name at the head is no party.
	"landlord", "lessor", "vermieter", "verpächter", "bailleur", "arrendador", "locador", "locatore",
	"verhuurder", "udlejer", "utleier", "hyresvärd", "vuokranantaja", "wynajmujący", "pronajímatel"}

// issuerLabelFirst holds the first rune of each issuer label; read-only.
var issuerLabelFirst = func() map[rune]bool {
	m := map[rune]bool{}
	for _, l := range issuerLabels {
		r, _ := utf8.DecodeRuneInString(l)
		m[r] = true
	}
	return m
}()

// issuerLabelFirstByte is issuerLabelFirst for an ASCII first byte, in
// either case.
var issuerLabelFirstByte = func() (m [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		m[c] = issuerLabelFirst[unicode.ToLower(rune(c))]
	}
	return m
}()

// lowerHead appends to b the first n bytes at least of
// strings.ToLower(s), or all of it when it is shorter: s lowered rune by
// rune up to there.
func lowerHead(b []byte, s string, n int) []byte {
	start := len(b)
	for i := 0; i < len(s) && len(b)-start < n; {
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, asciiLower(c)) // unicode.ToLower's answer, without decoding
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += w
	}
	return b
}

// weakIssuerLabels name a sender that may be a person or a mailbox: they
// fill a null, they never contradict a name.
var weakIssuerLabels = map[string]bool{"from": true, "von": true}

// headLines is how many non-blank lines count as a document's head.
const headLines = 8

// issuerOmission reports a null issuer name the document prints: after an
// issuer label ("Sprzedawca: ACME Sp. z o.o.", "Sold by: …"), or a name at
// its head that no customer label introduces. Abstaining is honest only when
// the source names no one.
func (d *doc) issuerOmission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	if f.Party != PartyIssuer {
		return c, false
	}
	h, ok := d.headIssuer(true)
	if !ok {
		return c, false
	}
	c.Spans = append(c.Spans, h.sp)
	what := fmt.Sprintf("prints the name %q at its head", h.name)
	if h.labelled {
		what = fmt.Sprintf("names %q as the issuer", h.name)
	}
	c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document %s (line %d)", f.Words(), what, h.line+1))
	return c, true
}

// factorNotTheCompany: a name with no legal form while the head prints the
// issuer's company (a brand, a branch, a person's line above it).
const factorNotTheCompany = 0.5

// checkHeadCompany flags an issuer name the head of the document
// contradicts: another name after an issuer label ("Sold by: Oakridge Home
// Goods" when the value is "Amazon", "EMITENTE: …"), or, for a name with no
// legal form, a company printed at the head that no customer label
// introduces ("TAN CHAY YEE" or "GEOVENTURE" above "TASTE OF THE WORLD SDN
// BHD"): which line the document calls its issuer is then a reader's call.
func (d *doc) checkHeadCompany(c *FieldCheck, val string) {
	if c.Factor < 1 {
		return
	}
	h, ok := d.headIssuer(false)
	if !ok || sameName(h.name, val) {
		return
	}
	switch {
	case h.labelled && !h.weak:
		c.penalize(factorNotIssuer, fmt.Sprintf("the document names %q as the issuer (line %d), not %q", h.name, h.line+1, val))
	case !h.labelled && !hasLegalForm(val) && d.nearLine(c.Spans, h.line) && !ownerLine(h.name):
		c.penalize(factorNotTheCompany, fmt.Sprintf("%q has no legal form, but the document's head prints the company %q (line %d)", val, h.name, h.line+1))
	}
}

// sameName reports names that are one another's, ignoring case, spacing
// and punctuation, or one inside the other ("TRI SHAAS SDN BHD" in "TRI
// SHAAS SDN BHD (728515-N)").
func sameName(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		// The keys are built on the stack: one name per record is compared
		// with the head's.
		var ka, kb [96]byte
		x, y := appendASCIIKey(ka[:0], a), appendASCIIKey(kb[:0], b)
		return len(x) > 0 && len(y) > 0 && (bytes.Contains(x, y) || bytes.Contains(y, x))
	}
	x, y := LabelKey(a), LabelKey(b)
	return x != "" && y != "" && (strings.Contains(x, y) || strings.Contains(y, x))
}

// appendASCIIKey appends LabelKey of the ASCII s to dst: its words
// lowercased and joined by one space.
func appendASCIIKey(dst []byte, s string) []byte {
	n0, inWord := len(dst), false
	for i := 0; i < len(s); i++ {
		c := asciiLower(s[i])
		if !isASCIIWordByte(c) {
			inWord = false
			continue
		}
		if !inWord && len(dst) > n0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, c)
		inWord = true
	}
	return dst
}

// headName is a name the head of a document gives its issuer.
type headIssuerName struct {
	name     string
	sp       Span
	line     int
	labelled bool // after an issuer label, not read from its place
	weak     bool // after a sender label (From:), which may name a person
}

// headIssuer is the first issuer name in a document's head: after an issuer
// label, or a line ending in a legal form, or (anyName) the first name-like
// line, none of them introduced by a customer label or an addressee suffix.
func (d *doc) headIssuer(anyName bool) (headIssuerName, bool) {
	seen := 0
	var first headIssuerName // with anyName, the first name read from its place
	found := false
	for li := 0; li < len(d.lineStarts) && seen < headLines; li++ {
		ls, le := d.lineBounds(li)
		for ls < le && unicode.IsSpace(d.rs[ls]) {
			ls++ // spans count runes from the line's first printed one
		}
		line := strings.TrimSpace(d.str(ls, le))
		if line == "" {
			continue
		}
		seen++
		// Every issuer label is followed by a colon: a line with none is
		// read for its name alone.
		if colon := strings.IndexByte(line, ':'); colon >= 0 || !d.ascii && indexColon(line) >= 0 {
			if name, label, ok := labelledIssuer(line); ok && !d.cardIssuerLine(li, label) && !practitionerUnder(label, name) {
				start := ls + utf8.RuneCountInString(line[:strings.Index(line, name)])
				return headIssuerName{name, Span{Start: start, End: start + utf8.RuneCountInString(name)}, li, true, weakIssuerLabels[label]}, true
			}
			if h, ok := d.issuerBelowLabel(li, ls, line); ok {
				return h, true
			}
		}
		head := firstSegment(line)
		// A head with "@" or ":" is passed over before its words are read.
		if strings.IndexByte(head, '@') >= 0 || strings.IndexByte(head, ':') >= 0 || !endsInLegalForm(head) && !(anyName && seen <= 3 && d.firstNameLine(li) && headName(head)) {
			continue
		}
		sp := Span{Start: ls, End: ls + utf8.RuneCountInString(head)}
		if d.customerLabelFor(sp) != "" || customerLabelOf(line) != "" || d.underCustomerLabel(li) || addressee(line) {
			continue
		}
		if !anyName {
			return headIssuerName{name: head, sp: sp, line: li}, true
		}
		if !found {
			// A name-like line ("LASKU 7713", a title in a language the
			// title words miss) yields to an issuer label further down
			// the head ("Myyjä: …").
			first, found = headIssuerName{name: head, sp: sp, line: li}, true
		}
	}
	return first, found
}

// addressTokens in a name with a digit make it an address line.
var addressTokens = map[string]bool{"street": true, "st": true, "road": true, "rd": true, "avenue": true, "ave": true,
	"jalan": true, "jln": true, "straße": true, "strasse": true, "str": true, "rue": true, "via": true, "calle": true,
	"av": true, "avenida": true, "rua": true, "lane": true, "ln": true, "blvd": true, "boulevard": true, "ul": true,
	"lot": true, "no": true, "unit": true, "floor": true}

// notAName reports an issuer value that cannot be a name: a Japanese
// placeholder addressee ("上様"), or an address ("上海市徐汇区漕溪北路88号店",
// "12 Birch Cres").
func notAName(val string) (string, bool) {
	v := strings.TrimSpace(val)
	for _, s := range customerSuffixes {
		if strings.HasSuffix(v, s) {
			return "the addressee", true
		}
	}
	if !strings.ContainsFunc(v, unicode.IsDigit) {
		return "", false
	}
	for _, t := range LabelTokens(v) {
		if addressTokens[t] {
			return "an address", true
		}
	}
	for _, r := range []string{"路", "号", "街", "丁目", "번지", "번길"} {
		if strings.Contains(v, r) {
			return "an address", true
		}
	}
	return "", false
}

// afterIssuerLabel is the name an issuer label introduces on line, and the
// label.
func afterIssuerLabel(line string) (string, string, bool) {
	if indexColon(line) < 0 {
		return "", "", false // every issuer label is followed by a colon
	}
	return labelledIssuer(line)
}

// labelledIssuer is afterIssuerLabel of a line that holds a colon.
func labelledIssuer(line string) (string, string, bool) {
	if line == "" {
		return "", "", false
	}
	if c := line[0]; c < utf8.RuneSelf {
		if !issuerLabelFirstByte[c] {
			return "", "", false // no issuer label starts the line
		}
	} else if r, _ := utf8.DecodeRuneInString(line); !issuerLabelFirst[unicode.ToLower(r)] {
		return "", "", false
	}
	// Only the head of the lowered line is compared: it is lowered on the
	// stack.
	var buf [64]byte
	low := lowerHead(buf[:0], line, 1)
	if len(low) == 0 {
		return "", "", false
	}
	// Only the labels that start with the lowered line's first byte can
	// match: lower no more of the line than the longest of them.
	labels := issuerLabelsByByte[low[0]]
	low = lowerHead(buf[:0], line, maxIssuerLabelByByte[low[0]])
	for _, l := range labels {
		if len(low) < len(l) || string(low[:len(l)]) != l {
			continue
		}
		rest := line[len(l):]
		trimmed := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(trimmed, ":") && !strings.HasPrefix(trimmed, "：") {
			continue
		}
		name := firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(trimmed, ":"), "：")))
		if !strings.ContainsFunc(name, unicode.IsLetter) || strings.IndexByte(name, '@') >= 0 || indexColon(name) >= 0 {
			continue // no name, or another label ("Sprzedawca:   Nabywca:")
		}
		return name, l, true
	}
	return "", "", false
}

// firstSegment is a head line up to a column gap or a clause: "ORBITAL
// COMPONENTS SDN BHD      INVOICE OC-26-1190", "Mercer Contracting Ltd, 8
// Canal St", "Cedar & Stone Ltd (GST 123-456-789)".
func firstSegment(line string) string {
	line = line[:segmentEnd(line)]
	// A bracket that holds a number or a label ends the name; one that
	// holds a word is part of it ("MONSIEUR ( M ) SDN. BHD.").
	for from := 0; ; {
		i := strings.Index(line[from:], " (")
		if i < 0 {
			break
		}
		i += from
		inner, _, _ := strings.Cut(line[i+2:], ")")
		if strings.ContainsFunc(inner, unicode.IsDigit) || indexColon(inner) >= 0 || i == 0 {
			line = line[:i]
			break
		}
		from = i + 2
	}
	return strings.TrimSpace(line)
}

// segmentSeps are the column gaps and clause marks firstSegment cuts a
// line at, in the order it applies them.
var segmentSeps = [...]string{"   ", "\t", ", ", " · ", " | ", " — ", " - "}

// segmentEnd is where firstSegment's separators cut line: each in turn cuts
// the line left by the ones before at its first occurrence, unless that
// opens the line. One pass finds every separator's first occurrence
// instead of one search per separator.
func segmentEnd(line string) int {
	var first [len(segmentSeps)]int // one past each separator's first occurrence, 0 for none
	found := false
	for i := 0; i < len(line); i++ {
		if line[i] > ',' || !segmentByte[line[i]] {
			continue // most bytes start no separator (none above ','): one test passes them
		}
		// Each separator but the tab is a space or a comma and a second byte
		// of its own: only the separators that byte allows are compared.
		var k int
		switch c := line[i]; {
		case c == '\t':
			k = 1
		case c == ',':
			k = 2
		case c != ' ' || i+1 == len(line):
			continue
		default:
			switch line[i+1] {
			case ' ':
				k = 0
			case 0xC2: // ·
				k = 3
			case '|':
				k = 4
			case 0xE2: // —
				k = 5
			case '-':
				k = 6
			default:
				continue
			}
		}
		if first[k] == 0 && strings.HasPrefix(line[i:], segmentSeps[k]) {
			first[k], found = i+1, true
		}
	}
	end := len(line)
	if !found {
		return end // most head lines print no separator
	}
	for k, sep := range segmentSeps {
		// A later occurrence cannot fit where the first one does not.
		if p := first[k] - 1; p > 0 && p+len(sep) <= end {
			end = p
		}
	}
	return end
}

// firstNameLine reports whether no line above li could be a name: li is the
// document's first candidate for its letterhead.
func (d *doc) firstNameLine(li int) bool {
	for k := 0; k < li; k++ {
		ls, le := d.lineBounds(k)
		if headName(firstSegment(strings.TrimSpace(d.str(ls, le)))) {
			return false
		}
	}
	return true
}

// headName is a letterhead line that reads as a name: words that each start
// with a capital (or a script without case), at most a store number in
// digits, not a title, a label, a greeting or an address.
func headName(t string) bool {
	t = strings.TrimRight(strings.TrimSpace(t), ".*")
	if t == "" || strings.ContainsAny(t, ":@/=%") || strings.HasSuffix(t, ",") {
		return false
	}
	words := strings.Fields(t)
	digits := 0
	for i, w := range words {
		r := []rune(strings.TrimLeft(w, "#*'\"("))
		if len(r) == 0 {
			continue
		}
		switch {
		case unicode.IsDigit(r[0]):
			if i == 0 || strings.ContainsAny(w, ".,-") {
				return false // an address ("78 Westchester Ave") or a figure ("9.00")
			}
			digits += len(r)
		case strings.ContainsFunc(w, unicode.IsDigit):
			return false // "NO.41", "G23": an address or a code, not a name's word
		case unicode.IsLower(r[0]):
			return false // running text, or a word no name starts with
		}
	}
	toks := LabelTokens(t)
	if digits > 4 || len(toks) == 0 || titleWords[strings.ToLower(strings.Join(strings.Fields(t), ""))] {
		return false
	}
	// A short line with a title word is a title ("TIMESHEET INVOICE",
	// "Order Confirmation & Invoice"), not a name.
	if len(toks) <= 4 && slices.ContainsFunc(toks, func(w string) bool { return titleWords[w] && w != "&" && w != "and" }) {
		return false
	}
	for _, w := range toks {
		if greetingWords[w] {
			return false
		}
	}
	return customerLabelIn(toks) == ""
}

// greetingWords open the lines a shop prints around its receipt ("THANK
// YOU", "WELCOME", "PLEASE COME AGAIN"), never its name.
var greetingWords = map[string]bool{"thank": true, "thanks": true, "welcome": true, "please": true,
	"danke": true, "merci": true, "gracias": true, "grazie": true, "terima": true, "kasih": true}

// nearLine reports whether the first of spans is printed within two lines
// of line li: a brand line and its company line stand together.
func (d *doc) nearLine(spans []Span, li int) bool {
	if len(spans) == 0 {
		return false
	}
	k := d.lineOf(spans[0].Start)
	return k-li <= 2 && li-k <= 2
}

// ownerLine reports a company line that says it owns the trade name above
// it: "di Doria Marco & C. s.n.c.", "operated by …", "a division of …".
func ownerLine(line string) bool {
	toks := LabelTokens(line)
	if len(toks) == 0 {
		return false
	}
	switch toks[0] {
	case "di", "by", "operated", "owned", "managed", "von", "chez", "par":
		return true
	}
	return len(toks) > 2 && toks[0] == "a" && (toks[1] == "division" || toks[1] == "member")
}

// bareColon reports a colon in line that the line's first segment after it
// leaves bare, as issuerBelowLabel asks of the colon after a label.
func bareColon(line string) bool {
	for i := 0; i < len(line); {
		j := indexColon(line[i:])
		if j < 0 {
			return false
		}
		c := i + j
		if rest := strings.TrimLeft(strings.TrimLeft(line[c:], ":"), "："); !opensWord(rest) && firstSegment(rest) == "" {
			return true
		}
		_, w := utf8.DecodeRuneInString(line[c:])
		i = c + w
	}
	return false
}

// opensWord reports a text whose first segment cannot be empty: spaces,
// then an ASCII letter or digit. No separator of segmentEnd starts at or
// before that byte but the spaces opening the text (which cut nothing), and
// no bracket opens the text, so firstSegment keeps the byte.
func opensWord(s string) bool {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i < len(s) && isASCIIAlnum(s[i])
}

// isASCIIAlnum reports an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// issuerBelowLabel reads the issuer's name under an issuer label that heads
// a column ("Sprzedawca:                Nabywca:" / "Kowalski Sp. z o.o.
// Biuro Nowak s.c."): the next line's text in the label's column.
func (d *doc) issuerBelowLabel(li, ls int, line string) (headIssuerName, bool) {
	if li+1 >= len(d.lineStarts) || !bareColon(line) {
		// Every issuer label is followed by a colon with no name after it on
		// the line; most head lines with a colon have text after it
		// ("TEL: 03-1234"), and they skip the search of every label.
		return headIssuerName{}, false
	}
	low := strings.ToLower(line)
	for _, l := range strongIssuerLabels {
		at := strings.Index(low, l)
		if at < 0 || at+len(l) > len(line) || at > 0 && !unicode.IsSpace(rune(low[at-1])) {
			continue
		}
		rest := strings.TrimLeft(line[at+len(l):], " \t")
		if !strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "：") {
			continue
		}
		if after := firstSegment(strings.TrimLeft(strings.TrimLeft(rest, ":"), "：")); after != "" {
			continue // the name is on the label's line
		}
		col := utf8.RuneCountInString(line[:at]) + (ls - d.lineStarts[li])
		ns, ne := d.lineBounds(li + 1)
		if ns+col >= ne {
			continue
		}
		start := ns + col
		for start > ns && !unicode.IsSpace(d.rs[start-1]) {
			start--
		}
		seg := d.str(start, ne)
		name := firstSegment(strings.TrimSpace(seg))
		if name == "" || strings.ContainsAny(name, "@:") {
			continue
		}
		start += utf8.RuneCountInString(seg) - utf8.RuneCountInString(strings.TrimLeft(seg, " \t"))
		return headIssuerName{name: name, sp: Span{Start: start, End: start + utf8.RuneCountInString(name)}, line: li + 1, labelled: true}, true
	}
	return headIssuerName{}, false
}
