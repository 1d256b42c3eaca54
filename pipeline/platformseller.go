package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sellerPhrases name the seller on a marketplace or platform receipt, on
// any line of it ("1 x Kettle … Sold by Kettle & Hearth Ltd", "Verkauf
// und Versand durch Elektro Brandl"): the platform hosts the sale, the
// seller is the vendor. The phrases end in "by" or its kin, so a colon
// after them is optional; "Seller" alone needs one ("Best seller!").
var sellerPhrases = []string{"sold by", "sold and shipped by", "sold & shipped by", "ships from and sold by",
	"sold and dispatched by", "dispatched and sold by", "verkauft von", "verkauft durch", "verkauf durch",
	"verkauf und versand durch", "vendu par", "vendu et expédié par", "vendido por", "vendido y enviado por",
	"venduto da", "venduto e spedito da", "verkocht door", "verkocht en verzonden door", "販売元", "出品者", "卖家",
	// Nordic marketplaces.
	"säljs av", "selges av", "sælges af", "säljs och levereras av", "vendido e entregue por"}

// sellerNeedles are what the folded text must hold for a seller phrase to
// be printed at all, by their first rune; most documents hold none, and
// their lines are only read when one is there.
var sellerNeedles = map[rune][][]rune{
	's': {[]rune("sold by"), []rune("sold and"), []rune("sold & "), []rune("seller:"), []rune("seller :"),
		[]rune("säljs "), []rune("selges "), []rune("sælges ")},
	'v': {[]rune("verkauf"), []rune("vendu "), []rune("vendido "), []rune("venduto "), []rune("verkocht ")},
	'販': {[]rune("販売元")}, '出': {[]rune("出品者")}, '卖': {[]rune("卖家")},
}

// mayNameSeller reports whether the folded text holds a seller needle: one
// pass that looks further only at the needles' first runes.
func (d *doc) mayNameSeller() bool {
	r := d.fold.r
	for k, c := range r {
		// Nearly every rune is ASCII and no needle's first: one test
		// passes it.
		if c < utf8.RuneSelf && (c != 's' && c != 'v' || k > 0 && isASCIIWordByte(byte(min(r[k-1], 0x7f)))) {
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

// principalScreens are parts of the phrases that name the party a
// document is issued on behalf of ("billed on behalf of", "namens", "im
// Namen und für Rechnung von", "pour le compte de", "por cuenta de", "per
// conto di"), as printed in either case of their first letter: the text is
// searched for them as it is, a few vectorised scans, where one more test
// in mayNameSeller's pass over every rune cost twice that pass.
var principalScreens = []string{"behalf of", "BEHALF OF", "amens ", "amen und", "our le compte de", "or cuenta de",
	"er conto di"}

// mayNamePrincipal reports whether the text holds a principal screen.
func (d *doc) mayNamePrincipal() bool {
	t := d.text()
	return slices.ContainsFunc(principalScreens, func(n string) bool { return strings.Contains(t, n) })
}

// sellerStems are parts of every seller phrase and principal phrase, for a
// line to hold one.
var sellerStems = newStemSet("sold", "seller", "verk", "vend", "販売元", "出品者", "卖家", "behalf", "namen",
	"pour le compte", "por cuenta", "per conto", "säljs", "selges", "sælges")

// seller is a seller a platform receipt names, and the line it is on.
type seller struct {
	name string
	line int
}

// platformSellers are the distinct sellers the document names after a
// seller phrase (at most four), in order.
func (d *doc) platformSellers() []seller {
	if t := d.trigrams(); !t.mayHoldAny(sellerScreen) && !t.mayHoldAny(principalScreen) {
		return nil // neither screen below can pass: the text holds no needle
	}
	if !d.mayNameSeller() && !d.mayNamePrincipal() {
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
		if name == "" {
			name = principalOnLine(line)
		}
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
		name := cutCarrier(firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(rest, ":"), "："))))
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

// issuingWords before "on behalf of" on its line say the document was made
// out for the party after it ("billed on behalf of", "this invoice is
// issued by … on behalf of"), not a payment made for someone.
var issuingWords = []string{"issu", "bill", "invoic", "sold", "prepared", "raised", "drawn up"}

// principalOnLine is the party a line says the document is issued on
// behalf of, or "": the capitalised name after a principal phrase
// ("Billed on behalf of Bayside Orthopedic Associates PA", "namens
// Tuincentrum De Linde B.V. opgesteld door …").
func principalOnLine(line string) string {
	low := strings.ToLower(line)
	if len(low) != len(line) {
		return ""
	}
	for _, p := range principalPhrases {
		p = strings.TrimRight(p, " ") // "on behalf of: Kwame Mensah Transport"
		i := strings.Index(low, p)
		if i < 0 || i > 0 && isASCIIWordByte(low[i-1]) || i+len(p) < len(low) && isASCIIWordByte(low[i+len(p)]) {
			continue
		}
		if p == "on behalf of" && !slices.ContainsFunc(issuingWords, func(w string) bool { return strings.Contains(low[:i], w) }) {
			continue
		}
		rest := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line[i+len(p):]), ":："))
		name := capitalizedRun(firstSegment(rest))
		if r, _ := utf8.DecodeRuneInString(name); name != "" && unicode.IsUpper(r) && !strings.ContainsAny(name, "@:：") && sellerName(name) {
			return name
		}
	}
	return ""
}

// carrierTails follow a seller's name to name who fulfils or ships the
// order for it ("Sold by Brightline Gadgets LLC and Fulfilled by
// ShopHarbor"): that party is no seller.
var carrierTails = []string{" and fulfilled", " & fulfilled", " fulfilled by", " and shipped by", " and dispatched by",
	" and delivered by"}

// cutCarrier is a seller phrase's object without a carrier tail.
func cutCarrier(name string) string {
	low := strings.ToLower(name)
	if len(low) != len(name) {
		return name
	}
	for _, t := range carrierTails {
		if i := strings.Index(low, t); i > 0 {
			name, low = strings.TrimSpace(name[:i]), low[:i]
		}
	}
	return name
}
