package local

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Names: how a line or a labelled value is read as a name (what is trimmed
// off it, where it ends) and when a line cannot be one.

// nameLike reports whether a letterhead line could be a business name.
func nameLike(t string) bool {
	orig := t
	t = cleanName(t)
	letters, digits := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	if letters < 2 || strings.HasPrefix(strings.TrimSpace(orig), "(") || strings.Contains(t, "@") {
		return false
	}
	if headerRE.MatchString(t) || noiseRE.MatchString(t) || cjkTitleRE.MatchString(t) || addressRE.MatchString(t) || addresseeLine(t) {
		return false
	}
	if digits > 3 {
		return false
	}
	// Running text: several lowercase words, or a sentence.
	lower := 0
	for _, w := range strings.Fields(t) {
		if r := []rune(w)[0]; unicode.IsLower(r) {
			lower++
		}
	}
	if lower >= 2 || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, ",") {
		return false
	}
	return !strings.Contains(t, ": ")
}

// nextLabelRE is another label on a labelled name's line: a word and a colon.
var nextLabelRE = regexp.MustCompile(`\s+[\pL.]{2,12}\s?[:：]`)

var trailingRegRE = regexp.MustCompile(`\s*\(([^()]*)\)\s*$`)

var leadingRE = regexp.MustCompile(`^[\s*#"'.:-]+|[\s*#"':-]+$`)

// cleanName trims decoration and a trailing registration number:
// "VIVOPAC MARKETING SDN BHD (1070687-M)", "**ROYALTEA**", and a trailing
// alias after a complete name ("株式会社さくら商事 (Sakura Shoji Co., Ltd.)").
func cleanName(s string) string {
	// A byte-order mark is not part of a name (a file saved by Notepad).
	s = strings.TrimSpace(strings.ReplaceAll(s, "\ufeff", ""))
	for range 3 {
		m := trailingRegRE.FindStringSubmatchIndex(s)
		if m == nil {
			break
		}
		inner := s[m[2]:m[3]]
		rest := strings.TrimSpace(s[:m[0]])
		restHasSuffix := hasLegalSuffix(rest)
		if rest != "" && (hasDigit(inner) || restHasSuffix && len(tokens(inner)) > 1) {
			s = rest
			continue
		}
		break
	}
	if i := strings.Index(s, "("); i > 0 && hasDigit(s[i:]) && !strings.Contains(s[i:], ")") {
		s = strings.TrimSpace(s[:i]) // "S/B(930311-W" cut by a line break
	}
	// A registration number after the legal suffix, unbracketed, and what
	// follows it: "KING'S CONFECTIONERY S/B 273500-U (KSB)".
	if ws := strings.Fields(s); len(ws) > 2 {
		if i := slices.IndexFunc(ws, hasDigit); i >= 2 {
			if head := strings.Join(ws[:i], " "); hasLegalSuffix(head) {
				s = head
			}
		}
	}
	s = leadingRE.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// cutName ends a labelled name at the first comma, angle bracket, clause,
// column gap or next label ("Oakridge Home Goods   Fulfilled by Amazon",
// "Servicios Aztlán S.C. RFC: SCA150312AB7").
func cutName(s string) string {
	if m := nextLabelRE.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	for _, sep := range []string{"  ", "\t", " <", ", ", "; ", " - ", " | "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimSpace(s)
	if ws := strings.Fields(s); len(ws) > 1 && abbreviatedForm(ws[len(ws)-1]) {
		return s // "Ltda.", "S.r.l.", "S.C.": the dot is the name's
	}
	return strings.TrimRight(s, ".")
}

// abbreviatedForm reports a legal form written as an abbreviation.
func abbreviatedForm(w string) bool {
	core := strings.TrimRight(w, ".")
	if strings.Contains(core, ".") {
		return true // S.r.l., S.C., B.V.
	}
	switch strings.ToLower(core) {
	case "ltd", "ltda", "inc", "co", "corp", "bhd", "pty", "pte", "plc", "llc", "cia", "sa", "sl", "srl", "spa":
		return true
	}
	return false
}

// capitalRun takes the capitalized words that open s: "Globex Ltd below" is
// "Globex Ltd".
func capitalRun(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		core := strings.TrimRight(w, ".,;:!?")
		if core == "" {
			break
		}
		r := []rune(core)[0]
		if unicode.IsUpper(r) || unicode.IsDigit(r) || core == "&" || len(out) > 0 && (core == "of" || core == "and" || core == "de") {
			out = append(out, core)
			if core != w {
				break
			}
			continue
		}
		break
	}
	for len(out) > 0 && (out[len(out)-1] == "of" || out[len(out)-1] == "and" || out[len(out)-1] == "de") {
		out = out[:len(out)-1]
	}
	return strings.Join(out, " ")
}

// runningText reports a line of prose (several lowercase words), where
// "bill from X" and "paid X" name a vendor; on a receipt "PAID" labels money.
func runningText(t string) bool {
	n := 0
	for _, w := range strings.Fields(t) {
		if unicode.IsLower([]rune(w)[0]) {
			n++
		}
	}
	return n >= 3
}

func paymentWord(s string) bool {
	switch strings.ToLower(strings.Fields(s)[0]) {
	case "visa", "mastercard", "amex", "cash", "card", "by", "in", "paypal", "eftpos", "cc":
		return true
	}
	return false
}

// restates reports whether every word of short is a word of name (letters
// and digits only: BEN'S is BENS), so short is name's short form, not a
// brand or a person's name that could belong before it.
func restates(short, name string) bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(name) {
		words[alnum(w)] = true
	}
	n := 0
	for _, w := range strings.Fields(short) {
		a := alnum(w)
		if a == "" {
			continue
		}
		if !words[a] {
			return false
		}
		n += len([]rune(a))
	}
	return n >= 3
}

// alnum is w's letters and digits, lowercased.
func alnum(w string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, w)
}

// addresseeLine reports a line that ends in a Japanese addressee suffix
// ("株式会社 青葉商事 御中", "山田 様"): the customer, never the issuer.
func addresseeLine(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasSuffix(t, "御中") || strings.HasSuffix(t, "様") || strings.HasSuffix(t, "殿")
}
