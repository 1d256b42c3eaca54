package pipeline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the one lexicon of label words: the heuristics and the keyless
// local extractor (providers/local) read money labels from the same lists, so
// a label the extractor trusts is one the checks understand the same way.

// RoleOther marks labels that name money which is no role of the schema:
// cash tendered, change, rounding, discounts, quantities, reference numbers.
// They compete with role labels so "CASH 50.00" is not read as a total.
const RoleOther Role = "other"

// roleOther is RoleOther under the name the checks have always used.
const roleOther = RoleOther

// otherLabels are labels that take a number away from every role. "total qty"
// and "total items" must beat "total"; "change due" must beat "due".
var otherLabels = slices.Concat([]string{
	"cash", "change", "change due", "changes", "posted change", "tendered", "tender", "paid", "paid amount", "payment",
	"received", "cash received", "visa", "mastercard", "master", "amex", "card", "credit card", "debit", "credit",
	"voucher", "deposit", "eftpos",
}, depositLabels, withholdingLabels, []string{
	// what changes hands after a withholding: not the subtotal "net" names
	"net receivable", "net payable", "net amount receivable", "net amount payable",
	"rounding", "round", "round amt", "round adj", "rounding adj", "rounding adj.", "rounding adjustment",
	"rounding adjustement", "round adjustmt", "rounded", "adjustment",
	"discount", "disc", "savings", "saving", "you saved", "total savings", "total saving", "total discount",
	"total item discount", "total promotional saving", "coupon", "promo", "할인", "쿠폰", "쿠폰 할인", "割引", "値引", "値引き", "クーポン",
	"优惠", "优惠券", "折扣",
	"qty", "qnty", "quantity", "total qty", "total quantity", "total items", "total item", "total item(s)", "item count",
	"hours", "hrs", "total time", "units", "pcs", "pieces", "kg", "weight", "pages", "km", "miles",
	"no. of items", "no of items", "points", "total points", "member points", "pax", "table", "total qty tender",
	"tel", "fax", "phone", "no", "no.", "id", "reg", "reg no", "ref", "invoice no", "receipt no", "bill no", "doc no",
	// the estimate or quote a final bill cites is not its total
	"estimate", "estimated", "estimate approved", "original estimate", "approved estimate", "original quote",
	"quoted", "quoted price", "quote amount", "kostenvoranschlag", "voranschlag", "montant du devis", "devis initial",
	"presupuesto", "presupuesto inicial", "preventivo", "見積金額", "見積額", "御見積金額",
	// a title's number ("Tax Invoice 77", "VAT invoice 2026/11") is no tax
	"tax invoice", "vat invoice", "gst invoice", "tax invoice no", "tax receipt",
	"approval code", "terminal", "batch", "trace", "cashier", "slip", "pos", "rc earned",
	"total sv", "total gv", "total ev", "total qu", "accepted total", "amount tendered", "tendered amount",
	// "PAY 50.00" / "CHANGE 40.10": the amount handed over.
	"pay",
	// A tip is no invoice's total.
	"tip", "tips", "gratuity", "trinkgeld", "pourboire", "propina", "mancia", "fooi", "dricks", "チップ", "小费", "봉사료", "배달팁",
	"pelarasan pembundaran", "pembundaran", "rundung", "rundungsdifferenz", "arrondi", "redondeo", "arrotondamento", "afronding",
	"端数調整",
	// Japanese tendered and change ("お預り ¥1,000 / お釣り ¥480").
	"お預り", "お預かり", "お釣り", "おつり", "釣銭",
}, insurerShareLabels, previousBalanceLabels, discountLabels, latePayableLabels, exemptionLabels)

// previousBalanceLabels name the balance a bill or statement carries over
// from before: no invoice's total.
var previousBalanceLabels = []string{"previous balance", "balance forward", "balance brought forward", "past due",
	"prior balance", "opening balance", "saldo anterior", "vorheriger saldo", "saldovortrag", "solde précédent",
	"saldo precedente", "vorig saldo", "baki terdahulu", "baki lama", "前回請求額", "前回ご請求額", "繰越金額", "이전 잔액",
	"önceki dönem borcu", "önceki donem borcu", "önceki bakiye", "devreden borç", "devreden borc", "devreden bakiye",
	"geçmiş dönem borcu", "önceki dönemden kalan", "önceki dönemden kalan borç", "önceki fatura borcu",
	"ödenmemiş fatura", "ödenmemiş borç", "geçmiş borç", "gecikmiş borç", "arrears", "unpaid balance",
	"outstanding balance", "rückstand", "offener betrag aus vorperiode", "impayé précédent", "arretrato",
	// A previous invoice left unpaid, carried onto this one.
	"previous invoice", "previous invoices", "unpaid previous invoice", "previous unpaid balance",
	"balance from previous invoice", "balance from previous bill", "previous bill", "previous bill balance",
	"brought forward", "amount brought forward", "balance b f", "arrears brought forward", "offener betrag aus vorrechnung",
	"offener betrag vorrechnung", "rückstand aus vorrechnung", "saldo aus vorrechnung", "offene vorrechnung",
	"offene rechnung vom vormonat", "solde antérieur", "solde reporté", "facture précédente impayée",
	"arriéré", "arriérés", "impayés antérieurs", "deuda anterior", "adeudo anterior", "saldo anterior pendiente",
	"factura anterior pendiente", "débito anterior", "débitos anteriores", "fatura anterior em aberto",
	"insoluto precedente", "fattura precedente", "zaległość", "zaległości", "saldo z poprzedniej faktury",
	"nedoplatek", "предыдущий долг", "задолженность", "задолженность на начало периода", "achterstand",
	"vorige factuur", "tunggakan sebelumnya", "前月繰越", "前回未払", "往期欠费", "上期欠费", "미납금액", "전월미납"}

// previousBalanceKeys is previousBalanceLabels in LabelKey form.
var previousBalanceKeys = keyedSet(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range previousBalanceLabels {
		m[l] = true
	}
	return m
}())

// withholdingLabels name what the buyer keeps back and pays the tax office
// itself (an ISR or IVA retention, a TDS, a ritenuta, the Turkish KDV
// tevkifatı): not the tax charged, and the difference between the
// invoice's total and the amount it asks to be paid.
var withholdingLabels = []string{"iva retenido", "isr retenido", "retenido", "retención", "retencion", "withholding",
	"withholding tax", "tax withheld", "tds", "ritenuta", "ritenuta d'acconto", "源泉徴収税", "源泉徴収税額", "源泉所得税",
	"kdv tevkifatı", "kdv tevkifati", "tevkifat", "tevkifat tutarı", "tevkifat tutari", "tevkif edilen kdv",
	"tevkifata tabi kdv",
	// income tax withheld at source on a professional's invoice
	"retenue à la source", "retenue a la source", "ras", "retención irpf", "retencion irpf", "retención isr",
	"retencion isr", "retención de irpf", "irpf", "retenção na fonte", "retencao na fonte", "retenção", "retencao",
	"irrf", "retenção irrf", "ritenuta di acconto", "παρακράτηση", "παρακράτηση φόρου", "stopaj", "gelir vergisi stopajı",
	"stopaj kesintisi", "quellensteuer", "retenue", "retenue bnc", "retenue fiscale", "retenue ir", "précompte", "precompte", "airsi", "ضريبة الاستقطاع", "الخصم من المنبع", "withholding tax deducted"}

// withholdingKeys is withholdingLabels in LabelKey form.
var withholdingKeys = keyedSet(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range withholdingLabels {
		m[l] = true
	}
	return m
}())

// insurerShareLabels name the insurer's part of a medical or dental bill:
// a contractual adjustment or a payment by the plan, which lowers what the
// patient owes the way a discount lowers a price. The patient's share
// after them is the bill's total (patientShareLabels).
var insurerShareLabels = []string{"insurance adjustment", "insurance adjustments", "contractual adjustment",
	"contractual adjustments", "insurance payment", "insurance payments", "insurance paid", "insurance discount",
	"insurance credit", "plan paid", "plan payment", "plan payments", "plan discount", "plan adjustment",
	"medicare paid", "medicare payment", "medicaid paid", "insurer paid", "paid by insurance",
	"anteil krankenkasse", "kassenanteil", "anteil der krankenkasse", "erstattung krankenkasse", "festzuschuss",
	"part sécurité sociale", "part securite sociale", "part mutuelle", "part amo", "part amc",
	"remboursement sécurité sociale", "remboursement mutuelle", "parte aseguradora", "cubierto por el seguro"}

// insurerShareKeys is insurerShareLabels in LabelKey form.
var insurerShareKeys = keyedSet(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range insurerShareLabels {
		m[l] = true
	}
	return m
}())

// depositLabels name advance payments an invoice subtracts from its total:
// money already paid, so no role's amount.
var depositLabels = []string{"anzahlung", "abschlag", "abschlagszahlung", "acompte", "aanbetaling", "anticipo",
	"acconto", "前受金", "内金"}

// extraRoleLabels widen a role's default labels with the forms receipts and
// invoices print. They apply only to a field that keeps the default labels.
var extraRoleLabels = map[Role][]string{
	RoleSubtotal: {"taxable amount", "taxable amt", "taxable", "gst taxable", "vat taxable", "total sales excluding", "nett of tax", "net of tax", "montant net", "net ht",
		"amt paid excl", "amount paid excl", "total excl of", "total excluded", "net credit",
		"valor total dos produtos", "valor dos produtos", "total dos produtos",
		// the base a tax is computed on, named with the tax
		"base de cálc icms", "base de cálc. icms", "base de calc icms", "base de cálculo do icms", "base de cálculo",
		"base imponible", "base imposable", "bemessungsgrundlage", "tax base", "taxable base",
		"subtotaal", "totaal excl", "subtotale", "imponibile", "jumlah kecil", "소계", "小计", "netto bedrag", "summa exkl",
		"ara toplam", "kdv matrahı", "kdv matrahi",
		// Arabic and Persian: the total before tax, the taxable amount
		"الإجمالي قبل الضريبة", "المجموع الفرعي", "الإجمالي الفرعي", "الإجمالي غير شامل الضريبة",
		"المبلغ قبل الضريبة", "المبلغ الخاضع للضريبة", "جمع کالاها", "جمع قبل از مالیات"},
	RoleTax: append([]string{"tax total", "gst total", "total tax", "total gst", "total vat", "gst payable", "tax amount",
		"vat amount", "taxes", "tax & fees", "taxes & fees", "taxes and fees"}, taxRegimeWords...),
	RoleTotal: {"final total", "total after rounding", "total atter rounding", "total sales",
		"amt paid incl", "amount paid incl", "total amt payable", "amt payable", "total amount payable", "total amount due",
		"amount now due", "balance now due", "valor total da nota", "total da nota", "total rm", "total myr", "ttl", "total a pagar", "amount to be paid", "amount to pay", "total to pay",
		"totaal", "totaal incl", "totaalbedrag", "te betalen", "totale", "totale fattura", "importo totale", "da pagare",
		"jumlah", "jumlah besar", "jumlah keseluruhan", "jumlah perlu dibayar", "jumlah bayaran", "montant dû", "net a payer",
		"zahlbetrag", "zahlungsbetrag", "zu zahlender betrag", "zu zahlender beitrag",
		"montant à payer", "total à payer", "montant a payer", "total a payer",
		"totalt", "att betala", "i alt", "yhteensä", "razem", "do zapłaty", "suma", "suma pln", "suma brutto", "celkem", "итого", "合计", "总计", "价税合计",
		"お支払金額", "合計", "合 計", "합계", "총액", "합계금액",
		// a delivery order's amount before its coupon and tip; what was paid after them
		"주문금액", "주문 금액", "결제금액", "결제 금액", "총 결제금액", "최종 결제금액",
		"商品总额", "实付款", "实付金额", "应付金额", "商品合計", "お支払い金額", "お支払い合計", "お支払額", "total general", "importe a pagar",
		// a credit note's total is what comes back
		"totale pagato", "total paid", "total pagado",
		// the amount a final bill asks for, after the estimate it cites
		"final amount", "final invoice amount", "final bill", "montant final", "importe final", "importo finale",
		// an Indian GST invoice's total after its CGST + SGST or IGST
		"invoice value", "total invoice value", "total amount after tax",
		// what the patient owes after the insurer's share
		"patient responsibility", "patient balance", "patient balance due", "patient portion", "patient share",
		"patient pays", "patient amount due", "amount you owe", "you owe", "your balance", "your responsibility",
		"eigenanteil", "ihr eigenanteil", "reste à charge", "reste a charge", "a cargo del paciente",
		// Turkish invoice sums: the total with taxes, the amount payable
		// after a withholding. A bare "toplam" sums anything (Toplam İskonto,
		// Toplam KDV), so it is no label.
		"vergiler dahil toplam tutar", "vergiler dahil toplam", "ödenecek tutar", "odenecek tutar",
		"total credit", "credit total", "total refund", "att återfå", "zu erstatten", "gutschriftsbetrag", "à rembourser",
		// Arabic and Persian totals: with tax, due, payable
		"الإجمالي", "المجموع", "الإجمالي شامل الضريبة", "المبلغ الإجمالي", "الإجمالي المستحق", "المبلغ المستحق",
		"إجمالي المبلغ المستحق", "جمع کل", "مبلغ کل", "قابل پرداخت", "مبلغ قابل پرداخت"},
}

// taxRegimeWords are the names common tax regimes print for their tax: a
// Danish "Moms 25 %", a Dutch "BTW 21%", a Canadian "HST 13%", a Japanese
// "消費税額" and a Korean "부가세" are tax labels like "VAT".
var taxRegimeWords = []string{
	"hst", "pst", "qst", "tps", "tvq", "rst", // Canada
	"cgst", "sgst", "igst", "utgst", "cess", // India
	"btw", "moms", "mva", "alv", "dph", "pvm", "pvn", "käibemaks", "áfa", "kdv", "fpa", "φπα", "ddv", "pdv",
	"ptu", "suma ptu", "kwota ptu", // Poland: a receipt's VAT (podatek od towarów i usług)
	"öiv", "ö i v", "özel iletişim vergisi", "ozel iletisim vergisi", // Turkey: the telecom tax charged beside KDV
	"vsk", "tvsh", "ндс", "ддс", "пдв", "ндв", "mehrwertsteuer", "vorsteuer",
	// insurance premium tax: a tax charged on the premium, printed as the tax
	"versicherungsteuer", "versicherungssteuer", "insurance premium tax", "ipt", "assurantiebelasting",
	"imposta sulle assicurazioni", "imposta assicurazioni", "imposte", "vakuutusmaksuvero",
	"stempelabgabe", "eidg stempelabgabe", "imposto do selo", "imposto de selo", "taxe", "taxes", "impuesto", "impuestos",
	"igv", "itbis", "itbms", "iss", "icms", "ipi", "ppn", "thuế", "gtgt", "jct",
	"消費税額", "消费税", "税额", "增值税", "増値税", "税金", "内消費税", "内消費税等", "消費税等", "부가세", "부가가치세", "세액", "ภาษี", "ภาษีมูลค่าเพิ่ม",
	"مالیات", "ضريبة", "ضريبة القيمة المضافة", "מע\"מ",
}

// finalTotalLabels name the amount actually payable after rounding; they win
// over a plain or tax-inclusive "total".
var finalTotalLabels = keyedSet(map[string]bool{
	"final total": true, "total after rounding": true, "total atter rounding": true, "rounded total": true,
	"grand total": true, "nett total": true, "net total": true, "total payable": true, "amount payable": true,
	"amt payable": true, "total amt payable": true, "total amount payable": true, "total due": true, "amount due": true,
	"total amount due": true, "balance due": true, "amount now due": true, "now due": true, "balance now due": true, "valor total da nota": true, "total rm": true, "total myr": true, "gesamtbetrag": true,
	"total ttc": true, "to pay": true, "please pay": true, "montant total": true,
	"total balance due": true, "total amount payable (rm)": true, "jumlah besar": true, "jumlah keseluruhan": true,
	"jumlah perlu dibayar": true, "gesamtsumme": true, "endbetrag": true, "zu zahlen": true, "zu bezahlen": true, "net à payer": true,
	"montant dû": true, "totaalbedrag": true, "te betalen": true, "importo totale": true, "da pagare": true,
	"total general": true, "importe a pagar": true, "total a pagar": true, "att betala": true, "do zapłaty": true, "suma pln": true,
	// the amount the document asks for, below the sums it is built from
	"zahlbetrag": true, "zahlungsbetrag": true, "rechnungsbetrag": true, "zu zahlender betrag": true, "zu zahlender beitrag": true,
	"montant à payer": true, "total à payer": true, "montant a payer": true, "total a payer": true,
	"amount to pay": true, "total to pay": true, "amount to be paid": true,
	"patient responsibility": true, "patient balance": true, "patient balance due": true, "patient portion": true,
	"patient share": true, "patient pays": true, "patient amount due": true, "amount you owe": true, "you owe": true,
	"your balance": true, "your responsibility": true, "eigenanteil": true, "ihr eigenanteil": true,
	"reste à charge": true, "reste a charge": true, "a cargo del paciente": true,
	"ödenecek tutar": true, "odenecek tutar": true,
	"总计": true, "价税合计": true, "お支払金額": true, "ご請求金額": true, "請求金額": true, "합계금액": true, "총액": true,
	"결제금액": true, "결제 금액": true, "총 결제금액": true, "최종 결제금액": true,
	"实付款": true, "实付金额": true, "应付金额": true, "お支払い金額": true, "お支払い合計": true, "お支払額": true,
	// what was finally paid, a tip included
	"totale pagato": true, "total paid": true, "total pagado": true,
})

// keyedSet is a label set under its labels' LabelKey forms: a Chinese or
// Japanese label's key spaces its characters ("お 支 払 金 額"), so the set
// must too, or a lookup by key never finds it.
func keyedSet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[LabelKey(k)] = v
	}
	return out
}

// modifierWords turn a following or preceding tax label into a qualifier of
// another label: "total incl. gst", "total (excluding gst)", "total due (gst
// inc)", "total after rounding".
var modifierWords = map[string]bool{
	"incl": true, "inc": true, "including": true, "inclusive": true, "include": true, "included": true, "includes": true,
	"excl": true, "exc": true, "ex": true, "excluding": true, "exclude": true, "exclusive": true, "excluded": true,
	"before": true, "after": true, "with": true, "w": true, "without": true, "of": true, "plus": true, "less": true,
	"inkl": true, "exkl": true,
}

// exclusionWords make a total a pre-tax amount: "total (excluding gst)".
var exclusionWords = map[string]bool{
	"excl": true, "exc": true, "ex": true, "excluding": true, "exclude": true, "exclusive": true, "excluded": true,
	"before": true, "without": true, "less": true, "exkl": true,
}

// inclusionWords mark a total that already holds its tax.
var inclusionWords = map[string]bool{
	"incl": true, "inc": true, "including": true, "inclusive": true, "include": true, "included": true,
	"includes": true, "with": true, "inkl": true,
}

// OtherLabels are the built-in labels that take a number away from every
// role (cash, change, rounding, quantities, reference numbers).
func OtherLabels() []string { return append([]string(nil), otherLabels...) }

// ExtraRoleLabels are the receipt and invoice forms that widen a role's
// default labels; they apply only to a field that keeps the defaults.
func ExtraRoleLabels(r Role) []string { return append([]string(nil), extraRoleLabels[r]...) }

// IsFinalTotalLabel reports whether a label key (LabelKey form) names the
// amount payable after rounding ("grand total", "total due").
func IsFinalTotalLabel(key string) bool { return finalTotalLabels[key] }

// IsModifierWord reports a word that makes a neighbouring label a qualifier
// ("incl", "before", "after").
func IsModifierWord(w string) bool { return modifierWords[w] }

// IsExclusionWord reports a word that makes a total pre-tax ("excl").
func IsExclusionWord(w string) bool { return exclusionWords[w] }

// IsInclusionWord reports a word that says a total holds its tax ("incl").
func IsInclusionWord(w string) bool { return inclusionWords[w] }

// roleLabelsFor is a money field's labels: its own, or the role's defaults
// widened by the extra forms when it lists none.
func roleLabelsFor(f Field) []string {
	if len(f.Labels) > 0 {
		return f.Labels
	}
	return append(DefaultRoleLabels(f.Role), extraRoleLabels[f.Role]...)
}

// unitTotalLabels are every total label followed by a unit word ("total
// hours"): they total the unit, not money.
func unitTotalLabels() []string {
	var out []string
	for _, t := range unitTotalWords {
		for _, u := range unitWords {
			if len([]rune(u)) < 2 {
				continue // "total h" would read OCR noise as a unit
			}
			out = append(out, t+" "+u, t+" no. of "+u)
		}
	}
	return out
}

// LexiconLabel is one label phrase and the role it gives a number.
type LexiconLabel struct {
	Text string
	Role Role
}

// Lexicon is a schema's money labels in priority order: the schema's own
// role labels, the defaults of the roles it lacks, then the labels of other
// quantities. Build it once per schema with NewLexicon; it is read-only.
type Lexicon struct {
	labels []LexiconLabel
	byKey  map[string]int // LabelKey → index into labels (first wins)
	// byFirst indexes label keys by their first token for Classify.
	byFirst map[string][]lexEntry
}

type lexEntry struct {
	tokens []string
	key    string
	role   Role
}

// NewLexicon builds the lexicon of s. Roles the schema lacks still compete:
// "total excl. GST" is not a total even when no field takes the subtotal.
func NewLexicon(s *Schema) *Lexicon {
	lx := &Lexicon{byKey: map[string]int{}, byFirst: map[string][]lexEntry{}}
	add := func(text string, r Role) {
		toks := LabelTokens(text)
		key := strings.Join(toks, " ")
		lx.labels = append(lx.labels, LexiconLabel{Text: text, Role: r})
		if key == "" {
			return
		}
		if _, dup := lx.byKey[key]; dup {
			return
		}
		lx.byKey[key] = len(lx.labels) - 1
		lx.byFirst[toks[0]] = append(lx.byFirst[toks[0]], lexEntry{tokens: toks, key: key, role: r})
	}
	declared := map[Role]bool{}
	if s != nil {
		for _, f := range s.Fields {
			if f.Kind == KindMoney && f.Role != RoleNone {
				declared[f.Role] = true
				for _, l := range roleLabelsFor(f) {
					add(l, f.Role)
				}
			}
		}
	}
	for _, r := range []Role{RoleSubtotal, RoleTax, RoleTotal} {
		if !declared[r] {
			for _, l := range append(DefaultRoleLabels(r), extraRoleLabels[r]...) {
				add(l, r)
			}
		}
	}
	for _, l := range otherLabels {
		add(l, RoleOther)
	}
	for _, l := range unitTotalLabels() {
		add(l, RoleOther)
	}
	return lx
}

// Labels lists every label of the lexicon with its role, in priority order.
func (lx *Lexicon) Labels() []LexiconLabel { return append([]LexiconLabel(nil), lx.labels...) }

// Role is the role a label phrase gives the number it names, as the lexicon
// lists it (the first listing wins); false when the phrase is no label.
func (lx *Lexicon) Role(phrase string) (Role, bool) {
	i, ok := lx.byKey[LabelKey(phrase)]
	if !ok {
		return RoleNone, false
	}
	return lx.labels[i].Role, true
}

// LabelVerdict is what the label segment next to a number says about it.
type LabelVerdict struct {
	Role  Role
	Label string // the winning label in LabelKey form
	// Start and End are the winning label's rune offsets in the segment.
	Start, End int
	Final      bool // a label of the amount payable after rounding
	Inclusive  bool // a total that states it holds its tax
	Excluded   bool // a qualifier made it pre-tax ("total excl. GST")
	OK         bool
}

// LabelKey is a phrase in the lexicon's normal form: lower case, words of
// letters and digits joined by one space, punctuation dropped.
func LabelKey(s string) string {
	if isASCII(s) {
		return asciiLabelKey(s)
	}
	var k keyBuilder
	k.b.Grow(len(s))
	for _, r := range s {
		k.add(r)
	}
	return k.b.String()
}

// keyBuilder writes a LabelKey rune by rune, as LabelTokens splits and
// lowers the runes and a space joins the words: one string, where joining
// the tokens built one per word and one for the list first.
type keyBuilder struct {
	b      strings.Builder
	inWord bool // the last rune written continues a word
	any    bool // a word is written: the next one follows a space
}

func (k *keyBuilder) add(r rune) {
	if r < utf8.RuneSelf {
		c := asciiLower(byte(r))
		if !isASCIIWordByte(c) {
			k.inWord = false
			return
		}
		if !k.inWord && k.any {
			k.b.WriteByte(' ')
		}
		k.b.WriteByte(c)
		k.inWord, k.any = true, true
		return
	}
	switch wideKeyRune(r) {
	case keyOwnWord:
		if k.any {
			k.b.WriteByte(' ')
		}
		k.b.WriteRune(toLower(r))
		k.inWord, k.any = false, true
	case keyInWord:
		if !k.inWord && k.any {
			k.b.WriteByte(' ')
		}
		k.b.WriteRune(toLower(r))
		k.inWord, k.any = true, true
	default:
		k.inWord = false
	}
}

// keyRuneKind is what a rune is to LabelKey's words.
type keyRuneKind uint8

const (
	keyBreak   keyRuneKind = iota // no word's: it ends one
	keyInWord                     // a letter or digit of a word
	keyOwnWord                    // a CJK rune, a word of its own
)

// wideKeyRune is the kind of a rune beyond ASCII (an ASCII rune is in a
// word when isASCIIWordByte lowered): keyBuilder and keyWords read runes
// alike through it.
func wideKeyRune(r rune) keyRuneKind {
	switch {
	case isCJK(r):
		return keyOwnWord
	case isAlnum(r):
		return keyInWord
	}
	return keyBreak
}

// asciiLabelKey is LabelKey of an ASCII s, built in one allocation, or none
// when s is a key already.
func asciiLabelKey(s string) string {
	if isASCIIKey(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !isASCIIWordByte(c) {
			inWord = false
			continue
		}
		if !inWord && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
		inWord = true
	}
	return b.String()
}

// isASCIIKey reports an ASCII s in LabelKey form: lowercase words joined
// by single spaces.
func isASCIIKey(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isASCIIWordByte(c) && (c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return false
		}
	}
	return true
}

type token struct {
	text       string
	start, end int // rune offsets
}

// LabelTokens lowercases s and splits it into words, dropping punctuation so
// "TOTAL(INCL.GST)" and "total incl gst" read alike. Chinese and Japanese
// write no spaces, so each of their characters is a token of its own and
// "消費税" is found inside "うち消費税".
func LabelTokens(s string) []string {
	if words, ok := asciiLabelWords(s); ok {
		return words
	}
	// The words are the key's: two allocations, not one per word.
	key := LabelKey(s)
	out := make([]string, 0, strings.Count(key, " ")+1)
	for w := range strings.SplitSeq(key, " ") {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func labelTokens(s string) []token {
	if isASCII(s) {
		return asciiLabelTokens(s)
	}
	return runeLabelTokens(s)
}

// runeLabelTokens is labelTokens of any s: the words of its LabelKey,
// built rune by rune, placed where their runes are. Their texts are cut
// from the key, one string for all of them.
func runeLabelTokens(s string) []token {
	var out []token
	var k keyBuilder
	k.b.Grow(len(s))
	pos := 0
	for _, r := range s {
		continues, n := k.inWord, k.b.Len()
		k.add(r)
		switch {
		case k.b.Len() == n: // no word's rune
		case continues && k.inWord:
			out[len(out)-1].end = pos + 1
		default: // a word starts, or a CJK rune is one
			out = append(out, token{start: pos, end: pos + 1})
		}
		pos++
	}
	key, i := k.b.String(), 0
	for w := range strings.SplitSeq(key, " ") {
		if w != "" {
			out[i].text = w
			i++
		}
	}
	return out
}

// asciiLabelTokens is labelTokens of an ASCII s: a byte is a rune, so each
// token is a slice of s lowercased once instead of a string of its own.
func asciiLabelTokens(s string) []token {
	low := strings.ToLower(s)
	out := make([]token, 0, asciiTokenCount(low))
	eachASCIIToken(low, func(start, end int) { out = append(out, token{text: low[start:end], start: start, end: end}) })
	return out
}

// eachASCIIToken calls f with the bounds of each word of the lowercased
// ASCII text low, in order.
func eachASCIIToken(low string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(low); i++ {
		if isASCIIWordByte(low[i]) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i)
			start = -1
		}
	}
	if start >= 0 {
		f(start, len(low))
	}
}

// asciiLabelWords is LabelTokens of an ASCII s, false when s is not
// ASCII. One pass tells that, counts the words and sees whether any
// letter is a capital; the words are then cut from s, or from its lowered
// copy when it holds a capital (the issuer checks ask it of many lines).
func asciiLabelWords(s string) ([]string, bool) {
	n, in := 0, false
	var seen uint8
	for i := 0; i < len(s); i++ {
		c := asciiWordClass[s[i]]
		seen |= c
		w := c&wordByte != 0
		if w && !in {
			n++
		}
		in = w
	}
	if seen&wideByte != 0 {
		return nil, false
	}
	low := s
	if seen&capitalByte != 0 {
		low = asciiLowered(s)
	}
	out := make([]string, 0, n)
	start := -1
	for i := 0; i < len(low); i++ {
		if isASCIIWordByte(low[i]) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, low[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, low[start:])
	}
	return out, true
}

// asciiLowered is strings.ToLower of an ASCII s that holds a capital,
// lowered on the stack and copied once when it is short: ToLower writes
// its copy a byte at a time.
func asciiLowered(s string) string {
	var buf [256]byte
	if len(s) > len(buf) {
		return strings.ToLower(s)
	}
	b := buf[:len(s)]
	for i := range b {
		b[i] = asciiLower(s[i])
	}
	return string(b)
}

// asciiWordClass is, for each byte, whether it is a word's once lowered
// (isASCIIWordByte), a capital, or beyond ASCII.
var asciiWordClass = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case b >= utf8.RuneSelf:
			c[b] = wideByte
		case isASCIIWordByte(asciiLower(byte(b))):
			c[b] = wordByte
		}
		if 'A' <= b && b <= 'Z' {
			c[b] |= capitalByte
		}
	}
	return c
}()

const (
	wordByte = 1 << iota
	capitalByte
	wideByte
)

// asciiTokenCount is how many words eachASCIIToken finds in low, so the
// slice holding them is allocated once.
func asciiTokenCount(low string) int {
	n, in := 0, false
	for i := 0; i < len(low); i++ {
		w := isASCIIWordByte(low[i])
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// isASCIIWordByte is a lowercased ASCII byte labelTokens keeps in a word:
// a letter, a digit or "&".
func isASCIIWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '&'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isCJK(r rune) bool {
	// No Han, Hiragana or Katakana code point is below U+2E80: most runes
	// are answered without the tables, and the CJK Unified Ideographs
	// (U+4E00 to U+9FFF, all Han) without a search.
	return r >= 0x2E80 && (uint32(r)-0x4E00 < 0xA000-0x4E00 || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana))
}

type lexHit struct {
	start, end int // token indexes, end exclusive
	e          *lexEntry
}

// Classify reads the label segment next to a number (the text between it and
// the previous number or clause break) and decides its role: the nearest
// label that is not a qualifier of another one, with the qualifiers around
// it ("total sales (excl. GST)" is a subtotal; "GST included in total" is a
// total, not a tax).
func (lx *Lexicon) Classify(seg string) LabelVerdict {
	toks := labelTokens(seg)
	if len(toks) == 0 {
		return LabelVerdict{}
	}
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.text
	}
	var hits []lexHit
	for k, w := range words {
		for i := range lx.byFirst[w] {
			e := &lx.byFirst[w][i]
			n := len(e.tokens)
			if k+n <= len(words) && tokensEqual(words[k:k+n], e.tokens) {
				hits = append(hits, lexHit{start: k, end: k + n, e: e})
			}
		}
	}
	if len(hits) == 0 {
		return LabelVerdict{}
	}
	// Drop hits covered by a longer one ("total" inside "total incl gst").
	// Hits come in start order, so one pass keeps each start's longest hit
	// when it reaches past every earlier one: linear, however many labels a
	// long segment holds.
	var kept []lexHit
	reach := -1
	for i := 0; i < len(hits); {
		longest := hits[i]
		j := i
		for ; j < len(hits) && hits[j].start == hits[i].start; j++ {
			if hits[j].end > longest.end {
				longest = hits[j]
			}
		}
		if longest.end > reach {
			kept = append(kept, longest)
			reach = longest.end
		}
		i = j
	}
	nonTax := false
	for _, h := range kept {
		if h.e.role != RoleTax {
			nonTax = true
		}
	}
	excluded, included := false, false
	var best *lexHit
	for i := range kept {
		h := &kept[i]
		before := window(words, h.start-2, h.start)
		after := window(words, h.end, h.end+1)
		if h.e.role == RoleTax && nonTax && (anyIn(before, modifierWords) || best != nil && anyIn(after, modifierWords)) {
			excluded = excluded || anyIn(before, exclusionWords)
			included = included || anyIn(before, inclusionWords) || anyIn(after, inclusionWords)
			continue
		}
		if h.e.role == RoleOther && best != nil && anyIn(window(words, h.start-1, h.start), modifierWords) {
			continue // "total after rounding"
		}
		if best != nil && h.start < best.end {
			continue // "sub total rm": "total rm" starts inside "sub total"
		}
		best = h
	}
	if best == nil {
		return LabelVerdict{}
	}
	v := LabelVerdict{Role: best.e.role, Label: best.e.key, Start: toks[best.start].start, End: toks[best.end-1].end, OK: true}
	if v.Role == RoleTotal {
		if excluded || anyIn(words[best.end:], exclusionWords) {
			v.Role, v.Excluded = RoleSubtotal, true
		}
		v.Final = finalTotalLabels[best.e.key]
		v.Inclusive = included || anyIn(words[best.start:], inclusionWords)
	}
	return v
}

func window(toks []string, a, b int) []string {
	a = max(a, 0)
	b = min(b, len(toks))
	if a >= b {
		return nil
	}
	return toks[a:b]
}

func tokensEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// AmountRoles is the role the heuristics give each amount printed in text,
// in text order (RoleNone when no label names it). A Generator that reads
// roles on its own (providers/local) is tested against it.
func AmountRoles(text string, s *Schema) []Role {
	rs := []rune(text)
	money := findLabelSets(rs, "", foldRunes(rs, foldSpaces), s.labelSets(), nil, nil)[0]
	got := labelAmounts(rs, lineStartsOf(rs), findAmounts(rs, "", scanDates(rs, "", nil), nil), money, nil)
	out := make([]Role, len(got))
	for i, a := range got {
		out[i] = a.role
	}
	return out
}
