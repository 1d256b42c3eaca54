package golden

import (
	"errors"
	"fmt"
	"io"
	"sort"
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
	// OK counts documents auto-accepted (status ok); OKRate is OK/Examples.
	OK     int     `json:"ok"`
	OKRate float64 `json:"ok_rate"`

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
	// SilentWrongRate is SilentWrong/FieldsScored: the trust figure as a
	// share, comparable across datasets of any size. SilentValueRate counts
	// only wrong values returned as fine (SilentWrong - SilentNull).
	SilentWrongRate float64 `json:"silent_wrong_rate"`
	SilentValueRate float64 `json:"silent_value_rate"`
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
		switch res.Status {
		case pipeline.StatusNeedsReview:
			r.NeedsReview++
		case pipeline.StatusOK:
			r.OK++
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
	r.OKRate = ratio(r.OK, r.Examples)
	r.SilentWrongRate = ratio(r.SilentWrong, r.FieldsScored)
	r.SilentValueRate = ratio(r.SilentWrong-r.SilentNull, r.FieldsScored)
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
	return r.CheckBars(Bars{MinAccuracy: minAccuracy, MaxSilentWrong: maxSilentWrong})
}

// CheckBars is Check over every bar b sets.
func (r Report) CheckBars(b Bars) error {
	var errs []error
	for _, v := range r.verdicts(b) {
		if !v.pass {
			errs = append(errs, errors.New(v.fail))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("eval failed: %w", errors.Join(errs...))
}

// barVerdict is one bar's outcome, worded for the PASS line and the error.
type barVerdict struct {
	pass          bool
	passMsg, fail string
}

func (r Report) verdicts(b Bars) []barVerdict {
	var out []barVerdict
	add := func(pass bool, passMsg, failMsg string) {
		out = append(out, barVerdict{pass: pass, passMsg: passMsg, fail: failMsg})
	}
	add(accuracyOK(r.FieldAccuracy, b.MinAccuracy),
		fmt.Sprintf("field accuracy %s >= required %s", pct(r.FieldAccuracy), pct(b.MinAccuracy)),
		fmt.Sprintf("field accuracy %s < required %s", pct(r.FieldAccuracy), pct(b.MinAccuracy)))
	add(r.SilentWrong <= b.MaxSilentWrong,
		fmt.Sprintf("silent-wrong fields %d <= allowed %d", r.SilentWrong, b.MaxSilentWrong),
		fmt.Sprintf("silent-wrong fields %d > allowed %d", r.SilentWrong, b.MaxSilentWrong))
	if b.MaxSilentWrongRate != nil {
		m := *b.MaxSilentWrongRate
		add(r.SilentWrongRate <= m+1e-9,
			fmt.Sprintf("silent-wrong %s of scored fields <= allowed %s", pct2(r.SilentWrongRate), pct2(m)),
			fmt.Sprintf("silent-wrong %s of scored fields > allowed %s", pct2(r.SilentWrongRate), pct2(m)))
	}
	if b.MaxSilentValueRate != nil {
		m := *b.MaxSilentValueRate
		add(r.SilentValueRate <= m+1e-9,
			fmt.Sprintf("wrong values returned as fine %s of scored fields <= allowed %s", pct2(r.SilentValueRate), pct2(m)),
			fmt.Sprintf("wrong values returned as fine %s of scored fields > allowed %s", pct2(r.SilentValueRate), pct2(m)))
	}
	names := make([]string, 0, len(b.MinFieldAccuracy))
	for name := range b.MinFieldAccuracy {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		bar := b.MinFieldAccuracy[name]
		fs, ok := r.fieldStats(name)
		if !ok || fs.Scored == 0 {
			add(false, "", fmt.Sprintf("%s accuracy: the field is not scored (no labels), required %s", name, pct(bar)))
			continue
		}
		add(accuracyOK(fs.Accuracy, bar),
			fmt.Sprintf("%s accuracy %s >= required %s", name, pct(fs.Accuracy), pct(bar)),
			fmt.Sprintf("%s accuracy %s < required %s", name, pct(fs.Accuracy), pct(bar)))
	}
	if b.MinOKRate != nil {
		m := *b.MinOKRate
		add(accuracyOK(r.OKRate, m),
			fmt.Sprintf("ok (auto-accepted) %s >= required %s", pct(r.OKRate), pct(m)),
			fmt.Sprintf("ok (auto-accepted) %s < required %s", pct(r.OKRate), pct(m)))
	}
	return out
}

func (r Report) fieldStats(name string) (FieldStats, bool) {
	for _, fs := range r.PerField {
		if fs.Field == name {
			return fs, true
		}
	}
	return FieldStats{}, false
}

const (
	heavyRule = "=============================================================="
	lightRule = "--------------------------------------------------------------"
)

// WriteText prints the report in the layout eval has always printed: the banner, one line per
// metric, per-field accuracy, each failure tagged (flagged) or (SILENT), then
// a PASS or FAIL line for each of r.Bars.
func (r Report) WriteText(w io.Writer, mode string) error { return r.WriteTextList(w, mode, -1) }

// WriteTextList is WriteText listing at most list field-level failures per
// field (all of them when list < 0); a large dataset's report stays readable.
func (r Report) WriteTextList(w io.Writer, mode string, list int) error {
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
	line("ok (auto-accepted): %s  (%d/%d)", pct(r.OKRate), r.OK, r.Examples)
	if r.CatchRate != nil {
		line("catch rate        : %s  (%d/%d)", pct(*r.CatchRate), r.Caught, r.WrongFields)
	} else {
		line("catch rate        : n/a  (no wrong fields)")
	}
	if r.SilentNull > 0 {
		line("silent-wrong      : %d  (%s of %d scored fields; %d wrong value(s) returned as fine (%s), %d null(s) where the label has a value)",
			r.SilentWrong, pct2(r.SilentWrongRate), r.FieldsScored, r.SilentWrong-r.SilentNull, pct2(r.SilentValueRate), r.SilentNull)
	} else {
		line("silent-wrong      : %d  (%s of %d scored fields)", r.SilentWrong, pct2(r.SilentWrongRate), r.FieldsScored)
	}
	line("false alarms      : %d", r.FalseAlarms)
	line("error rows        : %d", len(r.ErrorRows))
	line("%s", lightRule)
	line("per field           accuracy            flagged  silent-wrong")
	for _, fs := range r.PerField {
		acc, silent := "n/a", "-"
		if fs.Scored > 0 {
			acc = fmt.Sprintf("%s (%d/%d)", pct(fs.Accuracy), fs.Correct, fs.Scored)
			silent = strconv.Itoa(fs.SilentWrong)
		}
		line("  %-17s %-19s %-8d %s", fs.Field, acc, fs.Flagged, silent)
	}
	line("%s", lightRule)
	line("field-level failures (where it breaks):")
	if len(r.Failures) == 0 && len(r.ErrorRows) == 0 {
		line("  none")
	}
	listed := map[string]int{}
	for _, f := range r.Failures {
		if listed[f.Field]++; list >= 0 && listed[f.Field] > list {
			continue
		}
		tag := "(SILENT)"
		switch {
		case f.Flagged:
			tag = "(flagged)"
		case f.Got == nil:
			tag = "(SILENT: null)"
		}
		line("  [%s] %s: expected %s but got %s  %s", f.ID, f.Field, reprValue(f.Expected), reprValue(f.Got), tag)
	}
	for _, fs := range r.PerField {
		if n := listed[fs.Field]; list >= 0 && n > list {
			line("    … %d more for %s (--list -1 or --json for all)", n-list, fs.Field)
		}
	}
	for _, e := range r.ErrorRows {
		line("  [%s] ERROR: %s  (%d field(s) counted wrong)", e.ID, oneLine(e.Message), e.Fields)
	}
	for _, warn := range r.Warnings {
		line("  warning: %s", warn)
	}
	line("%s", heavyRule)
	for _, v := range r.verdicts(r.Bars) {
		if v.pass {
			line("PASS: %s", v.passMsg)
		} else {
			line("FAIL: %s", v.fail)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(x float64) string { return strconv.FormatFloat(x*100, 'f', 1, 64) + "%" }

// pct2 has two decimals, for shares whose bar is a fraction of a percent.
func pct2(x float64) string { return strconv.FormatFloat(x*100, 'f', 2, 64) + "%" }

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
