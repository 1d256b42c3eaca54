package pipeline

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Factors the heuristics apply. Each is a multiplier on confidence, so a field
// failing several checks falls further.
const (
	factorNotFound      = 0.3  // value does not occur in the source
	factorWrongRole     = 0.25 // amount is not the one the source labels for its role
	factorArithmetic    = 0.3  // relation fails and this field is not anchored in the source
	factorSourceDiffers = 0.8  // relation fails though every operand is where the source labels it
	factorInvalidDate   = 0.1  // not a real YYYY-MM-DD date
	factorAmbiguousDate = 0.85 // only an ambiguous day/month reading supports the date
	factorWrongOrder    = 0.25 // date reads against the document's own day/month convention
	factorDotThousands  = 0.6  // only "1.500" (1.5 or 1,500) supports the amount
	factorWrongLabel    = 0.25 // value is labelled as another thing; the field's own label names another value
	amountEpsilon       = 0.005
)

// doc is the source text analysed once for every check.
type doc struct {
	rs      []rune
	fold    folded
	amounts []labelledAmount
	dates   []DateMatch
	order   DateOrder // the numeric date convention the document proves
	// fieldHits are the labels of non-money fields and their competitors.
	fieldHits []labelHit
	// moneyHits are the money labels.
	moneyHits []labelHit
	// lineStarts is the offset each line starts at.
	lineStarts []int
	// summary is the document's tax summary, when it prints one.
	summary *taxSummary
	// Computed on first use.
	currency   *printedCurrency
	rounds     []labelledAmount
	pays       []payment
	roundsDone bool
	// recordCurrency is the record's own currency code: the last hint of a
	// day-first locale when the document prints no currency of its own.
	recordCurrency string
	// folds are the text folded for identifier and name matching, once per
	// document rather than once per field.
	folds map[foldMode]folded
}

// foldedAs is the text folded in mode, computed once per document.
func (d *doc) foldedAs(mode foldMode) folded {
	if mode == foldSpaces {
		return d.fold
	}
	if f, ok := d.folds[mode]; ok {
		return f
	}
	if d.folds == nil {
		d.folds = map[foldMode]folded{}
	}
	f := foldRunes(d.rs, mode)
	d.folds[mode] = f
	return f
}

func analyze(ctx context.Context, text string, s *Schema) (*doc, error) {
	rs := narrowRunes(text)
	d := &doc{rs: rs, fold: foldRunes(rs, foldSpaces)}
	st := newStopper(ctx)
	all := scanDates(rs, st)
	d.dates = realDates(all)
	// Date-shaped identifiers are no amounts either.
	amounts := findAmounts(rs, all, st)
	money, fields := s.labelIndexes()
	d.moneyHits = findLabels(rs, d.fold, money, st)
	d.amounts = labelAmounts(rs, amounts, d.moneyHits, st)
	d.order = documentOrder(d.dates)
	d.fieldHits = findLabels(rs, d.fold, fields, st)
	if err := st.err(); err != nil {
		return nil, err
	}
	d.lineStarts = append(d.lineStarts, 0)
	for i, r := range rs {
		if r == '\n' {
			d.lineStarts = append(d.lineStarts, i+1)
		}
	}
	d.findTaxSummary()
	return d, st.err()
}

// labelBefore is the nearest field label ending at or before p on p's line.
func (d *doc) labelBefore(p int) (labelHit, bool) {
	ls := d.lineStarts[d.lineOf(p)]
	hits := d.fieldHits
	k := sort.Search(len(hits), func(i int) bool { return hits[i].start >= p })
	for k--; k >= 0 && hits[k].start >= ls; k-- {
		if hits[k].end <= p {
			return hits[k], true
		}
	}
	return labelHit{}, false
}

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

// RunHeuristics runs every deterministic check over rec against text: value
// grounding, amount-role grounding, arithmetic reconciliation, date validity
// and date grounding. It works from each field's kind and role and the
// schema's relations, never from field names, and returns a check for every
// non-null field.
func RunHeuristics(text string, s *Schema, rec Record) HeuristicReport {
	rep, _ := RunHeuristicsContext(context.Background(), text, s, rec)
	return rep
}

// RunHeuristicsContext is RunHeuristics that gives up when ctx is done: every
// pass over the text checks it, so a megabyte document under a deadline
// returns promptly with the context's error.
func RunHeuristicsContext(ctx context.Context, text string, s *Schema, rec Record) (HeuristicReport, error) {
	return runHeuristics(ctx, text, s, rec, nil)
}

// runHeuristics skips the omission check of the unstated fields.
func runHeuristics(ctx context.Context, text string, s *Schema, rec Record, unstated map[string]bool) (HeuristicReport, error) {
	d, err := analyze(ctx, text, s)
	if err != nil {
		return nil, err
	}
	rep := HeuristicReport{}
	for _, f := range s.Fields {
		if f.Kind == KindCurrency {
			d.recordCurrency = strings.ToUpper(valueString(rec[f.Name]))
		}
	}
	// anchored: the value is where the source puts it (role-grounded for a
	// money field with a role, grounded otherwise). Arithmetic blames the rest.
	anchored := map[string]bool{}
	for _, f := range s.Fields {
		v, ok := rec[f.Name]
		if !ok || v == nil {
			if unstated[f.Name] {
				continue
			}
			if c, ok := d.omission(f); ok {
				rep[f.Name] = c
			}
			continue
		}
		c := FieldCheck{Factor: 1, Spans: []Span{}}
		switch f.Kind {
		case KindMoney:
			anchored[f.Name] = d.checkMoney(&c, f, v)
			if x, ok := moneyValue(v); ok && f.Role != RoleNone {
				d.twoLabelled(&c, f, x)
			}
		case KindDate:
			d.checkDate(&c, valueString(v))
			if c.Grounded {
				d.checkDatePlace(&c, valueString(v))
			}
		case KindCurrency:
			d.checkCurrencyContext(&c, strings.ToUpper(valueString(v)))
		default:
			d.checkText(&c, f.Kind, valueString(v))
		}
		if c.Grounded && len(f.Labels) > 0 && f.Kind != KindMoney && f.Kind != KindCurrency {
			d.checkLabelled(&c, f, valueString(v))
		}
		if c.Grounded {
			d.checkOtherDocument(&c, f, valueString(v))
			d.checkNonInvoiceNumber(&c, f, valueString(v))
		}
		if c.Grounded && f.Kind == KindIdentifier {
			own := false
			for _, sp := range c.Spans {
				own = own || d.ownLabelled(f, sp)
			}
			d.checkIdentifier(&c, f, valueString(v), own)
		}
		if c.Grounded && f.Kind == KindText && f.Party == PartyIssuer {
			d.checkIssuer(&c, valueString(v))
		}
		if f.Kind == KindDate || f.Kind == KindIdentifier || f.Kind == KindText {
			for _, sp := range c.Spans {
				if h, ok := d.labelBefore(sp.Start); ok && h.role == fieldLabelOwner(f.Name) {
					c.setPrimary(sp.Start)
					break
				}
			}
		}
		rep[f.Name] = c
	}
	for _, rel := range s.Relations {
		reconcile(rep, rel, rec, s.Tolerance, anchored, d.roundingExplains, d.printedFix(s))
	}
	d.contradictions(rep, s, rec)
	for name, c := range rep {
		c.markPrimary()
		rep[name] = c
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rep, nil
}

func valueString(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return formatNumber(x)
	default:
		return fmt.Sprint(x)
	}
}

func moneyValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case string:
		return ParseAmount(x)
	}
	return 0, false
}

// dotThousands reports a number whose one dot has exactly three digits after
// it and a non-zero integer part of at most three digits: "1.500" is 1.5 in
// English and 1500 in German, and nothing in the token says which.
func dotThousands(raw string) bool {
	i := strings.IndexByte(raw, '.')
	if i < 1 || i > 3 || len(raw)-i-1 != 3 || raw[0] == '0' {
		return false
	}
	for k := 0; k < len(raw); k++ {
		if k != i && !isDigit(rune(raw[k])) {
			return false
		}
	}
	return true
}

// mustAmount parses a token findAmounts already accepted.
func mustAmount(raw string) float64 {
	v, _ := parseNumberCore(raw)
	return v
}

func (c *FieldCheck) penalize(factor float64, reason string) {
	c.Factor *= factor
	c.Reasons = append(c.Reasons, reason)
}

func (d *doc) checkText(c *FieldCheck, kind Kind, val string) {
	if val == "" {
		return
	}
	spans := bounded(d.rs, d.fold.find(foldNeedle(val, foldSpaces)))
	if len(spans) == 0 {
		// Identifiers are compared ignoring spaces and hyphens ("INV-1001" is
		// "INV 1001"); text ignoring all punctuation ("SDN. BHD." is "SDN
		// BHD"). Both differences are typography, not a different value.
		mode := foldAlnum
		if kind == KindIdentifier {
			mode = foldCompact
		}
		if n := foldNeedle(val, mode); len(n) >= 3 || kind == KindIdentifier {
			spans = bounded(d.rs, d.foldedAs(mode).find(n))
		}
	}
	var cut []Span
	if kind == KindIdentifier {
		cut, spans = spans, wholeIdentifiers(d.rs, spans)
	}
	if len(spans) == 0 {
		c.penalize(factorNotFound, fmt.Sprintf("%q not found in source text", val))
		if len(cut) > 0 {
			c.Reasons = append(c.Reasons, fragmentReason(d.rs, cut[0], val))
		}
		return
	}
	c.Spans, c.Grounded = spans, true
}

// wholeIdentifiers drops matches that are only part of a longer identifier:
// "KM/55" inside "KM/55/2026", "SCH-88-2231" inside "SCH-88-2231-DE".
func wholeIdentifiers(rs []rune, spans []Span) []Span {
	joiner := func(r rune) bool { return strings.ContainsRune("/-._", r) }
	var out []Span
	for _, sp := range spans {
		after := sp.End+1 < len(rs) && joiner(rs[sp.End]) && isAlnum(rs[sp.End+1])
		before := sp.Start >= 2 && joiner(rs[sp.Start-1]) && isAlnum(rs[sp.Start-2])
		if !after && !before {
			out = append(out, sp)
		}
	}
	return out
}

// checkMoney grounds an amount and, for a field with a role, checks it is the
// amount the source labels for that role. It reports whether the value is
// anchored in the source.
func (d *doc) checkMoney(c *FieldCheck, f Field, v any) bool {
	x, ok := moneyValue(v)
	if !ok {
		c.penalize(factorNotFound, fmt.Sprintf("%v is not an amount", v))
		return false
	}
	var matches []labelledAmount
	var dotted string // the ambiguous token, while every match is one
	for _, a := range d.amounts {
		amb := dotThousands(a.Raw)
		if math.Abs(math.Abs(a.Value)-math.Abs(x)) < amountEpsilon ||
			amb && math.Abs(math.Abs(a.Value)*1000-math.Abs(x)) < amountEpsilon {
			if len(matches) == 0 && amb {
				dotted = a.Raw
			} else if !amb {
				dotted = ""
			}
			matches = append(matches, a)
			c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
		}
	}
	if x != 0 && len(matches) > 0 && !slices.ContainsFunc(matches, func(a labelledAmount) bool {
		return (a.Value < 0) == (x < 0) || a.role == f.Role || trailingDash(d.rs, a.End)
	}) {
		// Every printing carries the other sign ("refund -120.00" on a
		// credit note read as 120): the sign was dropped or invented. A
		// printing under the field's own label says so below, by its label.
		c.setPrimary(matches[0].Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%s is printed only as %.2f: the sign differs", FormatFloat(x), matches[0].Value))
		return false
	}
	if len(matches) == 0 && f.Role != RoleNone {
		// A figure the tax summary adds up to ("TOTAL" row missing): the
		// rows' base column or tax column summed.
		if sm := d.summary; sm != nil && len(sm.rows) > 1 && (f.Role == RoleSubtotal && near(x, sm.net, amountEpsilon) || f.Role == RoleTax && near(x, sm.tax, amountEpsilon)) {
			for _, r := range sm.rows {
				a := d.amounts[r.base]
				if f.Role == RoleTax {
					a = d.amounts[r.taxA]
				}
				c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End})
			}
			c.Grounded = true
			return true
		}
		// The tax of two rates printed on their own rate rows and never
		// added up on the page ("Btw 21% 134,40 / Btw 9% 28,35", TPS + TVQ).
		if f.Role == RoleTax {
			if a, b, ok := d.twoRateRows(f.Role, x); ok {
				c.Spans = append(c.Spans, Span{Start: a.Start, End: a.End}, Span{Start: b.Start, End: b.End})
				c.Grounded = true
				return true
			}
		}
	}
	if q, ok := d.onlyQuantity(matches); ok && f.Role != RoleNone {
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f is printed as a quantity or rate (%q), not an amount", x, q))
	}
	c.Grounded = len(matches) > 0
	if !c.Grounded {
		c.penalize(factorNotFound, "amount "+FormatFloat(x)+" not found in source text")
	}
	if dotted != "" {
		c.penalize(factorDotThousands, fmt.Sprintf("%q may be %s or %s", dotted,
			strconv.FormatFloat(mustAmount(dotted), 'f', -1, 64), strings.Replace(dotted, ".", ",", 1)))
	}
	if f.Role == RoleNone {
		return c.Grounded
	}
	var labelled []string
	seen := map[string]bool{}
	matched := make(map[int]bool, len(matches))
	for _, m := range matches {
		matched[m.Start] = true
	}
	var flipped *labelledAmount // the labelled printing of |x| with the other sign
	for i, a := range d.amounts {
		if a.role == f.Role {
			if matched[a.Start] {
				if x != 0 && a.Value != 0 && (x < 0) != (a.Value < 0) {
					if flipped == nil {
						flipped = &d.amounts[i]
					}
					continue
				}
				if inv, paid, ok := d.balanceAfterPayment(f.Role, a); ok {
					c.setPrimary(a.Start)
					c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the balance left after a payment (%q %.2f, line %d); the document's total is %.2f (%q, line %d)", x,
						strings.ToUpper(strings.Join(strings.Fields(paid.label), " ")), paid.Value, paid.Line+1, inv.Value,
						strings.ToUpper(strings.Join(strings.Fields(inv.label), " ")), inv.Line+1))
					return false
				}
				if later, ok := d.laterFinalTotal(f.Role, a, matches); ok {
					c.setPrimary(a.Start)
					c.penalize(factorWrongRole, fmt.Sprintf("%.2f is labelled %q, but the document's final total is %.2f (%q, line %d)", x,
						strings.ToUpper(strings.Join(strings.Fields(a.label), " ")), later.Value,
						strings.ToUpper(strings.Join(strings.Fields(later.label), " ")), later.Line+1))
					return false
				}
				c.setPrimary(a.Start)
				return true
			}
			if k := fmt.Sprintf("%.2f", a.Value); !seen[k] {
				seen[k] = true
				labelled = append(labelled, k)
			}
		}
	}
	if flipped != nil {
		// "Total: -$1,130.00" on a credit note: 1130 has the wrong sign.
		c.setPrimary(flipped.Start)
		c.penalize(factorWrongRole, fmt.Sprintf("%.2f has the opposite sign of the amount labelled %s (%.2f, %q, line %d)", x, f.Role,
			flipped.Value, strings.ToUpper(strings.Join(strings.Fields(flipped.label), " ")), flipped.Line+1))
		return false
	}
	if len(labelled) == 0 {
		if f.Role == RoleTax && len(matches) > 0 && d.summary == nil && !d.printsRole(RoleTax) {
			// A receipt with no tax word anywhere: a non-zero tax can only
			// be some other printed figure (an item line, the cash).
			c.penalize(factorWrongRole, fmt.Sprintf("the document labels no tax anywhere; %.2f is printed as another figure", x))
		}
		// The source labels nothing for this role: nothing to contradict.
		return false
	}
	if m, ok := d.roundedAfter(f.Role, matches, x); ok {
		c.setPrimary(m.Start)
		return true
	}
	reason := fmt.Sprintf("%.2f is not the amount labelled %s (%s)", x, f.Role, strings.Join(labelled, ", "))
	switch {
	case len(matches) == 0:
		reason += "; it does not appear in the source"
	case matches[0].role == "":
		reason += "; it appears as an item-line amount"
	default:
		reason += fmt.Sprintf("; it appears labelled %q", strings.ToUpper(strings.Join(strings.Fields(matches[0].label), " ")))
	}
	c.penalize(factorWrongRole, reason)
	return false
}

// roundedAfter finds a printing of x after a labelled total that a printed
// rounding adjustment turns into x ("TOTAL 60.31 / ROUNDING -0.01 / 60.30"):
// the rounded figure is the payable one.
func (d *doc) roundedAfter(r Role, matches []labelledAmount, x float64) (labelledAmount, bool) {
	if r != RoleTotal {
		return labelledAmount{}, false
	}
	for _, a := range d.amounts {
		if a.role != RoleTotal || !d.roundingExplains(math.Abs(x)-math.Abs(a.Value)) {
			continue
		}
		for _, m := range matches {
			if m.Start > a.Start {
				return m, true
			}
		}
	}
	return labelledAmount{}, false
}

// laterFinalTotal finds, for a total a under a plain label ("TOTAL 135.01"),
// a different amount after it under a final-total label ("Grand Total
// 159.81", "Jumlah Besar", "Balance due"): a tip, a rounding or a previous
// balance came in between, and the final figure is the total. A payment in
// between ("Amount paid -1,800.00 / Balance due 0.00") leaves the invoice
// total standing, and so does x printed under a final label itself.
func (d *doc) laterFinalTotal(r Role, a labelledAmount, matches []labelledAmount) (labelledAmount, bool) {
	if r != RoleTotal || finalTotalLabels[a.key] {
		return labelledAmount{}, false
	}
	for _, m := range matches {
		if m.role == RoleTotal && finalTotalLabels[m.key] {
			return labelledAmount{}, false
		}
	}
	for _, b := range d.amounts {
		if b.Start <= a.Start || b.role == RoleTotal && !finalTotalLabels[b.key] {
			continue
		}
		if b.role == roleOther && (tenderedLabels[b.key] || strings.HasPrefix(b.key, "cash") || d.isPayment(b)) ||
			b.Value < 0 && b.role != RoleTotal && !isRoundingKey(b.key) {
			// Paid, deposited or credited ("Less: Deposit received 1,000.00",
			// "Applied from trust retainer -5,000.00"): the balance after it
			// is not the total.
			return labelledAmount{}, false
		}
		if b.role == RoleTotal && b.Value > 0 && !near(b.Value, a.Value, amountEpsilon) && centsForm(b.Raw) == centsForm(a.Raw) {
			return b, true
		}
	}
	return labelledAmount{}, false
}

// onlyQuantity reports that every printing of a value counts something:
// followed by a unit word ("40 hours", "10 digitale foto's") or a per-unit
// slash ("$85/hr"), while the document prints amounts with cents elsewhere.
// A money field's value is an amount, not a count or a rate.
func (d *doc) onlyQuantity(matches []labelledAmount) (string, bool) {
	if len(matches) == 0 {
		return "", false
	}
	cents := false
	for _, a := range d.amounts {
		cents = cents || centsForm(a.Raw)
	}
	if !cents {
		return "", false
	}
	rs := d.rs
	for _, m := range matches {
		if centsForm(m.Raw) {
			return "", false
		}
		rate := m.End+1 < len(rs) && rs[m.End] == '/' && unicode.IsLetter(rs[m.End+1]) // "85/hr"
		if !rate && !followedByUnit(rs, m.End) && !followedByCountedNoun(rs, m.End) {
			return "", false
		}
	}
	// Quote the number and the word after it: "40 hours", "85/hr".
	m := matches[0]
	e := m.End
	for e < len(rs) && (rs[e] == ' ' || rs[e] == '/') {
		e++
	}
	for e < len(rs) && (unicode.IsLetter(rs[e]) || rs[e] == '\'') {
		e++
	}
	return strings.TrimSpace(string(rs[m.Start:e])), true
}

// followedByCountedNoun reports a whole number followed by a plural noun
// and more words ("10 digitale foto's"): a count of things. Only used once
// the value is known to be printed without cents.
func followedByCountedNoun(rs []rune, end int) bool {
	if end >= len(rs) || rs[end] != ' ' {
		return false
	}
	k := end + 1
	j := k
	for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '\'') {
		j++
	}
	w := strings.ToLower(string(rs[k:j]))
	return len([]rune(w)) >= 3 && unicode.IsLower(rs[k]) && j < len(rs) && rs[j] == ' ' && !isAmountMarker(strings.ToUpper(w))
}

// balanceAfterPayment finds, for a total a, an earlier labelled total and a
// payment between them that a is the remainder of ("Invoice total 1,800.00 /
// Amount paid -1,800.00 / Balance due 0.00"): a is what is still owed, and
// the earlier figure is the document's total.
func (d *doc) balanceAfterPayment(r Role, a labelledAmount) (inv, paid labelledAmount, ok bool) {
	if r != RoleTotal {
		return inv, paid, false
	}
	var total *labelledAmount
	for i := range d.amounts {
		b := &d.amounts[i]
		if b.Start >= a.Start {
			break
		}
		switch {
		case b.role == RoleTotal && !near(b.Value, a.Value, amountEpsilon):
			total = b
		case total != nil && b.role == roleOther && b.Value != 0 && d.isPayment(*b) &&
			near(math.Abs(total.Value)-math.Abs(b.Value), a.Value, 0.011):
			return *total, *b, true
		}
	}
	return inv, paid, false
}

// isPayment reports an amount labelled as money already paid.
func (d *doc) isPayment(b labelledAmount) bool {
	k := b.key
	return tenderedLabels[k] || strings.Contains(k, "paid") || strings.Contains(k, "payment") || strings.Contains(k, "deposit") ||
		depositWords[k]
}

// depositWords are advance payments an invoice subtracts from its total.
var depositWords = map[string]bool{"anzahlung": true, "abschlag": true, "abschlagszahlung": true, "acompte": true,
	"aanbetaling": true, "anticipo": true, "acconto": true, "前受金": true, "内金": true}

// printsRole reports whether any money label of role is printed.
func (d *doc) printsRole(r Role) bool {
	for _, h := range d.moneyHits {
		if h.role == r {
			return true
		}
	}
	return false
}

// Buddhist-era years (Thailand) run 543 ahead of the Gregorian calendar; a
// year in this range is one left unconverted, no invoice date of ours.
const (
	buddhistEraOffset = 543
	buddhistEraMin    = 2400
	buddhistEraMax    = 2700
)

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

func (d *doc) checkDate(c *FieldCheck, iso string) {
	if !ValidISODate(iso) {
		c.penalize(factorInvalidDate, fmt.Sprintf("invalid date %q", iso))
		return
	}
	if y, _ := strconv.Atoi(iso[:4]); y >= buddhistEraMin && y <= buddhistEraMax {
		c.penalize(factorInvalidDate, fmt.Sprintf("year %d is a Buddhist-era year as printed; the Gregorian year is %d", y, y-buddhistEraOffset))
		return
	}
	read := iso // the date as the document prints it
	spans, ambiguous := d.datesReading(iso)
	if len(spans) == 0 && len(ambiguous) == 0 {
		// A Thai document prints the Buddhist-era year (2569 for 2026).
		y, _ := strconv.Atoi(iso[:4])
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
	order, proof := d.order, ""
	if order == OrderUnknown {
		// No printed date settles it; the document's locale may.
		order, proof = d.localeOrder()
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
		if proof != "" {
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

// reconcile checks one relation and penalizes the fields that can be blamed.
// explained reports a difference the document prints (a rounding adjustment).
// fix, when not nil, names a figure printed under a field's role that would
// make the relation hold in place of the field's value.
func reconcile(rep HeuristicReport, rel Relation, rec Record, tol float64, anchored map[string]bool, explained func(float64) bool,
	fix func(field string, want, tol float64) (labelledAmount, bool)) {
	vals := map[string]float64{}
	for _, name := range append(termFields(rel), rel.Result) {
		x, ok := moneyValue(rec[name])
		if !ok {
			return
		}
		vals[name] = x
	}
	sum := 0.0
	var expr strings.Builder
	for i, t := range rel.Terms {
		sum += float64(t.Sign) * vals[t.Field]
		switch {
		case t.Sign < 0 && i == 0:
			expr.WriteString("-")
		case t.Sign < 0:
			expr.WriteString(" - ")
		case i > 0:
			expr.WriteString(" + ")
		}
		fmt.Fprintf(&expr, "%s(%s)", t.Field, FormatFloat(vals[t.Field]))
	}
	if math.Abs(sum-vals[rel.Result]) <= tol+1e-9 || explained(vals[rel.Result]-sum) {
		return
	}
	reason := fmt.Sprintf("%s != %s(%s)", expr.String(), rel.Result, FormatFloat(vals[rel.Result]))
	var blamed []string
	for _, name := range append(termFields(rel), rel.Result) {
		if !anchored[name] {
			blamed = append(blamed, name)
		}
	}
	if len(blamed) == 0 && fix != nil {
		// Every figure is where the source labels it, but the source also
		// labels one that balances the relation: the value beside it is the
		// wrong one of the two ("TAX 0.00" on a zero-rate row, "GST 1.22").
		// Terms only: a result beyond the balancing figure may be a later,
		// final one (a total with the tip), which the total's own checks read.
		for _, t := range rel.Terms {
			name, sign := t.Field, float64(t.Sign)
			want := (vals[rel.Result] - (sum - sign*vals[name])) * sign
			if math.Abs(want-vals[name]) <= tol+1e-9 {
				continue
			}
			if a, ok := fix(name, want, tol); ok {
				c := rep[name]
				c.penalize(factorArithmetic, fmt.Sprintf("%s; the document also labels %s as %s (%s, line %d), which balances it",
					reason, a.Raw, strings.ReplaceAll(name, "_", " "), strings.TrimSpace(a.label), a.Line+1))
				rep[name] = c
				blamed = append(blamed, name)
			}
		}
		if len(blamed) > 0 {
			return
		}
	}
	if len(blamed) == 0 {
		c := rep[rel.Result]
		c.penalize(factorSourceDiffers, reason+" (the source's own figures disagree)")
		rep[rel.Result] = c
		return
	}
	for _, name := range blamed {
		c := rep[name]
		c.penalize(factorArithmetic, reason)
		rep[name] = c
	}
}

func termFields(rel Relation) []string {
	out := make([]string, 0, len(rel.Terms)+1)
	for _, t := range rel.Terms {
		out = append(out, t.Field)
	}
	return out
}

// printedFix finds, for a money field with a role, an amount the document
// labels with that role and whose value is want.
func (d *doc) printedFix(s *Schema) func(field string, want, tol float64) (labelledAmount, bool) {
	return func(field string, want, tol float64) (labelledAmount, bool) {
		f, ok := s.Field(field)
		if !ok || f.Kind != KindMoney || f.Role == RoleNone {
			return labelledAmount{}, false
		}
		for _, a := range d.amounts {
			if a.role == f.Role && math.Abs(a.Value-want) <= tol+1e-9 {
				return a, true
			}
		}
		// Two parts on their own lines, each with its rate, that add up to
		// it: two rates' tax (10% and 8% 消費税, TVA A and B), CGST and SGST.
		// Without a rate a part may be a rounding read under a tax label.
		if a, b, ok := d.twoRateRows(f.Role, want); ok {
			sum := a
			sum.Raw = a.Raw + " and " + b.Raw
			sum.label = a.label + ", " + b.label
			return sum, true
		}
		return labelledAmount{}, false
	}
}

// rateOnLine reports a percentage printed on a's line: a rate row.
func (d *doc) rateOnLine(a labelledAmount) bool {
	ls, le := d.lineBounds(a.Line)
	for k := ls; k < le && k < ls+200; k++ {
		if d.rs[k] == '%' || d.rs[k] == '％' {
			return true
		}
	}
	return false
}

// twoRateRows finds two amounts labelled r on their own lines, each with its
// rate printed, that add up to x.
func (d *doc) twoRateRows(r Role, x float64) (labelledAmount, labelledAmount, bool) {
	var parts []labelledAmount
	for _, a := range d.amounts {
		if a.role == r && len(parts) < 16 && d.rateOnLine(a) {
			parts = append(parts, a)
		}
	}
	for i, a := range parts {
		for _, b := range parts[i+1:] {
			if a.Line != b.Line && math.Abs(a.Value+b.Value-x) < amountEpsilon {
				return a, b, true
			}
		}
	}
	return labelledAmount{}, labelledAmount{}, false
}

// isRoundingKey reports a rounding label in the languages the lexicon knows.
func isRoundingKey(k string) bool {
	for _, w := range []string{"round", "adjust", "rund", "arrondi", "redondeo", "arrotond", "afronding", "pembundaran", "端数", "avrundning", "öresavrundning"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// trailingDash reports "￥3,960-": a Japanese receipt closes an amount with
// a dash, which is no minus.
func trailingDash(rs []rune, end int) bool {
	return end < len(rs) && (rs[end] == '-' || rs[end] == '－')
}
