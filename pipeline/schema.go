package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Kind says what sort of value a field holds. Heuristics and the gate work from
// kinds, roles and relations, never from field names.
type Kind string

const (
	KindText       Kind = "text"
	KindIdentifier Kind = "identifier"
	KindDate       Kind = "date"
	KindMoney      Kind = "money"
	KindCurrency   Kind = "currency"
)

// Role names what a money field means in the document, so amount-role grounding
// can check that a total is the number the source labels as the total.
type Role string

const (
	RoleNone     Role = ""
	RoleSubtotal Role = "subtotal"
	RoleTax      Role = "tax"
	RoleTotal    Role = "total"
	// RoleDocumentDate marks the date field that is the document's own date
	// (an invoice's issue date): the date checks that judge a date as the
	// date a document was issued on (a year ahead of the verifying moment,
	// before 1970, another calendar's year, a due or validity date printed
	// after the issue moment) apply to it alone. A birth date, an expiry or
	// a delivery date is judged only by its grounding and its labels.
	RoleDocumentDate Role = "document_date"
)

// DefaultRoleLabels are the source labels that name each role when a schema
// field does not list its own. Matching is case- and space-insensitive.
func DefaultRoleLabels(r Role) []string {
	switch r {
	case RoleSubtotal:
		return []string{"subtotal", "sub-total", "sub total", "net amount", "total excl", "total exclude",
			"total excluding", "amount before tax", "before tax", "excl. tax", "excl tax",
			"zwischensumme", "nettobetrag", "summe netto", "nettosumme", "netto", "total ht", "montant ht", "sous-total",
			"base imponible", "小計", "税抜", "net"}
	case RoleTax:
		return []string{"tax", "vat", "gst", "sst", "sales tax", "mwst", "ust", "umsatzsteuer", "tva", "iva",
			"service tax", "消費税", "税額"}
	case RoleTotal:
		return []string{"total", "amount due", "grand total", "total due", "balance due", "total amount", "amount payable",
			"total incl", "total inclusive", "total incl gst", "total payable", "nett total", "net total", "rounded total",
			"gesamtbetrag", "gesamtsumme", "rechnungsbetrag", "endbetrag", "bruttobetrag", "summe brutto", "zu zahlen", "zu bezahlen",
			"gesamt", "summe", "total ttc", "montant total", "net à payer", "importe total", "合計", "合計金額",
			"ご請求金額", "請求金額", "to pay", "please pay"}
	}
	return nil
}

// Field is one typed slot of a record.
type Field struct {
	Name        string   `json:"name" yaml:"name"`
	Kind        Kind     `json:"kind" yaml:"kind"`
	Role        Role     `json:"role,omitempty" yaml:"role,omitempty"`
	Labels      []string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	// Required fields are ones every document of the schema states (an
	// invoice always has a total). A null there is a miss, not an honest
	// abstention, so the gate flags it; optional nulls are never flagged.
	Required bool `json:"required,omitempty" yaml:"required,omitempty"`
	// Party "issuer" marks a text field that names who issued the document
	// (an invoice's vendor): a name the document prints after "bill to" or
	// "customer" is the other party, and a title line is no name at all.
	Party string `json:"party,omitempty" yaml:"party,omitempty"`
}

// PartyIssuer is the Party of a field naming the document's issuer.
const PartyIssuer = "issuer"

// Words is the field's name as a reviewer reads it in a reason: "invoice
// date", not "invoice_date".
func (f Field) Words() string { return strings.ReplaceAll(f.Name, "_", " ") }

// RoleLabels is the field's own labels, or the role's defaults when it lists none.
func (f Field) RoleLabels() []string {
	if len(f.Labels) > 0 {
		return f.Labels
	}
	return DefaultRoleLabels(f.Role)
}

// Term is one operand of a relation: a money field added (Sign +1) or
// subtracted (Sign -1).
type Term struct {
	Field string
	Sign  int
}

// Relation is an arithmetic identity between money fields, such as
// "subtotal + tax = total". It is checked only when every field it names is
// non-null.
type Relation struct {
	Expr   string
	Terms  []Term
	Result string
}

// Schema is data: the fields a record has and the relations between them.
type Schema struct {
	Name        string
	Version     string
	Description string
	Fields      []Field
	Relations   []Relation
	// Tolerance is the absolute difference allowed when reconciling a relation.
	Tolerance float64

	// labels caches label indexes for the heuristics: a Schema must not
	// change once it has been used.
	labels labelCache
	// prompts caches the JSON Schema and the rendered prompts (prompts.go).
	prompts promptCache
	// order caches FieldNames for every result's FieldOrder.
	order struct {
		once  sync.Once
		names []string
	}
}

// DefaultTolerance absorbs rounding to the cent when relations are reconciled.
const DefaultTolerance = 0.01

// Field returns the named field.
func (s *Schema) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// FieldNames lists the fields in declaration order.
func (s *Schema) FieldNames() []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}

// fieldOrder is FieldNames, listed once for every result the schema gates:
// the results share it, and none writes to it (its cap is its length, so an
// append copies).
func (s *Schema) fieldOrder() []string {
	s.order.once.Do(func() { s.order.names = s.FieldNames() })
	return s.order.names[:len(s.order.names):len(s.order.names)]
}

// Invoice is the built-in default schema: seven fields: vendor, number, date, subtotal, tax, total, currency.
func Invoice() *Schema {
	s, err := ParseSchema([]byte(invoiceSchemaYAML), "invoice.yaml")
	if err != nil {
		panic("built-in invoice schema is invalid: " + err.Error())
	}
	return s
}

const invoiceSchemaYAML = `name: invoice
version: "1"
description: A bill from a vendor to a customer.
tolerance: 0.01
fields:
  - name: vendor_name
    kind: text
    party: issuer
    description: The business that issued the invoice and is owed the money (not the bill-to customer).
  - name: invoice_number
    kind: identifier
    description: The invoice or receipt number/reference as printed.
    labels: [invoice no, invoice no., invoice number, "invoice #", invoice id, invoice, inv no, inv. no, inv. no., inv.no, "inv #", bill no, "bill #",
      receipt no, "receipt #", receipt number, ref, reference, document no, doc no, rechnungsnummer, rechnung nr,
      rechnungs-nr, rechnung, re-nr, facture n°, facture no, facture, numéro de facture, n° de facture, factura,
      factura n°, número de factura, fattura, fattura n, numero fattura, factuurnummer, 請求書番号, 請求番号,
      rechnungsnr, rechnungsnr., rechnungs nr, inv-no, inv-no., factura simplificada, folio, no. invois, no invois, "check #", check no,
      credit note no, "credit memo #", fakturanummer, fakturanr, 发票号码, rcpt, rcpt no, bill number,
      bon-nr, bon nr, beleg-nr, belegnummer, gastrechnung nr, vat invoice, vat invoice no, tax invoice no,
      tax invoice number, faktura, faktura nr, faktura vat, faktura vat nr, faktura korygująca, faktura korygująca nr,
      gutschrift, gutschrift nr, gutschriftsnummer, credit note, credit note number, fatura, fatura nº, número da nota, nota fiscal, nota fiscal nº, nota fiscal n,
      nf-e, nf-e nº, 승인번호, 영수증번호, 영수증 번호, "trans #", trans no, "doc #",
      sales no, cash sales no, cash sale no, "bill#", receipt, chk, quittung, quittung nr, quittungsnummer,
      fee note, fee note no, fee note number, "fee note #", honorarnote, honorarnote nr, honorarrechnung,
      honorarrechnung nr, note d'honoraires, note d'honoraires n°, minuta, minuta nº, parcella, parcella n,
      factuur, factuurnr, factuur nr, lasku, lasku nro, laskun numero, laskunumero, číslo faktury, faktura č,
      számla, számlaszám, számla sorszáma, factura nr, số hóa đơn, αρ. τιμολογίου, αριθμός τιμολογίου,
      fatura no, 세금계산서 번호, счёт, счет, счёт-фактура, счет-фактура, счёт на оплату, счет на оплату,
      товарный чек, кассовый чек,
      fatura-recibo, fatura recibo, fatura-recibo nº, fatura simplificada, fatura/recibo, recibo, recibo nº, recibo n,
      factura electrónica, factura electronica, factura de venta, boleta electrónica, boleta electronica, boleta de venta,
      boleta, nota de crédito, nota de credito, ticket, ticket n°, ticket no, reçu, reçu n°, ricevuta, ricevuta n,
      kassenbeleg, kassenbon, kvittering, kvitto, kvittonummer, kuitti, kuittinumero, rachunek, rachunek nr, paragon,
      paragon fiskalny, daňový doklad, faktura - daňový doklad, číslo dokladu, účtenka, fiş no, belge no,
      τιμολόγιο, τιμολογιο, τιμολόγιο πώλησης, απόδειξη, αρ. απόδειξης, рахунок, рахунок-фактура, рахунок №, чек,
      фіскальний чек, касовий чек, "חשבונית מס / קבלה", "חשבונית מס/קבלה", חשבונית מס קבלה, חשבונית מס, חשבונית,
      מספר חשבונית, קבלה, מספר קבלה, فاتورة رقم, رقم الفاتورة, فاتورة ضريبية رقم, رقم الإيصال, बीजक संख्या, बिल संख्या,
      बिल नंबर, เลขที่ใบกำกับภาษี, ใบกำกับภาษี เลขที่, ใบเสร็จรับเงิน เลขที่, nomor faktur, no. faktur, no faktur,
      nomor invoice, nomor nota, no. nota, no. kwitansi, cupom, cupom fiscal, cupom nº, nfc-e, nfc-e nº, 發票號碼, 發票號, 请求书番号, 請求no, 請求書no, 伝票番号, 伝票no,
      領収書番号, 領収書no, 세금계산서, 계산서 번호, số, hóa đơn số, bon fiscal, bon fiscal nr, chitanță, chitanta,
      nyugta, nyugtaszám, kassabon, bonnummer, kvitteringsnummer, kvittonr, nr paragonu, nr faktury, numer faktury,
      doklad, doklad č, απόδειξη λιανικής πώλησης, αρ. παραστατικού, αριθμός παραστατικού, квитанция, квитанція,
      номер документа, فاتورة ضريبية, فاتورة ضريبية مبسطة, إيصال رقم, سند قبض رقم, 收据号, 收據號碼, 小票号,
      رقم الفاتوره, شماره فاکتور, شماره فاکتور فروش,
      factură, factura fiscală, arve, arve nr, rēķins, rēķina nr, sąskaita faktūra, pvm sąskaita faktūra, sąskaitos nr,
      račun, račun br, рачун, рачун бр, фактура, фактура №, faktúra, faktúra č, faktúra číslo,
      schlussrechnung, schlussrechnung nr, endrechnung, final invoice, final invoice no, facture finale, factura final]
  - name: invoice_date
    kind: date
    role: document_date
    description: The date the invoice was issued, as YYYY-MM-DD.
    labels: [invoice date, date, dated, issued, issued on, issue date, date of issue, billing date, bill date,
      receipt date, datum, rechnungsdatum, date de facture, date d'émission, fecha, fecha de factura,
      fecha de emisión, data, data fattura, data emissione, factuurdatum, 発行日, 日付, 請求日, invoiced, invoiced on,
      fakturadatum, 开票日期, data wystawienia, z dnia, data de emissão, data da emissão, data e hora de emissão,
      data do documento, data documento, fecha de expedición, statement date, date of statement, 작성일자, 거래일시,
      belegdatum, ausstellungsdatum, datum faktury, date of invoice, invoice issued, fatura tarihi, düzenleme tarihi,
      belge tarihi, tarih, ημερομηνία, ημερομηνία έκδοσης, ημ/νία, дата, дата счёта, дата счета, дата выставления,
      дата документа, от, date/tax point, date / tax point, invoice date/tax point, invoice date / tax point,
      date & tax point, invoice date & tax point, tax point/invoice date, วันที่, วันที่ออกใบกำกับภาษี, التاريخ, تاريخ الفاتورة, تاريخ الإصدار,
      fakturadato, dato, udstedelsesdato, utstedelsesdato, laskun päivämäärä, laskun pvm, laskupäivä, päiväys,
      päivämäärä, pvm, datum vystavení, datum vystavenia, dátum vystavenia, dátum vyhotovenia, kiállítás dátuma,
      számla kelte, kelt, data emiterii, data facturii, datum izdavanja, datum računa, datum izdaje, arve kuupäev,
      sąskaitos data, izrakstīšanas datums, дата составления, дата рахунку, дата виставлення, від,
      दिनांक, तिथि, तारीख, मिति, बीजक तिथि, ရက်စွဲ, နေ့စွဲ, تاریخ, تاریخ فاکتور, تاریخ صدور, তারিখ, ວັນທີ, កាលបរិច្ឆេទ,
      თარიღი, rēķina datums, kuupäev, tanggal, tgl, tanggal faktur, tarikh, tarikh invois, ngày lập,
      petsa, tarehe, tarix, огноо, күні, датум, датум на фактура, дата на издаване, дата на фактура,
      datum fakture, data e faturës, dagsetning]
  - name: subtotal
    kind: money
    role: subtotal
    description: Amount before tax.
  - name: tax
    kind: money
    role: tax
    description: Tax amount.
  - name: total
    kind: money
    role: total
    required: true
    description: Final amount due, including tax.
  - name: currency
    kind: currency
    description: ISO 4217 currency code, e.g. USD, EUR, GBP, MYR.
relations:
  - subtotal + tax = total
`

// BuiltinSchema returns a schema bundled with reflect by name.
func BuiltinSchema(name string) (*Schema, bool) {
	if name == "" || name == "invoice" {
		return Invoice(), true
	}
	return nil, false
}

// LoadSchema reads a YAML or JSON schema file, or returns a built-in schema when
// ref names one ("invoice").
func LoadSchema(ref string) (*Schema, error) {
	if s, ok := BuiltinSchema(ref); ok {
		return s, nil
	}
	data, err := os.ReadFile(ref)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return ParseSchema(data, filepath.Base(ref))
}

// SchemaError names where in a schema file a problem is.
type SchemaError struct {
	File string
	Line int
	Msg  string
}

func (e *SchemaError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("schema %s: line %d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("schema %s: %s", e.File, e.Msg)
}

type rawField struct {
	Name        string   `yaml:"name"`
	Kind        string   `yaml:"kind"`
	Role        string   `yaml:"role"`
	Labels      []string `yaml:"labels"`
	Description string   `yaml:"description"`
	Required    bool     `yaml:"required"`
	Party       string   `yaml:"party"`
}

type rawSchema struct {
	Name        string      `yaml:"name"`
	Version     string      `yaml:"version"`
	Description string      `yaml:"description"`
	Tolerance   *float64    `yaml:"tolerance"`
	Fields      []yaml.Node `yaml:"fields"`
	Relations   []yaml.Node `yaml:"relations"`
}

var fieldNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseSchema parses a schema from YAML or JSON (JSON is read as YAML, so both
// report errors with line numbers). file is used only in error messages.
func ParseSchema(data []byte, file string) (*Schema, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &SchemaError{File: file, Msg: "file is empty"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &SchemaError{File: file, Line: yamlErrLine(err), Msg: cleanYAMLErr(err)}
	}
	// Shape first: a decode error about Go types ("[]yaml.Node") helps nobody.
	if err := checkShape(&doc, file); err != nil {
		return nil, err
	}
	top := doc.Content[0]
	var raw rawSchema
	if err := doc.Decode(&raw); err != nil {
		return nil, &SchemaError{File: file, Line: yamlErrLine(err), Msg: cleanYAMLErr(err)}
	}
	s := &Schema{Name: raw.Name, Version: raw.Version, Description: raw.Description, Tolerance: DefaultTolerance}
	if s.Name == "" {
		return nil, &SchemaError{File: file, Line: keyLine(top, "name"), Msg: "missing \"name\""}
	}
	if raw.Tolerance != nil {
		t := *raw.Tolerance
		// An infinite tolerance would make every relation hold.
		if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, &SchemaError{File: file, Line: keyLine(top, "tolerance"), Msg: fmt.Sprintf("tolerance must be a finite number >= 0, got %v", t)}
		}
		s.Tolerance = t
	}
	if len(raw.Fields) == 0 {
		return nil, &SchemaError{File: file, Line: keyLine(top, "fields"), Msg: "schema declares no fields"}
	}
	seen := map[string]bool{}
	docDate := "" // the field holding RoleDocumentDate
	for i := range raw.Fields {
		n := &raw.Fields[i]
		var rf rawField
		if err := n.Decode(&rf); err != nil {
			line := yamlErrLine(err)
			if line == 0 {
				line = n.Line
			}
			return nil, &SchemaError{File: file, Line: line, Msg: cleanYAMLErr(err)}
		}
		if !fieldNameRE.MatchString(rf.Name) {
			return nil, &SchemaError{File: file, Line: n.Line, Msg: fmt.Sprintf("field %d: name %q must be letters, digits and _", i+1, rf.Name)}
		}
		if seen[rf.Name] {
			return nil, &SchemaError{File: file, Line: n.Line, Msg: fmt.Sprintf("field %q is declared twice", rf.Name)}
		}
		seen[rf.Name] = true
		kindLine, roleLine := keyLine(n, "kind"), keyLine(n, "role")
		f := Field{Name: rf.Name, Kind: Kind(rf.Kind), Role: Role(rf.Role), Labels: rf.Labels, Description: rf.Description, Required: rf.Required, Party: rf.Party}
		if f.Party != "" && (f.Party != PartyIssuer || f.Kind != KindText) {
			return nil, &SchemaError{File: file, Line: keyLine(n, "party"), Msg: fmt.Sprintf("field %q: party %q: only a text field may be the %q", f.Name, f.Party, PartyIssuer)}
		}
		switch f.Kind {
		case KindText, KindIdentifier, KindDate, KindMoney, KindCurrency:
		case "":
			return nil, &SchemaError{File: file, Line: n.Line, Msg: fmt.Sprintf("field %q has no kind (text, identifier, date, money, currency)", f.Name)}
		default:
			return nil, &SchemaError{File: file, Line: kindLine, Msg: fmt.Sprintf("field %q: unknown kind %q (want text, identifier, date, money, currency)", f.Name, rf.Kind)}
		}
		switch f.Role {
		case RoleNone:
		case RoleSubtotal, RoleTax, RoleTotal:
			if f.Kind != KindMoney {
				return nil, &SchemaError{File: file, Line: roleLine, Msg: fmt.Sprintf("field %q: role %q needs kind money", f.Name, f.Role)}
			}
		case RoleDocumentDate:
			if f.Kind != KindDate {
				return nil, &SchemaError{File: file, Line: roleLine, Msg: fmt.Sprintf("field %q: role %q needs kind date", f.Name, f.Role)}
			}
			if docDate != "" {
				return nil, &SchemaError{File: file, Line: roleLine, Msg: fmt.Sprintf("field %q: role %q is already field %q's: a document has one date of its own", f.Name, f.Role, docDate)}
			}
			docDate = f.Name
		default:
			return nil, &SchemaError{File: file, Line: roleLine, Msg: fmt.Sprintf("field %q: unknown role %q (want subtotal, tax, total for money, document_date for a date)", f.Name, rf.Role)}
		}
		// A money field without a role and a currency have no labelled grounding.
		if len(f.Labels) > 0 && (f.Kind == KindMoney && f.Role == RoleNone || f.Kind == KindCurrency) {
			return nil, &SchemaError{File: file, Line: n.Line, Msg: fmt.Sprintf("field %q: labels on a %s field need a role (labels name a money role's or a date, identifier or text field's source labels)", f.Name, f.Kind)}
		}
		s.Fields = append(s.Fields, f)
	}
	for i := range raw.Relations {
		n := &raw.Relations[i]
		rel, err := parseRelation(n.Value, s)
		if err != nil {
			return nil, &SchemaError{File: file, Line: n.Line, Msg: err.Error()}
		}
		s.Relations = append(s.Relations, rel)
	}
	return s, nil
}

// keyLine is the line of key's value in mapping n, or n's own line.
func keyLine(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Line
		}
	}
	return n.Line
}

var knownSchemaKeys = map[string]bool{"name": true, "version": true, "description": true, "tolerance": true, "fields": true, "relations": true}
var knownFieldKeys = map[string]bool{"name": true, "kind": true, "role": true, "labels": true, "description": true, "required": true, "party": true}

// checkShape checks the document's structure before decoding: a mapping of
// known keys, fields and relations as lists, each field a mapping of known
// keys. Unknown keys are typos such as "feilds" or "knd", which would
// otherwise silently produce a different schema.
func checkShape(doc *yaml.Node, file string) error {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		line := 1
		if len(doc.Content) > 0 {
			line = doc.Content[0].Line
		}
		return &SchemaError{File: file, Line: line, Msg: "a schema must be a mapping with name, fields and relations"}
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if !knownSchemaKeys[k.Value] {
			return &SchemaError{File: file, Line: k.Line, Msg: fmt.Sprintf("unknown key %q", k.Value)}
		}
		if k.Value != "fields" && k.Value != "relations" {
			continue
		}
		if v.Kind != yaml.SequenceNode && !(v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
			return &SchemaError{File: file, Line: v.Line, Msg: fmt.Sprintf("%q must be a list", k.Value)}
		}
		if k.Value == "relations" {
			for _, r := range v.Content {
				if r.Kind != yaml.ScalarNode {
					return &SchemaError{File: file, Line: r.Line, Msg: "each relation must be a string such as \"subtotal + tax = total\""}
				}
			}
			continue
		}
		for _, f := range v.Content {
			if f.Kind != yaml.MappingNode {
				return &SchemaError{File: file, Line: f.Line, Msg: "each field must be a mapping with name and kind"}
			}
			for j := 0; j+1 < len(f.Content); j += 2 {
				if fk := f.Content[j]; !knownFieldKeys[fk.Value] {
					return &SchemaError{File: file, Line: fk.Line, Msg: fmt.Sprintf("unknown field key %q", fk.Value)}
				}
			}
		}
	}
	return nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

var yamlPrefixRE = regexp.MustCompile(`^yaml: (unmarshal errors:\s*)?(line \d+: )?`)

// cleanYAMLErr drops the "yaml: line N:" prefix, which SchemaError states
// itself; other line numbers in the message ("already defined at line 1") stay.
func cleanYAMLErr(err error) string {
	return strings.TrimSpace(yamlPrefixRE.ReplaceAllString(strings.TrimSpace(err.Error()), ""))
}
