package pipeline

// Money a bill prints beside its total that is no role of the schema: the
// amount payable only after the due date (the total plus a late fee), and
// a tax exemption or the exempt sales it applies to.

// latePayableLabels name what a bill asks for when paid after its due date:
// the total with a surcharge, not the bill's total.
var latePayableLabels = []string{"amount payable after due date", "payable after due date", "amount after due date",
	"total after due date", "after due date", "amount due after due date", "late payment amount",
	"amount payable after the due date", "after the due date", "late payable amount",
	"después del vencimiento", "despues del vencimiento", "pagar después del vencimiento",
	"pagar despues del vencimiento", "total después del vencimiento", "valor después del vencimiento",
	"después de la fecha de vencimiento", "après échéance", "après l échéance", "après la date d échéance",
	"montant après échéance", "nach fälligkeit", "betrag nach fälligkeit", "nach dem fälligkeitsdatum",
	"dopo la scadenza", "importo dopo la scadenza", "após o vencimento", "após vencimento",
	"valor após o vencimento", "valor após vencimento", "na de vervaldatum", "setelah jatuh tempo",
	"jumlah setelah jatuh tempo", "son ödeme tarihinden sonra", "po terminie płatności"}

// exemptionLabels name a tax exemption, or the sales it applies to ("VAT
// Exempt Sales", a senior citizen's "VAT Exemption", "Ventas exentas",
// "Op. exoneradas"): an amount on which no tax is charged, never the tax.
// Only nouns: a qualifier alone ("VAT exempt", "exento", "steuerfrei")
// also qualifies the total of a document that is exempt as a whole.
var exemptionLabels = []string{"vat exempt sales", "vat exempt sale", "vat exemption", "less vat exemption",
	"exempt sales", "vat exempt amount", "zero rated sales", "zero-rated sales", "vat zero rated sales",
	"vat zero-rated sales", "non vat sales", "non-vat sales", "tax exempt sales", "tax exempt amount",
	"tax exemption", "gst exempt sales", "ventas exentas", "importe exento", "operaciones exentas",
	"op exoneradas", "op. exoneradas", "op inafectas", "op. inafectas", "montant exonéré", "exonération de tva",
	"steuerfreie umsätze", "steuerfreier betrag", "operazioni esenti", "isenção de iva", "kdv istisnası"}

// exemptionKeys is exemptionLabels in LabelKey form.
var exemptionKeys = keyedSet(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range exemptionLabels {
		m[l] = true
	}
	return m
}())
