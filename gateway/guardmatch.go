package gateway

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// An agent rarely passes a flagged total as a bare argument: it writes
// "pay 683.20 now" or "Total: 1.234,50 EUR". A string argument is therefore
// read once into the numbers it mentions (in every formatting a person
// would write them) and its words, and each flagged value is looked for in
// those rather than compared with the whole string.

// leafText is one string argument, read once for every flagged value.
type leafText struct {
	nums  []float64 // every reading of every number token, unsigned
	words string    // normalised words, padded with a space each side
}

func readLeaf(s string) leafText {
	return leafText{nums: numberReadings(s), words: " " + normWords(s) + " "}
}

// minTextInt is the smallest whole number looked for inside text: a flagged
// quantity of 2 would otherwise hold every call that says "2 files". As a
// whole argument (a JSON number or a string that is only that number) any
// value is held.
const minTextInt = 100

// matches says whether the argument leaf carries f: numbers numerically
// (683.2 is "683.20" is "683,20"), in text as a number token (not inside
// 1683.20 or 683.201); text values as whole words after normalisation.
func (f flagged) matches(leaf any, lt func() leafText) bool {
	switch v := leaf.(type) {
	case json.Number:
		n, err := v.Float64()
		return err == nil && f.isNum && n == f.num
	case string:
		if f.isNum {
			if whole, ok := wholeNumber(v); ok {
				for _, n := range whole {
					if n == math.Abs(f.num) {
						return true
					}
				}
				return false
			}
			if f.num == math.Trunc(f.num) && math.Abs(f.num) < minTextInt {
				return false
			}
			for _, n := range lt().nums {
				if n == math.Abs(f.num) {
					return true
				}
			}
			return false
		}
		return f.words != "" && strings.Contains(lt().words, " "+f.words+" ")
	}
	return false
}

// wholeNumber reads s when it is nothing but one number (signs and currency
// aside: "683.20", "-683.2", "$1,234.50", "1 683,20"); ok is false for text
// around it.
func wholeNumber(s string) ([]float64, bool) {
	t := strings.TrimFunc(strings.TrimSpace(s), func(r rune) bool {
		return r == '-' || r == '+' || unicode.Is(unicode.Sc, r)
	})
	toks := scanNumbers(t)
	if t == "" || len(toks) != 1 || toks[0].start != 0 || toks[0].end != len(t) {
		return nil, false
	}
	return tokenReadings(toks[0].text), true
}

// numTok is one number in a text: text is its digits and '.'/',' separators
// (a space grouping thousands taken out), parts the numbers it may also be
// read as.
type numTok struct {
	start, end int // byte offsets in the text
	text       string
	parts      []string
}

// scanNumbers finds the maximal runs of digits joined by single '.' or ','
// (a separator not followed by a digit ends the number: "683.20." is a
// sentence's end). Runs joined by one space that groups thousands are one
// number: a lead of one to three digits, then groups of exactly three, the
// last with its decimals ("1 683.20", "1 683,20", "12 345 678"). A no-break,
// narrow or thin space is only ever such a grouping; a plain space between
// whole numbers ("2 400") may also separate two, so those are read both
// ways.
func scanNumbers(s string) []numTok {
	var out []numTok
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := digitRun(s, i)
		tok := numTok{start: i, end: j, text: s[i:j]}
		if allDigits(tok.text) && len(tok.text) <= 3 && !afterDigitSpace(s, i) {
			tok = joinGroups(s, tok)
		}
		out = append(out, tok)
		i = tok.end
	}
	return out
}

// digitRun is the end of the run of digits and single separators at i.
func digitRun(s string, i int) int {
	j := i
	for j < len(s) {
		if isDigit(s[j]) {
			j++
		} else if (s[j] == '.' || s[j] == ',') && j+1 < len(s) && isDigit(s[j+1]) {
			j += 2
		} else {
			break
		}
	}
	return j
}

// groupSpaces are the spaces that group a number's thousands; only the
// first is also a word separator.
var groupSpaces = []string{" ", "\u00a0", "\u202f", "\u2009", "\u2007"}

// joinGroups extends lead (one to three digits) over the space-joined
// groups of three digits after it.
func joinGroups(s string, lead numTok) numTok {
	tok, parts, plain := lead, []string{lead.text}, false
	for {
		sep := ""
		for _, g := range groupSpaces {
			if strings.HasPrefix(s[tok.end:], g) {
				sep = g
				break
			}
		}
		k := tok.end + len(sep)
		if sep == "" || k >= len(s) || !isDigit(s[k]) {
			break
		}
		e := digitRun(s, k)
		next := s[k:e]
		if len(next) < 3 || !allDigits(next[:3]) || (len(next) > 3 && (next[3] != '.' && next[3] != ',' || !allDigits(next[4:]))) {
			break
		}
		tok.text += next
		tok.end = e
		parts = append(parts, next)
		plain = plain || sep == " "
		if len(next) > 3 {
			break // the decimals end the number
		}
	}
	if tok.end == lead.end {
		return lead
	}
	if plain && allDigits(tok.text) {
		tok.parts = parts
	}
	return tok
}

// afterDigitSpace says whether the digits at i follow a digit and a group
// space: "1234 567 890" is no grouping, and its "567 890" is not one either.
func afterDigitSpace(s string, i int) bool {
	for _, g := range groupSpaces {
		if k := i - len(g); k > 0 && s[k:i] == g && isDigit(s[k-1]) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func numberReadings(s string) []float64 {
	var out []float64
	for _, t := range scanNumbers(s) {
		out = append(out, tokenReadings(t.text)...)
		for _, p := range t.parts {
			out = append(out, tokenReadings(p)...)
		}
	}
	return out
}

// tokenReadings are the values a person may have meant by t: with both
// separators the last is the decimal one ("1,234.50", "1.234,50"); with one
// kind once it is a decimal point, or a thousands separator before exactly
// three digits ("683,20" is 683.2; "1,234" is 1234 or 1.234); with one kind
// repeated it groups thousands ("1,234,567"). Grouping must be in threes.
func tokenReadings(t string) []float64 {
	dots, commas := strings.Count(t, "."), strings.Count(t, ",")
	var cands []string
	switch {
	case dots == 0 && commas == 0:
		cands = []string{t}
	case dots > 0 && commas > 0:
		dec := byte('.')
		if strings.LastIndexByte(t, ',') > strings.LastIndexByte(t, '.') {
			dec = ','
		}
		k := strings.LastIndexByte(t, dec)
		if strings.Count(t, string(dec)) == 1 && groupedInThrees(t[:k], otherSep(dec)) {
			cands = []string{strings.ReplaceAll(t[:k], string(otherSep(dec)), "") + "." + t[k+1:]}
		}
	default:
		sep := byte('.')
		if commas > 0 {
			sep = ','
		}
		if dots+commas == 1 {
			k := strings.IndexByte(t, sep)
			cands = append(cands, t[:k]+"."+t[k+1:])
		}
		if groupedInThrees(t, sep) {
			cands = append(cands, strings.ReplaceAll(t, string(sep), ""))
		}
	}
	out := make([]float64, 0, len(cands))
	for _, c := range cands {
		if n, err := strconv.ParseFloat(c, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func otherSep(b byte) byte {
	if b == '.' {
		return ','
	}
	return '.'
}

// groupedInThrees: 1 to 3 digits, then groups of exactly three after each sep.
func groupedInThrees(s string, sep byte) bool {
	parts := strings.Split(s, string(sep))
	if len(parts[0]) == 0 || len(parts[0]) > 3 {
		return len(parts) == 1 && len(parts[0]) > 0
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// normWords lower-cases s and turns every run of what is not a letter or a
// digit into one space: "ACME Sdn. Bhd." and "acme sdn bhd" are the same
// words, and "GLX/2026/778" is "glx 2026 778".
func normWords(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		} else {
			space = true
		}
	}
	return b.String()
}
