package pipeline

import (
	"fmt"
	"strings"
	"unicode"
)

// notTheNumberLabels name identifiers that are never a document's own number,
// whatever else the document labels: a party's tax or registration number,
// a phone or postcode, a table, room, till or odometer reading, a document
// type or verification code. A value they name directly is flagged as the
// invoice number even on a receipt whose own number label the schema does
// not know ("TICKET 0187", "DOC.N. 0412-0087").
var notTheNumberLabels = []string{
	// Tax and registration numbers of the parties.
	"abn", "vat", "vat no", "vat reg", "vat reg no", "vat number", "vat id", "vat registration", "vat registration no",
	"tax id", "tax reg", "tax reg no", "tax registration", "tax registration number", "gst reg", "gst reg no",
	"gst id", "gst no", "gstin", "sst no", "sst reg no", "pan", "tin", "uen", "brn", "roc no", "company reg",
	"company reg no", "company registration", "company no", "registration no", "reg. no", "co reg no", "co. reg. no",
	"ust-idnr", "ust-id", "ust id", "ust-id-nr", "steuernummer", "steuer-nr", "st.-nr", "hrb", "handelsregister", "uid",
	"siren", "siret", "rcs", "tva", "n° tva", "tva intracommunautaire", "n° tva intracommunautaire",
	"nif", "cif", "nie", "partita iva", "p.iva", "p. iva", "codice fiscale", "c.f.", "cnpj", "cpf",
	"inscrição estadual", "rfc", "nip", "regon", "krs", "kvk", "btw-nr", "btw nr", "btw-nummer", "org.nr", "org nr",
	"organisationsnummer", "momsnr", "cvr", "y-tunnus", "ičo", "dič", "inn", "ruc", "cuit", "rut", "nit",
	"ič", "r.u.t.", "r.u.t", "ע.מ.", "ח.פ.", "עוסק מורשה", "αφμ", "α.φ.μ.", "mst", "mã số thuế",
	"登録番号", "統一社会信用代码", "统一社会信用代码", "纳税人识别号", "등록번호", "사업자번호", "사업자등록번호",
	// Contact, places and people.
	"tel", "phone", "fax", "zip", "postcode", "room", "room no", "zimmer", "zimmer nr", "table", "table no", "tisch",
	"mesa", "tavolo", "cashier", "cajero", "card no", "member no", "account ends", "auth", "auth code", "approval code",
	// Other codes printed on the document.
	"tipo documento", "tipo de documento", "document type", "doc type", "atcud", "código de verificação",
	"codigo de verificacao", "código de verificación", "verification code", "odometer", "odometer in", "odometer out",
	"mileage", "kilometerstand", "km-stand", "vin", "caja", "caisse", "kasse", "cassa", "caixa", "till",
	// A reservation, a terminal or store, an e-invoice's series (template) code.
	"booking ref", "booking reference", "pnr", "terminal", "terminal id", "store no", "store #", "pump",
	"ký hiệu", "ký hiệu hóa đơn", "mẫu số",
}

// referenceLabels name another document the one in hand refers to: a credit
// note's or correcting invoice's original invoice. Its number is never the
// document's own, and a date the line gives ("dated", "vom", "z dnia") is
// that document's date.
var referenceLabels = []string{
	"original invoice", "original invoice no", "original invoice #", "avser faktura", "refers to invoice",
	"against invoice", "ref invoice", "relates to invoice", "related to invoice", "relating to invoice",
	"in respect of invoice", "regarding invoice", "corrects invoice", "correction of invoice", "credit for invoice",
	"zu rechnung", "zu rechnung nr", "zur rechnung", "zur rechnung nr", "zu ihrer rechnung", "bezüglich rechnung",
	"storno zu rechnung", "korrektur zu rechnung", "do faktury", "do faktury nr", "do faktury vat", "do faktury vat nr",
	"sur facture", "sur la facture", "facture d'origine", "facture initiale", "su fattura", "fattura di riferimento",
	"fattura originale", "rif. fattura", "factura rectificada", "factura original", "factura de referencia",
	"fatura de referência", "fatura original", "betreft factuur", "originele factuur", "kreditering av faktura",
	"元の請求書", "原发票号码", "原发票",
	// A corrected invoice names the one it supersedes.
	"disregard", "please disregard", "supersedes", "supersedes invoice", "replaces invoice", "cancels invoice",
	"ersetzt rechnung", "annule et remplace", "annule la facture", "sustituye a la factura",
}

var notTheNumberSet = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range append(append([]string(nil), notTheNumberLabels...), referenceLabels...) {
		m[LabelKey(l)] = true
	}
	return m
}()

// otherDateSet is the built-in other-date labels (a due, delivery, service,
// arrival date) in LabelKey form.
var otherDateSet = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range otherFieldLabels[KindDate] {
		m[LabelKey(l)] = true
	}
	return m
}()

// paymentNumberWords start the labels of a number a payment or till gives
// ("Receipt #", "Bill No", "Bon-Nr."): on a document that also labels its
// invoice number, the invoice number is the field's value, not the receipt's.
var paymentNumberWords = map[string]bool{"receipt": true, "rcpt": true, "bill": true, "check": true, "bon": true,
	"beleg": true, "ref": true, "reference": true, "document": true, "doc": true}

func isPaymentNumberLabel(key string) bool {
	first, _, _ := strings.Cut(key, " ")
	return paymentNumberWords[first]
}

// numberSignDropper removes the number signs namesDirectly lets stand
// between a label and its value; built once, it is read-only.
var numberSignDropper = strings.NewReplacer("nº", "", "n°", "", "no.", "", "nr.", "", "no ", "", "nr ", "")

// namesDirectly reports whether label h names the value at sp: the value
// follows it on its line with nothing but separators or a number sign
// ("NIP: 676-…", "Siret 444 …", "Mesa 7", "Vencimento: 2026-03-22").
func (d *doc) namesDirectly(h labelHit, sp Span) bool {
	if h.end > sp.Start || sp.Start-h.end > 12 {
		return false
	}
	gap := strings.ToLower(string(d.rs[h.end:sp.Start]))
	gap = numberSignDropper.Replace(gap)
	return strings.IndexFunc(gap, func(r rune) bool {
		return !unicode.IsSpace(r) && !strings.ContainsRune(":：#.-–№º°()", r) || r == '\n'
	}) < 0
}

// otherNamed is the label that names every occurrence of a value as
// something the field never is: a registration number, a table or odometer
// for an identifier; a due, service or arrival date for a date. Empty when
// any occurrence is free of such a label.
func (d *doc) otherNamed(f Field, spans []Span) labelHit {
	var named labelHit
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if !ok || h.role != builtinLabelOwner || !d.namesDirectly(h, sp) {
			return labelHit{}
		}
		switch {
		case f.Kind == KindIdentifier && notTheNumberSet[h.key]:
		case f.Kind == KindDate && otherDateSet[h.key]:
		default:
			return labelHit{}
		}
		if named.text == "" {
			named = h
		}
	}
	return named
}

// penalizeOtherNamed flags a value only another label names, when the
// document labels no value with the field's own label to compare it with.
func (c *FieldCheck) penalizeOtherNamed(f Field, val string, h labelHit) {
	name := strings.ReplaceAll(f.Name, "_", " ")
	label := strings.Join(strings.Fields(h.text), " ")
	if f.Kind == KindDate {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, another date than the %s", val, label, name))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, an identifier that is never the %s", val, label, name))
}

// paymentNumberOnly is the own label of a value labelled only as a payment's
// number ("Receipt #2291-4478") and the invoice-labelled token the document
// prints elsewhere, when it prints one.
func (d *doc) paymentNumberOnly(f Field, spans []Span, val string) (labelHit, string, bool) {
	own := fieldLabelOwner(f.Name)
	var pay labelHit
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if !ok || h.role != own {
			continue
		}
		if !isPaymentNumberLabel(h.key) {
			return labelHit{}, "", false
		}
		pay = h
	}
	if pay.text == "" {
		return labelHit{}, "", false
	}
	want := string(foldNeedle(val, foldCompact))
	for _, h := range d.fieldHits {
		if h.role != own || isPaymentNumberLabel(h.key) {
			continue
		}
		if sp, ok := tokenAfter(d.rs, h.end); ok && d.lineOf(sp.Start) == d.lineOf(h.start) {
			if tok := string(d.rs[sp.Start:sp.End]); string(foldNeedle(tok, foldCompact)) != want && !hasComponent(tok, val) {
				return pay, tok, true
			}
		}
	}
	return labelHit{}, "", false
}

// numberSigns are the words a label puts before its value ("FACTURA
// SIMPLIFICADA Nº T1-004519", "NF-e Nr. 4471"): the value is the token after.
var numberSigns = map[string]bool{"nº": true, "n°": true, "no": true, "no.": true, "nr": true, "nr.": true,
	"núm": true, "núm.": true, "num": true, "num.": true, "№": true, "n.": true, "n": true}

// skipNumberSign moves p past a number sign and the separators after it.
func skipNumberSign(rs []rune, p int) int {
	q := p
	for q < len(rs) && !unicode.IsSpace(rs[q]) && rs[q] != ':' && rs[q] != '：' {
		q++
	}
	if q == p || q >= len(rs) || !numberSigns[strings.ToLower(string(rs[p:q]))] {
		return p
	}
	for q < len(rs) && (rs[q] == ' ' || rs[q] == '\t' || rs[q] == ':' || rs[q] == '：') {
		q++
	}
	return q
}

// listedUnder reports an identifier that is one row of a column of several
// numbers of the same shape under a header with the field's own label
// ("Invoice  Date  Amount" over HL-30112, HL-30188, ...): a statement or
// remittance lists documents, and none of them is its own number. It
// returns the header label and the number of rows.
func (d *doc) listedUnder(f Field, spans []Span) (labelHit, int, bool) {
	var head labelHit
	rows := 0
	for _, sp := range spans {
		line := d.lineOf(sp.Start)
		col := sp.Start - d.lineStarts[line]
		shape := idShape(string(d.rs[sp.Start:sp.End]))
		top, n := line, 1
		for l := line - 1; l >= 0 && d.sameShapeAt(l, col, shape); l-- {
			top, n = l, n+1
		}
		for l := line + 1; l < len(d.lineStarts) && d.sameShapeAt(l, col, shape); l++ {
			n++
		}
		if n < 2 || top == 0 {
			return labelHit{}, 0, false
		}
		h, ok := d.headerLabel(top-1, col, f)
		if !ok {
			return labelHit{}, 0, false
		}
		head, rows = h, n
	}
	return head, rows, head.text != ""
}

// idShape is an identifier with its digits masked: HL-30112 and HL-30299
// share the shape HL-99999.
func idShape(s string) string {
	return strings.Map(func(r rune) rune {
		if isDigit(r) {
			return '9'
		}
		return r
	}, s)
}

// sameShapeAt reports whether line l holds, starting at column col, a token
// of the given shape.
func (d *doc) sameShapeAt(l, col int, shape string) bool {
	ls := d.lineStarts[l]
	le := len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	p := ls + col
	if p >= le || (col > 0 && !unicode.IsSpace(d.rs[p-1])) {
		return false
	}
	q := p
	for q < le && !unicode.IsSpace(d.rs[q]) {
		q++
	}
	return q > p && idShape(string(d.rs[p:q])) == shape
}

// headerLabel is the column heading over column col of line l when it is
// one of the field's own labels ("Invoice", "Invoice No."): the cell runs
// from the word nearest col to the next gap of two spaces.
func (d *doc) headerLabel(l, col int, f Field) (labelHit, bool) {
	ls := d.lineStarts[l]
	le := len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	for p := max(ls, ls+col-2); p <= ls+col+2 && p < le; p++ {
		if !unicode.IsLetter(d.rs[p]) || (p > ls && !unicode.IsSpace(d.rs[p-1])) {
			continue
		}
		q := p
		for q < le && !(unicode.IsSpace(d.rs[q]) && q+1 < le && unicode.IsSpace(d.rs[q+1])) {
			q++
		}
		key := LabelKey(string(d.rs[p:q]))
		for _, lb := range f.Labels {
			if LabelKey(lb) == key {
				return labelHit{start: p, end: q, text: string(d.rs[p:q]), key: key, role: fieldLabelOwner(f.Name)}, true
			}
		}
		return labelHit{}, false
	}
	return labelHit{}, false
}

// narrowRune maps a full-width form (Ｎｏ．０１２３, ￥１，２００, the
// ideographic space) to its ASCII or common form, one rune for one, so
// offsets into the text stay those of the text as given. Japanese, Chinese
// and Korean documents print numbers, codes and dates in either width.
func narrowRune(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	case r == 0xFFE5:
		return '¥'
	case r == 0xFFE6:
		return '₩'
	case r == 0xFFE1:
		return '£'
	case r == 0xFFE0:
		return '¢'
	}
	return r
}

// narrowRunes is text with every full-width form narrowed (narrowRune).
func narrowRunes(text string) []rune {
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = narrowRune(r)
	}
	return rs
}
