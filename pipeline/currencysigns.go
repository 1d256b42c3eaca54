package pipeline

import (
	"fmt"
	"strings"
	"unicode"
)

// Currency signs several countries print for different currencies: "FCFA"
// is the West African franc (XOF) in Dakar and the Central African one
// (XAF) in Douala; "Rs" is the rupee of India, Sri Lanka, Pakistan, Nepal,
// Mauritius and the Seychelles; "L" the Honduran lempira, the Albanian lek
// and the Moldovan leu. Only the issuer's place says which: its country's
// name or capital, its telephone code, its tax identifier's label, its web
// domain. A code the place confirms passes; one another candidate's place
// contradicts is flagged; with no place (or places of two candidates) the
// sign decides nothing, and a code it alone would ground is flagged for a
// reader to confirm, unless the sign has a conventional reading (a bare
// "Rs" is India's) that the code is.

// placedSign is one such sign. codes are the currencies it may be; when
// primary, codes[0] is what it means where the document names no place.
// A letter sign counts only right before an amount with cents ("L 1,150.00").
//
// A sign grounds only its first grounds codes (all when 0); the others'
// places only contradict the first. Sri Lanka's, Pakistan's, Nepal's …
// "Rs" are not yet grounded by it: with them, records whose invoice number
// is another reference (silent under a label the checks do not rank)
// would be returned ok; their places still flag an INR.
type placedSign struct {
	sign    string
	codes   []string
	primary bool
	letter  bool
	grounds int
}

var (
	cfaCodes   = []string{"XOF", "XAF"}
	rupeeCodes = []string{"INR", "LKR", "PKR", "NPR", "MUR", "SCR"}
)

var placedSigns = []placedSign{
	{sign: "FCFA", codes: cfaCodes}, {sign: "F CFA", codes: cfaCodes}, {sign: "F.CFA", codes: cfaCodes},
	{sign: "CFA", codes: cfaCodes}, {sign: "francs CFA", codes: cfaCodes},
	{sign: "Rs", codes: rupeeCodes, primary: true, grounds: 1}, {sign: "Rs.", codes: rupeeCodes, primary: true, grounds: 1},
	{sign: "C$", codes: []string{"CAD", "NIO"}, primary: true},
	{sign: "lei", codes: []string{"RON", "MDL"}, primary: true}, {sign: "Lei", codes: []string{"RON", "MDL"}, primary: true},
	{sign: "L", codes: []string{"HNL", "ALL", "MDL"}, letter: true},
	{sign: "Q", codes: []string{"GTQ"}, letter: true},
	{sign: "K", codes: []string{"PGK", "MMK", "ZMW"}, letter: true},
	{sign: "B/.", codes: []string{"PAB"}},
}

// currencyPlaces are what places an issuer where a currency is used:
// country names in the languages printed there, capitals and large towns,
// tax identifiers' labels, telephone codes ("+221") and web domains
// (".sn", matched after a name). Read only for a document printing a
// placed sign.
var currencyPlaces = map[string][]string{
	"XOF": {"Sénégal", "Senegal", "Dakar", "NINEA", "+221", ".sn", "Côte d'Ivoire", "Cote d'Ivoire", "Côte d’Ivoire",
		"Ivory Coast", "Abidjan", "+225", ".ci", "Mali", "Bamako", "+223", ".ml", "Burkina Faso", "Ouagadougou", "+226",
		".bf", "Niger", "Niamey", "+227", ".ne", "Togo", "Lomé", "Lome", "+228", ".tg", "Bénin", "Benin", "Cotonou",
		"Porto-Novo", "IFU", "+229", ".bj", "Guinée-Bissau", "Guinea-Bissau", "Bissau", "+245", "UEMOA", "BCEAO"},
	"XAF": {"Cameroun", "Cameroon", "Douala", "Yaoundé", "Yaounde", "NIU", "+237", ".cm", "Gabon", "Libreville",
		"Port-Gentil", "+241", ".ga", "Brazzaville", "Pointe-Noire", "République du Congo", "Republic of the Congo", "+242",
		".cg", "Tchad", "Republic of Chad", "N'Djamena", "N’Djamena", "+235", ".td", "Centrafrique", "Centrafricaine",
		"Central African Republic", "Bangui", "+236", ".cf", "Guinée équatoriale", "Equatorial Guinea",
		"Guinea Ecuatorial", "Malabo", "+240", ".gq", "CEMAC", "BEAC"},
	"INR": {"India", "Bharat", "भारत", "GSTIN", "+91", ".in", "Mumbai", "New Delhi", "Delhi", "Bengaluru", "Bangalore",
		"Chennai", "Kolkata", "Hyderabad", "Pune"},
	"LKR": {"Sri Lanka", "ශ්\u200dරී ලංකා", "இலங்கை", "Colombo", "Kandy", "Galle", "+94", ".lk"},
	"PKR": {"Pakistan", "پاکستان", "Karachi", "Lahore", "Islamabad", "Rawalpindi", "NTN", "+92", ".pk"},
	"NPR": {"Nepal", "नेपाल", "Kathmandu", "काठमाडौं", "Pokhara", "Lalitpur", "+977", ".np"},
	"MUR": {"Mauritius", "Île Maurice", "Port Louis", "+230", ".mu"},
	"SCR": {"Seychelles", "Victoria, Mahé", "Mahé", "+248", ".sc"},
	"CAD": {"Canada", "Ontario", "Québec", "Quebec", "British Columbia", "Alberta", "Toronto", "Montréal", "Montreal",
		"Vancouver", "Ottawa", "Calgary", "HST", ".ca"},
	"NIO": {"Nicaragua", "Managua", "+505", ".ni", "córdobas", "cordobas"},
	"RON": {"România", "Romania", "București", "Bucuresti", "Bucharest", "Cluj", "Timișoara", "Iași", "CUI", "+40",
		".ro"},
	"MDL": {"Moldova", "Moldovei", "Chișinău", "Chisinau", "Кишинёв", "IDNO", "+373", ".md"},
	"HNL": {"Honduras", "Tegucigalpa", "San Pedro Sula", "RTN", "+504", ".hn", "lempiras"},
	"ALL": {"Shqipëri", "Shqipëria", "Shqiperi", "Albania", "Tiranë", "Tirana", "Durrës", "Durres", "NIPT", "+355", ".al"},
	"GTQ": {"Guatemala", "+502", ".gt", "quetzales"},
	"PGK": {"Papua New Guinea", "Papua Niugini", "Port Moresby", "+675", ".pg", "kina"},
	"MMK": {"Myanmar", "Burma", "Yangon", "Mandalay", "Naypyidaw", "+95", ".mm", "kyats"},
	"ZMW": {"Zambia", "Lusaka", "Ndola", "Kitwe", "TPIN", "+260", ".zm", "kwacha"},
	"PAB": {"Panamá", "Panama", "+507", ".pa", "balboas"},
}

// placedSignsOf lists, per currency, the placed signs it may be written
// with; built once, read-only.
var placedSignsOf = func() map[string][]int {
	m := map[string][]int{}
	for i, s := range placedSigns {
		codes := s.codes
		if s.grounds > 0 {
			codes = codes[:s.grounds]
		}
		for _, c := range codes {
			m[c] = append(m[c], i)
		}
	}
	return m
}()

// placedSignAt indexes placedSigns by the marker text amountCurrency
// reads beside an amount; built once, read-only.
var placedSignAt = func() map[string]int {
	m := map[string]int{}
	for i, s := range placedSigns {
		if !s.letter && !strings.Contains(s.sign, " ") {
			m[s.sign] = i
		}
	}
	return m
}()

// placedCode is the currency a placed sign is on this document: the one
// its issuer's place gives, else its conventional reading where the
// document names no place, else "".
func (d *doc) placedCode(s placedSign) string {
	place, _, several := d.placeOf(s.codes)
	switch {
	case place != "" && (s.grounds == 0 || place == s.codes[0]):
		return place
	case place != "":
		return ""
	case s.primary && !several:
		return s.codes[0]
	}
	return ""
}

// signSpans are the places the document prints sign s as a currency: in
// its own case, not inside a word, and a letter sign only before an amount
// with cents.
func (d *doc) signSpans(s placedSign) []Span {
	if s.letter {
		return letterSignSpans(d.rs, s.sign)
	}
	var out []Span
	for _, sp := range d.fold.find(foldNeedle(s.sign, foldSpaces)) {
		if d.printsSign(s, sp) {
			out = append(out, sp)
		}
	}
	return out
}

// printsSign reports whether sp, where s's folded text was found, prints s
// as a currency: in its own case, not inside a word.
func (d *doc) printsSign(s placedSign, sp Span) bool {
	if !isBounded(d.rs, sp, unicode.IsLetter) {
		return false
	}
	t := d.str(sp.Start, sp.End)
	return t == s.sign || strings.EqualFold(t, s.sign) && strings.ToUpper(s.sign) == s.sign
}

// placeOf reports which of codes the document places its issuer in:
// the one code whose places it names (and the words that say so), or
// "" with several true when it names places of more than one.
func (d *doc) placeOf(codes []string) (code, hint string, several bool) {
	for _, c := range codes {
		if h, ok := d.namesPlace(c); ok {
			if code != "" {
				return "", "", true
			}
			code, hint = c, h
		}
	}
	return code, hint, false
}

// namesPlace reports the first of currencyPlaces[c] the document prints.
func (d *doc) namesPlace(c string) (string, bool) {
	for _, p := range currencyPlaces[c] {
		sps := d.fold.find(foldNeedle(p, foldSpaces))
		for _, sp := range sps {
			switch {
			case p[0] == '+':
				// A telephone code: no digit before it, digits after (past one space).
				k := sp.End
				if k < len(d.rs) && d.rs[k] == ' ' {
					k++
				}
				if (sp.Start == 0 || !isDigit(d.rs[sp.Start-1])) && k < len(d.rs) && isDigit(d.rs[k]) {
					return p, true
				}
			case p[0] == '.':
				// A domain: after a name, ending the address.
				if sp.Start > 0 && isAlnum(d.rs[sp.Start-1]) && (sp.End == len(d.rs) || !isAlnum(d.rs[sp.End])) {
					return p, true
				}
			case strings.ToUpper(p) == p:
				// A label or abbreviation in capitals ("NINEA", "RTN"): as printed.
				if d.str(sp.Start, sp.End) == p && isBounded(d.rs, sp, isAlnum) {
					return p, true
				}
			default:
				// A name, capitalised as names are ("Mali", not "mali").
				if isBounded(d.rs, sp, isAlnum) && !unicode.IsLower(d.rs[sp.Start]) {
					return p, true
				}
			}
		}
	}
	return "", false
}

// checkPlacedSign judges a currency code that a placed sign on the document
// may stand for. It reports false, leaving the code to the other checks,
// when the document prints none of the code's placed signs, or when it
// names no place and the code is the sign's conventional reading.
func (d *doc) checkPlacedSign(c *FieldCheck, code string) bool {
	for _, i := range placedSignsOf[code] {
		s := placedSigns[i]
		spans := d.signSpans(s)
		if len(spans) == 0 {
			continue
		}
		place, hint, several := d.placeOf(s.codes)
		switch {
		case place == code:
			c.Spans, c.Grounded = spans, true
		case place != "":
			c.Spans, c.Grounded = spans, true
			c.penalize(factorContradiction, fmt.Sprintf("%q is the sign of %s; %q places the issuer where it means %s, not %s",
				s.sign, strings.Join(s.codes, ", "), hint, place, code))
		case s.primary && code == s.codes[0] && !several:
			return false
		case len(s.codes) == 1:
			c.Spans, c.Grounded = spans, true
			c.penalize(factorUnplaced, fmt.Sprintf("%q alone may be %s or another letter (a size, a unit); the document names no place where it is the currency",
				s.sign, code))
		default:
			c.Spans, c.Grounded = spans, true
			why := "the document names no place that says which"
			if several {
				why = "the document names places of more than one of them"
			}
			c.penalize(factorUnplaced, fmt.Sprintf("%q is the sign of %s, and %s: %s is not stated", s.sign, strings.Join(s.codes, ", "), why, code))
		}
		return true
	}
	return false
}
