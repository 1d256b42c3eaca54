package golden

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Report is the result of an eval run. Rates are fractions in [0,1]. It grades
// both extraction quality (accuracy) and the trust contract: every wrong field
// should be named in flagged_fields (caught), never returned as if fine
// (silent-wrong).
type Report struct {
	Schema   string `json:"schema"`
	Examples int    `json:"examples"`

	FieldsScored  int     `json:"fields_scored"`
	FieldsCorrect int     `json:"fields_correct"`
	FieldAccuracy float64 `json:"field_accuracy"`

	// ExactMatch counts rows with every scored field right.
	ExactMatch         int     `json:"exact_match"`
	ExactMatchAccuracy float64 `json:"exact_match_accuracy"`

	NeedsReview     int     `json:"needs_review"`
	NeedsReviewRate float64 `json:"needs_review_rate"`

	// WrongFields counts wrong fields in rows that returned a result. Fields of
	// error rows are counted wrong for accuracy but are neither caught nor
	// silent: an error is an explicit failure, not a value returned as fine.
	WrongFields int `json:"wrong_fields"`
	Caught      int `json:"caught"`
	// CatchRate is Caught/WrongFields, or null when nothing was wrong.
	CatchRate   *float64 `json:"catch_rate"`
	SilentWrong int      `json:"silent_wrong"`
	// SilentNull counts the silent-wrong fields that came back null: the
	// pipeline abstained where the label has a value. They are misses, not
	// wrong values returned as fine, and are still part of SilentWrong.
	SilentNull int `json:"silent_null"`
	// FalseAlarms counts correct fields that were flagged anyway: reported,
	// never gated on.
	FalseAlarms   int `json:"false_alarms"`
	ErroredFields int `json:"errored_fields"`

	PerField  []FieldStats   `json:"per_field"`
	Failures  []Failure      `json:"failures"`
	ErrorRows []ErrorRow     `json:"error_rows"`
	Rows      []RowReport    `json:"rows"`
	Usage     pipeline.Usage `json:"usage"`
	Bars      Bars           `json:"bars"`
	Warnings  []string       `json:"warnings,omitempty"`
	// Pass is whether every bar held (what Check says), for --json readers.
	Pass bool `json:"pass"`
}

// FieldStats is one field's share of the report.
type FieldStats struct {
	Field       string  `json:"field"`
	Scored      int     `json:"scored"`
	Correct     int     `json:"correct"`
	Accuracy    float64 `json:"accuracy"`
	Flagged     int     `json:"flagged"`
	Wrong       int     `json:"wrong"`
	Caught      int     `json:"caught"`
	SilentWrong int     `json:"silent_wrong"`
	FalseAlarms int     `json:"false_alarms"`
}

// Failure is one wrong field of a row that returned a result.
type Failure struct {
	ID       string `json:"id"`
	Field    string `json:"field"`
	Expected any    `json:"expected"`
	Got      any    `json:"got"`
	Flagged  bool   `json:"flagged"`
}

// ErrorRow is a row whose verification failed outright.
type ErrorRow struct {
	ID      string `json:"id"`
	Message string `json:"message"`
	// Fields is how many scored fields were counted wrong because of it.
	Fields int `json:"fields"`
}

// RowReport is how one row fared.
type RowReport struct {
	ID      string          `json:"id"`
	Status  pipeline.Status `json:"status"`
	Scored  int             `json:"scored"`
	Correct int             `json:"correct"`
	Flagged []string        `json:"flagged,omitempty"`
	Wrong   []string        `json:"wrong,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func newReport(s *pipeline.Schema, bars Bars) Report {
	r := Report{Schema: s.Name, Bars: bars, Failures: []Failure{}, ErrorRows: []ErrorRow{}, Rows: []RowReport{}}
	for _, f := range s.Fields {
		r.PerField = append(r.PerField, FieldStats{Field: f.Name})
	}
	return r
}

func (r *Report) add(s *pipeline.Schema, row Row, res pipeline.Result, err error) {
	r.Examples++
	rr := RowReport{ID: row.ID, Status: res.Status}
	if res.Usage != nil {
		r.Usage.Add(*res.Usage)
	}
	if err != nil {
		rr.Status = pipeline.StatusError
		rr.Error = err.Error()
	} else {
		if res.Status == pipeline.StatusNeedsReview {
			r.NeedsReview++
		}
		for i, f := range s.Fields {
			if res.Flagged(f.Name) {
				r.PerField[i].Flagged++
				rr.Flagged = append(rr.Flagged, f.Name)
			}
		}
	}
	for i, f := range s.Fields {
		want, scored := row.Expected[f.Name]
		if !scored {
			continue
		}
		fs := &r.PerField[i]
		fs.Scored++
		r.FieldsScored++
		rr.Scored++
		if err != nil {
			r.ErroredFields++
			continue
		}
		got := res.Data[f.Name]
		flagged := res.Flagged(f.Name)
		if FieldCorrect(f, want, got) {
			fs.Correct++
			r.FieldsCorrect++
			rr.Correct++
			if flagged {
				fs.FalseAlarms++
				r.FalseAlarms++
			}
			continue
		}
		fs.Wrong++
		r.WrongFields++
		rr.Wrong = append(rr.Wrong, f.Name)
		if flagged {
			fs.Caught++
			r.Caught++
		} else {
			fs.SilentWrong++
			r.SilentWrong++
			if got == nil {
				r.SilentNull++
			}
		}
		r.Failures = append(r.Failures, Failure{ID: row.ID, Field: f.Name, Expected: want, Got: got, Flagged: flagged})
	}
	if err != nil {
		r.ErrorRows = append(r.ErrorRows, ErrorRow{ID: row.ID, Message: err.Error(), Fields: rr.Scored})
	} else if rr.Correct == rr.Scored {
		r.ExactMatch++
	}
	r.Rows = append(r.Rows, rr)
}

func (r *Report) finish() {
	r.FieldAccuracy = ratio(r.FieldsCorrect, r.FieldsScored)
	r.ExactMatchAccuracy = ratio(r.ExactMatch, r.Examples)
	r.NeedsReviewRate = ratio(r.NeedsReview, r.Examples)
	if r.WrongFields > 0 {
		c := ratio(r.Caught, r.WrongFields)
		r.CatchRate = &c
	}
	for i := range r.PerField {
		r.PerField[i].Accuracy = ratio(r.PerField[i].Correct, r.PerField[i].Scored)
	}
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// accuracyOK absorbs float rounding, so 9 right of 10 meets a 0.9 bar.
func accuracyOK(acc, bar float64) bool { return acc >= bar-1e-9 }

// Check returns an error naming every bar the run fails: field accuracy below
// minAccuracy, or more than maxSilentWrong silent-wrong fields.
func (r Report) Check(minAccuracy float64, maxSilentWrong int) error {
	var errs []error
	if !accuracyOK(r.FieldAccuracy, minAccuracy) {
		errs = append(errs, fmt.Errorf("field accuracy %s < required %s", pct(r.FieldAccuracy), pct(minAccuracy)))
	}
	if r.SilentWrong > maxSilentWrong {
		errs = append(errs, fmt.Errorf("silent-wrong fields %d > allowed %d", r.SilentWrong, maxSilentWrong))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("eval failed: %w", errors.Join(errs...))
}

const (
	heavyRule = "=============================================================="
	lightRule = "--------------------------------------------------------------"
)

// WriteText prints the report in the layout eval has always printed: the banner, one line per
// metric, per-field accuracy, each failure tagged (flagged) or (SILENT), then
// a PASS or FAIL line for each of r.Bars.
func (r Report) WriteText(w io.Writer, mode string) error {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("%s", heavyRule)
	line("reflect eval  |  mode: %s", mode)
	line("%s", heavyRule)
	line("schema            : %s", r.Schema)
	line("examples          : %d", r.Examples)
	line("field accuracy    : %s  (%d/%d)", pct(r.FieldAccuracy), r.FieldsCorrect, r.FieldsScored)
	line("exact-match acc   : %s  (%d/%d)", pct(r.ExactMatchAccuracy), r.ExactMatch, r.Examples)
	line("needs-review rate : %s  (%d/%d)", pct(r.NeedsReviewRate), r.NeedsReview, r.Examples)
	if r.CatchRate != nil {
		line("catch rate        : %s  (%d/%d)", pct(*r.CatchRate), r.Caught, r.WrongFields)
	} else {
		line("catch rate        : n/a  (no wrong fields)")
	}
	if r.SilentNull > 0 {
		line("silent-wrong      : %d  (%d wrong value(s) returned as fine, %d null(s) where the label has a value)",
			r.SilentWrong, r.SilentWrong-r.SilentNull, r.SilentNull)
	} else {
		line("silent-wrong      : %d", r.SilentWrong)
	}
	line("false alarms      : %d", r.FalseAlarms)
	line("error rows        : %d", len(r.ErrorRows))
	line("%s", lightRule)
	line("per field           accuracy            flagged")
	for _, fs := range r.PerField {
		acc := "n/a"
		if fs.Scored > 0 {
			acc = fmt.Sprintf("%s (%d/%d)", pct(fs.Accuracy), fs.Correct, fs.Scored)
		}
		line("  %-17s %-19s %d", fs.Field, acc, fs.Flagged)
	}
	line("%s", lightRule)
	line("field-level failures (where it breaks):")
	if len(r.Failures) == 0 && len(r.ErrorRows) == 0 {
		line("  none")
	}
	for _, f := range r.Failures {
		tag := "(SILENT)"
		switch {
		case f.Flagged:
			tag = "(flagged)"
		case f.Got == nil:
			tag = "(SILENT: null)"
		}
		line("  [%s] %s: expected %s but got %s  %s", f.ID, f.Field, reprValue(f.Expected), reprValue(f.Got), tag)
	}
	for _, e := range r.ErrorRows {
		line("  [%s] ERROR: %s  (%d field(s) counted wrong)", e.ID, oneLine(e.Message), e.Fields)
	}
	for _, warn := range r.Warnings {
		line("  warning: %s", warn)
	}
	line("%s", heavyRule)
	if accuracyOK(r.FieldAccuracy, r.Bars.MinAccuracy) {
		line("PASS: field accuracy %s >= required %s", pct(r.FieldAccuracy), pct(r.Bars.MinAccuracy))
	} else {
		line("FAIL: field accuracy %s < required %s", pct(r.FieldAccuracy), pct(r.Bars.MinAccuracy))
	}
	if r.SilentWrong <= r.Bars.MaxSilentWrong {
		line("PASS: silent-wrong fields %d <= allowed %d", r.SilentWrong, r.Bars.MaxSilentWrong)
	} else {
		line("FAIL: silent-wrong fields %d > allowed %d", r.SilentWrong, r.Bars.MaxSilentWrong)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(x float64) string { return strconv.FormatFloat(x*100, 'f', 1, 64) + "%" }

// reprValue shows a value the way eval's report prints it: numbers as 583.2 or
// 540.0, strings quoted, null as null.
func reprValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		// Escaped so a value keeps to its failure line yet shows exactly.
		return "'" + strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(x) + "'"
	default:
		return oneLine(toString(x))
	}
}

// oneLine keeps a multi-line value or message from breaking the report layout.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
