package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// customerLabels introduce the other party of a document: the buyer, the
// addressee, the guest. Matched as whole words anywhere before the name on
// its line, or as the line above it.
var customerLabels = []string{"rechnung an", "rechnungsadresse", "empfänger", "bill to", "billed to", "sold to",
	"ship to", "shipped to", "deliver to", "delivered to", "invoice to", "invoiced to", "customer", "client", "attn",
	"buyer", "consignee", "kunde", "kund", "kunden", "rechnungsempfänger", "lieferadresse", "destinataire",
	"facturé à", "livré à", "cliente", "facturar a", "請求先", "お客様", "bill-to", "guest", "gast", "prepared for",
	"购买方", "购方", "买方", "kepada", "penerima", "remit payment only to", "pay only to", "factuur aan", "klant",
	// The buyer, recipient or service taker in more languages: Polish,
	// Portuguese, Spanish/Brazilian NFS-e, Korean tax invoices, German,
	// French, Japanese; a patient on a clinic's bill.
	"nabywca", "odbiorca", "destinatário", "destinatario", "tomador", "tomador de serviços", "tomador do serviço",
	"receptor", "공급받는자", "공급받는 자", "käufer", "acheteur", "買主", "購入者", "patient", "patiënt", "paciente",
	"comprador", "adquirente", "cessionario", "committente", "pelanggan", "datos del cliente",
	// Czech, Slovak, Hungarian, Arabic and Latin American Spanish buyers.
	"passenger", "passenger name", "passagier", "passager", "pasajero", "passeggero",
	"odběratel", "odberateľ", "kupující", "vevő", "vásárló", "العميل", "المشتري", "الزبون", "señor es", "señores", "sres",
	// Other parties a document names that are never its issuer: the
	// buyer's accounts-payable department signing an e-mail, the card
	// scheme on a card slip.
	"accounts payable", "purchasing department", "einkauf", "카드종류", "card type", "kartenart",
	// The buyer, payer and consignee of a Russian invoice or waybill; a
	// Hebrew and a Thai addressee; the buyer of a Vietnamese e-invoice.
	"покупатель", "плательщик", "грузополучатель", "לכבוד", "ชื่อลูกค้า", "người mua hàng", "người mua",
	// Roles that are never the issuer: the tenant or lessee of a lease (the
	// landlord issues it), the insured of a policy (the insurer does), the
	// hirer of plant, the student of a school. Not "driver": a taxi
	// driver may issue the receipt.
	"tenant", "lessee", "mieter", "locataire", "inquilino", "arrendatario", "policyholder", "policy holder",
	"versicherungsnehmer", "assuré", "assurée", "insured", "hirer", "student", "schüler", "étudiant",
	// Who collects or processes the payment for the seller (a direct-debit
	// bureau, a card processor, a payment service provider), and who pays:
	// the debtor of a Swiss QR-bill ("Zahlbar durch"), a payer named after
	// "Paid by". Neither issued the document.
	"collected by", "processed by", "powered by", "payment service provider", "eingezogen von", "eingezogen durch",
	"abgewickelt durch", "abgewickelt von", "zahlungsdienstleister", "traité par", "encaissé par", "procesado por",
	"cobrado por", "gestito da", "elaborato da", "incassato da", "zahlbar durch", "payable by", "payable par",
	"pagabile da", "pagadero por", "paid by", "bezahlt von", "bezahlt durch", "payé par", "pagado por", "pagato da",
	"payer", "payor", "zahler", "zahlungspflichtiger",
	// The insurer a medical bill names beside its patient: a heading over
	// its fields ("Insurance Information / Carrier: …") or its own label.
	"insurance information", "insurance details", "insurance info", "primary insurance", "secondary insurance",
	"insurance carrier", "insurance company", "insurer", "health plan", "krankenkasse", "kostenträger",
	"organisme complémentaire", "aseguradora",
	// The Turkish buyer: "Alıcı" and the addressee's "Sayın" (typed with or
	// without the dotless ı).
	"alıcı", "alici", "sayın", "sayin", "müşteri", "musteri"}

// addressWords name the addressee only when they stand right before the name
// with nothing else before it on its line ("To: M. Thibodeaux", "Sehr geehrte
// Frau Becker", "Hey Sam"): elsewhere they are ordinary words.
var addressWords = []string{"to", "an", "dear", "hey", "hi", "hello", "sehr geehrte", "sehr geehrter",
	"liebe", "lieber", "bonjour", "estimado", "estimada", "cher", "chère", "gentile", "caro", "cara", "aan",
	"spett.le", "spettabile", "egregio", "para", "geachte", "beste",
	// A window-envelope address opens with the addressee's form of address.
	"herrn", "herr", "frau", "firma", "monsieur", "madame"}

// honorifics may stand between a label and the name it introduces.
var honorifics = map[string]bool{"mr": true, "mrs": true, "ms": true, "miss": true, "dr": true, "herr": true,
	"frau": true, "m": true, "mme": true, "mlle": true, "sr": true, "sra": true, "don": true, "doña": true}

// customerSuffixes follow the addressee's name in Japanese ("株式会社ABC 御中",
// "山田 様"): the name before them is the customer.
var customerSuffixes = []string{"御中", "様", "殿"}

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
	for i, l := range addressWordToks {
		if slices.Equal(bare, l) {
			return addressWords[i]
		}
	}
	return ""
}

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
	if l := insurerFieldLabel(before); l != "" {
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
		return customerLabelOf(d.columnAbove(li, sp.Start))
	}
	return ""
}

// underCustomerLabel reports a line inside a block a customer label opens:
// the label alone on a line above ("Bill to:", "Herrn", "Datos del
// cliente"), with no blank line between.
func (d *doc) underCustomerLabel(li int) bool { return d.customerBlockLabel(li) != "" }

// customerBlockLabel is the label of the customer block holding line li, or
// "": a label line (ending in a colon, the label alone, or a short heading
// naming the customer) above it with no blank line between.
func (d *doc) customerBlockLabel(li int) string {
	for k := li - 1; k >= 0 && k >= li-4; k-- {
		ls, le := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ls, le); a == b {
			return ""
		}
		if l := d.lineHeading(k); l != "" {
			return l
		}
	}
	return ""
}

// lineHeading is customerHeading of line k, once per document: the party
// checks ask it of the lines above each name they read.
func (d *doc) lineHeading(k int) string {
	if d.facts.headings == nil {
		d.facts.headings = make([]memo[string], len(d.lineStarts))
	}
	return d.facts.headings[k].get(func() string {
		ls, le := d.lineBounds(k)
		return customerHeading(strings.TrimSpace(d.str(ls, le)))
	})
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
// the issuer: a customer label before it, a Japanese addressee suffix, a
// label line or heading above it (in its column when the line above holds
// two labels), the block a customer label opens, or a payment or item line
// it shares with an amount.
func (d *doc) otherPartyAt(sp Span) string {
	if l := d.customerLabelFor(sp); l != "" {
		return l
	}
	li := d.lineOf(sp.Start)
	ls, _ := d.lineBounds(li)
	if li > 0 {
		// "Sprzedawca:              Nabywca:" above two columns.
		if seg := d.columnAbove(li, sp.Start); strings.HasSuffix(seg, ":") {
			if l := customerLabelOf(seg); l != "" {
				return l
			}
		}
		if before := strings.TrimSpace(d.str(ls, sp.Start)); before == "" {
			if l := d.lineHeading(li - 1); l != "" {
				return l
			}
			if l := d.customerBlockLabel(li); l != "" {
				return l
			}
		}
	}
	if l := d.fieldBlockLabel(li, ls, sp.Start); l != "" {
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
	for _, l := range issuerLabels {
		if weakIssuerLabels[l] {
			continue // "payment from Aetna 50.00" is an insurer's payment
		}
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
var senderLabels = [][]string{{"shipper"}, {"consignor"}, {"absender"}, {"versender"}, {"expéditeur"},
	{"remitente"}, {"mittente"}}

// senderNotIssuer reports a name printed only right after a sender label
// ("Shipper: Delta Hardware Co") on a document whose head names a different
// issuer on another line, with the label and that issuer.
func (d *doc) senderNotIssuer(spans []Span, val string) (string, string, bool) {
	label := ""
	for _, sp := range capped(spans) {
		ls, _ := d.lineBounds(d.lineOf(sp.Start))
		toks := LabelTokens(d.str(ls, sp.Start))
		i := slices.IndexFunc(senderLabels, func(l []string) bool {
			return len(toks) >= len(l) && slices.Equal(toks[len(toks)-len(l):], l)
		})
		if i < 0 {
			return "", "", false
		}
		label = strings.Join(senderLabels[i], " ")
	}
	h, ok := d.headIssuer(false)
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
		if !taxOfficeStem(d.str(ls, le)) {
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

// sellerPhrases name the seller on a marketplace or platform receipt, on
// any line of it ("1 x Kettle … Sold by Kettle & Hearth Ltd", "Verkauf
// und Versand durch Elektro Brandl"): the platform hosts the sale, the
// seller is the vendor. The phrases end in "by" or its kin, so a colon
// after them is optional; "Seller" alone needs one ("Best seller!").
var sellerPhrases = []string{"sold by", "sold and shipped by", "sold & shipped by", "ships from and sold by",
	"sold and dispatched by", "dispatched and sold by", "verkauft von", "verkauft durch", "verkauf durch",
	"verkauf und versand durch", "vendu par", "vendu et expédié par", "vendido por", "vendido y enviado por",
	"venduto da", "venduto e spedito da", "verkocht door", "verkocht en verzonden door", "販売元", "出品者", "卖家"}

// sellerNeedles are what the folded text must hold for a seller phrase to
// be printed at all, by their first rune; most documents hold none, and
// their lines are only read when one is there.
var sellerNeedles = map[rune][][]rune{
	's': {[]rune("sold by"), []rune("sold and"), []rune("sold & "), []rune("seller:"), []rune("seller :")},
	'v': {[]rune("verkauf"), []rune("vendu "), []rune("vendido "), []rune("venduto "), []rune("verkocht ")},
	'販': {[]rune("販売元")}, '出': {[]rune("出品者")}, '卖': {[]rune("卖家")},
}

// mayNameSeller reports whether the folded text holds a seller needle: one
// pass that looks further only at the needles' first runes.
func (d *doc) mayNameSeller() bool {
	r := d.fold.r
	for k, c := range r {
		if c != 's' && c != 'v' && c < utf8.RuneSelf || k > 0 && isASCIIWordByte(byte(min(r[k-1], 0x7f))) && c < utf8.RuneSelf {
			continue
		}
		for _, n := range sellerNeedles[c] {
			if k+len(n) <= len(r) && runesEqual(r[k:k+len(n)], n) {
				return true
			}
		}
	}
	return false
}

// sellerStems are parts of every seller phrase, for a line to hold one.
var sellerStems = newStemSet("sold", "seller", "verk", "vend", "販売元", "出品者", "卖家")

// seller is a seller a platform receipt names, and the line it is on.
type seller struct {
	name string
	line int
}

// platformSellers are the distinct sellers the document names after a
// seller phrase (at most four), in order.
func (d *doc) platformSellers() []seller {
	if !d.mayNameSeller() {
		return nil
	}
	var out []seller
	for li := 0; li < len(d.lineStarts) && len(out) < 4; li++ {
		ls, le := d.lineBounds(li)
		line := d.str(ls, le)
		if !sellerStems.in(line) {
			continue // lowered only where a phrase may stand
		}
		name := sellerOnLine(line)
		if name != "" && !slices.ContainsFunc(out, func(s seller) bool { return sameName(s.name, name) }) {
			out = append(out, seller{name, li})
		}
	}
	return out
}

// sellerLabelsOnLine are the seller phrases and "Seller", which needs a
// colon after it.
var sellerLabelsOnLine = append(slices.Clone(sellerPhrases), "seller")

// sellerOnLine is the name after a seller phrase on line, or "".
func sellerOnLine(line string) string {
	low := strings.ToLower(line)
	if len(low) != len(line) {
		return "" // lowering changed the widths: offsets would not carry over
	}
	for _, p := range sellerLabelsOnLine {
		i := strings.Index(low, p)
		if i < 0 || i > 0 && isASCIIWordByte(low[i-1]) {
			continue
		}
		rest := strings.TrimLeft(line[i+len(p):], " \t")
		colon := strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "：")
		if p == "seller" && !colon {
			continue
		}
		name := firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(rest, ":"), "：")))
		if name != "" && strings.ContainsFunc(name, unicode.IsLetter) && !strings.ContainsAny(name, "@:：") && sellerName(name) {
			return name
		}
	}
	return ""
}

// sellerName reports a seller phrase's object that names someone: a
// company (a legal form) or a name of two or more words, not a kind of
// seller ("Dritthändler", "third-party sellers", "Marketplace").
func sellerName(name string) bool {
	if hasLegalForm(name) || endsInLegalForm(name) || strings.ContainsFunc(name, isCJK) && utf8.RuneCountInString(name) >= 2 {
		return true // a CJK name has no spaces between its words
	}
	return len(strings.Fields(name)) >= 2 && headName(name)
}

// insurerFieldLabels name the insurer on a medical bill when a colon
// follows them ("Insurance: Delta Shield Dental Inc", "Versicherung:",
// "Mutuelle :"). Without the colon they are words of the insurer's own
// name ("Evergreen Mutual Insurance"), so they are no customer labels.
var insurerFieldLabels = tokenizeLabels([]string{"insurance", "insurance co", "insurance name", "insurance plan",
	"plan", "insurer name", "versicherung", "krankenversicherung", "kasse", "krankenkasse name", "mutuelle",
	"caisse", "assurance", "assurance maladie", "complémentaire", "complémentaire santé", "seguro", "seguro médico",
	"compañía aseguradora", "assicurazione", "verzekeraar", "zorgverzekeraar", "保険者", "保険者名"})

// insurerFieldLabel is the insurer label that before ends in, followed by a
// colon, or "".
func insurerFieldLabel(before string) string {
	t := strings.TrimRight(before, " \t")
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return ""
	}
	toks := LabelTokens(t)
	for _, l := range insurerFieldLabels {
		if len(l) > 0 && len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) {
			return strings.Join(l, " ")
		}
	}
	return ""
}
