package local

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/reflect-mcp/reflect/pipeline"
)

// dateLabelWords name an issue date.
var dateLabelWords = map[string]bool{
	"date": true, "dated": true, "datum": true, "fecha": true, "data": true, "tarikh": true, "issued": true,
	"rechnungsdatum": true, "belegdatum": true,
}

// dateLabelPhrases are issue-date labels of more than one word, or written
// without spaces (CJK).
var dateLabelPhrases = []string{"paid on", "issued on", "date of issue", "invoice date", "billing date", "請求日", "発行日", "日付"}

// dueWords mark a date that is not the issue date: when payment is due, when
// an email was sent, when something expires.
var dueWords = map[string]bool{
	"due": true, "fällig": true, "faellig": true, "zahlbar": true, "échéance": true, "echeance": true,
	"vencimiento": true, "expiry": true, "expires": true, "exp": true, "valid": true, "until": true, "sent": true,
	"delivery": true, "ship": true, "shipped": true, "period": true,
}

var duePhrases = []string{"期限", "お支払"}

// dayFirstCurrencies are currencies whose home conventions write the day
// first; $ (USD) documents write the month first.
var dayFirstCurrencies = map[string]bool{
	"MYR": true, "EUR": true, "GBP": true, "AUD": true, "NZD": true, "SGD": true, "INR": true, "IDR": true,
	"CHF": true, "PLN": true, "BRL": true, "ZAR": true, "HKD": true, "THB": true,
}

// dayFirstWords name taxes and places whose countries write the day first.
var dayFirstWords = map[string]bool{
	"gst": true, "sst": true, "vat": true, "mwst": true, "ust": true, "tva": true, "iva": true, "btw": true,
	"sdn": true, "bhd": true, "jalan": true, "jln": true, "malaysia": true, "selangor": true, "johor": true,
	"singapore": true, "abn": true, "gmbh": true,
}

// dayFirstLocale is computed once per document: resolve asks for every
// labelled date.
func (d *doc) dayFirstLocale() bool {
	if d.dayFirst == 0 {
		d.dayFirst = -1
		for li := range d.lines {
			for w := range dayFirstWords {
				if labelAt(d.lowLine(li), w) >= 0 {
					d.dayFirst = 1
					return true
				}
			}
		}
	}
	return d.dayFirst > 0
}

// labelReach is how far before a date its label is read: the last four
// words of a line, or a CJK phrase, fit well inside it, and a bounded window
// keeps a line of many dates linear.
const labelReach = 64

type dateCand struct {
	m        pipeline.DateMatch
	labelled bool
	due      bool
}

// dateLabel reads the words just before a date on its line (and, for a date
// alone on its line, the line above).
func (d *doc) dateLabel(m pipeline.DateMatch) (labelled, due bool) {
	li := d.lineOf(m.Start)
	ln := d.lines[li]
	before := d.slice(max(ln.start, m.Start-labelReach), m.Start)
	toks := tokens(before)
	if len(toks) == 0 {
		if li > 0 && m.End+labelReach > ln.end && strings.TrimSpace(d.slice(m.End, ln.end)) == "" {
			prev := d.lines[li-1]
			before = d.slice(max(prev.start, prev.end-labelReach), prev.end)
			toks = tokens(before)
		}
	}
	toks = window(toks, len(toks)-4, len(toks))
	low := strings.ToLower(before)
	for _, t := range toks {
		if dueWords[t] {
			return false, true
		}
	}
	for _, p := range duePhrases {
		if strings.Contains(low, p) {
			return false, true
		}
	}
	joined := strings.Join(toks, " ")
	for _, p := range dateLabelPhrases {
		if strings.Contains(joined, p) || strings.Contains(low, p) {
			return true, false
		}
	}
	for _, t := range toks {
		if dateLabelWords[t] {
			return true, false
		}
	}
	return false, false
}

// date picks the issue date: one next to a date label, else the only date
// the document states; due dates and email timestamps never win.
func (d *doc) date(ctx context.Context) (found, bool, error) {
	var cs []dateCand
	for i, m := range d.dates {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return found{}, false, ctx.Err()
		}
		l, due := d.dateLabel(m)
		cs = append(cs, dateCand{m: m, labelled: l, due: due})
	}
	order := d.dateOrder()
	var labelled, plain []dateCand
	for _, c := range cs {
		switch {
		case c.labelled:
			labelled = append(labelled, c)
		case !c.due:
			plain = append(plain, c)
		}
	}
	var c dateCand
	var tier, method string
	switch {
	case len(labelled) > 0:
		c, tier, method = labelled[0], "date:labelled", "date next to a date label"
		if distinctDates(labelled) > 1 {
			tier, method = "date:labelled-several", "first of several labelled dates"
		}
	case len(plain) > 0:
		c = plain[0]
		if distinctDates(plain) == 1 {
			tier, method = "date:only-date", "the only date that is not a due or sent date (no label)"
		} else {
			tier, method = "date:several-unlabelled", "first of several unlabelled dates"
		}
	default:
		return d.fallbackDate()
	}
	iso, rconf, how := d.resolve(c.m, order)
	if how != "" {
		method += "; " + how
	}
	f := tiered(tier, iso, method)
	f.conf = min(f.conf, rconf)
	return f, true, nil
}

func distinctDates(cs []dateCand) int {
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.m.ISO[0]] = true
	}
	return len(seen)
}

// dateOrder is the day/month convention the document's unambiguous numeric
// dates prove, or OrderUnknown when none do or they disagree.
func (d *doc) dateOrder() pipeline.DateOrder {
	order := pipeline.OrderUnknown
	for _, m := range d.dates {
		if m.Order == pipeline.OrderUnknown {
			continue
		}
		if order != pipeline.OrderUnknown && order != m.Order {
			return pipeline.OrderUnknown
		}
		order = m.Order
	}
	return order
}

// resolve reads an ambiguous date (03/04/2026) by the document's own
// convention, else its currency's, else day-first as a flagged guess.
func (d *doc) resolve(m pipeline.DateMatch, order pipeline.DateOrder) (string, float64, string) {
	if !m.Ambiguous || len(m.ISO) < 2 {
		return m.ISO[0], 1, ""
	}
	switch {
	case order == pipeline.OrderDMY:
		return m.ISO[0], 1, "day-first like another date in the document"
	case order == pipeline.OrderMDY:
		return m.ISO[1], 1, "month-first like another date in the document"
	case dayFirstCurrencies[d.currency]:
		return m.ISO[0], 0.88, "ambiguous day/month read day-first for " + d.currency
	case d.currency == "USD":
		return m.ISO[1], 0.85, "ambiguous day/month read month-first for " + d.currency
	case d.dayFirstLocale():
		return m.ISO[0], 0.86, "ambiguous day/month read day-first (GST/VAT or Malaysian address)"
	}
	return m.ISO[0], 0.6, "ambiguous day/month read day-first by default"
}

// slashDateRE and compactDateRE are date shapes FindDates leaves out because
// they are glued to something else: "12/06/2016-13:30:10" (a date joined to
// its time) and "25032018 13:11:54" or "DATE/TIME : 20180428/191204" (a date
// printed without separators).
var (
	slashDateRE   = regexp.MustCompile(`(?:^|[^\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?:[^\d/.]|$)`)
	compactDateRE = regexp.MustCompile(`(?:^|\D)(\d{8})(?:\D|$)`)
	timeRE        = regexp.MustCompile(`\b\d{1,2}:\d{2}(?::\d{2})?\b|/\d{6}\b`)
)

// fallbackDate reads a date FindDates cannot: one glued to its time, or eight
// digits next to a time or a date label. It is an unusual shape read by
// position, so the gate should ask.
func (d *doc) fallbackDate() (found, bool, error) {
	for li, ln := range d.lines {
		if len(ln.text) > maxNameLine {
			continue
		}
		if m := slashDateRE.FindStringSubmatch(ln.text); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			y, _ := strconv.Atoi(m[3])
			day, month := a, b
			if a <= 12 && b > 12 || a <= 12 && b <= 12 && d.currency == "USD" {
				day, month = b, a
			}
			if iso, ok := isoDate(y, month, day); ok {
				tier := "date:fallback"
				if timeRE.MatchString(ln.text) {
					tier = "date:fallback+time"
				}
				return tiered(tier, iso, "a date glued to its time ("+m[0]+")"), true, nil
			}
		}
		withTime := timeRE.MatchString(ln.text)
		if !withTime && !strings.Contains(d.lowLine(li), "date") {
			continue
		}
		tier := "date:fallback"
		if withTime {
			tier = "date:fallback+time"
		}
		for _, m := range compactDateRE.FindAllStringSubmatch(ln.text, -1) {
			n := m[1]
			y1, _ := strconv.Atoi(n[:4])
			mo1, _ := strconv.Atoi(n[4:6])
			d1, _ := strconv.Atoi(n[6:])
			if iso, ok := isoDate(y1, mo1, d1); ok {
				return tiered(tier, iso, "eight digits read as YYYYMMDD next to a time or date label"), true, nil
			}
			d2, _ := strconv.Atoi(n[:2])
			mo2, _ := strconv.Atoi(n[2:4])
			y2, _ := strconv.Atoi(n[4:])
			if iso, ok := isoDate(y2, mo2, d2); ok {
				return tiered(tier, iso, "eight digits read as DDMMYYYY next to a time or date label"), true, nil
			}
		}
	}
	return found{}, false, nil
}

// isoDate formats a calendar date between 1990 and 2099, or reports false.
func isoDate(y, m, day int) (string, bool) {
	if y < 1990 || y > 2099 {
		return "", false
	}
	t := time.Date(y, time.Month(m), day, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != m || t.Day() != day {
		return "", false
	}
	return t.Format("2006-01-02"), true
}
