package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// selfBillingTitles mark a self-billing invoice: the buyer writes it for
// its supplier (UK self-billing, the German Gutschriftverfahren, the French
// autofacturation, the Spanish autofactura, the Italian autofattura). The
// supplier sells, so the supplier is the vendor, not the company at the
// head that wrote it.
var selfBillingTitles = tokenizeLabels([]string{"self billing", "self billed", "selfbilling", "gutschriftverfahren",
	"gutschriftsverfahren", "autofacturation", "auto facturation", "autofactura", "autofacturación", "autofattura",
	"zelffacturatie", "självfakturering",
	// Australia's and New Zealand's recipient- or buyer-created tax
	// invoice, and self-billing in more European languages.
	"recipient created tax invoice", "buyer created tax invoice", "rcti", "bcti", "autofaturação",
	"autofacturação", "samofakturowanie", "samofakturace", "selvfakturering", "itselaskutus",
	"αυτοτιμολόγηση", "önszámlázás", "autofacturare", "samofakturiranje"})

// selfBillingSupplierLabels introduce the supplier on a self-billing
// invoice; the German one names it as the recipient of the credit.
var selfBillingSupplierLabels = []string{"supplier", "seller", "vendor", "lieferant", "leistungserbringer",
	"gutschriftsempfänger", "gutschriftempfänger", "fournisseur", "vendeur", "proveedor", "fornitore",
	"cedente", "cedente/prestatore", "prestatore", "leverancier", "contractor", "subcontractor", "auftragnehmer",
	"supplier name", "grower", "producer", "payee", "fornecedor", "dostawca", "dodavatel", "leverandør", "toimittaja",
	"leverantör", "προμηθευτής", "szállító", "furnizor"}

// selfBilledSupplier is the supplier a self-billing invoice names in its
// head, when the head carries a self-billing title.
func (d *doc) selfBilledSupplier() (headIssuerName, bool) {
	if !d.trigrams().mayHoldAny(selfBillingScreen) {
		return headIssuerName{}, false // no head line can hold a title's stem
	}
	var head [headLines]Span // the head's non-blank lines, trimmed
	lines := head[:0]
	titled := false
	for li := 0; li < len(d.lineStarts) && len(lines) < headLines; li++ {
		ls, le := d.lineBounds(li)
		ls, le = trimmedRunes(d.rs, ls, le)
		if ls == le {
			continue
		}
		lines = append(lines, Span{Start: ls, End: le})
		if line := d.str(ls, le); !titled && selfBillingStem(line) {
			toks := LabelTokens(line)
			titled = slices.ContainsFunc(selfBillingTitles, func(t []string) bool { return tokenRun(toks, t) >= 0 })
		}
	}
	if !titled {
		return headIssuerName{}, false
	}
	for k, sp := range lines {
		line := d.str(sp.Start, sp.End)
		for _, l := range selfBillingSupplierLabels {
			rest, ok := cutFoldPrefix(line, l)
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, " \t")
			if !strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "：") {
				continue
			}
			at, name := line, firstSegment(strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(rest, ":"), "：")))
			if name == "" && k+1 < len(lines) {
				// "Supplier:" over the supplier's block.
				sp = lines[k+1]
				at = d.str(sp.Start, sp.End)
				name = firstSegment(at)
			}
			if name == "" || !strings.ContainsFunc(name, unicode.IsLetter) || strings.ContainsAny(name, "@:：") {
				continue
			}
			start := sp.Start + utf8.RuneCountInString(at[:strings.Index(at, name)])
			return headIssuerName{name, Span{Start: start, End: start + utf8.RuneCountInString(name)}, d.lineOf(sp.Start), true, false}, true
		}
	}
	// "… issued by the customer on behalf of Hollins Farm Partnership", on
	// any line of the (self-billing, so rare) document.
	for li := 0; li < len(d.lineStarts) && li < maxSelfBillingLines; li++ {
		ls, le := d.lineBounds(li)
		line := d.str(ls, le)
		low := strings.ToLower(line)
		if len(low) != len(line) {
			continue
		}
		for _, p := range principalPhrases {
			i := strings.Index(low, p)
			if i < 0 {
				continue
			}
			name := capitalizedRun(firstSegment(strings.TrimSpace(line[i+len(p):])))
			if r, _ := utf8.DecodeRuneInString(name); name == "" || !unicode.IsUpper(r) || strings.ContainsAny(name, "@:：") {
				continue
			}
			start := ls + utf8.RuneCountInString(line[:i+len(p)]) + utf8.RuneCountInString(line[i+len(p):]) - utf8.RuneCountInString(strings.TrimLeft(line[i+len(p):], " "))
			return headIssuerName{name, Span{Start: start, End: start + utf8.RuneCountInString(name)}, li, true, false}, true
		}
	}
	return headIssuerName{}, false
}

// maxSelfBillingLines bounds the lines a self-billing invoice is searched
// for the supplier it is issued on behalf of.
const maxSelfBillingLines = 200

// principalPhrases introduce the party a document is issued on behalf of:
// on a self-billing invoice, the supplier.
var principalPhrases = []string{"on behalf of ", "im namen und für rechnung von ", "im namen und auf rechnung von ",
	"au nom et pour le compte de ", "en nombre y por cuenta de ", "in nome e per conto di ", "per conto di ",
	"namens en voor rekening van ", "namens "}

// cutFoldPrefix is s after a prefix that is the lowercase label l in any
// case, counted in s's own runes (lowercasing may change a rune's width).
func cutFoldPrefix(s, l string) (string, bool) {
	n := utf8.RuneCountInString(l)
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(s) {
			return "", false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	if strings.ToLower(s[:i]) != l {
		return "", false
	}
	return s[i:], true
}

// selfBillingStems are the parts of every self-billing title a head line
// must hold before its words are compared: most documents have none, and
// most head lines are ASCII, searched without lowering them.
var selfBillingStems = newStemSet("self", "gutschrift", "autofa", "autofact", "zelffact", "självfakt", "created tax",
	"rcti", "bcti", "samofakt", "selvfakt", "itselask", "αυτοτιμολ", "önszáml")

func selfBillingStem(line string) bool { return selfBillingStems.in(line) }

// nameParticles stand lowercase inside a name ("GAEC des Trois Sapins",
// "Weingut von Brandt").
var nameParticles = map[string]bool{"de": true, "des": true, "du": true, "la": true, "le": true, "von": true,
	"van": true, "der": true, "den": true, "di": true, "da": true, "del": true, "of": true, "and": true, "&": true, "y": true, "e": true}

// capitalizedRun is the name that opens running text: its words up to the
// first lowercase word that is no particle ("Hollins Farm Partnership
// under a self-billing agreement" gives "Hollins Farm Partnership").
func capitalizedRun(s string) string {
	words := strings.Fields(s)
	n := 0
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsLower(r) && !(nameParticles[w] && i+1 < len(words)) {
			break
		}
		n = i + 1
	}
	for n > 0 && nameParticles[words[n-1]] {
		n--
	}
	name := strings.TrimRight(strings.Join(words[:n], " "), ",;")
	if last := words[max(n-1, 0):n]; len(last) == 0 || !strings.Contains(strings.TrimSuffix(last[0], "."), ".") {
		// A sentence's full stop, not the last dot of "B.V." or "S.A.".
		name = strings.TrimRight(name, ".,;")
	}
	return name
}
