package pipeline

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DateOrder is the day/month order a written date proves.
type DateOrder string

const (
	// OrderUnknown: the form says nothing about the document's numeric
	// convention (ISO, month names, or an ambiguous or equal day and month).
	OrderUnknown DateOrder = ""
	// OrderDMY: a numeric date that can only be read day-first (15/01/2019).
	OrderDMY DateOrder = "dmy"
	// OrderMDY: a numeric date that can only be read month-first (12/28/2017).
	OrderMDY DateOrder = "mdy"
)

// DateMatch is one date found in a text.
type DateMatch struct {
	// ISO holds the readings as YYYY-MM-DD: one, or two when Ambiguous, the
	// day-first reading first and the month-first reading second.
	ISO []string
	// Start and End are code-point offsets, end exclusive.
	Start, End int
	// Ambiguous is true when day and month could be swapped (03/04/2026).
	Ambiguous bool
	// Order is the convention this token proves, if any.
	Order DateOrder
	// Raw is the date as written.
	Raw string
	// ident marks a date-shaped identifier ("No. 2026-03-14").
	ident bool
}

var monthNames = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
	// German, Malay, French and Spanish forms seen on receipts.
	"januar": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7,
	"oktober": 10, "dezember": 12, "okt": 10, "dez": 12,
	"januari": 1, "februari": 2, "mac": 3, "mei": 5, "julai": 7, "ogos": 8, "disember": 12, "ogo": 8, "dis": 12,
	"janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "juin": 6, "juillet": 7, "août": 8,
	"aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12,
	"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
	"septiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12, "setiembre": 9,
	// Italian, Portuguese and Dutch.
	"gennaio": 1, "febbraio": 2, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7, "settembre": 9,
	"ottobre": 10, "dicembre": 12,
	"janeiro": 1, "fevereiro": 2, "março": 3, "maio": 5, "junho": 6, "julho": 7, "setembro": 9,
	"outubro": 10, "novembro": 11, "dezembro": 12,
	"maart": 3, "augustus": 8,
	// Russian (the genitive a date prints, "26 ноября 2026 г.", and the
	// nominative), Greek (genitive, "14 Νοεμβρίου 2026") and Thai, full and
	// abbreviated ("12 มีนาคม 2569", "5 พ.ย. 2569"; the year is Buddhist-era).
	"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7, "августа": 8,
	"сентября": 9, "октября": 10, "ноября": 11, "декабря": 12, "январь": 1, "февраль": 2, "март": 3,
	"апрель": 4, "май": 5, "июнь": 6, "июль": 7, "август": 8, "сентябрь": 9, "октябрь": 10, "ноябрь": 11,
	"декабрь": 12, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "июн": 6, "июл": 7, "авг": 8, "сен": 9, "сент": 9,
	"окт": 10, "ноя": 11, "нояб": 11, "дек": 12,
	// Ukrainian, genitive ("10 листопада 2026 р.") and nominative.
	"січня": 1, "лютого": 2, "березня": 3, "квітня": 4, "травня": 5, "червня": 6, "липня": 7, "серпня": 8,
	"вересня": 9, "жовтня": 10, "листопада": 11, "грудня": 12, "січень": 1, "лютий": 2, "березень": 3,
	"квітень": 4, "травень": 5, "червень": 6, "липень": 7, "серпень": 8, "вересень": 9, "жовтень": 10,
	"листопад": 11, "грудень": 12,
	"ιανουαρίου": 1, "φεβρουαρίου": 2, "μαρτίου": 3, "απριλίου": 4, "μαΐου": 5, "ιουνίου": 6, "ιουλίου": 7,
	"αυγούστου": 8, "σεπτεμβρίου": 9, "οκτωβρίου": 10, "νοεμβρίου": 11, "δεκεμβρίου": 12,
	"มกราคม": 1, "กุมภาพันธ์": 2, "มีนาคม": 3, "เมษายน": 4, "พฤษภาคม": 5, "มิถุนายน": 6, "กรกฎาคม": 7,
	"สิงหาคม": 8, "กันยายน": 9, "ตุลาคม": 10, "พฤศจิกายน": 11, "ธันวาคม": 12, "ม.ค.": 1, "ก.พ.": 2,
	"มี.ค.": 3, "เม.ย.": 4, "พ.ค.": 5, "มิ.ย.": 6, "ก.ค.": 7, "ส.ค.": 8, "ก.ย.": 9, "ต.ค.": 10, "พ.ย.": 11,
	"ธ.ค.": 12,
	// The genitive a Polish, Czech, Slovak or Serbian date prints ("5
	// listopada 2026", "20. listopadu 2026", "20. novembra 2026"), Romanian, Turkish, Finnish (partitive),
	// Scandinavian, Indonesian and Catalan months. Croatian is left out: its
	// "listopada" is October, Polish's November.
	"stycznia": 1, "lutego": 2, "marca": 3, "kwietnia": 4, "maja": 5, "czerwca": 6, "lipca": 7, "sierpnia": 8,
	"września": 9, "października": 10, "listopada": 11, "grudnia": 12,
	"ledna": 1, "února": 2, "března": 3, "dubna": 4, "května": 5, "června": 6, "července": 7, "srpna": 8,
	"září": 9, "října": 10, "listopadu": 11, "prosince": 12,
	"januára": 1, "februára": 2, "apríla": 4, "mája": 5, "júna": 6, "júla": 7, "augusta": 8, "septembra": 9,
	"októbra": 10, "novembra": 11, "decembra": 12,
	"januara": 1, "februara": 2, "marta": 3, "aprila": 4, "juna": 6, "jula": 7, "avgusta": 8, "oktobra": 10,
	"ianuarie": 1, "februarie": 2, "martie": 3, "aprilie": 4, "iunie": 6, "iulie": 7, "septembrie": 9,
	"octombrie": 10, "noiembrie": 11, "decembrie": 12,
	"ocak": 1, "şubat": 2, "mart": 3, "nisan": 4, "mayıs": 5, "haziran": 6, "temmuz": 7, "ağustos": 8,
	"eylül": 9, "ekim": 10, "kasım": 11, "aralık": 12,
	"tammikuuta": 1, "helmikuuta": 2, "maaliskuuta": 3, "huhtikuuta": 4, "toukokuuta": 5, "kesäkuuta": 6,
	"heinäkuuta": 7, "elokuuta": 8, "syyskuuta": 9, "lokakuuta": 10, "marraskuuta": 11, "joulukuuta": 12,
	"maj": 5, "augusti": 8, "desember": 12, "maret": 3, "agustus": 8, "pebruari": 2, "nopember": 11,
	"gener": 1, "febrer": 2, "març": 3, "maig": 5, "juny": 6, "juliol": 7, "agost": 8, "setembre": 9, "desembre": 12,
}

// monthShapes are monthNames' shapes: most words of a document are no
// month's and need no lookup.
var monthShapes = shapesOf(monthNames)

// monthHashes screens scanDates' words before monthNamed lowers and looks
// them up.
var monthHashes = hashesOf(monthNames)

// numberWords label an identifier: a date-shaped token right after one
// ("Fattura n. 2026/05/12", "Invoice No. 2026-03-14") is a number, not a date.
var numberWords = map[string]bool{
	"n": true, "no": true, "nr": true, "nro": true, "num": true, "núm": true, "number": true, "nummer": true,
	"numéro": true, "numero": true, "número": true, "nº": true, "n°": true,
}

// numberLabelBefore reports whether the nearest thing before start on its
// line is "#" or a number word (optionally with ".", "°" and a colon).
func numberLabelBefore(rs []rune, start int) bool {
	k := start - 1
	for k >= 0 && (rs[k] == ' ' || rs[k] == '\t' || rs[k] == ':') {
		k--
	}
	if k < 0 {
		return false
	}
	if rs[k] == '#' {
		return true
	}
	if rs[k] == '.' {
		k--
	}
	deg := k >= 0 && (rs[k] == '°' || rs[k] == 'º')
	if deg {
		k--
	}
	e := k + 1
	for k >= 0 && isLetter(rs[k]) && rs[k] != 'º' {
		k--
	}
	// Every number word starts with an n or ends in "number" or "nummer"
	// (only N and R lower to n and r): the word before most dates
	// ("Date:") is no number word's and is not lowered.
	if w := rs[k+1 : e]; len(w) == 0 || w[0] != 'n' && w[0] != 'N' && (len(w) < 6 || w[len(w)-1] != 'r' && w[len(w)-1] != 'R') {
		return false
	}
	// Lowered on the stack (strings.ToLower's runes): every date-shaped
	// token asks.
	var buf [64]byte
	w := buf[:0]
	for _, r := range rs[k+1 : e] {
		if len(w)+utf8.UTFMax > len(buf) {
			return numberWordLower(strings.ToLower(string(rs[k+1:e])), deg)
		}
		w = utf8.AppendRune(w, unicode.ToLower(r))
	}
	return numberWordLower(string(w), deg)
}

// numberWordLower is numberLabelBefore's test of the lowered word w before
// a date-shaped token (after a degree sign when deg).
func numberWordLower(w string, deg bool) bool {
	if deg {
		return w == "n" || w == "no" || w == "nr"
	}
	return numberWords[w] || strings.HasSuffix(w, "nummer") || strings.HasSuffix(w, "number")
}

// ValidISODate reports whether s is a real calendar date written
// YYYY-MM-DD: what time.Parse("2006-01-02", s) accepts, read by hand (it is
// asked of every date a record states; TestValidISODateIsTimeParse).
func ValidISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	num := func(i, j int) int {
		n := 0
		for _, c := range []byte(s[i:j]) {
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, m, d := num(0, 4), num(5, 7), num(8, 10)
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= daysIn(y, m)
}

// ParseDate reads a string holding exactly one date (surrounding spaces and
// punctuation aside) in any form FindDates knows, and returns its ISO
// readings: one, or two (day-first, then month-first) when the day/month
// order is ambiguous.
func ParseDate(s string) ([]string, bool) {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ".,;"))
	ms := FindDates(t)
	if len(ms) != 1 || ms[0].Start != 0 || ms[0].End != utf8.RuneCountInString(t) {
		return nil, false
	}
	return ms[0].ISO, true
}

// FindDates lists every date in text, in order. Numeric dates with slashes or
// hyphens whose day and month could be swapped are Ambiguous; dotted dates
// (14.03.2026) are read day-first, the only convention that writes them. A
// date-shaped token right after a number label ("No. 2026-03-14") is an
// identifier and is not listed.
func FindDates(text string) []DateMatch {
	return findDates([]rune(text))
}

func findDates(rs []rune) []DateMatch {
	return realDates(scanDates(rs, "", nil))
}

// realDates drops the date-shaped identifiers: ms itself when it holds none.
func realDates(ms []DateMatch) []DateMatch {
	if !slices.ContainsFunc(ms, func(m DateMatch) bool { return m.ident }) {
		return ms
	}
	out := ms[:0:0]
	for _, m := range ms {
		if !m.ident {
			out = append(out, m)
		}
	}
	return out
}

// scanDates lists every date-shaped token, identifiers included, so amount
// scanning can skip those too. It scans by hand rather than with regular
// expressions: it runs on every document twice per verify and a month-name
// alternation is slow. ascii is the text when it is all ASCII (asciiText),
// else "": such a text is read a byte at a time (scanDatesASCII).
func scanDates(rs []rune, ascii string, st *stopper) []DateMatch {
	return scanDatesTo(make([]DateMatch, 0, 4), rs, ascii, st) // a receipt prints one to four
}

// scanDatesTo is scanDates appending to out[:0]: analyze passes a list
// its scratch keeps from one document to the next.
func scanDatesTo(out []DateMatch, rs []rune, ascii string, st *stopper) []DateMatch {
	out, _ = scanDatesRuns(out, nil, false, rs, ascii, st)
	return out
}

// scanDatesRuns is scanDatesTo that also appends to runs[:0], when record
// is set, where each run of digits starts: every digit run of the text, in
// order, which scanAmounts then visits instead of reading the text again.
func scanDatesRuns(out []DateMatch, runs []int32, record bool, rs []rune, ascii string, st *stopper) ([]DateMatch, []int32) {
	out, runs = out[:0], runs[:0]
	if ascii != "" {
		out, runs = scanDatesASCII(out, runs, record, rs, ascii, st)
		return dedupeDates(out), runs
	}
	add := func(s, e int, iso []string, amb bool, order DateOrder) {
		out = append(out, DateMatch{ISO: iso, Start: s, End: e, Ambiguous: amb, Order: order, Raw: cut(rs, ascii, s, e),
			ident: numberLabelBefore(rs, s)})
	}
	n := len(rs)
	digitsAt := func(i int) int { // length of the digit run starting at i
		k := i
		for k < n && isDigit(rs[k]) {
			k++
		}
		return k - i
	}
	for i := 0; i < n && !st.stop(); {
		// Spaces and punctuation start nothing: passed over in a tight
		// loop, with the context asked once per word or number.
		for i < n && rs[i] < utf8.RuneSelf && asciiClass[rs[i]]&classAlnum == 0 {
			i++
		}
		if i == n {
			break
		}
		r := rs[i]
		switch {
		case isDigit(r):
			// A run of digits is read at its first digit and passed over
			// whole: the loop never stops inside one, so no digit before
			// i.
			l := digitsAt(i)
			if record {
				runs = append(runs, int32(i))
			}
			// A numeric date's first digits end at its separator, and its
			// second (one or two) at the same separator: most digit runs
			// are amounts ("12.50") that fail here.
			if p := i + l; p+3 < n && isNumericDateSep(rs[p]) && isDigit(rs[p+1]) &&
				(rs[p+2] == rs[p] || isDigit(rs[p+2]) && rs[p+3] == rs[p]) {
				if m, ok := numericDate(rs, i, digitsAt); ok {
					add(m.Start, m.End, m.ISO, m.Ambiguous, m.Order)
				}
			}
			// cjkDate wants 年 or 년 after at most four digits and some
			// spaces (an ASCII text, which prints neither, is not here).
			if l <= 4 && cjkYearMarkAt(rs, i+l) {
				if m, ok := cjkDate(rs, i, digitsAt); ok {
					add(m.Start, m.End, m.ISO, false, OrderUnknown)
				}
			}
			i += l
		case isLetter(r):
			// Words are passed over whole too, so the rune before i is no
			// letter; a word after a Thai mark is no word's start.
			k := i
			if i > 0 && isThai(rs[i-1]) {
				for k < n && isLetter(rs[k]) {
					k++
				}
				i = k
				continue
			}
			if isThai(r) {
				// Thai writes vowels and tone marks as combining marks, and
				// abbreviates months with dots ("พ.ย."): its word is the
				// run of Thai runes and dots.
				for k < n && (isThai(rs[k]) || rs[k] == '.') {
					k++
				}
			}
			for k < n && isLetter(rs[k]) {
				k++
			}
			// Nearly every word is no month's: its length and initial (the
			// screens monthNamed starts with), then its hash, lowered, pass
			// it over before any lookup.
			if l := k - i; l >= 3 && l <= 12 && monthShapes.mayHold(toLower(r), l) && monthHashes.has(loweredHash(rs[i:k])) {
				if mo, ok := monthNamed(rs[i:k]); ok {
					if m, ok := monthNameDate(rs, i, k, mo, digitsAt); ok {
						add(m.Start, m.End, m.ISO, false, OrderUnknown)
					}
				}
			}
			i = k
		default:
			i++
		}
	}
	return dedupeDates(out), runs
}

// cjkYearMarkAt reports 年 or 년 at p or past spaces after it.
func cjkYearMarkAt(rs []rune, p int) bool {
	for p < len(rs) && rs[p] == ' ' {
		p++
	}
	return p < len(rs) && (rs[p] == '年' || rs[p] == '년')
}

// isThai reports a rune of the Thai block, letters and marks alike.
func isThai(r rune) bool { return r >= 0x0E00 && r <= 0x0E7F }

// mayBeMonth reports whether w has the length and initial of some month
// name.
func mayBeMonth(w []rune) bool {
	return len(w) >= 3 && len(w) <= 12 && monthShapes.mayHold(toLower(w[0]), len(w)) // no month name is shorter or longer
}

// loweredHash is the word hash of w lowered.
func loweredHash(w []rune) uint32 {
	h := uint32(wordHashSeed)
	for _, r := range w {
		h = wordHashStep(h, toLower(r))
	}
	return h
}

// monthNamed looks a word up in monthNames, lowered into a stack buffer: it
// runs for every word of every document.
func monthNamed(w []rune) (int, bool) {
	if !mayBeMonth(w) {
		return 0, false
	}
	var buf [48]byte
	k := 0
	for _, r := range w {
		if r = toLower(r); r < utf8.RuneSelf {
			buf[k] = byte(r)
			k++
		} else {
			k += utf8.EncodeRune(buf[k:], r)
		}
	}
	mo, ok := monthNames[string(buf[:k])]
	return mo, ok
}

func atoiRunes(rs []rune) int {
	n := 0
	for _, r := range rs {
		n = n*10 + int(r-'0')
		if n > 1e6 {
			return -1
		}
	}
	return n
}

// numericDate reads YYYY-MM-DD, YYYY/MM/DD, YYYY.MM.DD and A/B/YYYY, A-B-YY,
// A.B.YYYY starting at i, with one separator used twice.
func numericDate(rs []rune, i int, digitsAt func(int) int) (DateMatch, bool) {
	n := len(rs)
	la := digitsAt(i)
	p := i + la
	if p >= n || !isNumericDateSep(rs[p]) {
		return DateMatch{}, false
	}
	sep := rs[p]
	lb := digitsAt(p + 1)
	q := p + 1 + lb
	if lb < 1 || lb > 2 || q >= n || rs[q] != sep {
		return DateMatch{}, false
	}
	lc := digitsAt(q + 1)
	e := q + 1 + lc
	if lc == 0 {
		return DateMatch{}, false
	}
	// Not part of a longer run of numbers: "220318/10049/04", "1.2.3.4".
	if i >= 2 && isNumericDateSep(rs[i-1]) && isDigit(rs[i-2]) {
		return DateMatch{}, false
	}
	if e+1 < n && isNumericDateSep(rs[e]) && isDigit(rs[e+1]) {
		return DateMatch{}, false
	}
	a := atoiRunes(rs[i : i+la])
	b := atoiRunes(rs[p+1 : q])
	c := rs[q+1 : e]
	if la == 4 && lc <= 2 {
		if iso, ok := isoDate(a, b, atoiRunes(c)); ok {
			return DateMatch{ISO: []string{iso}, Start: i, End: e}, true
		}
		return DateMatch{}, false
	}
	if la > 2 || (lc != 2 && lc != 4) {
		return DateMatch{}, false
	}
	y := expandYear(c)
	dmy, okD := isoDate(y, b, a)
	mdy, okM := isoDate(y, a, b)
	m := DateMatch{Start: i, End: e}
	switch {
	case okD && okM && dmy != mdy && sep != '.':
		m.ISO, m.Ambiguous = []string{dmy, mdy}, true
	case okD && okM:
		m.ISO = []string{dmy}
	case okD:
		m.ISO, m.Order = []string{dmy}, OrderDMY
	case okM:
		m.ISO, m.Order = []string{mdy}, OrderMDY
	default:
		return DateMatch{}, false
	}
	return m, true
}

// isNumericDateSep reports the separators of a numeric date: it is asked at
// every digit run of every document, so no strings.ContainsRune.
func isNumericDateSep(r rune) bool { return r == '-' || r == '/' || r == '.' }

// cjkDate reads 2026年4月1日 (and the Korean 2026년 4월 1일).
func cjkDate(rs []rune, i int, digitsAt func(int) int) (DateMatch, bool) {
	n := len(rs)
	skip := func(p int) int {
		for p < n && rs[p] == ' ' {
			p++
		}
		return p
	}
	var parts [3]int
	marks := [3]string{"年년", "月월", "日일"}
	pos, end := i, i
	for k := range 3 {
		pos = skip(pos)
		l := digitsAt(pos)
		if l == 0 || l > 4 {
			return DateMatch{}, false
		}
		parts[k] = atoiRunes(rs[pos : pos+l])
		pos += l
		end = pos
		if p := skip(pos); p < n && strings.ContainsRune(marks[k], rs[p]) {
			pos = p + 1
			end = pos
		} else if k < 2 {
			return DateMatch{}, false // the day mark alone is optional
		}
	}
	start := i
	if base, at, ok := japaneseEra(rs, i); ok && parts[0] < 200 {
		// 令和8年11月20日: the eighth year of Reiwa is 2026; 民國115年 is
		// 2026 too.
		parts[0], start = base+parts[0], at
	}
	iso, ok := isoDate(parts[0], parts[1], parts[2])
	if !ok {
		return DateMatch{}, false
	}
	return DateMatch{ISO: []string{iso}, Start: start, End: end}, true
}

// japaneseEras are the era names Japanese documents date by, and Taiwan's
// (民國, the Republic of China), with the Gregorian year before each era's
// first year.
var japaneseEras = map[string]int{"令和": 2018, "平成": 1988, "昭和": 1925, "民國": 1911, "民国": 1911}

// japaneseEra reports an era name right before position i (spaces
// between allowed) and where it starts.
func japaneseEra(rs []rune, i int) (base, at int, ok bool) {
	k := i
	for k > 0 && rs[k-1] == ' ' {
		k--
	}
	if k < 2 {
		return 0, 0, false
	}
	base, ok = japaneseEras[string(rs[k-2:k])]
	return base, k - 2, ok
}

func isDateSep(r rune) bool {
	return r == ' ' || r == '\t' || r == '-' || r == '/' || r == '.' || r == ','
}

// monthNameDate reads "14 Mar 2026", "14-Mar-19", "14th March, 2026" or
// "March 14, 2026", "Mar 14 2026" around the month word rs[ws:we].
func monthNameDate(rs []rune, ws, we, mo int, digitsAt func(int) int) (DateMatch, bool) {
	n := len(rs)
	// Day before the month.
	k := ws
	for k > 0 && ws-k < 3 && isDateSep(rs[k-1]) {
		k--
	}
	// "3 de octubre de 2026", "20 de maio de 2026".
	if k >= 3 && strings.EqualFold(string(rs[k-2:k]), "de") && rs[k-3] == ' ' {
		k -= 3
	}
	k = skipOrdinalBack(rs, k)
	ds := k
	for ds > 0 && k-ds < 2 && isDigit(rs[ds-1]) {
		ds--
	}
	if ds < k && (ds == 0 || !isAlnum(rs[ds-1])) {
		p := we
		if p < n && rs[p] == '.' {
			p++
		}
		if p+3 < n && rs[p] == ' ' && strings.EqualFold(string(rs[p+1:p+3]), "de") && rs[p+3] == ' ' {
			p += 3
		}
		for p < n && p-we < 4 && (isDateSep(rs[p]) || rs[p] == '\'') {
			p++
		}
		if l := digitsAt(p); l == 4 || l == 2 {
			if iso, ok := isoDate(expandYear(rs[p:p+l]), mo, atoiRunes(rs[ds:k])); ok {
				return DateMatch{ISO: []string{iso}, Start: ds, End: p + l}, true
			}
		}
	}
	// Day after the month, then a four-digit year.
	p := we
	if p < n && rs[p] == '.' {
		p++
	}
	for p < n && p-we < 3 && (rs[p] == ' ' || rs[p] == '-' || rs[p] == '/') {
		p++
	}
	l := digitsAt(p)
	if l < 1 || l > 2 {
		return DateMatch{}, false
	}
	day := atoiRunes(rs[p : p+l])
	p += l
	if p+2 <= n && isOrdinal(rs[p:p+2]) {
		p += 2
	}
	if p < n && rs[p] == ',' {
		p++
	}
	q := p
	for q < n && q-p < 3 && (rs[q] == ' ' || rs[q] == '-' || rs[q] == '/') {
		q++
	}
	if digitsAt(q) != 4 {
		return DateMatch{}, false
	}
	iso, ok := isoDate(atoiRunes(rs[q:q+4]), mo, day)
	if !ok {
		return DateMatch{}, false
	}
	return DateMatch{ISO: []string{iso}, Start: ws, End: q + 4}, true
}

func isOrdinal(rs []rune) bool {
	switch strings.ToLower(string(rs)) {
	case "st", "nd", "rd", "th", "er":
		return true
	}
	return false
}

// skipOrdinalBack steps back over an ordinal suffix ending at k: "14th",
// "1er" (French), "1º" (Spanish, Portuguese).
func skipOrdinalBack(rs []rune, k int) int {
	if k >= 3 && isOrdinal(rs[k-2:k]) && isDigit(rs[k-3]) {
		return k - 2
	}
	if k >= 1 && (rs[k-1] == 'º' || rs[k-1] == '°' || rs[k-1] == 'ª') {
		return k - 1
	}
	return k
}

// dedupeDates orders matches and, where two overlap (found by different
// patterns), keeps the longer.
func dedupeDates(ms []DateMatch) []DateMatch {
	if len(ms) < 2 {
		return ms
	}
	slices.SortStableFunc(ms, func(a, b DateMatch) int {
		if a.Start != b.Start {
			return cmp.Compare(a.Start, b.Start)
		}
		return cmp.Compare(b.End, a.End)
	})
	kept := ms[:1]
	for _, m := range ms[1:] {
		last := &kept[len(kept)-1]
		switch {
		case m.Start >= last.End:
			kept = append(kept, m)
		case m.End-m.Start > last.End-last.Start && (len(kept) < 2 || kept[len(kept)-2].End <= m.Start):
			*last = m
		}
	}
	return kept
}

// daysIn is the number of days of month m (1 to 12) of year y.
func daysIn(y, m int) int {
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 29
	}
	return int(monthDays[m-1])
}

var monthDays = [12]uint8{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// expandYear maps two-digit years, digits of ASCII, to 1970..2069; it
// reads them as runes, which the scans have, not as a string.
func expandYear(s []rune) int {
	y := atoiRunes(s)
	if len(s) == 2 && y >= 0 {
		if y < 70 {
			return 2000 + y
		}
		return 1900 + y
	}
	return y
}

func isoDate(y, m, d int) (string, bool) {
	if y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return "", false
	}
	// The month's length, not time.Date: a candidate is read for every
	// date-shaped token (TestIsoDateIsTimeDate).
	if d > daysIn(y, m) {
		return "", false
	}
	// By hand, not fmt: a date candidate is read for every date-shaped
	// token of every document.
	b := [10]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-', byte('0' + d/10), byte('0' + d%10)}
	return string(b[:]), true
}
