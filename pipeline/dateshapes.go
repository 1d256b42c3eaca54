package pipeline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dates FindDates does not read as dates because, printed alone, the shape
// is too often something else: a date glued to its time ("12/06/2016-13:30")
// and a date without separators ("20180428/191204", "25032018 13:11:54",
// ISO 8601's basic form). Next to a time or after a date label they are
// the document's date as surely as "12/06/2016" is, so a value checked
// against the text is grounded by them; FindDates still does not offer them
// as candidates, so nothing else changes.

// printedDateSpans finds iso printed in one of those shapes and returns
// the spans (code-point offsets) of each occurrence.
func (d *doc) printedDateSpans(iso string) []Span {
	if len(iso) != 10 {
		return nil
	}
	y, m, day := iso[:4], iso[5:7], iso[8:]
	text := d.text()
	var spans []Span
	// Compact: next to a time or after a date label.
	for _, form := range []string{y + m + day, day + m + y} {
		for _, at := range indexAll(text, form) {
			end := at + len(form)
			if digitAt(text, at-1) || digitAt(text, end) {
				continue
			}
			if !timeFollows(text[end:]) && !dateLabelBefore(text[:at]) {
				continue
			}
			spans = append(spans, d.runeSpan(text, at, end))
		}
	}
	// Glued to its time by a hyphen.
	for _, sep := range []string{"/", ".", "-"} {
		for _, form := range []string{day + sep + m + sep + y, m + sep + day + sep + y} {
			for _, at := range indexAll(text, form) {
				end := at + len(form)
				if digitAt(text, at-1) || end >= len(text) || text[end] != '-' || !timeFollows(text[end+1:]) {
					continue
				}
				spans = append(spans, d.runeSpan(text, at, end))
			}
		}
	}
	spans = append(spans, d.nationalDateSpans(iso)...)
	return append(spans, d.eraDateSpans(iso)...)
}

// eraDateSpans finds iso printed with an era's year and no era name before
// it, as Taiwan prints the Republic of China's year (115/11/10,
// 115年11月10日 for 2026-11-10) and Japan its Reiwa year abbreviated
// (R8.11.10), in a text with Han characters; 民國 and 令和 before the year
// are read by FindDates. Grounding only, like the rest.
func (d *doc) eraDateSpans(iso string) []Span {
	y, _ := strconv.Atoi(iso[:4])
	m, day := iso[5:7], iso[8:]
	um, uday := strings.TrimLeft(m, "0"), strings.TrimLeft(day, "0")
	text := d.text()
	if y <= rocEraBase || !strings.ContainsFunc(text, isCJK) {
		return nil
	}
	roc := strconv.Itoa(y - rocEraBase)
	forms := []string{roc + "/" + m + "/" + day, roc + "." + m + "." + day, roc + "-" + m + "-" + day,
		roc + "年" + um + "月" + uday + "日", roc + "年" + m + "月" + day + "日"}
	if y > reiwaEraBase {
		r := strconv.Itoa(y - reiwaEraBase)
		forms = append(forms, "R"+r+"."+m+"."+day, "R"+r+"/"+m+"/"+day, "R"+r+"."+um+"."+uday,
			"R0"+r+"."+m+"."+day)
	}
	var spans []Span
	for _, form := range forms {
		for _, at := range indexAll(text, form) {
			if end := at + len(form); !digitAt(text, at-1) && !digitAt(text, end) {
				spans = append(spans, d.runeSpan(text, at, end))
			}
		}
	}
	return spans
}

// The Gregorian years before the Republic of China's first year (1912)
// and Reiwa's (2019).
const (
	rocEraBase   = 1911
	reiwaEraBase = 2018
)

// hungarianMonths are the month names of Hungarian's year-first dates
// ("2026. március 4.").
var hungarianMonths = []string{"január", "február", "március", "április", "május", "június", "július",
	"augusztus", "szeptember", "október", "november", "december"}

// latvianMonthStems are the stems of Latvian month names, which a date
// declines: "2026. gada 20. novembrī" (on), "līdz 4. decembrim" (until).
var latvianMonthStems = []string{"janvār", "februār", "mart", "aprīl", "maij", "jūnij", "jūlij",
	"august", "septembr", "oktobr", "novembr", "decembr"}

// nationalDateSpans finds iso in national shapes FindDates does not read:
// Czech and Slovak "5. 3. 2026", Hungarian "2026. március 4.", Latvian
// "2026. gada 20. novembrī", Vietnamese
// "Ngày 12 tháng 03 năm 2026", Spanish "25 de febrero del 2026" (in any
// digits: Arabic-Indic ones read as 0-9, narrowRune). Grounding only, like
// the rest.
func (d *doc) nationalDateSpans(iso string) []Span {
	y, m, day := iso[:4], strings.TrimLeft(iso[5:7], "0"), strings.TrimLeft(iso[8:], "0")
	mi, _ := strconv.Atoi(m)
	forms := []string{
		day + ". " + m + ". " + y, day + "." + m + "." + y,
		y + ". " + hungarianMonths[mi-1] + " " + day + ".",
		y + ". gada " + day + ". " + latvianMonthStems[mi-1],
		"ngày " + day + " tháng " + m + " năm " + y, "ngày " + iso[8:] + " tháng " + iso[5:7] + " năm " + y,
	}
	for name, n := range monthNames {
		if n == mi && len(name) > 3 {
			forms = append(forms, day+" de "+name+" del "+y)
		}
	}
	text := d.lowerText()
	var spans []Span
	for _, form := range forms {
		for _, at := range indexAll(text, form) {
			if end := at + len(form); !digitAt(text, at-1) && !digitAt(text, end) {
				// A declined month name ends past its stem.
				for end < len(text) {
					r, n := utf8.DecodeRuneInString(text[end:])
					if !unicode.IsLetter(r) || !unicode.IsLetter(rune(form[len(form)-1])) {
						break
					}
					end += n
				}
				spans = append(spans, d.runeSpan(text, at, end))
			}
		}
	}
	return spans
}

func indexAll(s, sub string) []int {
	var out []int
	for off := 0; ; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return out
		}
		out = append(out, off+i)
		off += i + 1
	}
}

func digitAt(s string, i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }

// timeFollows reports a time right after a date: "13:11", "/191204",
// " 1:11:38".
func timeFollows(s string) bool {
	s = strings.TrimLeft(s, " /")
	n := 0
	for n < len(s) && digitAt(s, n) {
		n++
	}
	switch {
	case n == 6 && !digitAt(s, 6):
		return true // HHMMSS
	case (n == 1 || n == 2) && len(s) > n+2 && s[n] == ':' && digitAt(s, n+1) && digitAt(s, n+2):
		return true
	}
	return false
}

// dateLabelBefore reports a date label earlier on the same line.
func dateLabelBefore(s string) bool {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	low := strings.ToLower(s)
	for _, w := range []string{"date", "datum", "fecha", "data", "tarikh", "日付", "発行日"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

func (d *doc) runeSpan(text string, at, end int) Span {
	s := utf8.RuneCountInString(text[:at])
	return Span{Start: s, End: s + utf8.RuneCountInString(text[at:end])}
}
