package pipeline

import (
	"fmt"
	"strings"
	"unicode"
)

// A letter dates itself after the place it was written in ("Casablanca, le
// 14 novembre 2026", "Genève, le 14.11.2026", "Hamburg, 20.11.2026",
// "Київ, 10 листопада 2026 р.", "Madrid, a 20 de noviembre de 2026"), and
// Taiwan and Japan head a document with its era date alone on a line
// (中華民國115年11月10日, 令和8年11月10日). No label says so, yet such a date is
// the document's own as surely as one under "Date:": the date checks take
// it for the issue date a value is compared with.

// placeDatedWords stand between a place's comma and its date: French "le",
// German "den", Spanish "a"/"el", Italian "lì", Portuguese "em", Czech
// "dne", Polish "dnia", Dutch "de".
var placeDatedWords = map[string]bool{"le": true, "den": true, "am": true, "a": true, "el": true, "lì": true,
	"li": true, "il": true, "em": true, "dne": true, "dnia": true, "de": true, "d.": true}

// anchoredDate reports a printed date the document states as its own with
// no label: after a place and its comma, alone on its line but for a year
// mark (р., г., r.), or an era date alone on its line.
func (d *doc) anchoredDate(m DateMatch) bool {
	ls, le := d.lineBounds(d.lineOf(m.Start))
	after := strings.TrimSpace(d.str(min(m.End, le), le))
	switch after {
	case "", ".", "р.", "г.", "r.", "р", "г", "年":
	default:
		return false
	}
	before := strings.TrimSpace(d.str(ls, m.Start))
	if before == "" || before == "中華" || before == "中华" { // 中華民國, the Republic of China
		return m.End-m.Start > 0 && m.Start < len(d.rs) && isCJK(d.rs[m.Start]) && eraNamed(d.rs[m.Start:m.End])
	}
	if w := strings.LastIndexByte(before, ' '); w >= 0 && placeDatedWords[strings.ToLower(before[w+1:])] {
		before = strings.TrimSpace(before[:w])
	}
	place, ok := strings.CutSuffix(before, ",")
	return ok && placeName(place)
}

// placeName reports a town's name as a letter prints it before its date:
// one to four words of letters (hyphens, apostrophes and dots inside), the
// first a capital, no digits.
func placeName(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 4 || len(s) > 48 {
		return false
	}
	for i, w := range words {
		for j, r := range w {
			switch {
			case unicode.IsLetter(r):
				if i == 0 && j == 0 && !unicode.IsUpper(r) {
					return false
				}
			case r == '-' || r == '\'' || r == '’' || r == '.':
			default:
				return false
			}
		}
	}
	return true
}

// eraNamed reports a date that starts with an era's name (民國, 令和 …).
func eraNamed(rs []rune) bool {
	for era := range japaneseEras {
		if strings.HasPrefix(string(rs[:min(len(rs), 4)]), era) {
			return true
		}
	}
	return false
}

// vietnameseIssueDate is the date a Vietnamese invoice prints under its
// title in words, "Ngày 10 tháng 11 năm 2026" (Day 10, month 11, year
// 2026), read only when that is the text's one such date: FindDates does
// not list it, yet it is the issue date as surely as a labelled one.
func (d *doc) vietnameseIssueDate() (string, bool) {
	if d.ascii || !strings.Contains(d.text(), "ng") {
		return "", false // "ngày" is no ASCII word; most texts are not lowered
	}
	text := d.lowerText()
	at := strings.Index(text, "ngày ")
	if at < 0 || !strings.Contains(text[at:], " tháng ") {
		return "", false
	}
	var iso string
	for at >= 0 {
		var day, month, year int
		rest := text[at+len("ngày "):]
		n, _ := fmt.Sscanf(rest, "%d tháng %d năm %d", &day, &month, &year)
		if n == 3 {
			got, ok := isoDate(year, month, day)
			if !ok || iso != "" && got != iso {
				return "", false
			}
			iso = got
		}
		next := strings.Index(rest, "ngày ")
		if next < 0 {
			break
		}
		at += len("ngày ") + next
	}
	return iso, iso != ""
}
