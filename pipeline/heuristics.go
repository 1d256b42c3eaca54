package pipeline

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
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
	rs   []rune
	fold folded
	// ascii is set when every rune of the text is ASCII (its bytes).
	ascii   bool
	amounts []labelledAmount
	dates   []DateMatch
	order   DateOrder // the numeric date convention the document proves
	nowYear int       // the verifying moment's year: later dates are implausible
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
	billedCur  *billedCurrency
	cueLine    lineCue
	cuesHeld   [2]uint8 // mayPrintCue's answers: 0 not asked, 1 no, 2 may
	rounds     []labelledAmount
	pays       []payment
	roundsDone bool
	// recordCurrency is the record's own currency code: the last hint of a
	// day-first locale when the document prints no currency of its own.
	recordCurrency string
	// folds are the text folded for identifier and name matching, once per
	// document rather than once per field.
	folds map[foldMode]folded
	// facts are the document-level facts the checks compute on first use
	// (docfacts.go).
	facts docFacts
	// st is the run's context: a check that scans the whole text again
	// gives up when it is done (runHeuristics then returns its error). It
	// points at stop, allocated with the doc.
	st   *stopper
	stop stopper
	// lent holds rs's, fold's and amounts' arrays when a scratchPool lent
	// them.
	lent *scratch
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
	return analyzeWith(ctx, text, s, nil)
}

// analyzeWith is analyze with its arrays from pool (nil: allocated); the
// caller gives them back (pool.put(d.lent)) once done with the doc.
func analyzeWith(ctx context.Context, text string, s *Schema, pool *scratchPool) (*doc, error) {
	lent := pool.get()
	rs, fold, ascii, offs := textRunes(text, lent)
	d := lent.doc()
	*d = doc{rs: rs, fold: fold, stop: stopper{ctx: ctx}, lent: lent}
	if ascii != "" {
		// An ASCII text is its own runes: text() need not compare them.
		d.ascii = true
		d.facts.src = ascii
		d.facts.text = memo[string]{v: ascii, done: true}
	} else if offs != nil {
		// So is a text nothing narrowed, and its runes' offsets were
		// noted as it was read: text() and str need not read it again.
		d.facts.text = memo[string]{v: text, done: true}
		d.facts.offsets = offs
	}
	st := &d.stop
	d.st = st
	var all []DateMatch
	var runs []int32 // where each digit run starts, with a lent list
	if lent != nil {
		all, runs = scanDatesRuns(lent.dates, lent.digits, true, rs, ascii, st)
		lent.dates, lent.digits = all, runs
		if cap(all) > maxPooledAmounts {
			lent.dates = nil
		}
		if cap(runs) > maxPooledRunes {
			lent.digits = nil
		}
	} else {
		all = scanDates(rs, ascii, st)
	}
	d.dates = realDates(all)
	// Date-shaped identifiers are no amounts either.
	// Gathered on the stack and kept at their size: sized from the text,
	// the list was twice as long as a receipt's amounts.
	// A lent list keeps the size it grew to for the next document.
	d.lineStarts = lineStartsIn(rs, ascii, lent)
	var found []AmountMatch
	if lent != nil {
		lent.found = lent.found[:0]
		scanAmounts(rs, ascii, all, d.lineStarts, runs, st, func(a AmountMatch) { lent.found = append(lent.found, a) })
		found = lent.found
		if cap(found) > maxPooledAmounts {
			lent.found = nil
		}
	} else {
		var buf [48]AmountMatch
		found = buf[:0]
		scanAmounts(rs, ascii, all, d.lineStarts, runs, st, func(a AmountMatch) { found = append(found, a) })
	}
	found = joinSpaceGroups(rs, ascii, found)
	amounts := lent.amountBuf(len(found))
	for i, a := range found {
		amounts[i] = labelledAmount{AmountMatch: a}
	}
	hits := findLabelSets(rs, ascii, d.fold, s.labelSets(), st, lent)
	d.moneyHits, d.fieldHits = hits[0], hits[1]
	d.amounts = labelInPlace(rs, d.lineStarts, amounts, d.moneyHits, st)
	unlabelPlacesAndYears(d.amounts)
	d.order = documentOrder(d.dates)
	if err := st.err(); err != nil {
		return nil, err
	}
	d.findTaxSummary()
	return d, st.err()
}

// textRunes is narrowRunes(text), its foldRunes(…, foldSpaces) and
// asciiText(text): a text is read once for the three, into one allocation,
// sc's when sc is not nil. offs, for a text beyond ASCII that spells rs
// (spells: no rune narrowed), is the byte offset of each rune and the
// text's length last (doc.str's), nil otherwise: the text is then its
// runes written out, which doc.text need not check again.
func textRunes(text string, sc *scratch) (rs []rune, f folded, ascii string, offs []int32) {
	n := len(text)
	buf := sc.runeBuf(2 * n)
	rs, fr := buf[:n:n], buf[n:][:n:n]
	// An ASCII text's fold is kept as bytes too (folded.b), for find.
	fb := sc.foldByteBuf(n)[:n:n]
	// First as if the text were ASCII with no whitespace after whitespace,
	// as most documents are: each byte folds alone, and one well-predicted
	// test stops the loop at the first byte that breaks either.
	var prev uint8
	i := 0
	for ; i < len(rs); i++ {
		c := text[i]
		rs[i] = rune(c)
		fc := asciiFold[c]
		fr[i], fb[i] = rune(fc), fc
		sp := asciiFoldSpace[c]
		if sp&prev|c>>7 != 0 {
			break
		}
		prev = sp
	}
	if i == n {
		return rs, folded{r: fr, b: fb}, text, nil
	}
	if text[i] >= utf8.RuneSelf {
		rs, f, offs = wideTextRunes(text, buf, sc)
		return rs, f, "", offs
	}
	// text[i] is whitespace after whitespace: the fold drops it and, from
	// here on, keeps each rune's origin. m > 0: text[i-1] was kept.
	m := i
	f.r = fr[:m]
	f.droppedIn(n, sc)
	start := f.start[:n:n]
	for i++; i < len(rs); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			rs, f, offs = wideTextRunes(text, buf, sc)
			return rs, f, "", offs
		}
		rs[i] = rune(c)
		if asciiFoldSpace[c] != 0 && fr[m-1] == ' ' {
			continue
		}
		fc := asciiFold[c]
		fr[m], fb[m] = rune(fc), fc
		start[m] = int32(i)
		m++
	}
	f.r, f.start, f.b = fr[:m], start[:m], fb[:m]
	return rs, f, text, nil
}

// wideTextRunes is textRunes of a text beyond ASCII: each rune narrowed
// and folded as it is decoded, the runes and the fold in buf (2×len(text)
// runes: a text has no more runes than bytes, and folding keeps at most a
// rune per rune). offs is textRunes': each rune's byte offset, noted as it
// is decoded, kept when no rune narrowed and none is U+FFFD.
func wideTextRunes(text string, buf []rune, sc *scratch) (rs []rune, f folded, offs []int32) {
	n := utf8.RuneCountInString(text)
	rs, fr := buf[:n:n], buf[n:][:n:n]
	offs = sc.offsetBuf(n + 1)[: n+1 : n+1]
	offs[n] = int32(len(text))
	at := offs[:n]
	// Until folding drops a rune each rune folds in its own place, as in
	// textRunes; from the first dropped on, the origins are kept.
	i, j := 0, 0
	dropped, changed := false, false
	for ; j < len(text); i++ {
		var r, fold rune
		at[i] = int32(j)
		if c := text[j]; c < utf8.RuneSelf {
			// Most runes of most texts are ASCII even here: they fold
			// from the table, undecoded.
			r, fold = rune(c), rune(asciiFold[c])
			j++
		} else {
			var same bool
			r, fold, j, same = wideRuneAt(text, j)
			changed = changed || !same
		}
		rs[i] = r
		// Only whitespace folds to a space.
		if fold == ' ' && i > 0 && fr[i-1] == ' ' {
			dropped = true
			break
		}
		fr[i] = fold
	}
	if changed {
		offs = nil
	}
	if !dropped {
		return rs, folded{r: fr}, offs
	}
	m := i
	f.r = fr[:m]
	f.droppedIn(n, sc)
	start := f.start[:n:n]
	for i++; j < len(text); i++ {
		var r, fold rune
		at[i] = int32(j)
		if c := text[j]; c < utf8.RuneSelf {
			r, fold = rune(c), rune(asciiFold[c])
			j++
		} else {
			var same bool
			r, fold, j, same = wideRuneAt(text, j)
			changed = changed || !same
		}
		rs[i] = r
		if fold == ' ' && fr[m-1] == ' ' {
			continue
		}
		fr[m] = fold
		start[m] = int32(i)
		m++
	}
	f.r, f.start = fr[:m], start[:m]
	if changed {
		offs = nil
	}
	return rs, f, offs
}

// wideRuneAt is the rune beyond ASCII at byte j of text, narrowed, its
// fold and the offset past it; same reports a rune that is as printed
// (not narrowed) and no U+FFFD, which may stand for an invalid byte.
func wideRuneAt(text string, j int) (r, fold rune, next int, same bool) {
	d, size := utf8.DecodeRuneInString(text[j:])
	r = narrowRune(d)
	same = r == d && d != utf8.RuneError
	if isSpace(r) {
		return r, ' ', j + size, same
	}
	return r, toLower(r), j + size, same
}

// asciiFold is each ASCII byte as foldRunes(…, foldSpaces) writes it
// (lowered; whitespace a space), and asciiFoldSpace is 1 for whitespace.
var asciiFold, asciiFoldSpace = func() (fold, space [256]uint8) {
	for c := range utf8.RuneSelf {
		fold[c] = uint8(toLower(rune(c)))
		if isSpace(rune(c)) {
			fold[c], space[c] = ' ', 1
		}
	}
	return fold, space
}()

// asciiText is text when every byte of it is ASCII, else "". Such a text's
// runes are its bytes, so the passes over a document cut the strings they
// keep (amounts and dates as written) from it instead of allocating each.
func asciiText(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return ""
		}
	}
	return text
}

// cut is string(rs[a:b]), sliced from ascii when the text is all ASCII.
func cut(rs []rune, ascii string, a, b int) string {
	if ascii != "" {
		return ascii[a:b]
	}
	return string(rs[a:b])
}

// lineStartsOf is the offset each line of rs starts at.
func lineStartsOf(rs []rune) []int {
	n := 1
	for _, r := range rs {
		if r == '\n' {
			n++
		}
	}
	starts := make([]int, 1, n)
	for i, r := range rs {
		if r == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineStartsIn is lineStartsOf(rs) in sc's list when sc is not nil, read
// from ascii when the text is all ASCII (asciiText): its rune offsets are
// its byte offsets, and the newlines are found by the vectorised byte search.
func lineStartsIn(rs []rune, ascii string, sc *scratch) []int {
	if sc != nil && len(rs) < maxPooledRunes {
		// A lent list holds a line per rune: one pass fills it, with no
		// count of the lines first.
		starts := sc.lineBuf(len(rs) + 1)[:1]
		starts[0] = 0 // a lent list is not zeroed
		if ascii == "" {
			for i, r := range rs {
				if r == '\n' {
					starts = append(starts, i+1)
				}
			}
			return starts
		}
		for at := 0; ; {
			i := strings.IndexByte(ascii[at:], '\n')
			if i < 0 {
				return starts
			}
			at += i + 1
			starts = append(starts, at)
		}
	}
	if ascii == "" {
		n := 1
		for _, r := range rs {
			if r == '\n' {
				n++
			}
		}
		starts := sc.lineBuf(n)[:1]
		starts[0] = 0 // a lent list is not zeroed
		for i, r := range rs {
			if r == '\n' {
				starts = append(starts, i+1)
			}
		}
		return starts
	}
	starts := sc.lineBuf(strings.Count(ascii, "\n") + 1)[:1]
	starts[0] = 0 // a lent list is not zeroed
	for at := 0; ; {
		i := strings.IndexByte(ascii[at:], '\n')
		if i < 0 {
			return starts
		}
		at += i + 1
		starts = append(starts, at)
	}
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
	return runHeuristics(ctx, nil, text, s, rec, nil, nil, time.Now().Year())
}

// runHeuristics skips the omission check of the unstated fields.
// The doc's arrays come from pool (nil: allocated) and go back when it
// returns: the report holds nothing of them.
// nowYear is the verifying moment's year, the dates' plausibility bound.
// The report is rep, empty, when it is not nil (a lent map: verify's).
func runHeuristics(ctx context.Context, rep HeuristicReport, text string, s *Schema, rec Record, unstated map[string]bool, pool *scratchPool, nowYear int) (HeuristicReport, error) {
	d, err := analyzeWith(ctx, text, s, pool)
	if err != nil {
		return nil, err
	}
	d.nowYear = nowYear
	defer pool.put(d.lent)
	d.facts.src = text
	if rep == nil {
		rep = HeuristicReport{}
	}
	for _, f := range s.Fields {
		// A null leaves it unset: "<NIL>" was no currency either.
		if v := rec[f.Name]; f.Kind == KindCurrency && v != nil {
			d.recordCurrency = strings.ToUpper(valueString(v))
		}
	}
	// anchored: the value is where the source puts it (role-grounded for a
	// money field with a role, grounded otherwise). Arithmetic blames the rest.
	anchored := map[string]bool{}
	for _, f := range s.Fields {
		// Each field's checks pass over the text again: on a long document
		// they outlast the scans, so a deadline is looked at between them.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
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
		val := valueString(v) // a float64's text is built once, not per check
		switch f.Kind {
		case KindMoney:
			anchored[f.Name] = d.checkMoney(&c, f, v)
			if x, ok := moneyValue(v); ok && f.Role != RoleNone {
				d.twoLabelled(&c, f, x)
			}
		case KindDate:
			d.checkDate(&c, val, f.Role == RoleDocumentDate)
			if c.Grounded && f.Role == RoleDocumentDate {
				d.checkDatePlace(&c, val)
			}
		case KindCurrency:
			d.checkCurrencyContext(&c, strings.ToUpper(val))
		default:
			d.checkText(&c, f.Kind, val)
		}
		if c.Grounded && len(f.Labels) > 0 && f.Kind != KindMoney && f.Kind != KindCurrency {
			d.checkLabelledOrOwn(&c, f, s, val)
		}
		if c.Grounded {
			d.checkOtherDocument(&c, f, val)
			d.checkNonInvoiceNumber(&c, f, val)
		}
		if c.Grounded && f.Kind == KindIdentifier {
			own := false
			for _, sp := range c.Spans {
				own = own || d.ownLabelled(f, sp)
			}
			checkNumberShape(&c, f, val, own)
			d.checkIdentifier(&c, f, val, own)
			d.checkOwnNumber(&c, f, val)
			d.checkPlainOwn(&c, f, val)
			d.checkPhoneNumber(&c, f, val)
		}
		if c.Grounded && f.Kind == KindText && f.Party == PartyIssuer {
			d.checkIssuer(&c, val)
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
	for _, c := range rep {
		c.markPrimary() // marks the span in the array the report's check shares
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

func (c *FieldCheck) penalize(factor float64, reason string) {
	c.Factor *= factor
	c.Reasons = append(c.Reasons, reason)
}

func (d *doc) checkText(c *FieldCheck, kind Kind, val string) {
	if val == "" {
		return
	}
	var nb [48]rune // most values are shorter: the needle stays on the stack
	spans := bounded(d.rs, d.fold.find(appendNeedle(nb[:0], strings.TrimSpace(val), foldSpaces)))
	if len(spans) == 0 {
		// Identifiers are compared ignoring spaces and hyphens ("INV-1001" is
		// "INV 1001"); text ignoring all punctuation ("SDN. BHD." is "SDN
		// BHD"). Both differences are typography, not a different value.
		mode := foldAlnum
		if kind == KindIdentifier {
			mode = foldCompact
		}
		if n := appendNeedle(nb[:0], strings.TrimSpace(val), mode); len(n) >= 3 || kind == KindIdentifier {
			spans = bounded(d.rs, d.foldedAs(mode).find(n))
		}
	}
	var cut []Span
	if kind == KindIdentifier {
		cut, spans = spans, wholeIdentifiers(d.rs, spans)
		if len(spans) == 0 {
			if sp, ok := d.seriesNumber(val); ok {
				spans = []Span{sp}
			}
		}
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
	whole := func(sp Span) bool {
		after := sp.End+1 < len(rs) && joiner(rs[sp.End]) && isAlnum(rs[sp.End+1])
		before := sp.Start >= 2 && joiner(rs[sp.Start-1]) && isAlnum(rs[sp.Start-2])
		return !after && !before
	}
	return keepSpans(spans, whole)
}
