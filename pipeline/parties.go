package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenRun reports where the tokens of label start inside toks, or -1.
func tokenRun(toks, label []string) int {
	for i := 0; i+len(label) <= len(toks); i++ {
		if slices.Equal(toks[i:i+len(label)], label) {
			return i
		}
	}
	return -1
}

// customerLabelIn is the customer label in toks: a customer label anywhere,
// or an address word alone ("Welcome to X" is no address).
func customerLabelIn(toks []string) string {
	// The first label in list order that occurs anywhere in toks: only the
	// labels that start with one of toks' words can.
	first := customerLabelsEmpty
	for k, w := range toks {
		for _, i := range customerLabelsByFirst[w] {
			if first >= 0 && i >= first {
				break // indexes are ascending: no earlier label left here
			}
			if l := customerLabelToks[i]; k+len(l) <= len(toks) && slices.Equal(toks[k:k+len(l)], l) {
				first = i
				break
			}
		}
	}
	if first >= 0 {
		return customerLabels[first]
	}
	return addressWordIn(toks)
}

// addressWordIn is the address word ("Dear", "Sehr geehrte") the words are,
// honorifics after it aside, else "".
func addressWordIn(toks []string) string {
	bare := toks
	for len(bare) > 0 && honorifics[bare[len(bare)-1]] {
		bare = bare[:len(bare)-1]
	}
	if len(bare) == 0 {
		if addressWordsEmpty >= 0 {
			return addressWords[addressWordsEmpty]
		}
		return ""
	}
	for _, i := range addressWordsByFirst[bare[0]] {
		if slices.Equal(bare, addressWordToks[i]) {
			return addressWords[i]
		}
	}
	return ""
}

// addressWordsEmpty is the first address word with no words, or -1.
var addressWordsEmpty = slices.IndexFunc(addressWordToks, func(l []string) bool { return len(l) == 0 })

// customerLabelsByFirst lists, for each first word of a customer label, the
// indexes of the labels that start with it in ascending order;
// customerLabelsEmpty is the first label with no words (it occurs in any
// text), or -1. Read-only after init.
var customerLabelsByFirst, customerLabelsEmpty = func() (map[string][]int, int) {
	m, empty := map[string][]int{}, -1
	for i, l := range customerLabelToks {
		if len(l) == 0 {
			if empty < 0 {
				empty = i
			}
			continue
		}
		m[l[0]] = append(m[l[0]], i)
	}
	return m, empty
}()

// customerFirstWords screens words for customerLabelsByFirst.
var customerFirstWords = hashesOf(customerLabelsByFirst)

// The labels above as tokens, cut once: tokenizing them for every name the
// checks look at cost a tenth of a cached pipeline run. Read-only after init.
var customerLabelToks, addressWordToks = tokenizeLabels(customerLabels), tokenizeLabels(addressWords)

func tokenizeLabels(labels []string) [][]string {
	out := make([][]string, len(labels))
	for i, l := range labels {
		out[i] = LabelTokens(l)
	}
	return out
}

// customerLabelFor is the customer label that names the text at sp: on its
// line before it, a Japanese addressee suffix after it, or a label line
// above it ("Sold To:   Ship To:", "Buyer (Bill to):", "An").
func (d *doc) customerLabelFor(sp Span) string {
	li := d.lineOf(sp.Start)
	ls, le := d.lineBounds(li)
	before := d.str(max(ls, sp.Start-40), sp.Start)
	if l := customerLabelOf(before); l != "" {
		return l
	}
	if l := fieldPartyLabel(before); l != "" {
		return l
	}
	if sp.End <= le {
		after := strings.TrimSpace(d.str(sp.End, le))
		for _, s := range customerSuffixes {
			if strings.HasPrefix(after, s) {
				return s
			}
		}
	}
	if li == 0 || strings.TrimSpace(before) != "" {
		return ""
	}
	ps, pe := d.lineBounds(li - 1)
	prev := strings.TrimSpace(d.str(ps, pe))
	if l, ok := labelLine(prev); ok {
		return l
	}
	// A label line: it ends in a colon and names the customer, in the
	// name's column when it holds two labels ("Sprzedawca:   Nabywca:").
	if strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, "：") {
		seg := d.columnAbove(li, sp.Start)
		if l := customerLabelOf(seg); l != "" {
			return l
		}
		return roleFieldLabel(seg) // "Employer:" over the employer's block
	}
	return ""
}

// customerHeading is the customer label a line consists of: "Bill to:",
// "Herrn", "Datos del cliente", "DESTINATÁRIO/REMETENTE"; a title that
// mentions a customer ("CUSTOMER COPY") is not one.
func customerHeading(line string) string {
	l := customerLabelOf(line)
	if l == "" || strings.ContainsFunc(line, unicode.IsDigit) || strings.Contains(strings.TrimSpace(line), "   ") {
		return "" // a line of two columns names a party per column (columnAbove)
	}
	toks := LabelTokens(line)
	if strings.HasSuffix(line, ":") || strings.HasSuffix(line, "：") || LabelKey(line) == LabelKey(l) {
		return l
	}
	if len(toks) > 4 {
		return ""
	}
	lt := LabelTokens(l)
	for _, t := range toks {
		if titleWords[t] && !slices.Contains(lt, t) {
			return ""
		}
	}
	return l
}

// otherPartyAt is the label naming the party printed at sp when it is not
// the issuer: a customer label before it, a Japanese addressee suffix, an
// issuer label on a card slip (the card's issuer), a label line or heading
// above it (in its column when the line above holds two labels), the block
// a customer label opens, or a payment or item line it shares with an
// amount (amountLineParty when it opens a line that holds only an amount).
func (d *doc) otherPartyAt(sp Span) string {
	if l := d.customerLabelFor(sp); l != "" {
		return l
	}
	li := d.lineOf(sp.Start)
	ls, _ := d.lineBounds(li)
	if l := d.cardIssuerLabel(li, d.str(max(ls, sp.Start-40), sp.Start)); l != "" {
		return l
	}
	if l := d.roleOnLine(li, ls, sp); l != "" {
		return l
	}
	if l := d.guestCompanyLabel(li, d.str(max(ls, sp.Start-40), sp.Start)); l != "" {
		return l
	}
	if d.paymentBankAt(li, sp) {
		return "bank"
	}
	if d.amountLineName(li, ls, sp) {
		return amountLineParty
	}
	if seg := d.columnHeadingAbove(li, sp.Start); seg != "" {
		// "SHIPPER            CONSIGNEE" over two names.
		if l, ok := labelLine(seg); ok && l != "" {
			return l
		}
	}
	if li > 0 {
		// "Sprzedawca:              Nabywca:" above two columns.
		if seg := d.columnAbove(li, sp.Start); strings.HasSuffix(seg, ":") {
			if l := customerLabelOf(seg); l != "" {
				return l
			}
		}
		if before := strings.TrimSpace(d.str(ls, sp.Start)); before == "" {
			// The heading on the line above is the block label's first
			// candidate.
			if l := d.customerBlockLabel(li); l != "" {
				return l
			}
			if l := d.customerFieldAbove(li); l != "" {
				return l
			}
		}
	}
	if l := d.fieldBlockLabel(li, ls, sp.Start); l != "" {
		return l
	}
	if l := d.columnBlockLabel(li, sp.Start); l != "" {
		return l
	}
	for _, a := range d.amounts {
		if a.Line == li && a.End > sp.End && strings.ContainsAny(a.Raw, ".,") {
			if before := strings.TrimSpace(d.str(ls, sp.Start)); before != "" && !proseNamesIssuer(before) {
				return strings.TrimRight(before, " (:")
			}
		}
	}
	return ""
}

// proseNamesIssuer reports text that ends by naming the party after it as
// the issuer or the one paid: "vendor is", "supplier:", "paid",
// "payable to" (not "paid by", not a bare "from"). A name after it on a line with an
// amount is the vendor a sentence names, not an insurer's payment.
func proseNamesIssuer(before string) bool {
	low := strings.ToLower(strings.TrimRight(before, " :,-–("))
	for _, cop := range []string{" is", " was", " ="} {
		low = strings.TrimSuffix(low, cop)
	}
	words := strings.Fields(low)
	if len(words) == 0 {
		return false
	}
	last := strings.Trim(words[len(words)-1], ".,;:!?\"'")
	switch last {
	case "paid", "pay", "paying", "bezahlt", "payé", "pagato", "pagado":
		return true
	case "to":
		if len(words) > 1 {
			switch words[len(words)-2] {
			case "payable", "paid", "pay", "payment", "remit":
				return true
			}
		}
	}
	if low == "" {
		return false
	}
	// "payment from Aetna 50.00" is an insurer's payment: the sender labels
	// are not among the labels compared, and only those that end in the
	// text's last byte can end it.
	for _, l := range strongIssuerLabelsByLast[low[len(low)-1]] {
		if rest, ok := strings.CutSuffix(low, l); ok {
			if r, _ := utf8.DecodeLastRuneInString(rest); rest == "" || !isWordRune(r) {
				return true
			}
		}
	}
	return false
}

// addressee reports a line that ends in a Japanese addressee suffix
// ("株式会社みどり工業　御中", "山田 様"): the customer, not the issuer.
func addressee(line string) bool {
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	for _, s := range customerSuffixes {
		if strings.HasSuffix(line, s) {
			return true
		}
	}
	return false
}

// columnAbove is the text of line li−1 in the column of offset p: from
// where p's column starts (two runes of slack) to the next column gap.
// "Sold To:        Ship To:" gives "Sold To:" over the left column and
// "Ship To:" over the right one.
func (d *doc) columnAbove(li, p int) string {
	if li == 0 {
		return ""
	}
	ls, _ := d.lineBounds(li)
	ps, pe := d.lineBounds(li - 1)
	col := p - ls
	if col < 0 || ps+col >= pe {
		return ""
	}
	start := ps + max(col-2, 0)
	for start > ps && !unicode.IsSpace(d.rs[start-1]) {
		start-- // back to the start of the word the column cuts
	}
	seg := strings.TrimSpace(d.str(start, pe))
	if i := strings.Index(seg, "   "); i > 0 {
		seg = seg[:i]
	}
	return strings.TrimSpace(seg)
}

// fieldBlockLabel is the customer label of the block holding a name printed
// after a plain field label ("名称：", "Tên đơn vị:") on line li from ls: a
// buyer heading over the field's column ("购买方      销售方" over two
// columns), or the nearest line above (no blank line between, through
// other fields) that is a buyer heading ("购买方信息") or a field whose
// label names the buyer ("Họ tên người mua hàng: …"). A field or heading
// naming anyone else ends the search: the seller's block reads the same.
func (d *doc) fieldBlockLabel(li, ls, p int) string {
	before := d.str(ls, p)
	start := ls
	if i := strings.LastIndex(before, "   "); i >= 0 {
		start = ls + utf8.RuneCountInString(before[:i])
		before = before[i:]
	}
	before = strings.TrimSpace(before)
	if !isFieldLabel(before) {
		return ""
	}
	if seg := d.columnAbove(li, start); seg != "" && !strings.HasSuffix(seg, ":") && !strings.HasSuffix(seg, "：") {
		if l := blockHeading(seg); l != "" {
			return l
		}
	}
	for k := li - 1; k >= 0 && k >= li-4; k-- {
		ks, ke := d.lineBounds(k)
		line := strings.TrimSpace(d.str(ks, ke))
		if line == "" && k == li-1 {
			return d.headingOverBlank(k - 1)
		}
		if line == "" || strings.Contains(line, "   ") {
			return ""
		}
		if l := blockHeading(line); l != "" {
			return l
		}
		i := indexColon(line)
		if i <= 0 {
			return ""
		}
		if l := customerLabelOf(line[:i]); l != "" {
			return l
		}
	}
	return ""
}

// isFieldLabel reports a short label ending in a colon that names no party
// itself: "名称：", "Tên đơn vị:", not "Seller:" or "Bill to:".
func isFieldLabel(s string) bool {
	if !strings.HasSuffix(s, ":") && !strings.HasSuffix(s, "：") {
		return false
	}
	toks := LabelTokens(s)
	if len(toks) == 0 || len(toks) > 4 || strings.ContainsFunc(s, unicode.IsDigit) {
		return false
	}
	_, _, issuer := afterIssuerLabel(s + " x")
	return !issuer && customerLabelIn(toks) == ""
}

// blockHeading is the customer label of a heading over a block of fields:
// a customer heading, or the label with a word or two after it
// ("购买方信息", "Customer details"; a CJK key counts a token per
// character, which customerHeading's four-word cap does not allow for).
func blockHeading(line string) string {
	if l := customerHeading(line); l != "" {
		return l
	}
	if indexColon(line) >= 0 || strings.ContainsFunc(line, unicode.IsDigit) {
		return ""
	}
	toks := LabelTokens(line)
	if l := customerLabelIn(toks); l != "" && len(toks) <= len(LabelTokens(l))+2 {
		return l
	}
	return ""
}

// senderLabels name the sender of goods on a freight bill or waybill. The
// sender issues its own shipping papers, so the label alone proves nothing:
// only when the head names another issuer (the carrier) is the shipper
// not the vendor.
// mayEndInSenderLabel is false for an ASCII text with words whose last
// word ends no sender label: its words, read in place, are its
// LabelTokens, so senderNotIssuer need not build them.
func mayEndInSenderLabel(before string) bool {
	if before == "" || !isASCII(before) {
		return true // no words (the heading above is read instead), or not read in place
	}
	var buf [24]Span
	ws := asciiWords(before, buf[:0])
	if len(ws) == 0 {
		return true // the heading above the column is read instead
	}
	_, ok := lookupLower(senderLabelLast, nil, before[ws[len(ws)-1].Start:ws[len(ws)-1].End])
	return ok
}

// senderLabelLast holds the last word of each sender label.
var senderLabelLast = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range senderLabels {
		m[l[len(l)-1]] = true
	}
	return m
}()

var senderLabels = [][]string{{"shipper"}, {"consignor"}, {"absender"}, {"versender"}, {"expéditeur"},
	{"remitente"}, {"mittente"},
	// The shipper as exporter, by name or details, and the sender in more
	// languages.
	{"shipper", "exporter"}, {"shipper", "name"}, {"shipper", "s", "name"}, {"shipper", "details"}, {"sender"},
	{"afzender"}, {"avsändare"}, {"avsender"}, {"afsender"}, {"lähettäjä"}, {"nadawca"}, {"odesílatel"},
	{"feladó"}, {"gönderici"}, {"gönderen"}, {"expedidor"}, {"remetente"}, {"荷送人"}, {"发货人"}, {"寄件人"},
	{"發貨人"}, {"송하인"}}

// senderNotIssuer reports a name printed only right after a sender label
// ("Shipper: Delta Hardware Co") on a document whose head names a different
// issuer on another line, with the label and that issuer.
func (d *doc) senderNotIssuer(spans []Span, val string) (string, string, bool) {
	label := ""
	for _, sp := range capped(spans) {
		li := d.lineOf(sp.Start)
		ls, _ := d.lineBounds(li)
		before := d.str(ls, sp.Start)
		if !mayEndInSenderLabel(before) {
			return "", "", false // the label test below fails on its last word
		}
		toks := LabelTokens(before)
		if len(toks) == 0 {
			toks = LabelTokens(d.columnHeadingAbove(li, sp.Start)) // "SHIPPER" over its column
		}
		i := slices.IndexFunc(senderLabels, func(l []string) bool {
			return len(toks) >= len(l) && slices.Equal(toks[len(toks)-len(l):], l)
		})
		if i < 0 {
			return "", "", false
		}
		label = strings.Join(senderLabels[i], " ")
	}
	h, ok := d.headIssuer(false)
	if !ok && label != "" {
		h, ok = d.headIssuer(true) // a carrier's brand with no legal form ("SWIFTLINE CARGO")
	}
	if label == "" || !ok || h.weak || strings.EqualFold(strings.TrimSpace(h.name), strings.TrimSpace(val)) {
		return "", "", false
	}
	for _, sp := range spans {
		if d.lineOf(sp.Start) == h.line {
			return "", "", false
		}
	}
	return label, h.name, true
}

// taxOfficeLabels name the tax office a seller is registered with, printed
// beside its tax number: the Greek ΔΟΥ, the Turkish vergi dairesi (or "V.D."
// after its name), the German Finanzamt, an English "Tax office". The
// office is an authority, not the issuer of a commercial document.
var taxOfficeLabels = tokenizeLabels([]string{"δου", "δ ο υ", "doy", "d o y", "vergi dairesi", "v d", "vd",
	"finanzamt", "tax office", "inland revenue office", "service des impôts", "service des impots",
	"agenzia delle entrate", "administración de hacienda", "delegación de hacienda", "belastingdienst"})

// taxOfficeLabelAt is the tax-office label toks start with, or -1.
func taxOfficeLabelAt(toks []string, suffix bool) int {
	for i, l := range taxOfficeLabels {
		if len(l) == 0 || len(l) > len(toks) {
			continue
		}
		if suffix && slices.Equal(toks[len(toks)-len(l):], l) || !suffix && slices.Equal(toks[:len(l)], l) {
			return i
		}
	}
	return -1
}

// taxOffice reports a name that is the tax office a document prints beside
// a tax number: a value that starts with a tax-office label ("Finanzamt
// München-Nord", "ΔΟΥ ΚΑΛΑΜΑΡΙΑΣ"), or whose every printing follows one
// ("ΔΟΥ: ΚΑΛΑΜΑΡΙΑΣ", "Tax office: Leeds Central") or precedes the Turkish
// "V.D.". A tax office heading its own letter is its issuer and passes.
func (d *doc) taxOffice(spans []Span, val string) bool {
	if len(spans) == 0 {
		return false
	}
	own := taxOfficeStem(val) && taxOfficeLabelAt(LabelTokens(val), false) >= 0
	for _, sp := range capped(spans) {
		if own {
			continue
		}
		li := d.lineOf(sp.Start)
		ls, le := d.lineBounds(li)
		if !d.stemsOnLine(taxOfficeScreen, taxOfficeStems, d.str(ls, le)) {
			return false
		}
		before := LabelTokens(d.str(max(ls, sp.Start-30), sp.Start))
		if taxOfficeLabelAt(before, true) >= 0 {
			continue
		}
		if sp.End <= le && taxOfficeLabelAt(LabelTokens(d.str(sp.End, min(le, sp.End+20))), false) >= 0 {
			continue
		}
		return false
	}
	h, ok := d.headIssuer(false)
	return !ok || !sameName(h.name, val)
}

// taxOfficeStems are parts of the tax-office labels a line must hold before
// its words are compared: most lines name no tax office, and ASCII ones are
// searched without lowering them.
var taxOfficeStems = newStemSet("δου", "δ.ο.υ", "doy", "d.o.y", "vergi", "v.d", "vd", "finanzamt", "tax office",
	"revenue office", "impôts", "impots", "entrate", "hacienda", "belastingdienst")

func taxOfficeStem(line string) bool { return taxOfficeStems.in(line) }

// insurerFieldLabels name the insurer on a medical bill, and other parties
// that never issue it, when a colon follows them ("Insurance: Delta Shield
// Dental Inc", "Versicherung:", "Mutuelle :"). Without the colon they are
// words of a name ("Evergreen Mutual Insurance"), so they are no customer
// labels.
var insurerFieldLabels = tokenizeLabels([]string{"insurance", "insurance co", "insurance name", "insurance plan",
	"plan", "insurer name", "versicherung", "krankenversicherung", "kasse", "krankenkasse name", "mutuelle",
	"caisse", "assurance", "assurance maladie", "complémentaire", "complémentaire santé", "seguro", "seguro médico",
	"compañía aseguradora", "assicurazione", "verzekeraar", "zorgverzekeraar", "保険者", "保険者名",
	// The fund that pays a share of a prescription: the Greek ταμείο or
	// φορέας (ΕΟΠΥΥ), an Argentinian obra social or prepaga, a fund.
	"ταμείο", "φορέας", "ασφαλιστικός φορέας", "obra social", "prepaga", "fund", "health fund", "fondo",
	// A club's member ("Member: Jane Doe"): a word of names too ("Member
	// FDIC", "Members Equity"), so only with its colon.
	"member", "mitglied", "membre", "socio", "medlem", "jäsen"})
