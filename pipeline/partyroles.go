package pipeline

import (
	"slices"
	"strings"
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
	// The doctor or dentist who treated the patient of a clinic's bill.
	"treating dentist", "treating doctor", "treating physician", "attending physician", "attending doctor",
	"rendering provider", "referring physician", "referring doctor", "behandelnder arzt", "behandelnde ärztin",
	"behandelnder zahnarzt", "behandelnde zahnärztin", "überweisender arzt", "médecin traitant",
	"médecin prescripteur", "médico tratante", "médico responsable", "odontólogo tratante", "dentista tratante",
	"medico curante", "medico prescrittore", "behandelend arts", "behandelaar", "主治医", "担当医", "담당의", "주치의",
	// The carrier of a freight bill: the forwarder or the seller issues it.
	"carrier", "shipping line", "airline", "haulier", "courier", "transporteur", "frachtführer", "transportista",
	"vettore", "vervoerder",
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
	if l := suffixLabel(toks, insurerFieldLabels); l != "" {
		return l
	}
	return suffixLabel(toks, roleFieldLabels)
}

// roleFieldLabel is the role label that before ends in, followed by a
// colon, or "".
func roleFieldLabel(before string) string {
	t := strings.TrimRight(before, " \t")
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return ""
	}
	return suffixLabel(LabelTokens(t), roleFieldLabels)
}

// suffixLabel is the label of labels that toks end with, or "".
func suffixLabel(toks []string, labels [][]string) string {
	for _, l := range labels {
		if len(l) > 0 && len(l) <= len(toks) && slices.Equal(toks[len(toks)-len(l):], l) {
			return strings.Join(l, " ")
		}
	}
	return ""
}

// assignmentPhrases say an invoice or its claim was assigned to a factoring
// company, or name the agent that collects it: the party after them, on
// their line, is paid, it did not sell. They are read from the line's
// start, not only the few words before the name ("Créance cédée à X :
// règlement exclusivement à X").
var assignmentPhrases = tokenizeLabels([]string{"assigned to", "has been assigned", "overdratt til",
	"overdraget til", "överlåten till", "överlåtits till", "abgetreten an", "abgetreten", "cédée à", "cédé à",
	"cédée au", "subrogé", "subrogée", "cedido a", "cedida a", "cedido al", "ceduto a", "ceduta a", "gecedeerd aan",
	"collection agent", "collection agency", "collections agency", "inkassobüro", "inkasso", "agence de recouvrement",
	"factoring company", "factor"})

// assignmentStems are parts of every assignment phrase, for a line to hold
// one before its words are compared.
var assignmentStems = newStemSet("assign", "overdra", "överlåt", "abgetret", "cédé", "subrog", "cedid", "cedut",
	"gecedeerd", "collection", "inkasso", "recouvrement", "factor")

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
	if strings.TrimSpace(before) == "" {
		return ""
	}
	if assignmentStems.in(before) {
		toks := LabelTokens(before)
		for _, p := range assignmentPhrases {
			if tokenRun(toks, p) >= 0 {
				return strings.Join(p, " ")
			}
		}
	}
	if !holderStems.in(before) {
		return ""
	}
	if l := suffixLabel(LabelTokens(before), debitHolderLabels); l != "" && d.nearDebit(li) {
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
// words themselves.
var bankStems = newStemSet("bank", "banc", "banq", "sparkasse", "caixa", "caja", "銀行", "银行", "은행", "банк")

var bankWords = map[string]bool{"bank": true, "banco": true, "banque": true, "banca": true, "banka": true,
	"bankası": true, "bankasi": true, "sparkasse": true, "volksbank": true, "raiffeisenbank": true, "caixa": true,
	"caja": true, "bancorp": true, "bancaria": true, "banken": true, "банк": true}

// accountWords mark the line of a payment's account: its number, its
// codes, a transfer; accountMarks do in scripts without spaces.
var accountWords = map[string]bool{"iban": true, "bic": true, "swift": true, "account": true, "acct": true,
	"konto": true, "kontonummer": true, "compte": true, "cuenta": true, "conto": true, "rekening": true,
	"rekeningnummer": true, "sort": true, "routing": true, "aba": true, "clabe": true, "cbu": true, "bsb": true,
	"ifsc": true, "transfer": true, "überweisung": true, "virement": true, "transferencia": true, "bonifico": true,
	"overboeking": true, "счет": true, "счёт": true}

var accountMarks = []string{"口座", "账号", "帳號", "賬號", "계좌"}

// bankName reports a name that is a bank's: a bank word among its words,
// or a CJK bank suffix.
func bankName(name string) bool {
	if !bankStems.in(name) {
		return false
	}
	for _, s := range []string{"銀行", "银行", "은행"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return slices.ContainsFunc(LabelTokens(name), func(w string) bool { return bankWords[w] })
}

// paymentBankAt reports a bank's name at sp printed on a payment line: the
// line, or the one above it, names an account or a transfer ("IBAN NL91
// ABNA 0417 1643 00 (ABN AMRO Bank N.V.)").
func (d *doc) paymentBankAt(li int, sp Span) bool {
	if !bankName(d.str(sp.Start, sp.End)) {
		return false
	}
	for k := li; k >= 0 && k >= li-1; k-- {
		ls, le := d.lineBounds(k)
		line := d.str(ls, le)
		if slices.ContainsFunc(LabelTokens(line), func(w string) bool { return accountWords[w] }) ||
			slices.ContainsFunc(accountMarks, func(m string) bool { return strings.Contains(line, m) }) {
			return true
		}
	}
	return false
}
