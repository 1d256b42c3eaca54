package pipeline

import (
	"fmt"
	"strconv"
)

// documentOrder is the day/month convention the document's unambiguous
// numeric dates prove, or OrderUnknown when none do or they disagree.
func documentOrder(ds []DateMatch) DateOrder {
	order := OrderUnknown
	for _, m := range ds {
		if m.Order == OrderUnknown {
			continue
		}
		if order != OrderUnknown && order != m.Order {
			return OrderUnknown
		}
		order = m.Order
	}
	return order
}

// Buddhist-era years (Thailand) run 543 ahead of the Gregorian calendar; a
// year in this range is one left unconverted, no invoice date of ours.
const (
	buddhistEraOffset = 543
	buddhistEraMin    = 2400
	buddhistEraMax    = 2700
)

// Hijri years (and Iran's solar ones) run some 580 and 620 behind the
// Gregorian calendar: a year in this range is one copied as printed beside
// or instead of the Gregorian date, no invoice date of ours.
const (
	islamicYearMin = 1300
	islamicYearMax = 1599
)

// A date more than a year after the verifying moment, or before 1970, is no
// invoice's: the Buddhist-era and Hijri ranges above have their own reasons,
// this is the backstop for the other calendars (Bikram Sambat 2080s,
// Japanese and Taiwanese era years) and for a mistyped year. Within a year
// ahead is a pre-dated invoice.
const (
	maxYearsAhead    = 1
	minPlausibleYear = 1970
)

func implausibleYear(iso string, y, now int) string {
	if y > now {
		return fmt.Sprintf("the date %s is %d years after today (%d): a date in another calendar (Bikram Sambat, Solar Hijri, Buddhist era) copied as Gregorian, or a mistyped year?", iso, y-now, now)
	}
	return fmt.Sprintf("the date %s is before %d: an era year (Japan's Reiwa %d, Taiwan's Minguo %d are %d) or another calendar's date copied as Gregorian, or a mistyped year?", iso, minPlausibleYear, now-2018, now-1911, now)
}

// readsAs reports whether a printed date's readings include iso, or iso
// with its year written Buddhist-era as a Thai document prints it
// ("12/03/2569" is 2026-03-12).
func readsAs(isos []string, iso string) bool {
	for _, r := range isos {
		if r == iso {
			return true
		}
		if len(r) == 10 && len(iso) == 10 && r[4:] == iso[4:] && isBuddhistYearOf(r[:4], iso[:4]) {
			return true
		}
	}
	return false
}

// buddhistEra reports an ISO date whose year is a Buddhist-era one, as a
// Thai document prints it: quoted as printed, not as a Gregorian date.
func buddhistEra(iso string) bool {
	y, err := strconv.Atoi(iso[:min(4, len(iso))])
	return err == nil && y >= buddhistEraMin && y <= buddhistEraMax
}

// isBuddhistYearOf reports whether be is the Buddhist-era form of year y.
func isBuddhistYearOf(be, y string) bool {
	b, err1 := strconv.Atoi(be)
	g, err2 := strconv.Atoi(y)
	return err1 == nil && err2 == nil && b >= buddhistEraMin && b <= buddhistEraMax && b-buddhistEraOffset == g
}

// datesReading are the printed dates that read as iso: unambiguous ones as
// spans, the ones whose other day/month reading is also valid apart.
func (d *doc) datesReading(iso string) (spans []Span, ambiguous []DateMatch) {
	for _, m := range d.dates {
		for _, cand := range m.ISO {
			if cand != iso {
				continue
			}
			if m.Ambiguous {
				ambiguous = append(ambiguous, m)
			} else {
				spans = append(spans, Span{Start: m.Start, End: m.End})
			}
		}
	}
	return spans, ambiguous
}

// checkDate checks that iso is a real date the document prints, in the
// document's day/month order. Only the document's own date (own: the
// field's role is RoleDocumentDate) is judged by the years an issue date
// can have: a birth date of 1958 or a passport's expiry in 2034 is a true
// value of a field of its own.
func (d *doc) checkDate(c *FieldCheck, iso string, own bool) {
	if !ValidISODate(iso) {
		c.penalize(factorInvalidDate, fmt.Sprintf("invalid date %q", iso))
		return
	}
	y, _ := strconv.Atoi(iso[:4])
	switch {
	case !own:
	case y >= buddhistEraMin && y <= buddhistEraMax:
		c.penalize(factorInvalidDate, fmt.Sprintf("year %d is a Buddhist-era year as printed; the Gregorian year is %d", y, y-buddhistEraOffset))
		return
	case y >= islamicYearMin && y <= islamicYearMax:
		c.penalize(factorInvalidDate, fmt.Sprintf("year %d is an Islamic-calendar (Hijri) year as printed, not a Gregorian one: the invoice date is the Gregorian date", y))
		return
	case d.nowYear > 0 && (y > d.nowYear+maxYearsAhead || y < minPlausibleYear):
		c.penalize(factorInvalidDate, implausibleYear(iso, y, d.nowYear))
		return
	}
	read := iso // the date as the document prints it
	spans, ambiguous := d.datesReading(iso)
	if len(spans) == 0 && len(ambiguous) == 0 {
		// A Thai document prints the Buddhist-era year (2569 for 2026).
		read = strconv.Itoa(y+buddhistEraOffset) + iso[4:]
		spans, ambiguous = d.datesReading(read)
	}
	c.Spans = append(c.Spans, spans...)
	if len(c.Spans) > 0 {
		c.Grounded = true
		return
	}
	if len(ambiguous) == 0 {
		if spans := d.printedDateSpans(iso); len(spans) > 0 {
			c.Spans, c.Grounded = spans, true
			return
		}
		c.penalize(factorNotFound, "date "+iso+" not found in source text")
		return
	}
	for _, m := range ambiguous {
		c.Spans = append(c.Spans, Span{Start: m.Start, End: m.End})
	}
	m := ambiguous[0]
	order, proof := d.order, localeWhy{}
	if order == OrderUnknown {
		// No full date settles it: the same date printed again in a form
		// only one order reads, the document's locale, or a date printed
		// without its year.
		if alt, again := d.sameDateAgain(ambiguous, read); again != "" {
			c.penalize(factorWrongOrder, fmt.Sprintf("%s reads %q the other way round: the document prints the same date again as %q, which is %s", iso, m.Raw, again, alt))
			return
		}
		// The locale is settled once per document and most documents that
		// print an ambiguous date print their locale too: the yearless
		// dates, a scan of the whole text, are read only where it says
		// nothing.
		order, proof = d.localeOrder()
		if order == OrderUnknown {
			y := d.facts.yearless.get(func() localeFact {
				o, raw := d.yearlessOrder()
				if o == OrderUnknown {
					return localeFact{order: o}
				}
				return localeFact{o, localeWhy{form: whyText, a: yearlessProof(raw, o)}}
			})
			if y.order != OrderUnknown {
				order, proof = y.order, y.why
			}
		}
	}
	switch order {
	case OrderUnknown:
		c.Grounded = true
		c.penalize(factorAmbiguousDate, fmt.Sprintf("ambiguous day/month order in %q", m.Raw))
	default:
		for _, a := range ambiguous {
			if (order == OrderDMY && a.ISO[0] == read) || (order == OrderMDY && a.ISO[1] == read) {
				c.Grounded = true
				return
			}
		}
		reads, conv := "month-first", "day-first"
		if order == OrderMDY {
			reads, conv = "day-first", "month-first"
		}
		if proof := proof.String(); proof != "" {
			c.penalize(factorWrongOrder, fmt.Sprintf("%s reads %q %s, but %s", iso, m.Raw, reads, proof))
			return
		}
		c.penalize(factorWrongOrder, fmt.Sprintf("%s reads %q %s, but %q in the same document is %s", iso, m.Raw, reads, d.proof(), conv))
	}
}

// proof is the first date that settles the document's convention.
func (d *doc) proof() string {
	for _, m := range d.dates {
		if m.Order == d.order {
			return m.Raw
		}
	}
	return ""
}
