package golden

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Validator verifies a record given with its source; a validate-only
// *pipeline.Pipeline (no Generator, no Critic) is the heuristics-only one
// the confusion harness measures.
type Validator interface {
	Validate(ctx context.Context, doc pipeline.Document, data map[string]any) (pipeline.Result, error)
}

// ConfusionBars are the confusion harness's gate. Keys are field names; the
// key AllFields applies a bar to every field with candidates (MinCatch) or to
// the share of labelled records flagged on any field (MaxFalseAlarm). An
// empty map sets no bar.
type ConfusionBars struct {
	MinCatch      map[string]float64 `json:"min_catch,omitempty"`
	MaxFalseAlarm map[string]float64 `json:"max_false_alarm,omitempty"`
}

// AllFields is the bar key meaning "every field" (MinCatch) or "the labelled
// records as a whole" (MaxFalseAlarm).
const AllFields = "*"

// ConfusionOptions tunes Confusions.
type ConfusionOptions struct {
	// Concurrency is how many documents are worked on at once; below 1 means 1.
	Concurrency int
	Bars        ConfusionBars
}

// ConfusionReport is what the confusion harness found: how often the gate
// flags a field when a plausible wrong value from the same document is put
// in it, and how often it flags the labelled (right) record.
type ConfusionReport struct {
	Schema  string `json:"schema"`
	Records int    `json:"records"`
	// RecordsFalseAlarm counts labelled records with at least one labelled
	// field flagged; FalseAlarmRate is its share of the validated records.
	RecordsFalseAlarm int     `json:"records_false_alarm"`
	FalseAlarmRate    float64 `json:"false_alarm_rate"`
	Candidates        int     `json:"candidates"`
	Caught            int     `json:"caught"`
	// CatchRate is Caught/Candidates, or null with no candidates.
	CatchRate *float64         `json:"catch_rate"`
	PerField  []ConfusionField `json:"per_field"`
	// ErrorRows are documents whose labelled record could not be validated
	// (a label that does not fit the schema, text too long): not scored.
	ErrorRows []ErrorRow    `json:"error_rows"`
	Bars      ConfusionBars `json:"bars"`
	Warnings  []string      `json:"warnings,omitempty"`
	Pass      bool          `json:"pass"`
}

// ConfusionField is one field's figures.
type ConfusionField struct {
	Field string        `json:"field"`
	Kind  pipeline.Kind `json:"kind"`
	// Labelled is how many validated records label the field (null included).
	Labelled       int          `json:"labelled"`
	FalseAlarms    int          `json:"false_alarms"`
	FalseAlarmRate float64      `json:"false_alarm_rate"`
	FalseAlarmList []FalseAlarm `json:"false_alarm_list"`
	Candidates     int          `json:"candidates"`
	Caught         int          `json:"caught"`
	CatchRate      *float64     `json:"catch_rate"`
	// ReviewedElsewhere counts misses whose document still went to review
	// because another field was flagged: a person sees the document, but
	// nothing points them at this field.
	ReviewedElsewhere int    `json:"reviewed_elsewhere"`
	Missed            []Miss `json:"missed"`
}

// FalseAlarm is a labelled field the gate flagged.
type FalseAlarm struct {
	ID     string `json:"id"`
	Value  any    `json:"value"`
	Reason string `json:"reason"`
}

// Miss is a wrong candidate the gate let through on its field.
type Miss struct {
	ID    string `json:"id"`
	Label any    `json:"label"`
	Candidate
	Status     pipeline.Status `json:"status"`
	Confidence float64         `json:"confidence"`
}

// Confusions runs the confusion harness over labelled rows: for each row it
// validates the labelled record (a flag on a labelled field is a false alarm),
// then, for each labelled field, validates the record once per confusable
// candidate printed in the text with that field replaced (caught when the
// field is flagged). Only fields the row labels are scored; rows are
// independent, so a failing row costs only itself.
func Confusions(ctx context.Context, v Validator, s *pipeline.Schema, rows []Row, opts ConfusionOptions) ConfusionReport {
	outs := make([]rowConfusions, len(rows))
	workers := min(max(opts.Concurrency, 1), max(len(rows), 1))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				outs[i] = confuseRow(ctx, v, s, rows[i])
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()

	rep := ConfusionReport{Schema: s.Name, Bars: opts.Bars, ErrorRows: []ErrorRow{}}
	for _, e := range CheckRows(s, rows) {
		rep.Warnings = append(rep.Warnings, e.Error())
	}
	for _, f := range s.Fields {
		rep.PerField = append(rep.PerField, ConfusionField{Field: f.Name, Kind: f.Kind, FalseAlarmList: []FalseAlarm{}, Missed: []Miss{}})
	}
	for i, o := range outs {
		if o.err != nil {
			rep.ErrorRows = append(rep.ErrorRows, ErrorRow{ID: rows[i].ID, Message: o.err.Error()})
			continue
		}
		rep.Records++
		if len(o.falseAlarms) > 0 {
			rep.RecordsFalseAlarm++
		}
		for fi := range rep.PerField {
			pf, fo := &rep.PerField[fi], o.fields[fi]
			if !fo.labelled {
				continue
			}
			pf.Labelled++
			pf.Candidates += fo.candidates
			pf.Caught += fo.caught
			pf.ReviewedElsewhere += fo.reviewedElsewhere
			pf.Missed = append(pf.Missed, fo.missed...)
		}
		for _, fa := range o.falseAlarms {
			pf := &rep.PerField[fa.field]
			pf.FalseAlarms++
			pf.FalseAlarmList = append(pf.FalseAlarmList, fa.FalseAlarm)
		}
	}
	for i := range rep.PerField {
		pf := &rep.PerField[i]
		pf.FalseAlarmRate = ratio(pf.FalseAlarms, pf.Labelled)
		if pf.Candidates > 0 {
			c := ratio(pf.Caught, pf.Candidates)
			pf.CatchRate = &c
		}
		rep.Candidates += pf.Candidates
		rep.Caught += pf.Caught
	}
	rep.FalseAlarmRate = ratio(rep.RecordsFalseAlarm, rep.Records)
	if rep.Candidates > 0 {
		c := ratio(rep.Caught, rep.Candidates)
		rep.CatchRate = &c
	}
	rep.Pass = rep.Check() == nil
	return rep
}

type rowConfusions struct {
	err         error
	fields      []fieldConfusions // in schema order
	falseAlarms []indexedFalseAlarm
}

type fieldConfusions struct {
	labelled                              bool
	candidates, caught, reviewedElsewhere int
	missed                                []Miss
}

type indexedFalseAlarm struct {
	field int
	FalseAlarm
}

func confuseRow(ctx context.Context, v Validator, s *pipeline.Schema, row Row) (out rowConfusions) {
	// A Validator bug must cost one row, not the whole run.
	defer func() {
		if p := recover(); p != nil {
			out = rowConfusions{err: errors.New("validator panicked: " + strings.TrimSpace(toString(p)))}
		}
	}()
	label := map[string]any{}
	for _, f := range s.Fields {
		if want, ok := row.Expected[f.Name]; ok {
			label[f.Name] = want
		}
	}
	validate := func(data map[string]any) (pipeline.Result, error) {
		if err := ctx.Err(); err != nil {
			return pipeline.Result{}, err
		}
		res, err := v.Validate(ctx, pipeline.Document{ID: row.ID, Text: row.Text}, data)
		if err == nil && res.Status == pipeline.StatusError {
			err = errors.New(res.ErrorMessage)
		}
		return res, err
	}
	base, err := validate(label)
	if err != nil {
		return rowConfusions{err: err}
	}
	out.fields = make([]fieldConfusions, len(s.Fields))
	for i, f := range s.Fields {
		want, ok := label[f.Name]
		if !ok {
			continue
		}
		out.fields[i].labelled = true
		if base.Flagged(f.Name) {
			out.falseAlarms = append(out.falseAlarms, indexedFalseAlarm{field: i, FalseAlarm: FalseAlarm{ID: row.ID, Value: want, Reason: flagReason(base, f.Name)}})
		}
		fc := &out.fields[i]
		for _, c := range Candidates(f, row.Text, want) {
			data := make(map[string]any, len(label))
			for k, x := range label {
				data[k] = x
			}
			data[f.Name] = c.Value
			res, err := validate(data)
			if ctx.Err() != nil {
				return rowConfusions{err: ctx.Err()}
			}
			fc.candidates++
			// A candidate the schema refuses outright never reaches anyone as
			// a value: the Generator would be asked again.
			if err != nil || res.Flagged(f.Name) {
				fc.caught++
				continue
			}
			if res.Status == pipeline.StatusNeedsReview {
				fc.reviewedElsewhere++
			}
			fc.missed = append(fc.missed, Miss{ID: row.ID, Label: want, Candidate: c, Status: res.Status, Confidence: res.FieldConfidence[f.Name]})
		}
	}
	return out
}

func flagReason(res pipeline.Result, field string) string {
	for _, f := range res.FlaggedFields {
		if f.Field == field {
			return f.Reason
		}
	}
	return ""
}

// Check returns an error naming every bar the report fails.
func (r ConfusionReport) Check() error {
	var errs []error
	for _, v := range r.verdicts() {
		if !v.pass {
			errs = append(errs, errors.New(v.fail))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}

func (r ConfusionReport) verdicts() []barVerdict {
	var out []barVerdict
	add := func(pass bool, passMsg, failMsg string) {
		out = append(out, barVerdict{pass: pass, passMsg: passMsg, fail: failMsg})
	}
	for _, name := range sortedKeys(r.Bars.MinCatch) {
		bar := r.Bars.MinCatch[name]
		for _, pf := range r.PerField {
			if name != AllFields && pf.Field != name {
				continue
			}
			if pf.CatchRate == nil {
				// Nothing confusable was printed: there is nothing to miss.
				if name != AllFields {
					add(true, pf.Field+": no candidates (bar "+pct(bar)+" holds vacuously)", "")
				}
				continue
			}
			msg := pf.Field + " caught " + pct(*pf.CatchRate) + " (" + itoa(pf.Caught) + "/" + itoa(pf.Candidates) + ")"
			add(accuracyOK(*pf.CatchRate, bar), msg+" >= required "+pct(bar), msg+" < required "+pct(bar))
		}
		if name != AllFields && !r.hasField(name) {
			add(false, "", name+": not a field of schema "+r.Schema)
		}
	}
	for _, name := range sortedKeys(r.Bars.MaxFalseAlarm) {
		bar := r.Bars.MaxFalseAlarm[name]
		if name == AllFields {
			msg := "false alarms on labelled records " + pct(r.FalseAlarmRate) + " (" + itoa(r.RecordsFalseAlarm) + "/" + itoa(r.Records) + ")"
			add(r.FalseAlarmRate <= bar+1e-9, msg+" <= allowed "+pct(bar), msg+" > allowed "+pct(bar))
			continue
		}
		if !r.hasField(name) {
			add(false, "", name+": not a field of schema "+r.Schema)
			continue
		}
		for _, pf := range r.PerField {
			if pf.Field == name {
				msg := pf.Field + " false alarms " + pct(pf.FalseAlarmRate) + " (" + itoa(pf.FalseAlarms) + "/" + itoa(pf.Labelled) + ")"
				add(pf.FalseAlarmRate <= bar+1e-9, msg+" <= allowed "+pct(bar), msg+" > allowed "+pct(bar))
			}
		}
	}
	return out
}

func (r ConfusionReport) hasField(name string) bool {
	for _, pf := range r.PerField {
		if pf.Field == name {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
