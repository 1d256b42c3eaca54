package pipeline

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// originalMessageWords mark the separator a mail client writes above the
// earlier message it quotes in a reply ("-----Original Message-----").
var originalMessageWords = []string{"original message", "ursprüngliche nachricht", "message d'origine",
	"mensaje original", "messaggio originale", "oorspronkelijk bericht", "mensagem original", "originalmeddelande",
	"wiadomość oryginalna", "原始邮件", "元のメッセージ"}

// wroteWords end the line a mail client writes above a quoted reply ("On
// 2 Feb 2026, Tom Hale wrote:").
var wroteWords = []string{"wrote:", "schrieb:", "a écrit :", "a écrit:", "escribió:", "ha scritto:", "schreef:",
	"skrev:", "napisał:", "escreveu:"}

// findQuoted is the offset where the earlier message a reply quotes begins,
// or -1 when the text quotes none. The message itself must come first: a
// text that is all quote has nothing of its own to prefer.
func (d *doc) findQuoted() int {
	own := false
	// A run of five hyphens is looked for once in an ASCII text, not on
	// each of its lines: most texts hold none.
	t := d.text()
	if !mayQuote(t) {
		return -1
	}
	dashes := len(t) != len(d.rs) || strings.Contains(t, "-----")
	for i, ls := range d.lineStarts {
		le := len(d.rs)
		if i+1 < len(d.lineStarts) {
			le = d.lineStarts[i+1]
		}
		if a, b := trimmedRunes(d.rs, ls, le); a == b || !d.mayOpenQuoteAt(a, b, dashes) {
			own = own || a < b
			continue
		}
		line := strings.TrimSpace(d.str(ls, le))
		if own && opensQuote(line) {
			return ls
		}
		own = own || line != ""
	}
	return -1
}

// mayQuote reports whether some line of text t may open a quote
// (opensQuote): t holds a '>', a run of five hyphens or three underscores,
// or a colon that ends one of wroteWords. Most texts hold none of them, and
// their lines are then not read one by one.
func mayQuote(t string) bool {
	if strings.IndexByte(t, '>') >= 0 || strings.Contains(t, "-----") || strings.Contains(t, "___") {
		return true
	}
	for i := 0; ; {
		k := strings.IndexByte(t[i:], ':')
		if k < 0 {
			return false
		}
		i += k + 1
		if endsInWroteWord(t[:i]) {
			return true
		}
	}
}

// wroteByTail lists wroteWords by the rune before their colon, lowered:
// an ASCII one by itself, the others under 0.
var wroteByTail = func() (by [utf8.RuneSelf][]string) {
	for _, w := range wroteWords {
		r, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(w, ":"))
		if r >= utf8.RuneSelf {
			r = 0
		}
		by[r] = append(by[r], w)
	}
	return by
}()

// endsInWroteWord reports whether s, ending in a colon, ends in one of
// wroteWords once lowered (as strings.ToLower lowers, rune by rune). Only
// the words that end in the rune before the colon are compared: "Date:"
// and "12:30" end in none a mail client writes.
func endsInWroteWord(s string) bool {
	if len(s) < 2 {
		return false // every word is longer than its colon
	}
	// The rune before the colon, decoded only beyond ASCII: most colons
	// follow a digit or a letter of a label.
	r := rune(s[len(s)-2])
	if r >= utf8.RuneSelf {
		r, _ = utf8.DecodeLastRuneInString(s[:len(s)-1])
	}
	if r = toLower(r); r >= utf8.RuneSelf {
		r = 0
	}
	for _, w := range wroteByTail[r] {
		if lowerHasSuffix(s, w) {
			return true
		}
	}
	return false
}

// lowerHasSuffix reports whether s, lowered rune by rune, ends in w.
func lowerHasSuffix(s, w string) bool {
	for w != "" {
		if s == "" {
			return false
		}
		wr, wn := utf8.DecodeLastRuneInString(w)
		r, n := utf8.DecodeLastRuneInString(s)
		if toLower(r) != wr {
			return false
		}
		s, w = s[:len(s)-n], w[:len(w)-wn]
	}
	return true
}

// opensQuote reports a line a mail client writes above the message a reply
// quotes: a quoted line, a separator naming the original message, or a
// line ending in "wrote:". An ASCII line is compared in any case as it is.
func opensQuote(line string) bool {
	if strings.HasPrefix(line, ">") {
		return true
	}
	separator := strings.Contains(line, "-----") || strings.HasPrefix(line, "___")
	if !isASCII(line) {
		low := strings.ToLower(line)
		for _, w := range originalMessageWords {
			if separator && strings.Contains(low, w) {
				return true
			}
		}
		for _, w := range wroteWords {
			if strings.HasSuffix(low, w) && len([]rune(line)) < 200 {
				return true
			}
		}
		return false
	}
	for _, w := range originalMessageWords {
		if separator && asciiContainsFold(line, w) {
			return true
		}
	}
	for _, w := range wroteWords {
		if len(line) >= len(w) && len(line) < 200 && foldPrefix(line[len(line)-len(w):], w) {
			return true
		}
	}
	return false
}

// mayOpenQuoteAt is mayOpenQuote of the runes [a, b), read from the text's
// bytes when it is ASCII: a run of hyphens is then searched for, not
// counted rune by rune, and only when the text holds one (dashes).
func (d *doc) mayOpenQuoteAt(a, b int, dashes bool) bool {
	t := d.text()
	if len(t) != len(d.rs) {
		return mayOpenQuote(d.rs[a:b])
	}
	line := t[a:b]
	return line[0] == '>' || line[len(line)-1] == ':' || strings.HasPrefix(line, "___") || dashes && strings.Contains(line, "-----")
}

// mayOpenQuote reports whether a trimmed line has what every line that
// opens a quote has: a leading ">" or "___", a run of five hyphens, or a
// trailing ":" (every wroteWords ends in one). Most lines have none, and
// are not turned into lowercased strings.
func mayOpenQuote(line []rune) bool {
	n := len(line)
	if line[0] == '>' || line[n-1] == ':' || n >= 3 && line[0] == '_' && line[1] == '_' && line[2] == '_' {
		return true
	}
	dashes := 0
	for _, r := range line {
		if r != '-' {
			dashes = 0
		} else if dashes++; dashes == 5 {
			return true
		}
	}
	return false
}

// trimmedRunes is rs[ls:le] without its leading and trailing white space,
// as strings.TrimSpace trims it.
func trimmedRunes(rs []rune, ls, le int) (int, int) {
	for ls < le && unicode.IsSpace(rs[ls]) {
		ls++
	}
	for le > ls && unicode.IsSpace(rs[le-1]) {
		le--
	}
	return ls, le
}

// checkOtherDocument flags a value the text prints only where it quotes or
// cites another document (inside the earlier message a reply quotes, or on
// the line that names the invoice a credit note corrects), when the
// document itself states that field: the quoted or corrected invoice's
// number, date or figures are not this document's.
func (d *doc) checkOtherDocument(c *FieldCheck, f Field, val string) {
	if len(c.Spans) == 0 {
		return
	}
	d.checkBeforeCorrection(c, f, val)
	q := d.quotedFrom()
	for _, sp := range c.Spans {
		if !d.elsewhere(sp.Start, q) {
			return
		}
	}
	if !d.statesOutside(f, q) {
		return
	}
	first := c.Spans[0].Start
	if q >= 0 && first >= q {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed only in the quoted earlier message (from line %d), not in the message itself",
			val, d.lineOf(q)+1))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed only where the document refers to another invoice (line %d)",
		val, d.lineOf(first)+1))
}

// elsewhere reports a position inside the quoted earlier message (from q,
// -1 for none) or after a reference to another invoice on its line.
func (d *doc) elsewhere(p, q int) bool {
	if q >= 0 && p >= q {
		return true
	}
	ls := d.lineStarts[d.lineOf(p)]
	k := sort.Search(len(d.fieldHits), func(i int) bool { return d.fieldHits[i].start >= ls })
	for ; k < len(d.fieldHits) && d.fieldHits[k].end <= p; k++ {
		if referenceSet[d.fieldHits[k].key] {
			return true
		}
	}
	return false
}

// statesOutside reports whether the document states field f outside what
// it quotes or cites: an identifier or date after the field's own label, or
// an amount a role label names.
func (d *doc) statesOutside(f Field, q int) bool {
	own := fieldLabelOwner(f.Name)
	switch f.Kind {
	case KindIdentifier:
		for _, h := range d.fieldHits {
			if h.role == own && !d.elsewhere(h.start, q) {
				if _, ok := tokenAfter(d.rs, h.end); ok {
					return true
				}
			}
		}
	case KindDate:
		for _, m := range d.dates {
			if h, ok := d.labelBefore(m.Start); ok && h.role == own && !d.elsewhere(m.Start, q) {
				return true
			}
		}
	case KindMoney:
		for _, a := range d.amounts {
			if a.role != RoleNone && a.role != roleOther && !d.elsewhere(a.Start, q) {
				return true
			}
		}
	}
	return false
}

// referenceSet is referenceLabels in LabelKey form.
var referenceSet = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range referenceLabels {
		m[LabelKey(l)] = true
	}
	return m
}()

// otherDocument reports an amount that belongs to another document than the
// one in hand (see elsewhere).
func (d *doc) otherDocument(a labelledAmount, q int) bool { return d.elsewhere(a.Start, q) }

// beforeRowWords head the row of a correcting invoice that repeats the
// corrected invoice's figures ("Było:", "Vorher", "Before correction");
// afterRowWords head the rows that make it a correcting table (the figures
// after it, or the correction itself).
var beforeRowWords = map[string]bool{"było": true, "bylo": true, "przed korektą": true, "wartość przed korektą": true,
	"before": true, "before correction": true, "was": true, "original": true, "vorher": true, "bisher": true,
	"vor korrektur": true, "ursprünglich": true, "avant": true, "avant correction": true, "antes": true,
	"antes de la corrección": true, "prima": true, "prima della rettifica": true, "voorheen": true, "före": true}

var afterRowWords = map[string]bool{"jest": true, "po korekcie": true, "wartość po korekcie": true, "korekta": true,
	"różnica": true, "after": true, "after correction": true, "now": true, "correction": true, "difference": true,
	"nachher": true, "neu": true, "korrektur": true, "differenz": true, "après": true, "correction totale": true,
	"después": true, "corrección": true, "diferencia": true, "dopo": true, "rettifica": true, "differenza": true,
	"na": true, "efter": true, "correctie": true, "verschil": true}

// rowHead is the label that starts line l, in LabelKey form: its words up
// to the first digit or sign.
func (d *doc) rowHead(l int) string {
	ls, q := d.rowHeadSpan(l)
	return LabelKey(d.str(ls, q))
}

// rowHeadSpan is the runes of line l that rowHead keys.
func (d *doc) rowHeadSpan(l int) (int, int) {
	ls := d.lineStarts[l]
	le := len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	q := ls
	for q < le && !isDigit(d.rs[q]) && d.rs[q] != '-' && d.rs[q] != '(' {
		q++
	}
	return ls, q
}

// rowHeadIn reports whether rowHead(l) is in set. The key is written into
// a buffer on the stack: most rows' heads are in no set, and were a string
// each for every amount a money field grounds.
func (d *doc) rowHeadIn(l int, set map[string]bool) bool {
	ls, q := d.rowHeadSpan(l)
	var buf [64]byte
	b, ok := appendLabelKey(buf[:0], d.rs[ls:q])
	return ok && set[string(b)]
}

// appendLabelKey appends LabelKey(string(rs)) to b as keyBuilder writes it; ok
// is false when the key would not fit b's capacity (no set holds one so
// long).
func appendLabelKey(b []byte, rs []rune) (_ []byte, ok bool) {
	inWord, any := false, false
	for _, r := range rs {
		if r < utf8.RuneSelf {
			c := asciiLower(byte(r))
			if !isASCIIWordByte(c) {
				inWord = false
				continue
			}
			if !inWord && any {
				b = append(b, ' ')
			}
			b = append(b, c)
			inWord, any = true, true
		} else {
			kind := wideKeyRune(r)
			if kind == keyBreak {
				inWord = false
				continue
			}
			if any && (kind == keyOwnWord || !inWord) {
				b = append(b, ' ')
			}
			b = utf8.AppendRune(b, toLower(r))
			inWord, any = kind == keyInWord, true
		}
		if len(b) > cap(b)-utf8.UTFMax-1 {
			return b, false
		}
	}
	return b, true
}

// checkBeforeCorrection flags an amount a correcting invoice prints only on
// its "before" row when the table also prints the figures after the
// correction or the correction itself: the before row is the corrected
// invoice's, not this document's.
func (d *doc) checkBeforeCorrection(c *FieldCheck, f Field, val string) {
	if f.Kind != KindMoney || len(c.Spans) == 0 {
		return
	}
	for _, sp := range c.Spans {
		if !d.rowHeadIn(d.lineOf(sp.Start), beforeRowWords) {
			return
		}
	}
	head := d.rowHead(d.lineOf(c.Spans[len(c.Spans)-1].Start))
	for l := range d.lineStarts {
		if d.rowHeadIn(l, afterRowWords) {
			c.penalize(factorWrongLabel, fmt.Sprintf("%s is on the %q row, the figures before the correction; the document corrects them (row %q, line %d)",
				val, head, d.rowHead(l), l+1))
			return
		}
	}
}

// twoLabelledDates flags a date when the document gives its own label to
// another date too ("Date: 21/10/2026" and, lower, "the invoice date is
// 2026-01-01"): two labelled values for one field leave the choice to the
// reader, whichever one the Generator took.
func (d *doc) twoLabelledDates(c *FieldCheck, f Field, val string, q int, quotedOut bool) {
	own := fieldLabelOwner(f.Name)
	ownKey := d.directDateLabel(own, val)
	for _, m := range d.dates {
		if m.ident || readsAs(m.ISO, val) || quotedOut && m.Start >= q {
			continue
		}
		h, ok := d.labelBefore(m.Start)
		if !ok || h.role != own || !d.namesDirectly(h, Span{Start: m.Start, End: m.End}) {
			continue
		}
		if d.otherEventDate(own, h, m) {
			continue // "Inspection date": another event's
		}
		if ownKey != "" && ownKey != h.key && !strings.Contains(h.key, " ") && strings.Contains(ownKey, h.key) {
			// "Invoice date: 18 March" and "Travel date: 02 April", or an
			// e-mail header's "Date:" over "Bill date 01/03": the bare word
			// is the less specific label, its date some other event's.
			continue
		}
		if _, dated := d.datedForOther(h); dated {
			continue
		}
		c.penalize(factorWrongLabel, fmt.Sprintf("the document labels two %s values: %s and %s (%q, line %d)",
			f.Words(), val, m.Raw, strings.Join(strings.Fields(h.text), " "), d.lineOf(m.Start)+1))
		return
	}
}

// directDateLabel is the key of a label of role own that names a printed
// date reading iso directly ("Invoice date: 18 March 2026"), or "".
func (d *doc) directDateLabel(own Role, iso string) string {
	for _, m := range d.dates {
		if !readsAs(m.ISO, iso) {
			continue
		}
		if h, ok := d.labelBefore(m.Start); ok && h.role == own && d.namesDirectly(h, Span{Start: m.Start, End: m.End}) {
			return h.key
		}
	}
	return ""
}
