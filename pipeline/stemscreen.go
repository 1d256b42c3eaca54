package pipeline

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A stem set the party checks search a document's lines for, screened
// once per document by the trigram set: a line is part of the text, so a
// text that holds none of the stems has no line that holds one, and the
// checks skip the search (most documents name no tax office, no bank and
// no assignment).

// stemScreen is a stemSet for the trigram set: its stems as triNeedles, but
// the stems of two ASCII bytes, which have no trigram, looked for in the
// text itself (pairs). A screen is read for every document, most of which
// hold none of its stems: each ASCII stem's last trigram hash is tested
// first, from one flat list (last), and the stems beyond ASCII only for a
// text that has a rune beyond ASCII.
type stemScreen struct {
	id    stemScreenID
	ascii []triNeedle
	last  []uint16
	wide  []triNeedle
	pairs []string
}

// stemScreenID names a screen's bit in partyFacts.
type stemScreenID uint8

const (
	taxOfficeScreenID stemScreenID = iota
	bankScreenID
	accountScreenID
	assignmentScreenID
	assignedAfterScreenID
	holderScreenID
)

func newStemScreen(id stemScreenID, st *stemSet) *stemScreen {
	sc := &stemScreen{id: id}
	for _, s := range st.stems {
		switch n := newTriNeedles(s)[0]; {
		case len(s) == 2 && isASCII(s):
			sc.pairs = append(sc.pairs, s)
		case n.wide:
			sc.wide = append(sc.wide, n)
		default: // three ASCII bytes at least: a trigram at least
			sc.ascii, sc.last = append(sc.ascii, n), append(sc.last, n.hashes[len(n.hashes)-1])
		}
	}
	return sc
}

// mayHoldScreen reports whether the text may hold one of sc's stems but
// its pairs.
func (t *trigramSet) mayHoldScreen(sc *stemScreen) bool {
	for i, h := range sc.last {
		if t.seen[h&(1<<triBits-1)] == t.mark && t.mayHold(sc.ascii[i]) {
			return true
		}
	}
	return t.wide && t.mayHoldAny(sc.wide)
}

var (
	taxOfficeScreen     = newStemScreen(taxOfficeScreenID, taxOfficeStems)
	bankScreen          = newStemScreen(bankScreenID, bankStems)
	accountScreen       = newStemScreen(accountScreenID, accountStems)
	assignmentScreen    = newStemScreen(assignmentScreenID, assignmentStems)
	assignedAfterScreen = newStemScreen(assignedAfterScreenID, assignedAfterStems)
	holderScreen        = newStemScreen(holderScreenID, holderStems)
)

// mayHoldStems reports whether a line of the text may hold one of sc's
// stems (stemSet.in): false only when none can.
func (d *doc) mayHoldStems(sc *stemScreen) bool {
	f := &d.facts.party
	bit := uint8(1) << sc.id
	if f.stemsRead&bit == 0 {
		f.stemsRead |= bit
		if d.trigrams().mayHoldScreen(sc) || len(sc.pairs) > 0 && d.holdsPair(sc.pairs) {
			f.stemsHeld |= bit
		}
	}
	return f.stemsHeld&bit != 0
}

// holdsPair reports whether the text holds one of pairs in any case: in
// an ASCII text's fold, lowered already, by one vectorised search each.
func (d *doc) holdsPair(pairs []string) bool {
	if b := d.fold.b; b != nil {
		for _, p := range pairs {
			if bytes.Contains(b, []byte{p[0], p[1]}) {
				return true
			}
		}
		return false
	}
	return holdsPairFold(d.text(), pairs)
}

// holdsPairFold reports whether text holds one of pairs, two lowercase
// ASCII letters, in any case: stemsIn compares a line's ASCII bytes so,
// and only an ASCII capital lowers to an ASCII letter but K and i, which
// no pair holds.
func holdsPairFold(text string, pairs []string) bool {
	for _, p := range pairs {
		for _, c := range [2]byte{p[0], p[0] - 'a' + 'A'} {
			for s := text; ; {
				i := strings.IndexByte(s, c)
				if i < 0 || i+1 >= len(s) {
					break
				}
				if asciiLower(s[i+1]) == p[1] {
					return true
				}
				s = s[i+1:]
			}
		}
	}
	return false
}

// stemsOnLine is st.in(line) for a line of the text, screened by sc (st's
// screen) first.
func (d *doc) stemsOnLine(sc *stemScreen, st *stemSet, line string) bool {
	return d.mayHoldStems(sc) && st.in(line)
}

// Every screen's pairs are what holdsPairFold takes, checked at init.
var _ = func() bool {
	for _, sc := range []*stemScreen{taxOfficeScreen, bankScreen, accountScreen, assignmentScreen, assignedAfterScreen, holderScreen} {
		for _, p := range sc.pairs {
			for k := range 2 {
				if c := p[k]; c < 'a' || c > 'z' || c == 'k' || c == 'i' || c >= utf8.RuneSelf {
					panic("a stem screen's pair is two lowercase ASCII letters other than k and i: " + p)
				}
			}
		}
	}
	return true
}()
