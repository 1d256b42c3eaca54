package pipeline

import (
	"fmt"
	"slices"
	"strings"
)

// nonInvoiceTitles are titles of documents that are not invoices: a quote,
// a pro-forma, a purchase order, a delivery note, a statement of account.
// Their own number is not an invoice number; the value is kept but flagged
// so a reviewer confirms the record was meant to hold that document's number.
var nonInvoiceTitles = []string{"quotation", "quote", "presupuesto", "cotización", "cotizacion", "orçamento",
	"angebot", "devis", "preventivo", "offerte", "proforma", "pro forma", "purchase order", "orden de compra",
	"bon de commande", "ordine di acquisto", "delivery note", "lieferschein", "bon de livraison", "albarán",
	"albaran", "packing list", "statement of account", "account statement", "kontoauszug", "relevé de compte",
	"estado de cuenta"}

// invoiceTitles are titles that make a document an invoice or receipt even
// when another kind is named beside it ("TAX INVOICE / DELIVERY ORDER").
var invoiceTitles = []string{"invoice", "receipt", "rechnung", "factura", "facture", "fattura", "faktura", "quittung",
	"recibo", "fatura", "bill"}

// titleLines is how many non-empty lines at the top, besides a Subject
// line, carry the document's title.
const titleLines = 3

// maxTitleWords is the most words a title line has.
const maxTitleWords = 6

// nonInvoiceKind is the non-invoice kind the document's title declares, or "".
func (d *doc) nonInvoiceKind() string {
	kind, invoice, seen := "", false, 0
	for l := range d.lineStarts {
		key := " " + d.lineKey(l) + " "
		if strings.TrimSpace(key) == "" {
			continue
		}
		seen++
		subject := strings.HasPrefix(key, " subject ")
		if !subject && (seen > titleLines || len(strings.Fields(key)) > maxTitleWords) {
			continue // below the top, or a sentence rather than a title
		}
		for _, t := range nonInvoiceTitles {
			if kind == "" && strings.Contains(key, " "+t+" ") {
				kind = t
			}
		}
		if slices.ContainsFunc(invoiceTitles, func(t string) bool { return strings.Contains(key, " "+t+" ") }) {
			invoice = true
		}
	}
	if kind == "" || invoice && kind != "proforma" && kind != "pro forma" {
		return ""
	}
	return kind
}

// lineKey is line l in LabelKey form.
func (d *doc) lineKey(l int) string {
	ls, le := d.lineStarts[l], len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	return LabelKey(string(d.rs[ls:le]))
}

// checkNonInvoiceNumber flags an invoice number taken from a document whose
// title says it is not an invoice.
func (d *doc) checkNonInvoiceNumber(c *FieldCheck, f Field, val string) {
	if f.Kind != KindIdentifier || !slices.Contains(f.Labels, "invoice number") {
		return
	}
	if kind := d.nonInvoiceKind(); kind != "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("the document is a %s, not an invoice: %s is no invoice number (keep it only if the record is meant to hold the %s's own number)", kind, val, kind))
	}
}
