package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ourDocument and yourDocument are how an e-mail's writer says who issued
// the document it is about: "our invoice" is the sender's, "your invoice"
// the recipient's.
var ourDocument = []string{"our invoice", "our bill", "our quote", "unsere rechnung", "notre facture", "nuestra factura",
	"la nostra fattura", "onze factuur"}
var yourDocument = []string{"your invoice", "your bill", "your quote", "ihre rechnung", "votre facture", "su factura",
	"la vostra fattura", "uw factuur"}

// checkEmailParty flags an issuer name that is the e-mail domain of the
// party the message says did not issue the document: with "please find
// our invoice", the To: address's company is the customer; with "your
// invoice", the From: address's is.
func (d *doc) checkEmailParty(c *FieldCheck, val string) {
	if c.Factor < 1 {
		return
	}
	t := d.trigrams()
	if !t.mayHoldAny(mailLineScreen) || !d.headMailLine() {
		return
	}
	ours, yours := t.mayHoldAny(ourDocumentScreen), t.mayHoldAny(yourDocumentScreen)
	if !ours && !yours {
		return // neither is printed: the lowered text is not needed
	}
	low := d.lowerText()
	ours, yours = ours && containsAny(low, ourDocument), yours && containsAny(low, yourDocument)
	if ours == yours {
		return // no claim, or both: nothing settles who wrote what
	}
	other := "to:"
	if yours {
		other = "from:"
	}
	name := compactName(val)
	if len(name) < 4 {
		return
	}
	for li := 0; li < len(d.lineStarts) && li < 12; li++ {
		ls, le := d.lineBounds(li)
		line := strings.ToLower(strings.TrimSpace(d.str(ls, le)))
		if !strings.HasPrefix(line, other) {
			continue
		}
		_, domain, ok := strings.Cut(line, "@")
		if !ok {
			continue
		}
		host, _, _ := strings.Cut(domain, ".")
		if compactName(host) == name {
			c.penalize(factorNotIssuer, fmt.Sprintf("%q is the e-mail domain of the %s address (%s), and the message calls the document %s",
				val, strings.TrimSuffix(other, ":"), strings.TrimSpace(line[len(other):]), map[bool]string{true: "ours", false: "yours"}[ours]))
			return
		}
	}
}

// headMailLine reports whether one of the first twelve lines could be the
// "To:" or "From:" line with an address that checkEmailParty reads; most
// documents have none and are not lowercased whole.
func (d *doc) headMailLine() bool {
	for li := 0; li < len(d.lineStarts) && li < 12; li++ {
		ls, le := d.lineBounds(li)
		a, b := trimmedRunes(d.rs, ls, le)
		if (lowerPrefix(d.rs[a:b], "to:") || lowerPrefix(d.rs[a:b], "from:")) && slices.Contains(d.rs[a:b], '@') {
			return true
		}
	}
	return false
}

// lowerPrefix reports whether rs lowercased starts with the ASCII prefix p.
func lowerPrefix(rs []rune, p string) bool {
	if len(rs) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if unicode.ToLower(rs[i]) != rune(p[i]) {
			return false
		}
	}
	return true
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// compactName is a name's letters and digits, lowercased: "Harbor Foods"
// and the host "harborfoods" agree.
func compactName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
