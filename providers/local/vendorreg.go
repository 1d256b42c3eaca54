package local

import (
	"regexp"
	"strings"
)

// regLabelRE is a company-registration label: the number that a register
// (Malaysia's SSM/ROC, a German Handelsregister, a Japanese 法人番号 or
// qualified-invoice number) gives the issuing company. A tax registration
// (GST, VAT, USt-IdNr) is deliberately not one: those lines are printed
// anywhere in a header and do not point at the line above them.
var regLabelRE = regexp.MustCompile(`(?i)^\s*\(?\s*(?:(?:co(?:mpany|mp)?|roc|brn|crn|reg(?:istration)?|registered|handelsregister|hrb|hra|amtsgericht|kvk|siren|rcs|法人番号|登録番号)\.?\s*)+(?:no\.?|number|nr\.?|#)?\s*[:：.]?\s*`)

// regNumberRE is a registration number alone: digits with at most a short
// letter prefix and a check letter ("872981-V", "JM0761170-K",
// "002022599 - U", "HRB 12345", "T1234567890123").
var regNumberRE = regexp.MustCompile(`^(?i:(?:no\.?\s*)?[A-Z]{0,3}\s?\d{5,}(?:\s*-\s*[A-Z]{1,2}|[A-Z])?)$`)

// trailingRegNumberRE is a registration number in brackets ending a name
// line: "ANZEL ADVERTISING (M) SDN BHD (759765-H)".
var trailingRegNumberRE = regexp.MustCompile(`\(\s*([^()]+?)\s*\)\s*$`)

// isRegNumber reports whether s (brackets and a registration label already
// removed) is a registration number.
func isRegNumber(s string) bool {
	return regNumberRE.MatchString(strings.TrimSpace(s))
}

// regLine reports whether a whole line is a company registration number,
// with or without a registration label and brackets.
func regLine(t string) bool {
	t = strings.TrimSpace(t)
	if t == "" {
		return false
	}
	if loc := regLabelRE.FindStringIndex(t); loc != nil && loc[1] > 0 {
		t = t[loc[1]:]
	}
	t = strings.TrimSpace(strings.Trim(strings.TrimSpace(t), "()"))
	return isRegNumber(t)
}

// registeredName reports whether the letterhead name is the one a company
// registration number belongs to: the number printed in brackets at the end
// of the name's own line, or alone on the line right below it. That is a
// second printed thing tied to this line (a register's number is printed
// with the registered name), not the line's position alone. A name read
// over several lines is not helped: the number confirms where the name
// ends, not where it starts.
func (d *doc) registeredName(name string) bool {
	end := min(len(d.lines), 15)
	for li := 0; li < end; li++ {
		t := strings.TrimSpace(d.lines[li].text)
		if cleanName(t) != name {
			continue
		}
		if m := trailingRegNumberRE.FindStringSubmatch(t); m != nil {
			inner := m[1]
			if loc := regLabelRE.FindStringIndex(inner); loc != nil {
				inner = inner[loc[1]:]
			}
			if isRegNumber(inner) {
				return true
			}
		}
		return li+1 < len(d.lines) && regLine(d.lines[li+1].text)
	}
	return false
}

// damagedWord reports a word of name that is one letter off a legal-suffix
// word ("ENTYERPRISE", "ENTERORISE", "GMBI" is too short to tell): the
// scan or OCR damaged the name, so the text read is probably not the name
// the issuer uses, however surely the line is the letterhead.
func damagedWord(name string) (string, bool) {
	for _, t := range tokens(name) {
		if len(t) < 5 || isSuffixWord(t) {
			continue
		}
		for _, s := range legalSuffixes {
			if len(s) == 1 && len(s[0]) >= 5 && s[0] != t && oneEditApart(t, s[0]) {
				return t, true
			}
		}
	}
	return "", false
}

// oneEditApart reports whether a and b differ by one inserted, deleted or
// replaced byte.
func oneEditApart(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}
