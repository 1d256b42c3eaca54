package golden

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/currency"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Candidate is one value printed in a document that a Generator could
// plausibly put in a field instead of the labelled one.
type Candidate struct {
	Value any `json:"value"`
	// Line is the 1-based line the value was read from; LineText is that line.
	Line     int    `json:"line"`
	LineText string `json:"line_text"`
}

// nameLines is how far from the top a line may be and still be offered as a
// name: parties are named in a document's head, and every line of a long
// document would swamp the figure with lines no Generator would take.
const nameLines = 10

// Candidates returns the confusable values for field f printed in text, other
// than the labelled want (nil when the label says the document states none:
// then every candidate is wrong). It works from the field's kind only, so any
// schema gets candidates: every other amount for money, every other date for
// dates, identifier-like tokens for identifiers, name-like lines near the top
// (alone and two adjacent ones joined) for text, and codes or currency signs
// printed for currencies. Values are
// deduplicated; the first line a value occurs on is kept.
func Candidates(f pipeline.Field, text string, want any) []Candidate {
	d := newCandDoc(text)
	var out []Candidate
	seen := map[string]bool{}
	add := func(key string, v any, line int) {
		if seen[key] || FieldCorrect(f, want, v) {
			return
		}
		seen[key] = true
		out = append(out, Candidate{Value: v, Line: line + 1, LineText: d.lineText(line)})
	}
	switch f.Kind {
	case pipeline.KindMoney:
		for _, a := range pipeline.FindAmounts(text) {
			if d.moneyLike(a) {
				add(strconv.FormatFloat(math.Round(a.Value*100)/100, 'f', 2, 64), a.Value, a.Line)
			}
		}
	case pipeline.KindDate:
		for _, m := range pipeline.FindDates(text) {
			// The other reading of the token the label came from (03/04 read
			// month-first) is offered too: it is the date a Generator used to
			// the other convention writes, and the gate must settle the order
			// from the document (a date that proves it, the issuer's locale)
			// or send it to review.
			for _, iso := range m.ISO {
				add(iso, iso, d.lineOf(m.Start))
			}
		}
	case pipeline.KindIdentifier:
		for i, l := range d.lines {
			for _, tok := range identifierTokens(l) {
				add(normIdentifier(tok), tok, i)
			}
		}
	case pipeline.KindCurrency:
		for i, l := range d.lines {
			for _, code := range currencyTokens(l) {
				add(code, code, i)
			}
		}
	default:
		// Each name-like line, and each two adjacent ones read as one name:
		// a name cut at a line break and one run on into the next line are
		// the two ways a multi-line letterhead is misread.
		n, prev, prevLine := 0, "", -1
		for i, l := range d.lines {
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if n++; n > nameLines {
				break
			}
			if !nameLike(t) {
				prev = ""
				continue
			}
			add(normText(t), t, i)
			if prev != "" {
				joined := prev + " " + t
				add(normText(joined), joined, prevLine)
			}
			prev, prevLine = t, i
		}
	}
	return out
}

// candDoc is a text split for candidate generation: runes for the code-point
// offsets the pipeline's finders return, and lines.
type candDoc struct {
	rs         []rune
	lines      []string
	lineStarts []int // rune offset where each line starts
}

func newCandDoc(text string) *candDoc {
	d := &candDoc{rs: []rune(text), lines: strings.Split(text, "\n")}
	off := 0
	for _, l := range d.lines {
		d.lineStarts = append(d.lineStarts, off)
		off += len([]rune(l)) + 1
	}
	return d
}

func (d *candDoc) lineOf(runeOff int) int {
	lo, hi := 0, len(d.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lineStarts[mid] <= runeOff {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func (d *candDoc) lineText(i int) string {
	if i < 0 || i >= len(d.lines) {
		return ""
	}
	return strings.TrimSpace(d.lines[i])
}

// moneyLike keeps the numbers a Generator would take for an amount: written
// with a decimal or grouping separator, or next to a currency sign or code.
// Bare integers (quantities, postcodes, phone fragments) and percentages are
// left out: no Generator reads them as an amount, so they would only inflate
// the catch figure.
func (d *candDoc) moneyLike(a pipeline.AmountMatch) bool {
	if a.End < len(d.rs) && d.rs[a.End] == '%' {
		return false
	}
	if strings.ContainsAny(a.Raw, ".,") {
		return true
	}
	before := string(d.rs[max(0, a.Start-4):a.Start])
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:] // a sign ending the previous line is not this number's
	}
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	for _, sign := range []string{"$", "€", "£", "¥", "￥", "RM", "円"} {
		if strings.HasSuffix(before, sign) {
			return true
		}
	}
	after := string(d.rs[a.End:min(len(d.rs), a.End+2)])
	return strings.HasPrefix(strings.TrimSpace(after), "円")
}

// identifierTokens are the tokens of a line that could be read as a
// reference number: at least three characters with a digit, split on spaces,
// colons, commas and brackets (a label glued to its value, "NO:538358-H",
// gives the value; "K074-001096(06/12/2016)" gives both), with wrapping
// punctuation trimmed. Amounts written with two decimals are money,
// not identifiers.
func identifierTokens(line string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(":,()[]{}", r) }) {
		tok = strings.Trim(tok, `#*()[]{}"'.,;`)
		if len([]rune(tok)) < 3 || !strings.ContainsFunc(tok, unicode.IsDigit) || isTwoDecimalAmount(tok) ||
			strings.HasSuffix(tok, "%") {
			continue
		}
		out = append(out, tok)
	}
	return out
}

func isTwoDecimalAmount(tok string) bool {
	tok = strings.TrimLeft(tok, "-+$€£¥RM")
	i := strings.LastIndexAny(tok, ".,")
	if i < 0 || len(tok)-i-1 != 2 {
		return false
	}
	for _, r := range strings.NewReplacer(".", "", ",", "").Replace(tok) {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// currencySigns map the signs printed next to amounts to the code a
// Generator would most likely write for them.
var currencySigns = []struct{ sign, code string }{
	{"RM", "MYR"}, {"$", "USD"}, {"€", "EUR"}, {"£", "GBP"}, {"¥", "JPY"}, {"￥", "JPY"}, {"円", "JPY"},
}

// currencyTokens are the ISO 4217 codes written as words in a line (three
// capital letters standing alone: "SEK" in an address is one, which is the
// point) and the codes of currency signs printed in it.
func currencyTokens(line string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) != 3 || strings.ToUpper(w) != w {
			continue
		}
		if u, err := currency.ParseISO(w); err == nil && u.String() == w {
			out = append(out, w)
		}
	}
	for _, s := range currencySigns {
		if s.sign == "RM" {
			if hasWord(line, "RM") {
				out = append(out, s.code)
			}
			continue
		}
		if strings.Contains(line, s.sign) {
			out = append(out, s.code)
		}
	}
	return out
}

// hasWord reports whether w stands in line with no letter on either side
// ("RM12.00" yes, "FIRM" no).
func hasWord(line, w string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], w)
		if j < 0 {
			return false
		}
		j += i
		beforeOK := j == 0 || !unicode.IsLetter(rune(line[j-1]))
		end := j + len(w)
		afterOK := end >= len(line) || !unicode.IsLetter(rune(line[end]))
		if beforeOK && afterOK {
			return true
		}
		i = j + 1
	}
}

// nameLike is a line mostly of letters, short enough to be a name or a
// title: the lines a Generator might take for a party's name. Labelled lines
// ("TEL: …"), e-mail and web addresses, and lines with more than two digits
// (street numbers, postcodes, registration numbers) are not.
func nameLike(line string) bool {
	if strings.ContainsAny(line, ":@") || strings.Contains(strings.ToLower(line), "www.") {
		return false
	}
	letters, digits, other := 0, 0, 0
	for _, r := range line {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case !unicode.IsSpace(r):
			other++
		}
	}
	return letters >= 3 && digits <= 2 && letters >= other+digits && len([]rune(line)) <= 80
}
