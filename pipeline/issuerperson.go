package pipeline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A person in a role of the issuer's. A shop, a restaurant or a clinic
// names under a label the people who act for it (its owner, manager,
// cashier, waiter, pharmacist, contact person, signatory), and a reader
// who takes the first name under a label for the vendor returns one of
// them. The positive form: the document's first printed line names a
// business, the value is not that name, and the document prints the value
// only under a label that is not an issuer's. A person's name carries no
// legal form and no digit, and in Chinese, Japanese or Korean a few characters; a sole trader whose own name heads the
// document opens it, and one introduced by an issuer label ("From:") is
// passed before this rule runs.

// maxPersonWords is how many words a person's name may hold.
const maxPersonWords = 4

// checkPersonUnderLabel flags val, printed under the non-issuer label on
// line li, when the document's first line names another party and val is
// shaped as a person's name. It runs only where the head gave no evidence
// of its party that the other issuer rules read.
func (d *doc) checkPersonUnderLabel(c *FieldCheck, val, label string, li int) {
	if c.Factor < 1 || li == 0 || !personRole(label) || !personShaped(val) {
		return
	}
	head, hl := d.firstPrinted()
	if hl < 0 || hl >= li || !nameLike(head) || sameName(head, val) || strings.Contains(head, val) {
		return
	}
	if d.centsAbove(li) {
		return // below the head the other issuer rules place the value
	}
	c.penalize(factorUnplacedIssuer, fmt.Sprintf("%q is a person the document names under %q (line %d), not the issuer: its first line names %q",
		val, label, li+1, head))
}

// firstPrinted is the document's first printed line, trimmed, and its index.
func (d *doc) firstPrinted() (string, int) {
	for k := range d.lineStarts {
		ks, ke := d.lineBounds(k)
		if a, b := trimmedRunes(d.rs, ks, ke); a < b {
			return string(d.rs[a:b]), k
		}
	}
	return "", -1
}

// personShaped reports a name that can be a person's: one to four words
// of letters (a title's or an initial's dot allowed), no digit, no legal
// form.
func personShaped(val string) bool {
	if strings.ContainsFunc(val, func(r rune) bool { return unicode.IsDigit(r) || strings.ContainsRune("&@/()«»\"", r) }) {
		return false
	}
	if n := countWords(val); n == 0 || n > maxPersonWords {
		return false
	}
	if !strings.Contains(val, " ") && strings.ContainsFunc(val, unspacedScript) && utf8.RuneCountInString(val) > maxUnspacedPerson {
		return false // "杭州云帆科技有限公司": a company's name written without spaces
	}
	return !companyForm(val)
}

// maxUnspacedPerson is how many characters a person's name written
// without spaces holds in Chinese, Japanese or Korean ("김민수", "王小明").
const maxUnspacedPerson = 4

// unspacedScript reports a character of a script that writes a name
// without spaces between its words.
func unspacedScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana)
}

// personRoles are the words of labels that introduce a person acting for
// the issuer, not a party: its owner, manager, cashier, waiter, the one
// who served or signed, its doctor or pharmacist, its contact person.
var personRoles = map[string]bool{"owner": true, "proprietor": true, "manager": true, "cashier": true, "waiter": true,
	"server": true, "served": true, "attended": true, "doctor": true, "pharmacist": true, "contact": true, "signature": true,
	"signed": true, "signatory": true, "vlasnik": true, "blagajnik": true, "konobar": true, "계산원": true, "담당자": true,
	"대표자": true, "판매원": true, "المدير": true, "المالك": true, "الكاشير": true, "الصيدلي": true, "atendió": true,
	"atendido": true, "cajero": true, "cajera": true, "camarero": true, "mesero": true, "yhteyshenkilö": true,
	"kassa": true, "omistaja": true, "geschäftsführer": true, "inhaber": true, "kassierer": true, "bedienung": true,
	"ansprechpartner": true, "फार्मासिस्ट": true, "कैशियर": true, "प्रबंधक": true, "cassiere": true, "cameriere": true,
	"titolare": true, "caissier": true, "caissière": true, "serveur": true, "gérant": true, "signé": true,
	"atendente": true, "caixa": true, "gerente": true, "responsável": true, "médico": true, "farmacêutico": true}

// personRole reports a label holding a person's role word.
func personRole(label string) bool {
	if personRoles[strings.ToLower(label)] {
		return true // one word LabelTokens splits (a Devanagari vowel sign)
	}
	for _, t := range LabelTokens(label) {
		if personRoles[t] {
			return true
		}
	}
	return false
}
