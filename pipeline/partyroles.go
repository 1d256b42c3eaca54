package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Roles a document gives parties other than its issuer, beyond the buyer:
// who a construction payment is certified for and by, the doctor who
// treated a clinic's patient, the place of supply or building site, the
// carrier of a freight bill, a debtor; the factoring company an invoice is
// assigned to; the bank a payment line names; the account holder a direct
// debit is drawn from.

// roleFieldLabels name such a party when a colon follows them ("Employer:
// Halden County Council", "Bauherr:", "Treating dentist:", "Carrier:").
// Without the colon they are words of names ("Carrier Corporation",
// "Foster Architects", "Project Engineering Ltd"), so they are no customer
// labels.
var roleFieldLabels = tokenizeLabels([]string{
	// The employer or client of a construction contract, in several
	// languages.
	"employer", "the employer", "employer s agent", "bauherr", "bauherrin", "bauherrschaft", "maître d ouvrage",
	"maitre d ouvrage", "maître de l ouvrage", "comitente", "stazione appaltante", "opdrachtgever", "bouwheer",
	"contratante", "dono da obra", "dueño de la obra", "promotor", "inwestor", "byggherre", "rakennuttaja",
	// Who supervises or certifies the works for the employer.
	"quantity surveyor", "cost consultant", "architect", "architekt", "architecte", "architetto", "arquitecto",
	"engineer", "contract administrator", "project manager", "certifier", "bauleitung", "objektüberwachung",
	"maître d œuvre", "maître d oeuvre", "maitre d oeuvre", "maitre d œuvre", "direttore dei lavori",
	"direzione lavori", "dirección facultativa", "director de obra", "direção de obra", "toezichthouder",
	// The place of supply, the site or the project a bill is for.
	"place of supply", "site", "site address", "project", "jobsite", "job site", "bauvorhaben", "baustelle",
	"projekt", "leistungsort", "lieferort", "chantier", "projet", "lieu de livraison", "lieu d exécution",
	"obra", "proyecto", "lugar de prestación", "lugar de entrega", "cantiere", "progetto", "luogo di consegna",
	// A municipality or other place a service is supplied in or
	// delivered to.
	"place of performance", "place of delivery", "delivery location", "delivery place", "municipality",
	"município", "municipio", "local da prestação", "local da prestação do serviço", "local de prestação",
	"municipio de prestación", "lugar de prestación del servicio", "lieu de prestation", "luogo di prestazione",
	"ort der leistung", "erfüllungsort", "plaats van levering", "leveringsplaats", "toimituspaikka", "leveransort",
	"leveringssted", "miejsce dostawy", "miejsce świadczenia", "místo plnění", "místo dodání", "teljesítés helye",
	"locul livrării", "mjesto isporuke", "teslim yeri", "место поставки", "место оказания услуг",
	"tempat penyerahan", "nơi giao hàng", "service address", "supply address", "installation address",
	"verbrauchsstelle", "abnahmestelle", "lieferstelle", "point de livraison", "punto di fornitura",
	"punto de suministro", "dirección de suministro",
	// A fleet's or company's account a fuel or service receipt is
	// charged to.
	"fleet", "fleet customer", "fleet account", "fleet name", "fleet card", "company account", "corporate account",
	"corporate customer", "account customer", "firmenkunde", "flottenkunde", "flotte", "client entreprise",
	"cliente empresa", "cliente corporativo",
	// More carriers: who transports the goods.
	"transported by", "carried by", "transport company", "trucking company", "vessel", "operating carrier",
	// The doctor or dentist who treated the patient of a clinic's bill.
	"treating dentist", "treating doctor", "treating physician", "attending physician", "attending doctor",
	"rendering provider", "referring physician", "referring doctor", "behandelnder arzt", "behandelnde ärztin",
	"behandelnder zahnarzt", "behandelnde zahnärztin", "überweisender arzt", "médecin traitant",
	"médecin prescripteur", "médico tratante", "médico responsable", "odontólogo tratante", "dentista tratante",
	"medico curante", "medico prescrittore", "behandelend arts", "behandelaar", "主治医", "担当医", "담당의", "주치의",
	// The carrier of a freight bill or of a seller's parcel: the
	// forwarder or the seller issues the bill.
	"carrier", "shipping line", "airline", "haulier", "courier", "transporteur", "frachtführer", "transportista",
	"vettore", "vervoerder", "ship via", "shipped via", "shipping method", "shipping carrier", "delivery method",
	"versandart", "versand", "versanddienstleister", "paketdienst", "mode d expédition", "mode de livraison",
	"expédition", "spedizione", "corriere", "envío", "método de envío", "empresa de transporte", "transportadora",
	"forma de envio", "verzending", "verzendmethode", "leveringsmetode", "fraktsätt",
	// The channel or agency a stay or trip was sold through.
	"channel", "sales channel", "canal", "canal de venta", "canal de venda", "canal de reserva", "ota", "agency",
	"travel agency", "booking agent", "agence", "agence de voyage", "agencia", "agencia de viajes", "agência",
	"agenzia", "reisebüro", "buchungsportal", "vertriebskanal", "portal", "tour operator", "reiseveranstalter",
	// The practitioner of a clinic's bill by a plain role, and the
	// practice that sent a laboratory its sample.
	"dentist", "doctor", "physician", "practitioner", "clinician", "therapist", "hygienist", "seen by",
	"treated by", "arzt", "ärztin", "zahnarzt", "zahnärztin", "médecin", "médico", "medico", "dentista",
	"odontólogo", "tandläkare", "tandlæge", "tannlege", "tandarts", "lekarz", "врач", "einsender",
	"referring practice", "überweiser", "zuweiser", "requesting physician", "ordering physician",
	"ordering provider", "prescriber",
	// Who owes: a reminder's or a statement's debtor.
	"debtor", "schuldner", "débiteur", "deudor", "debitore", "debiteur", "gäldenär", "skyldner",
})

// fieldPartyLabel is the insurer or role label that before ends in,
// followed by a colon, or "".
func fieldPartyLabel(before string) string {
	t := strings.TrimRight(before, " \t")
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return ""
	}
	toks := LabelTokens(t)
	if l := suffixLabel(toks, insurerFieldSuffixes); l != "" {
		return l
	}
	return suffixLabel(toks, roleFieldSuffixes)
}

// roleFieldLabel is the role label that before ends in, followed by a
// colon, or "".
func roleFieldLabel(before string) string {
	t := strings.TrimRight(before, " \t")
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return ""
	}
	return suffixLabel(LabelTokens(t), roleFieldSuffixes)
}

// suffixLabels are tokenized labels indexed by their last word, for
// suffixLabel: a line's words are compared only with the labels that end
// in its last word, where they were compared with every label.
type suffixLabels struct {
	labels [][]string
	// byLast lists, for each last word, the indexes of the labels that
	// end in it, in ascending order. Read-only after init.
	byLast map[string][]int
	// lens has, for each first byte of a last word, the bit of its length
	// (63 for 63 bytes or more): most words are in no label, and the map
	// is not asked about them.
	lens [256]uint64
}

func newSuffixLabels(labels [][]string) *suffixLabels {
	s := &suffixLabels{labels: labels, byLast: map[string][]int{}}
	for i, l := range labels {
		if len(l) > 0 {
			w := l[len(l)-1]
			s.byLast[w] = append(s.byLast[w], i)
			if w != "" {
				s.lens[w[0]] |= 1 << min(len(w), 63)
			}
		}
	}
	return s
}

// suffixLabel is the first label of labels (in their order) that toks end
// with, its words joined by a space, or "".
func suffixLabel(toks []string, labels *suffixLabels) string {
	if len(toks) == 0 {
		return ""
	}
	if w := toks[len(toks)-1]; w != "" && labels.lens[w[0]]&(1<<min(len(w), 63)) == 0 {
		return ""
	}
	for _, i := range labels.byLast[toks[len(toks)-1]] {
		if l := labels.labels[i]; len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) {
			return strings.Join(l, " ")
		}
	}
	return ""
}

// The label lists suffixLabel reads, indexed. Read-only after init.
var insurerFieldSuffixes, roleFieldSuffixes = newSuffixLabels(insurerFieldLabels), newSuffixLabels(roleFieldLabels)
var debitHolderSuffixes, companyFieldSuffixes = newSuffixLabels(debitHolderLabels), newSuffixLabels(companyFieldLabels)

// assignmentPhrases say an invoice or its claim was assigned to a factoring
// company, or name the agent that collects it: the party after them, on
// their line, is paid, it did not sell. They are read from the line's
// start, not only the few words before the name ("Créance cédée à X :
// règlement exclusivement à X").
var assignmentPhrases = tokenizeLabels([]string{"assigned to", "has been assigned", "been transferred to",
	"was transferred to", "is transferred to", "transferida a", "transferido a", "transferida al", "endosada a",
	"cedida à", "cedido ao", "cedido à", "cedida ao", "overgedragen aan", "siirretty", "loovutatud", "cedēts",
	"przelana na", "cesja na rzecz", "postoupena", "postúpená", "engedményezve", "cesionată", "cesionat",
	"ustupljeno", "ustupljena", "odstopljena", "цедирано", "εκχωρήθηκε", "уступлено", "framseld", "dialihkan",
	"chuyển nhượng", "转让给", "轉讓給", "overdratt til",
	"overdraget til", "överlåten till", "överlåtits till", "abgetreten an", "abgetreten", "cédée à", "cédé à",
	"cédée au", "subrogé", "subrogée", "cedido a", "cedida a", "cedido al", "ceduto a", "ceduta a", "gecedeerd aan",
	"collection agent", "collection agency", "collections agency", "inkassobüro", "inkasso", "agence de recouvrement",
	"factoring company", "factor"})

// assignmentStems are parts of every assignment phrase, for a line to hold
// one before its words are compared.
var assignmentStems = newStemSet("assign", "overdra", "överlåt", "abgetret", "cédé", "subrog", "cedid", "cedut",
	"gecedeerd", "collection", "inkasso", "recouvrement", "factor", "transferred", "transferid", "endosada",
	"overgedragen", "siirretty", "loovutatud", "cedēts", "przelana", "cesja", "postoup", "postúp", "engedmény",
	"cesionat", "ustuplj", "odstoplj", "цедиран", "εκχωρ", "уступлен", "framseld", "dialihkan", "chuyển nhượng",
	"转让", "轉讓")

// assignedAfterStems follow the name of the party a claim was assigned to
// in languages that put the verb last.
var assignedAfterStems = newStemSet("temlik", "abgetreten", "譲渡", "양도")

// phraseIn is the first of phrases that occurs in toks, joined, or "".
func phraseIn(toks []string, phrases [][]string) string {
	for _, p := range phrases {
		if tokenRun(toks, p) >= 0 {
			return strings.Join(p, " ")
		}
	}
	return ""
}

// debitHolderLabels name the holder of the account a direct debit is drawn
// from: the payer, though a seller's own bank details use the same words
// for the payee. They count only near a direct-debit word.
var debitHolderLabels = tokenizeLabels([]string{"account holder", "account name", "kontoinhaber", "kontoinhaberin",
	"titulaire du compte", "titular de la cuenta", "titular", "intestatario", "rekeninghouder"})

// debitStems mark a direct debit in several languages.
var debitStems = newStemSet("direct debit", "lastschrift", "prélèvement", "prelevement", "domiciliación",
	"addebito", "sdd", "autogiro", "incasso", "debit order", "débito automático", "debito automatico")

// roleOnLine is the role that the text before sp on line li (from ls)
// gives the party at sp, or "": an assignment phrase, or the holder of a
// debited account.
func (d *doc) roleOnLine(li, ls int, sp Span) string {
	before := d.str(ls, sp.Start)
	if _, le := d.lineBounds(li); sp.End < le {
		// "… Anadolu Faktoring A.Ş.'ye temlik edilmiştir": the verb after
		// the name.
		if after := d.str(sp.End, min(le, sp.End+24)); d.stemsOnLine(assignedAfterScreen, assignedAfterStems, after) {
			return "assigned"
		}
	}
	if strings.TrimSpace(before) == "" {
		// The name under "… overdratt til og skal betales til:".
		if li > 0 {
			ps, pe := d.lineBounds(li - 1)
			if prev := d.str(ps, pe); d.stemsOnLine(assignmentScreen, assignmentStems, prev) {
				if l := phraseIn(LabelTokens(prev), assignmentPhrases); l != "" {
					return l
				}
			}
		}
		return ""
	}
	if d.stemsOnLine(assignmentScreen, assignmentStems, before) {
		if l := phraseIn(LabelTokens(before), assignmentPhrases); l != "" {
			return l
		}
	}
	if !d.stemsOnLine(holderScreen, holderStems, before) {
		return ""
	}
	if l := suffixLabel(LabelTokens(before), debitHolderSuffixes); l != "" && d.nearDebit(li) {
		return l
	}
	return ""
}

// holderStems are parts of every debit holder label.
var holderStems = newStemSet("holder", "account name", "inhaber", "titula", "titular", "intestatario", "houder")

// nearDebit reports a direct-debit word on line li or the three lines above.
func (d *doc) nearDebit(li int) bool {
	for k := li; k >= 0 && k >= li-3; k-- {
		ls, le := d.lineBounds(k)
		if debitStems.in(d.str(ls, le)) {
			return true
		}
	}
	return false
}

// bankStems are parts of the words banks are named with; bankWords the
// words themselves, bankSuffixes the ends of one-word names (Swedbank,
// Handelsbanken, Íslandsbanki), bankMarks the word in scripts a name runs
// into without a space.
var bankStems = newStemSet("bank", "banc", "banq", "sparkasse", "caixa", "caja", "銀行", "银行", "은행", "банк",
	"ธนาคาร", "بنك", "مصرف", "בנק")

var bankWords = map[string]bool{"banco": true, "banque": true, "banca": true, "sparkasse": true, "caixa": true,
	"caja": true, "bancorp": true, "bancaria": true}

var bankSuffixes = []string{"bank", "banken", "banki", "bankinn", "banka", "bankası", "bankasi"}

var bankMarks = []string{"銀行", "银行", "은행", "банк", "ธนาคาร", "بنك", "مصرف", "בנק"}

// accountWords mark the line of a payment's account: its number, its
// codes, a transfer; accountMarks do in scripts without spaces.
var accountWords = map[string]bool{"iban": true, "bic": true, "swift": true, "account": true, "acct": true,
	"konto": true, "kontonummer": true, "compte": true, "cuenta": true, "conto": true, "rekening": true,
	"rekeningnummer": true, "sort": true, "routing": true, "aba": true, "clabe": true, "cbu": true, "bsb": true,
	"ifsc": true, "transfer": true, "überweisung": true, "virement": true, "transferencia": true, "bonifico": true,
	"overboeking": true, "счет": true, "счёт": true}

var accountMarks = []string{"口座", "账号", "帳號", "賬號", "계좌", "บัญชี", "حساب", "חשבון"}

// bankName reports a name that is a bank's: a bank word among its words,
// or a CJK bank suffix.
func bankName(name string) bool {
	if !bankStems.in(name) {
		return false
	}
	for _, s := range bankMarks {
		if strings.Contains(name, s) {
			return true
		}
	}
	return slices.ContainsFunc(LabelTokens(name), func(w string) bool {
		return bankWords[w] || slices.ContainsFunc(bankSuffixes, func(s string) bool { return strings.HasSuffix(w, s) })
	})
}

// paymentBankAt reports a bank printed on a payment line: a name right
// after an account number ("IBAN: MT84 … (HSBC Malta)"), or a bank's name
// on a line, or beside one, that names an account or a transfer ("IBAN
// NL91 ABNA 0417 1643 00 (ABN AMRO Bank N.V.)"); not when the document's
// head names it as its issuer (a bank's own statement).
func (d *doc) paymentBankAt(li int, sp Span) bool {
	name := d.str(sp.Start, sp.End)
	ls, _ := d.lineBounds(li)
	// bankAfterAccount and bankName read the text for their stems first.
	after := d.mayHoldStems(accountScreen) && bankAfterAccount(d.str(ls, sp.Start))
	if !after && !(d.mayHoldStems(bankScreen) && bankName(name)) {
		return false
	}
	if h, ok := d.headIssuer(true); ok && sameName(h.name, name) {
		return false
	}
	if after {
		return true
	}
	for k := max(li-1, 0); k < len(d.lineStarts) && k <= li+1; k++ {
		ls, le := d.lineBounds(k)
		line := d.str(ls, le)
		if slices.ContainsFunc(LabelTokens(line), func(w string) bool { return accountWords[w] }) ||
			slices.ContainsFunc(accountMarks, func(m string) bool { return strings.Contains(line, m) }) {
			return true
		}
	}
	return false
}

// companyFieldLabels name the guest's company on a hotel's folio
// ("Empresa: Tecnologías Albor S.A."); elsewhere a form's "Company:" may
// be the issuer's own, so they count only beside a stay's words.
var companyFieldLabels = tokenizeLabels([]string{"company", "company name", "empresa", "firma", "société",
	"societe", "azienda", "bedrijf", "firmenname", "yritys", "företag", "firmanavn"})

// companyStems are parts of every company field label.
var companyStems = newStemSet("compan", "empresa", "firma", "soci", "azienda", "bedrijf", "yritys", "företag")

// stayStems are the words of a hotel stay.
var stayStems = newStemSet("guest", "room", "folio", "arrival", "departure", "check-in", "check in", "gast",
	"zimmer", "anreise", "abreise", "chambre", "arrivée", "départ", "habitaci", "llegada", "salida", "huésped",
	"quarto", "chegada", "hóspede", "camera", "arrivo", "partenza", "ospite", "kamer", "aankomst", "ankomst",
	"huone")

// guestCompanyLabel is the company label that before (the text before a
// name on line li) ends in, with its colon, when a stay's words stand
// within three lines of it, or "".
func (d *doc) guestCompanyLabel(li int, before string) string {
	t := strings.TrimRight(before, " \t")
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return ""
	}
	if !companyStems.in(t) {
		return ""
	}
	l := suffixLabel(LabelTokens(t), companyFieldSuffixes)
	if l == "" {
		return ""
	}
	for k := max(li-3, 0); k < len(d.lineStarts) && k <= li+3; k++ {
		ls, le := d.lineBounds(k)
		if stayStems.in(d.str(ls, le)) {
			return l
		}
	}
	return ""
}

// practitionerName reports a person's name with a practitioner's title
// before it ("Dr. Sarah Lim", "Dott.ssa Bianchi", "MUDr. Novák") or degree
// after it ("Sarah Lim, DMD"), and no legal form ("Dr. Oetker GmbH" is a
// company).
func practitionerName(name string) bool {
	n := strings.TrimSpace(name)
	first, _, _ := strings.Cut(n, " ")
	first = strings.TrimRight(first, ".,")
	title := equalFoldAny(first, practitionerTitles, practitionerTitleSet)
	if !title {
		last := strings.Trim(n[strings.LastIndexAny(n, " ,")+1:], ".")
		title = equalFoldAny(last, practitionerDegrees, practitionerDegreeSet)
	}
	return title && !hasLegalForm(n)
}

var practitionerTitles = []string{"dr", "dra", "drs", "dott", "dott.ssa", "doctor", "doktor", "prof", "mudr", "mddr",
	"lek", "dr.med", "dr.med.dent"}

var practitionerDegrees = []string{"dds", "dmd", "md", "bds", "mbbs", "dpm", "mds", "frcs", "mrcp", "mrcgp", "facp"}

// practitionerUnder reports an issuer label that names a practitioner: on
// a clinic's statement "Provider: Dr. Sarah Lim, DMD" is who treated the
// patient, not who bills.
func practitionerUnder(label, name string) bool {
	return (label == "provider" || label == "service provider") && practitionerName(name)
}

// factoringStems mark a factoring company's name.
var factoringStems = newStemSet("factoring", "faktoring", "factoraje", "affacturage", "факторинг", "保理",
	"ファクタリング", "팩토링")

// checkNamedRole flags a name that says what it is, printed below a head
// that names another issuer: a factoring company ("Tanzanite Trade
// Factoring Ltd" in the payment instructions), or a practitioner ("Dr.
// Sarah Lim, DMD") on a clinic's statement. A factoring company's or a
// doctor's own letterhead names them at the head, and they pass.
func (d *doc) checkNamedRole(c *FieldCheck, val string) bool {
	factoring := factoringStems.in(val)
	if !factoring && !practitionerName(val) {
		return false
	}
	h, ok := d.headIssuer(true)
	if !ok || sameName(h.name, val) {
		return false
	}
	for _, sp := range c.Spans {
		if d.lineOf(sp.Start) <= h.line+1 {
			return false // in the letterhead's block
		}
	}
	line := d.lineOf(c.Spans[0].Start) + 1
	if factoring {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is a factoring company (its name says so) the document names on line %d, not the seller: its head prints %q", val, line, h.name))
	} else {
		c.penalize(factorNotIssuer, fmt.Sprintf("%q is a practitioner the document names on line %d, not the issuer: its head prints %q", val, line, h.name))
	}
	return true
}

// accountStems are parts of the account words a line must hold before a
// bank after its account number is looked for.
var accountStems = newStemSet("iban", "account", "acct", "konto", "compte", "cuenta", "conto", "rekening", "a/c")

// bankConnectors may stand between an account number and the bank that
// holds it: "IBAN MT84 … (HSBC Malta)", "account 0150123456 at CRDB".
var bankConnectors = map[string]bool{"at": true, "with": true, "bei": true, "chez": true, "en": true, "in": true,
	"i": true, "presso": true, "bij": true}

// bankAfterAccount reports a name printed right after an account number on
// an account line (before is the line up to it): the bank that holds the
// account. A holder has a label of its own ("Kontoinhaber:", "in the name
// of"), which is no connector.
func bankAfterAccount(before string) bool {
	if !accountStems.in(before) {
		return false
	}
	digits := 0
	for _, r := range before {
		if unicode.IsDigit(r) {
			digits++
		}
	}
	if digits < 6 {
		return false // no account number, only a label
	}
	words := strings.FieldsFunc(before, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("(,·|", r) })
	last := len(words) - 1
	for last >= 0 && !strings.ContainsFunc(words[last], unicode.IsDigit) {
		last--
	}
	for _, w := range words[last+1:] {
		if !bankConnectors[strings.ToLower(w)] {
			return false
		}
	}
	return true
}
