package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a document's currency is not: an amount it prints for information
// only, converted into another currency ("USD equivalent (for information
// only)", "Approx. USD 2,859.08 at 3.6725", "Gegenwert zur Information"),
// and a shared sign ("$") whose currency the issuer's place settles.

// asideCues mark a line whose amount is an aside: given for information,
// converted or approximate, not what the document bills.
var asideCues = []string{"for information only", "for information", "information only", "for info only",
	"for reference only", "for reference", "equivalent", "equiv.", "approx", "≈", "converted", "conversion rate",
	"exchange rate", "indicative", "zur information", "zur info", "gegenwert", "umgerechnet", "à titre indicatif",
	"à titre d'information", "pour information", "contre-valeur", "contrevaleur", "equivalente", "a título informativo",
	"aproximadamente", "aprox.", "a titolo informativo", "controvalore", "ter informatie", "tegenwaarde",
	"للعلم فقط", "ما يعادل", "справочно", "эквивалент",
	"contravalor", "contra-valor", "echivalent", "ekvivalent"}

// asideCue is the aside cue that covers offset p on its line, or "": a
// cue covers its clause, from the bracket it opens in (or the end of the
// amount before it, or the line's start) to that bracket's close (or the
// line's end). "Total AED 10,500.00 (≈ USD 2,859.08)" covers the USD only;
// "USD equivalent (for information only): USD 2,859.08" covers the line.
func (d *doc) asideCue(p int) string {
	m := d.lineCueOf(d.lineOf(p))
	cs, ls, le := m.at, m.ls, m.le
	if cs < 0 {
		return ""
	}
	start, end := ls, le
	for _, a := range d.amounts {
		if a.Line == m.li && a.End <= cs {
			start = max(a.End, markerAfter(d.rs, a.End, le).End) // past "1.190,00 EUR"
		}
	}
	for k := cs - 1; k >= ls; k-- {
		if d.rs[k] == ')' {
			break
		}
		if d.rs[k] == '(' {
			start, end = k, le
			if j := slices.Index(d.rs[cs:le], ')'); j >= 0 {
				end = cs + j + 1
			}
			break
		}
	}
	if p < start || p >= end {
		return ""
	}
	return m.cue
}

// asideCueIndex indexes asideCues for firstCue.
var asideCueIndex = newCueIndex(asideCues, 0)

// cueIndex is a list of lower-case cues indexed by their first byte,
// each also kept as runes, so that a line of the document's runes is
// compared in place: no copy of it lowered, no rune offsets counted back.
// Built once, read-only.
type cueIndex struct {
	cues    []string
	runes   [][]rune
	byFirst [256][]uint8
	// screen is the cues for the document's trigram set, first the hash
	// of each one's first three runes (noTrigram for a shorter cue), and
	// id where a document keeps what the set said (doc.cuesHeld).
	screen []triNeedle
	first  []uint16
	id     int
	// ascii classes the ASCII runes: a letter, a cue's first rune (in any
	// case), so that the scan decides most runes by one lookup.
	ascii [utf8.RuneSelf]uint8
}

const (
	cueLetter = 1 << iota
	cueFirst
)

func newCueIndex(cues []string, id int) *cueIndex {
	ix := &cueIndex{cues: cues, runes: make([][]rune, len(cues)), screen: newTriNeedles(cues...), id: id}
	for k, c := range cues {
		ix.runes[k] = []rune(c)
		ix.byFirst[c[0]] = append(ix.byFirst[c[0]], uint8(k))
	}
	for _, n := range ix.screen {
		h := uint16(noTrigram)
		if len(n.hashes) > 0 {
			h = n.hashes[0] & (1<<triBits - 1)
		}
		ix.first = append(ix.first, h)
	}
	for b := range ix.ascii {
		if unicode.IsLetter(rune(b)) {
			ix.ascii[b] |= cueLetter
		}
		if len(ix.byFirst[asciiLower(byte(b))]) > 0 {
			ix.ascii[b] |= cueFirst
		}
	}
	return ix
}

// firstCue is the first offset in rs[from:to] where a cue starts after no
// letter and ends by to, and that cue (the first in list order there), or
// -1 and "". Runes are lowered as strings.ToLower lowers them. One pass
// compares only the cues a word's first byte starts, where searching the
// line for each cue in turn was a tenth of verify.
func (ix *cueIndex) firstCue(rs []rune, from, to int) (int, string) {
	afterLetter := false
	for i := from; i < to; i++ {
		r := rs[i]
		if r < utf8.RuneSelf {
			cls := ix.ascii[r]
			first := cls&cueFirst != 0 && !afterLetter
			afterLetter = cls&cueLetter != 0
			if !first {
				continue
			}
			r = toLower(r)
		} else {
			r = toLower(r)
			was := afterLetter
			if afterLetter = unicode.IsLetter(r); was {
				continue
			}
		}
		if at, cue := ix.cueAt(rs, i, to, r); at >= 0 {
			return at, cue
		}
	}
	return -1, ""
}

// cueAt is i and the first cue in list order that rs[i:to] starts with,
// r being rs[i] lowered, or -1 and "". The second runes are compared
// first: most words that start as a cue does go on otherwise.
func (ix *cueIndex) cueAt(rs []rune, i, to int, r rune) (int, string) {
	r2 := rune(-1)
	if i+1 < to {
		r2 = toLower(rs[i+1])
	}
	for _, k := range ix.byFirst[leadByte(r)] {
		c := ix.runes[k]
		if to-i < len(c) || len(c) > 1 && c[1] != r2 || c[0] != r {
			continue
		}
		if len(c) <= 2 || lowersTo(rs[i+2:i+len(c)], c[2:]) {
			return i, ix.cues[k]
		}
	}
	return -1, ""
}

// mayPrintCue reports whether the document may print one of ix's cues,
// false only when its trigram set rules all of them out: most documents
// print none, and their lines are then not scanned. A cue the runes hold
// lowered stands in the fold (lowered, a run of spaces one) too, and the
// cues are their own fold (TestCueScreensAreFolded).
func (d *doc) mayPrintCue(ix *cueIndex) bool {
	held := &d.cuesHeld[ix.id]
	if *held == 0 {
		*held = 1
		if ix.mayBeIn(d.trigrams()) {
			*held = 2
		}
	}
	return *held == 2
}

// noTrigram marks a cue of fewer than three runes in cueIndex.first.
const noTrigram = 1 << 15

// mayBeIn is t.mayHoldAny(ix.screen), each cue ruled out by its first
// trigram before its others are looked up: a text holds few cues' first.
func (ix *cueIndex) mayBeIn(t *trigramSet) bool {
	seen, mark := t.seen, t.mark
	for k, h := range ix.first {
		if h != noTrigram && seen[h] != mark {
			continue
		}
		if t.mayHold(ix.screen[k]) {
			return true
		}
	}
	return false
}

// lowersTo reports whether rs lowered are low.
func lowersTo(rs, low []rune) bool {
	for j, r := range rs {
		if toLower(r) != low[j] {
			return false
		}
	}
	return true
}

// leadByte is the first byte of r in UTF-8.
func leadByte(r rune) byte {
	switch {
	case r < utf8.RuneSelf:
		return byte(r)
	case r < 0x800:
		return 0xC0 | byte(r>>6)
	case r < 0x10000:
		return 0xE0 | byte(r>>12)
	}
	return 0xF0 | byte(r>>18)
}

// checkAsideCurrency flags a code whose every printing in a currency
// context (spans) stands on an aside line while the document prints
// another currency beside its own amounts, or none: the code is what an
// amount was converted into, not the currency billed. It returns the
// spans on the document's own lines.
func (d *doc) checkAsideCurrency(c *FieldCheck, code string, spans []Span) []Span {
	if !d.mayPrintCue(asideCueIndex) {
		return spans // no line is an aside: all are the document's own
	}
	var own []Span
	aside, cue := -1, ""
	for _, sp := range spans {
		if q := d.asideCue(sp.Start); q != "" {
			if aside < 0 {
				aside, cue = d.lineOf(sp.Start), q
			}
			continue
		}
		own = append(own, sp)
	}
	if len(own) > 0 || aside < 0 {
		return own
	}
	c.Spans, c.Grounded = spans, true
	why := fmt.Sprintf("%s is printed only on line %d, marked %q: an amount converted for reference, not the currency the document bills in", code, aside+1, cue)
	if own := d.ownAmountCode(); own != "" && own != code {
		why += " (" + own + ")"
	}
	c.penalize(factorContradiction, why)
	return nil
}

// ownAmountCode is the ISO code printed right beside an amount on a line
// that is no aside ("AED 10,500.00", "Total (AED)"), or "".
func (d *doc) ownAmountCode() string {
	if code, _, _, ok := d.amountCurrency(); ok {
		return code
	}
	for _, a := range d.amounts {
		ls, le := d.lineBounds(a.Line)
		for _, w := range []Span{markerBefore(d.rs, ls, a.Start), markerAfter(d.rs, a.End, le)} {
			m := d.str(w.Start, w.End)
			if _, known := currencyMarkers[m]; (known || slices.Contains(extraCodes, m)) && d.asideCue(w.Start) == "" {
				return m
			}
		}
	}
	if code, _, _, ok := d.headerCurrency(); ok {
		return code
	}
	return ""
}

// placedSharedSign flags a code grounded only by a sign other currencies
// share ("$") when the issuer's place (its tax number, telephone code,
// web address, legal form) means another of them, and no stronger word
// than "GST" names a dollar: "$" on a New Zealand invoice is NZD, not the
// AUD that "GST" alone would suggest. It reports whether it flagged.
func (d *doc) placedSharedSign(c *FieldCheck, code string, spans []Span) bool {
	sign := ""
	for _, sp := range spans {
		t := d.str(sp.Start, sp.End)
		if !slices.ContainsFunc(currencyMarkers[code], func(m currencyMarker) bool { return m.shared && strings.EqualFold(m.text, t) }) {
			return false
		}
		sign = t
	}
	implied, hint, _ := d.countryCurrency()
	if implied == "" || implied == code || !sharesMarker(implied, code) {
		return false
	}
	if dh, why := dollarHint(d.rs, d.fold); dh != "" && why != "GST" {
		return false // the document names its dollar in words ("ABN", "HST"): their check speaks
	}
	c.penalize(factorContradiction, fmt.Sprintf("%q is shared by several currencies, and %s places the issuer where it means %s, not %s", sign, hint, implied, code))
	return true
}
