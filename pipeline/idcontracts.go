package pipeline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// otherDocStems begin (or, for German compounds, sit inside) the words that
// name a document other than an invoice whose number a line may print: a
// contract or lease however qualified ("Mietvertrag", "Contrato de
// mantenimiento", "Договор поставки", "Bakım Sözleşmesi", "Umowa
// serwisowa"), a quotation, a work order. The label lists cannot hold every
// qualified or compounded form, and the value after such a phrase is that
// document's number, never the invoice's.
var otherDocStems = []struct{ stem, what string }{
	{"contract", "a contract's"}, {"contrat", "a contract's"}, {"договор", "a contract's"}, {"договір", "a contract's"},
	{"umow", "a contract's"}, {"sözleşme", "a contract's"}, {"smlouv", "a contract's"}, {"zmluv", "a contract's"},
	{"szerződés", "a contract's"}, {"sopimu", "a contract's"}, {"kontrak", "a contract's"}, {"kontrat", "a contract's"},
	{"avtal", "a contract's"}, {"aftale", "a contract's"}, {"overeenkomst", "a contract's"}, {"σύμβασ", "a contract's"},
	{"ugovor", "a contract's"}, {"pogodb", "a contract's"}, {"līgum", "a contract's"}, {"sutart", "a contract's"},
	{"leping", "a contract's"}, {"agreement", "a contract's"}, {"convenio", "a contract's"}, {"lease", "a lease's"},
	{"leasing", "a lease's"}, {"عقد", "a contract's"}, {"العقد", "a contract's"}, {"合同", "a contract's"},
	{"契約", "a contract's"}, {"계약", "a contract's"}, {"สัญญา", "a contract's"},
	{"quotation", "a quotation's"}, {"quote", "a quotation's"}, {"angebot", "a quotation's"}, {"devis", "a quotation's"},
	{"presupuesto", "a quotation's"}, {"orçamento", "a quotation's"}, {"preventivo", "a quotation's"},
	{"offerte", "a quotation's"}, {"teklif", "a quotation's"}, {"oferta", "a quotation's"},
	{"nalog", "a work order's"}, {"наряд", "a work order's"}, {"заказ-наряд", "a work order's"},
	{"werkbon", "a work order's"}, {"arbeitsauftrag", "a work order's"},
}

// quotationOf is what a quotation's word names.
const quotationOf = "a quotation's"

// vertragInfix names a German contract compound wherever it sits
// (Mietvertrag, Wartungsvertragsnummer, Leasingvertrags-Nr.).
const vertragInfix = "vertrag"

// otherDocWord is what the document a word names is ("a contract's"), or ""
// when it names none of otherDocStems; dong reports that the word after it
// is "đồng" (Vietnamese "hợp đồng"). "Contractor" names a party, not a
// contract.
func otherDocWord(w string, dong bool) string {
	if strings.Contains(w, vertragInfix) {
		return "a contract's"
	}
	if w == "hợp" && dong {
		return "a contract's"
	}
	if strings.HasPrefix(w, "contractor") || strings.HasPrefix(w, "contratist") {
		return ""
	}
	for _, s := range otherDocStems {
		if strings.HasPrefix(w, s.stem) {
			return s.what
		}
	}
	return ""
}

// namesInvoice reports a word that names an invoice, a compound one too
// ("Vertragsrechnung", "Abschlagsrechnung"): the number after it is an
// invoice's, whatever contract the phrase names before.
func namesInvoice(w string) bool {
	if invoiceWords[w] || strings.Contains(w, "rechnung") || strings.HasPrefix(w, "factur") || strings.HasPrefix(w, "fatur") {
		return true
	}
	for w != "" {
		part, rest, _ := strings.Cut(w, "-")
		if invoiceWords[part] {
			return true
		}
		w = rest
	}
	return false
}

// otherDocPhrase is the phrase before sp on its line that names another
// document than an invoice ("Mietvertrag Nr.", "Contrato de mantenimiento
// nº", "as per Quotation") and what that document is: the phrase's word is
// one of the last four before the value, and no word after it names an
// invoice or holds a digit (another number between them is the one the
// phrase names). Empty when the line names no such document. The words are
// lineWords', read backwards and lowered on the stack: every grounded
// identifier is read so.
func (d *doc) otherDocPhrase(sp Span) (phrase, what string) {
	ls := d.lineStarts[d.lineOf(sp.Start)]
	rs := d.rs
	p, dong := sp.Start, false
	var buf [64]byte
	for n := 0; n < 4; n++ {
		for p > ls && !isLineWordRune(rs[p-1]) {
			p--
		}
		e := p
		for p > ls && isLineWordRune(rs[p-1]) {
			p--
		}
		if p == e {
			return "", ""
		}
		b := buf[:0]
		for _, r := range rs[p:e] {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		w := string(b)
		if namesInvoice(w) || strings.ContainsFunc(w, isDigit) {
			return "", ""
		}
		what := otherDocWord(w, dong)
		if what == quotationOf && strings.TrimSpace(string(rs[ls:p])) == "" {
			// "Quote #: Q-3381" at a line's start is a quotation's own
			// number; "As per Quotation QT-118" refers to one.
			return "", ""
		}
		if what != "" {
			return strings.TrimSpace(string(rs[ls:sp.Start])), what
		}
		dong = w == "đồng"
	}
	return "", ""
}

// bareNumberWord reports an own label that is only a word for "number"
// ("Số", "No.", "Nr."): "Hợp đồng số" is the contract's number however the
// bare word alone would name the document's.
func bareNumberWord(key string) bool {
	return !strings.Contains(key, " ") && !namesInvoice(key) && len([]rune(key)) <= 6
}

// otherDocOnly is the phrase and document of the first occurrence of val
// when every occurrence follows a phrase naming another document than an
// invoice (otherDocPhrase) and none carries one of the field's own labels.
func (d *doc) otherDocOnly(f Field, spans []Span) (phrase, what string) {
	own := fieldLabelOwner(f.Name)
	for _, sp := range spans {
		p, w := d.otherDocPhrase(sp)
		if p == "" {
			return "", ""
		}
		if h, ok := d.labelBefore(sp.Start); ok && h.role == own && !bareNumberWord(h.key) && d.namesDirectly(h, sp) {
			return "", ""
		}
		if phrase == "" {
			phrase, what = p, w
		}
	}
	return phrase, what
}

// penalizeOtherDoc flags an identifier printed only as another document's
// number, quoting the phrase that names that document.
func (c *FieldCheck) penalizeOtherDoc(f Field, val, phrase, what string) {
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed after %q, %s number, not this document's %s",
		val, phrase, what, f.Words()))
}
