// Package local is reflect's keyless Generator: deterministic rules that read
// a schema's kinds and roles (never its field names) and find values by the
// labels, formats and positions documents use. It needs no model and no
// network, so `reflect extract` works on a fresh machine, and it says how it
// found each value (Evidence) so the heuristics-only gate can flag its guesses.
package local

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Extractor is the rule-based Generator. It is safe for concurrent use and
// keeps nothing between calls: the lexicon is cached on the schema
// (pipeline.Schema.Lexicon).
type Extractor struct{}

// New returns a rule-based extractor.
func New() *Extractor { return &Extractor{} }

// lexicon is s's lexicon, built once per schema.
func (e *Extractor) lexicon(s *pipeline.Schema) *pipeline.Lexicon { return s.Lexicon() }

// found is one extracted value and how it was found.
type found struct {
	value  any
	conf   float64
	method string
	tier   string // see tiers.go
}

// Generate extracts a record of s from doc.Text. Fields it cannot find are
// null. The rules find one vendor, one date, one reference and one currency
// per document, for the first field of each kind; a date, identifier or text
// field they leave empty is read after one of its schema labels. Money
// fields are filled by role.
func (e *Extractor) Generate(ctx context.Context, doc pipeline.Document, s *pipeline.Schema) (pipeline.Extraction, error) {
	if err := ctx.Err(); err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	}
	if s == nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w: no schema", pipeline.ErrInput)
	}
	d, err := analyze(ctx, doc.Text, e.lexicon(s))
	if err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	}
	// The checks' reading of the tax summary (rows a printed rate proves,
	// "S:GST(6%) 17.83 1.07" with no header) is what they will confirm the
	// subtotal and tax against: the extractor reads it too.
	if ts, ok, err := pipeline.FindTaxSummary(ctx, doc.Text, s); err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	} else if ok {
		d.checkSum = taxSummary{base: round2(ts.Net), tax: round2(ts.Tax), ok: true}
	}
	money := d.money()
	values := map[pipeline.Kind]found{}
	if cur, ok := d.currencyValue(); ok {
		values[pipeline.KindCurrency] = cur
	} else if code, why, ok, err := pipeline.ImpliedCurrency(ctx, doc.Text, s); err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	} else if ok {
		values[pipeline.KindCurrency] = tiered("currency:implied-issuer", code, "no currency printed; the issuer's "+why+" both imply it")
	}
	dt, ok, err := d.date(ctx)
	if err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	}
	if ok {
		values[pipeline.KindDate] = dt
	}
	if err := ctx.Err(); err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	}
	if id, ok := d.identifier(); ok {
		values[pipeline.KindIdentifier] = id
	}
	if v, ok := d.vendor(); ok {
		values[pipeline.KindText] = v
	}
	if err := ctx.Err(); err != nil {
		return pipeline.Extraction{}, fmt.Errorf("local extractor: %w", err)
	}

	ext := pipeline.Extraction{Record: pipeline.Record{}, Evidence: map[string]pipeline.Evidence{}}
	used := map[pipeline.Kind]bool{}
	for _, f := range s.Fields {
		ext.Record[f.Name] = nil
		var fv found
		ok := false
		switch f.Kind {
		case pipeline.KindMoney:
			fv, ok = money[f.Role]
			ok = ok && f.Role != pipeline.RoleNone
		default:
			// The kind's own rules serve the first field of a kind; the
			// schema's labels serve the rest, and the first when the rules
			// find nothing (a custom schema's "Collected:", "Carrier:").
			if !used[f.Kind] {
				fv, ok = values[f.Kind]
				used[f.Kind] = true
			}
			if !ok || fv.value == nil {
				fv, ok = d.byFieldLabels(f)
			}
		}
		if !ok || fv.value == nil {
			continue
		}
		ext.Record[f.Name] = fv.value
		ext.Evidence[f.Name] = pipeline.Evidence{Confidence: fv.conf, Method: fv.method, Tier: fv.tier}
	}
	return ext, nil
}

// line is one line of the source, as code-point offsets.
type line struct {
	start, end int
	text       string
}

// doc is a source text analysed once for every rule.
type doc struct {
	rs       []rune
	lines    []line
	labels   *pipeline.Lexicon
	amounts  []amount
	dates    []pipeline.DateMatch
	currency string // ISO code the document states, "" when none
	// decimalMoney: the document writes amounts with cents.
	decimalMoney bool
	roundAt      int        // the last line holding a rounding adjustment, or -1
	dayFirst     int8       // dayFirstLocale, once computed: 1 yes, -1 no
	lows         []string   // lowercased lines, filled on first use
	cur          found      // detectCurrency's evidence
	checkSum     taxSummary // the tax summary as the verify stage reads it
}

// lowLine is line i lowercased, computed once: several rules search every
// line for their labels.
func (d *doc) lowLine(i int) string {
	if d.lows == nil {
		d.lows = make([]string, len(d.lines))
		for k, ln := range d.lines {
			d.lows[k] = strings.ToLower(ln.text)
		}
	}
	return d.lows[i]
}

// checkEvery is how many items a loop handles between context checks: often
// enough to stop within milliseconds, rarely enough to cost nothing.
const checkEvery = 256

// analyze reads the text once for every rule. Its cost is linear in the text
// (times a label set of fixed size), and it stops when ctx is done.
func analyze(ctx context.Context, text string, lx *pipeline.Lexicon) (*doc, error) {
	d := &doc{rs: []rune(text), labels: lx}
	start := 0
	for i, r := range d.rs {
		if r == '\n' {
			d.lines = append(d.lines, line{start: start, end: i, text: string(d.rs[start:i])})
			start = i + 1
		}
	}
	d.lines = append(d.lines, line{start: start, end: len(d.rs), text: string(d.rs[start:])})
	d.dates = pipeline.FindDates(text)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.currency, d.cur = d.detectCurrency()
	found := pipeline.FindAmounts(text)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := d.labelAmounts(ctx, found); err != nil {
		return nil, err
	}
	for _, a := range d.amounts {
		if r := []rune(a.Raw); len(r) > 3 && (r[len(r)-3] == '.' || r[len(r)-3] == ',') {
			d.decimalMoney = true
			break
		}
	}
	d.roundAt = d.roundLine()
	d.promoteNetTotal()
	return d, nil
}

func (d *doc) lineOf(pos int) int {
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid].start <= pos {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// isClauseBreak reports punctuation that ends a clause in running text: a
// comma, semicolon or sentence stop followed by a space. A stop after a short
// word is an abbreviation ("INCL. GST", "MwSt. 19 %"), not a sentence end.
func (d *doc) isClauseBreak(i int) bool {
	if !strings.ContainsRune(",;.!?", d.rs[i]) {
		return false
	}
	if i+1 < len(d.rs) && !unicode.IsSpace(d.rs[i+1]) {
		return false
	}
	if d.rs[i] != '.' {
		return true
	}
	if i > 0 && d.rs[i-1] == '.' {
		return false // dot leaders: "TOTAL AMT........ RM 60.31"
	}
	k := i
	for k > 0 && unicode.IsLetter(d.rs[k-1]) {
		k--
	}
	return i-k == 0 || i-k >= 5
}

func (d *doc) slice(a, b int) string {
	a = max(a, 0)
	b = min(b, len(d.rs))
	if a >= b {
		return ""
	}
	return string(d.rs[a:b])
}

func round2(x float64) float64 {
	if x < 0 {
		return -float64(int64(-x*100+0.5)) / 100
	}
	return float64(int64(x*100+0.5)) / 100
}

func near(a, b float64) bool {
	diff := a - b
	return diff < 0.0051 && diff > -0.0051
}
