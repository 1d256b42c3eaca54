package pipeline

// dateByte classes each byte for scanDatesASCII: whether it starts a digit
// run, a word, or nothing. A byte beyond ASCII is nothing: an ASCII text
// holds none.
var dateByte = func() (c [256]uint8) {
	for b := range 128 {
		switch {
		case isDigit(rune(b)):
			c[b] = dateDigit
		case isLetter(rune(b)):
			c[b] = dateLetter
		}
	}
	return c
}()

const (
	dateDigit = 1 + iota
	dateLetter
)

// scanDatesASCII is scanDatesRuns' loop over a text that is all ASCII
// (ascii, whose runes are rs): most documents are, and their words and
// digit runs are passed over byte by byte, one table read a byte. The few
// tokens that may start a date are read by the same functions as the rune
// loop's, on rs; the results are the rune loop's (TestDateScanASCIIIsRunes).
func scanDatesASCII(out []DateMatch, runs []int32, record bool, rs []rune, ascii string, st *stopper) ([]DateMatch, []int32) {
	s := ascii
	n := len(s)
	digitsAt := func(i int) int { // length of the digit run starting at i
		k := i
		for k < n && s[k]-'0' < 10 {
			k++
		}
		return k - i
	}
	// The context is asked every 32 bytes or so, not at every token: a
	// token is a few bytes, and the question cost as much as reading them.
	look := 0
	for i := 0; i < n; {
		if i >= look {
			if st.stop() {
				break
			}
			look = i + 32
		}
		c := dateByte[s[i]]
		for c == 0 {
			if i++; i == n {
				return out, runs
			}
			c = dateByte[s[i]]
		}
		k := i + 1
		if c == dateDigit {
			for k < n && s[k]-'0' < 10 {
				k++
			}
			if record {
				runs = append(runs, int32(i))
			}
			// The rune loop's screen: the first digits end at a separator,
			// and the second (one or two) at the same one.
			if p := k; p+3 < n && isNumericDateSep(rune(s[p])) && s[p+1]-'0' < 10 &&
				(s[p+2] == s[p] || s[p+2]-'0' < 10 && s[p+3] == s[p]) {
				if m, ok := numericDate(rs, i, digitsAt); ok {
					out = appendDate(out, rs, ascii, m)
				}
			}
			i = k
			continue
		}
		for k < n && dateByte[s[k]] == dateLetter {
			k++
		}
		if l := k - i; l >= 3 && l <= 12 && monthShapes.mayHold(rune(s[i]|0x20), l) && monthHashes.has(asciiLoweredHash(s[i:k])) {
			if mo, ok := monthNamed(rs[i:k]); ok {
				if m, ok := monthNameDate(rs, i, k, mo, digitsAt); ok {
					out = appendDate(out, rs, ascii, m)
				}
			}
		}
		i = k
	}
	return out, runs
}

// appendDate appends m, with its text and whether it is an identifier, as
// the rune loop's add does.
func appendDate(out []DateMatch, rs []rune, ascii string, m DateMatch) []DateMatch {
	m.Raw, m.ident = cut(rs, ascii, m.Start, m.End), numberLabelBefore(rs, m.Start)
	return append(out, m)
}

// asciiLoweredHash is loweredHash of an ASCII word of letters (the only
// bytes it is asked of, so |0x20 lowers each).
func asciiLoweredHash(w string) uint32 {
	h := uint32(wordHashSeed)
	for i := 0; i < len(w); i++ {
		h = wordHashStep(h, rune(w[i]|0x20))
	}
	return h
}
