package pipeline

import (
	"slices"
	"strings"
)

// customerLabels introduce the other party of a document: the buyer, the
// addressee, the guest. Matched as whole words anywhere before the name on
// its line, or as the line above it.
var customerLabels = []string{"rechnung an", "rechnungsadresse", "empfänger", "bill to", "billed to", "sold to",
	"ship to", "shipped to", "deliver to", "delivered to", "invoice to", "invoiced to", "customer", "client", "attn",
	"buyer", "consignee", "kunde", "kund", "kunden", "rechnungsempfänger", "lieferadresse", "destinataire",
	"facturé à", "livré à", "cliente", "facturar a", "請求先", "お客様", "bill-to", "guest", "gast", "prepared for",
	"购买方", "购方", "买方", "kepada", "penerima", "remit payment only to", "pay only to", "factuur aan", "klant"}

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
	for _, l := range customerLabels {
		if tokenRun(toks, LabelTokens(l)) >= 0 {
			return l
		}
	}
	for _, l := range addressWords {
		if labelAlone(toks, LabelTokens(l)) {
			return l
		}
	}
	return ""
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
