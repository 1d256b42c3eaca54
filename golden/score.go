package golden

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Verifier is what eval runs each row through; *pipeline.Pipeline is one.
type Verifier interface {
	Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error)
}

// MoneyTolerance is how far an extracted amount may be from its label and
// still count as right: half a cent, so 583.2 and 583.20 agree but 583.21 does
// not.
const MoneyTolerance = 0.005

// Options tunes Evaluate.
type Options struct {
	// Concurrency is how many rows are verified at once; below 1 means 1.
	Concurrency int
	// Bars are the pass/fail bars WriteText reports against; nil means
	// DefaultBars. Check takes its bars as arguments.
	Bars *Bars
}

// Bars are the eval gate: the lowest acceptable field accuracy and the most
// silent-wrong fields tolerated, plus optional bars (nil or empty: not
// applied) for the figures an acceptance criterion names as shares.
type Bars struct {
	MinAccuracy    float64 `json:"min_accuracy"`
	MaxSilentWrong int     `json:"max_silent_wrong"`
	// MaxSilentWrongRate bars silent-wrong fields as a share of scored fields
	// (nulls where the label has a value included: an omission is a miss).
	MaxSilentWrongRate *float64 `json:"max_silent_wrong_rate,omitempty"`
	// MaxSilentValueRate bars only the wrong values returned as fine (not
	// the nulls) as a share of scored fields: issue 9's "wrong values
	// returned unflagged" figure.
	MaxSilentValueRate *float64 `json:"max_silent_value_rate,omitempty"`
	// MinFieldAccuracy bars named fields' accuracy ("total": 0.92).
	MinFieldAccuracy map[string]float64 `json:"min_field_accuracy,omitempty"`
	// MinOKRate bars the share of documents auto-accepted (status ok).
	MinOKRate *float64 `json:"min_ok_rate,omitempty"`
}

// DefaultBars are the eval gate CI applies: 90% field accuracy, no silent-wrong field.
func DefaultBars() Bars { return Bars{MinAccuracy: 0.90, MaxSilentWrong: 0} }

// Evaluate runs every row through v and scores the results against the
// labels. It never fails as a whole: a row whose verification errors (or whose
// context is cancelled) is an error row, every scored field of it counted
// wrong. Rows are reported in input order whatever the concurrency.
func Evaluate(ctx context.Context, v Verifier, s *pipeline.Schema, rows []Row, opts Options) Report {
	results := make([]pipeline.Result, len(rows))
	errs := make([]error, len(rows))
	workers := max(opts.Concurrency, 1)
	workers = min(workers, max(len(rows), 1))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = verifyRow(ctx, v, rows[i])
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()

	bars := DefaultBars()
	if opts.Bars != nil {
		bars = *opts.Bars
	}
	rep := newReport(s, bars)
	for _, e := range CheckRows(s, rows) {
		rep.Warnings = append(rep.Warnings, e.Error())
	}
	for i, row := range rows {
		rep.add(s, row, results[i], errs[i])
	}
	rep.finish()
	return rep
}

func verifyRow(ctx context.Context, v Verifier, row Row) (res pipeline.Result, err error) {
	if err := ctx.Err(); err != nil {
		return pipeline.Result{}, err
	}
	// A Verifier bug must cost one row, not the whole eval run.
	defer func() {
		if p := recover(); p != nil {
			err = errors.New("verifier panicked: " + strings.TrimSpace(toString(p)))
		}
	}()
	res, err = v.Extract(ctx, pipeline.Document{ID: row.ID, Text: row.Text})
	if err == nil && res.Status == pipeline.StatusError {
		msg := res.ErrorMessage
		if msg == "" {
			msg = "result status error"
		}
		err = errors.New(msg)
	}
	return res, err
}

func toString(v any) string {
	if e, ok := v.(error); ok {
		return e.Error()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// FieldCorrect says whether got matches the label want for field f. A nil want
// means the source does not state the field, so only a null is right.
func FieldCorrect(f pipeline.Field, want, got any) bool {
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	switch f.Kind {
	case pipeline.KindMoney:
		w, ok1 := toFloat(want)
		g, ok2 := toFloat(got)
		return ok1 && ok2 && math.Abs(w-g) <= MoneyTolerance+1e-9
	case pipeline.KindDate:
		return strings.TrimSpace(toText(want)) == strings.TrimSpace(toText(got))
	case pipeline.KindCurrency:
		return strings.EqualFold(strings.TrimSpace(toText(want)), strings.TrimSpace(toText(got)))
	case pipeline.KindIdentifier:
		return normIdentifier(toText(want)) == normIdentifier(toText(got))
	default:
		return normText(toText(want)) == normText(toText(got))
	}
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		return pipeline.ParseAmount(x)
	default:
		return 0, false
	}
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		// A model may emit a numeric reference (2231) as a bare number.
		return strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return toString(x)
	}
}

// normText folds case, collapses runs of whitespace and drops trailing
// punctuation, so "Globex  Ltd." and "globex ltd" agree but the words must.
func normText(s string) string {
	return trimTrailingPunct(strings.ToLower(strings.Join(strings.Fields(s), " ")))
}

// normIdentifier also drops inner whitespace: OCR and people both split
// reference numbers ("INV 1001" for "INV1001") without changing them.
func normIdentifier(s string) string {
	return trimTrailingPunct(strings.ToLower(strings.Join(strings.Fields(s), "")))
}

func trimTrailingPunct(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool {
		switch r {
		case '.', ',', ';', ':', '!', '?', '。', '、', '，':
			return true
		}
		return unicode.IsSpace(r)
	})
}
