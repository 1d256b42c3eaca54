package pipeline

import (
	"fmt"
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
	"comprador", "adquirente"}

// addressWords name the addressee only when they stand right before the name
// with nothing else before it on its line ("To: M. Thibodeaux", "Sehr geehrte
// Frau Becker", "Hey Sam"): elsewhere they are ordinary words.
var addressWords = []string{"to", "an", "dear", "hey", "hi", "hello", "sehr geehrte", "sehr geehrter",
	"liebe", "lieber", "bonjour", "estimado", "estimada", "cher", "chère", "gentile", "caro", "cara", "aan",
	"spett.le", "spettabile", "egregio", "para", "geachte", "beste"}

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

// labelAlone reports toks that are the label alone, honorifics aside.
func labelAlone(toks, label []string) bool {
	for len(toks) > 0 && honorifics[toks[len(toks)-1]] {
		toks = toks[:len(toks)-1]
	}
	return slices.Equal(toks, label)
}

// customerLabelIn is the customer label in toks: a customer label anywhere,
// or an address word alone ("Welcome to X" is no address).
func customerLabelIn(toks []string) string {
	for i, l := range customerLabelToks {
		if tokenRun(toks, l) >= 0 {
			return customerLabels[i]
		}
	}
	for i, l := range addressWordToks {
		if labelAlone(toks, l) {
			return addressWords[i]
		}
	}
	return ""
}

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
	before := string(d.rs[max(ls, sp.Start-40):sp.Start])
	if l := customerLabelIn(LabelTokens(before)); l != "" {
		return l
	}
	if sp.End <= le {
		after := strings.TrimSpace(string(d.rs[sp.End:le]))
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
	prev := strings.TrimSpace(string(d.rs[ps:pe]))
	toks := LabelTokens(prev)
	if len(toks) == 0 {
		return ""
	}
	key := strings.Join(toks, " ")
	for _, l := range slices.Concat(customerLabels, addressWords) {
		if key == LabelKey(l) {
			return l
		}
	}
	// A label line: it ends in a colon and names the customer.
	if strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, "：") {
		return customerLabelIn(toks)
	}
	return ""
}

// legalForms end a company's name: a line at a document's head that ends in
// one names a company, and on most documents the company at the head that
// no customer label introduces is the issuer.
var legalForms = [][]string{{"sdn", "bhd"}, {"bhd"}, {"berhad"}, {"s", "b"}, {"ltd"}, {"limited"}, {"inc"},
	{"llc"}, {"llp"}, {"plc"}, {"gmbh"}, {"ag"}, {"kg"}, {"mbh"}, {"pty", "ltd"}, {"pte", "ltd"}, {"corp"},
	{"corporation"}, {"sarl"}, {"sas"}, {"srl"}, {"spa"}, {"s", "p", "a"}, {"bv"}, {"b", "v"}, {"nv"}, {"oy"},
	{"ab"}, {"ltda"}, {"s", "a"}, {"sa"}, {"s", "l"}, {"sl"}, {"sp", "z", "o", "o"}, {"s", "r", "o"},
	{"kk"}, {"enterprise"}, {"enterprises"}}

// issuerLabels introduce the issuer's name on its line.
var issuerLabels = []string{"vendor", "supplier", "seller", "issuer", "issued by", "sold by", "merchant", "verkäufer",
	"lieferant", "fournisseur", "vendeur", "proveedor", "emisor", "fornecedor", "prestador", "prestador de serviços",
	"sprzedawca", "공급자", "売主", "販売者", "発行者", "leverancier", "fornitore", "from", "von", "contractor",
	"provider", "service provider", "auftragnehmer", "prestataire"}

// headLines is how many non-blank lines count as a document's head.
const headLines = 8

// issuerOmission reports a null issuer name the document prints: after an
// issuer label ("Sprzedawca: ACME Sp. z o.o.", "Sold by: …"), or a company
// name at its head (a line ending in a legal form) that no customer label
// introduces. Abstaining is honest only when the source names no one.
func (d *doc) issuerOmission(f Field) (FieldCheck, bool) {
	c := FieldCheck{Factor: 1, Spans: []Span{}}
	if f.Party != PartyIssuer {
		return c, false
	}
	seen := 0
	for li := 0; li < len(d.lineStarts) && seen < headLines; li++ {
		ls, le := d.lineBounds(li)
		for ls < le && unicode.IsSpace(d.rs[ls]) {
			ls++ // spans count runes from the line's first printed one
		}
		line := strings.TrimSpace(string(d.rs[ls:le]))
		if line == "" {
			continue
		}
		seen++
		if name, ok := afterIssuerLabel(line); ok {
			start := ls + utf8.RuneCountInString(line[:strings.Index(line, name)])
			c.Spans = append(c.Spans, Span{Start: start, End: start + utf8.RuneCountInString(name)})
			c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document names %q as the issuer (line %d)",
				strings.ReplaceAll(f.Name, "_", " "), name, li+1))
			return c, true
		}
		head := firstSegment(line)
		if !endsInLegalForm(head) && !(seen <= 3 && d.firstNameLine(li) && headName(head)) || strings.ContainsAny(head, "@:") {
			continue
		}
		sp := Span{Start: ls, End: ls + utf8.RuneCountInString(head)}
		if d.customerLabelFor(sp) != "" || customerLabelIn(LabelTokens(line)) != "" || d.underCustomerLabel(li) || addressee(line) {
			continue
		}
		c.Spans = append(c.Spans, sp)
		c.penalize(factorOmission, fmt.Sprintf("%s is null, but the document prints the name %q at its head (line %d)",
			strings.ReplaceAll(f.Name, "_", " "), head, li+1))
		return c, true
	}
	return c, false
}

// underCustomerLabel reports a line inside a block a customer label opens:
// the label alone on a line above, with no blank line between.
func (d *doc) underCustomerLabel(li int) bool {
	for k := li - 1; k >= 0 && k >= li-4; k-- {
		ls, le := d.lineBounds(k)
		prev := strings.TrimSpace(string(d.rs[ls:le]))
		if prev == "" {
			return false
		}
		if l := customerLabelIn(LabelTokens(prev)); l != "" && (strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, "：") || LabelKey(prev) == LabelKey(l)) {
			return true
		}
	}
	return false
}

// afterIssuerLabel is the name an issuer label introduces on line.
func afterIssuerLabel(line string) (string, bool) {
	low := strings.ToLower(line)
	for _, l := range issuerLabels {
		if !strings.HasPrefix(low, l) {
			continue
		}
		rest := line[len(l):]
		trimmed := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(trimmed, ":") && !strings.HasPrefix(trimmed, "：") {
			continue
		}
		name := firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(trimmed, ":"), "：")))
		if !strings.ContainsFunc(name, unicode.IsLetter) || strings.Contains(name, "@") {
			continue
		}
		return name, true
	}
	return "", false
}

// endsInLegalForm reports a line whose last words (a registration number
// aside) are a legal form: "VIVOPAC MARKETING SDN BHD (1070687-M)",
// "Müller Druck GmbH", "株式会社さくら商事".
func endsInLegalForm(line string) bool {
	if strings.Contains(line, "株式会社") || strings.Contains(line, "有限会社") || strings.Contains(line, "(주)") || strings.Contains(line, "주식회사") {
		return true
	}
	toks := LabelTokens(line)
	// The name ends where its registration number starts: "KING'S
	// CONFECTIONERY S/B 273500-U (KSB)".
	if i := slices.IndexFunc(toks, func(t string) bool { return strings.ContainsFunc(t, unicode.IsDigit) }); i >= 0 {
		toks = toks[:i]
	}
	if len(toks) < 2 {
		return false // a legal form alone names no one
	}
	for _, f := range legalForms {
		if len(f) < len(toks) && slices.Equal(toks[len(toks)-len(f):], f) {
			return true
		}
	}
	return false
}

// firstSegment is a head line up to a column gap or a clause: "ORBITAL
// COMPONENTS SDN BHD      INVOICE OC-26-1190", "Mercer Contracting Ltd, 8
// Canal St", "Cedar & Stone Ltd (GST 123-456-789)".
func firstSegment(line string) string {
	for _, sep := range []string{"   ", "\t", ", ", " (", " · ", " | ", " — ", " - "} {
		if i := strings.Index(line, sep); i > 0 {
			line = line[:i]
		}
	}
	return strings.TrimSpace(line)
}

// firstNameLine reports whether no line above li could be a name: li is the
// document's first candidate for its letterhead.
func (d *doc) firstNameLine(li int) bool {
	for k := 0; k < li; k++ {
		ls, le := d.lineBounds(k)
		if headName(firstSegment(strings.TrimSpace(string(d.rs[ls:le])))) {
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
