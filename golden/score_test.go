package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
)

func TestFieldCorrect(t *testing.T) {
	s := pipeline.Invoice()
	field := func(name string) pipeline.Field {
		f, ok := s.Field(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		return f
	}
	cases := []struct {
		field     string
		want, got any
		ok        bool
	}{
		{"total", 583.2, 583.2, true},
		{"total", 583.2, 583.20, true},
		{"total", 583.2, 583.204, true},
		{"total", 583.2, 583.205, true}, // exactly half a cent
		{"total", 583.2, 583.21, false},
		{"total", 583.2, 683.2, false},
		{"total", 583.2, "583.20", true},
		{"total", 583.2, nil, false},
		{"total", nil, nil, true},
		{"tax", nil, 0.0, false}, // "no tax stated" is not "tax of zero"
		{"total", 583.2, "n/a", false},
		{"invoice_date", "2026-03-14", "2026-03-14", true},
		{"invoice_date", "2026-03-14", "2026-04-14", false},
		{"invoice_date", "2026-03-14", "14 Mar 2026", false},
		{"vendor_name", "Globex Ltd", "globex   LTD.", true},
		{"vendor_name", "Globex Ltd", " Globex Ltd ", true},
		{"vendor_name", "Globex Ltd", "Globex", false},
		{"vendor_name", "NORTHWIND TRADERS", "Contoso Ltd", false},
		{"vendor_name", "Globex Ltd", nil, false},
		{"vendor_name", nil, "Globex Ltd", false},
		{"invoice_number", "GLX/2026/778", "glx/2026/778", true},
		{"invoice_number", "INV1001", "INV 1001", true},
		{"invoice_number", "INV-1001", "INV-1001.", true},
		{"invoice_number", "004417", "4417", false},
		{"invoice_number", "2231", 2231.0, true},
		{"currency", "GBP", "gbp", true},
		{"currency", "GBP", "EUR", false},
	}
	for _, c := range cases {
		if got := FieldCorrect(field(c.field), c.want, c.got); got != c.ok {
			t.Errorf("%s: want %#v got %#v: correct=%v, want %v", c.field, c.want, c.got, got, c.ok)
		}
	}
}

// fakeVerifier stands in for the pipeline: it returns a canned Result (or
// error) per document id, so scoring is tested apart from extraction.
type fakeVerifier struct {
	results map[string]pipeline.Result
	errs    map[string]error
	calls   atomic.Int32
}

func (f *fakeVerifier) Extract(ctx context.Context, doc pipeline.Document) (pipeline.Result, error) {
	f.calls.Add(1)
	if err := f.errs[doc.ID]; err != nil {
		return pipeline.Result{}, err
	}
	r, ok := f.results[doc.ID]
	if !ok {
		return pipeline.Result{}, errors.New("no canned result")
	}
	return r, nil
}

func flagged(fields ...string) []pipeline.FlaggedField {
	var out []pipeline.FlaggedField
	for _, f := range fields {
		out = append(out, pipeline.FlaggedField{Field: f, Confidence: 0.1, Reason: "test"})
	}
	return out
}

func fakeRows() []Row {
	full := func(total float64) map[string]any {
		return map[string]any{"vendor_name": "Globex Ltd", "invoice_number": "G-1", "invoice_date": "2026-02-28",
			"subtotal": 540.0, "tax": 43.2, "total": total, "currency": "GBP"}
	}
	return []Row{
		{ID: "right", Text: "t1", Expected: full(583.2)},
		{ID: "caught", Text: "t2", Expected: full(583.2)},
		{ID: "silent", Text: "t3", Expected: full(583.2)},
		{ID: "alarm", Text: "t4", Expected: full(583.2)},
		// Only total is labelled here: the wrong vendor is not scored.
		{ID: "partial", Text: "t5", Expected: map[string]any{"total": 10.0, "tax": nil}},
		{ID: "broken", Text: "t6", Expected: full(583.2)},
		{ID: "status-error", Text: "t7", Expected: map[string]any{"total": 1.0, "currency": "USD"}},
	}
}

func fakeResults() map[string]pipeline.Result {
	data := func(over map[string]any) pipeline.Record {
		rec := pipeline.Record{"vendor_name": "Globex Ltd", "invoice_number": "G-1", "invoice_date": "2026-02-28",
			"subtotal": 540.0, "tax": 43.2, "total": 583.2, "currency": "GBP"}
		for k, v := range over {
			rec[k] = v
		}
		return rec
	}
	usage := &pipeline.Usage{Calls: 2, InputTokens: 100, OutputTokens: 20}
	return map[string]pipeline.Result{
		"right":  {Status: pipeline.StatusOK, Data: data(nil), Usage: usage},
		"caught": {Status: pipeline.StatusNeedsReview, Data: data(map[string]any{"total": 683.2}), FlaggedFields: flagged("total"), Usage: usage},
		"silent": {Status: pipeline.StatusOK, Data: data(map[string]any{"invoice_date": "2026-04-14", "currency": "EUR"})},
		"alarm":  {Status: pipeline.StatusNeedsReview, Data: data(nil), FlaggedFields: flagged("vendor_name", "tax")},
		"partial": {Status: pipeline.StatusNeedsReview, Data: pipeline.Record{"vendor_name": "Wrong Co", "total": 10.0, "tax": nil},
			FlaggedFields: flagged("vendor_name")},
		"status-error": {Status: pipeline.StatusError, ErrorMessage: "generator: replay: no recorded output"},
	}
}

func TestEvaluateCountsTrustContract(t *testing.T) {
	for _, conc := range []int{0, 1, 3, 16} {
		v := &fakeVerifier{results: fakeResults(), errs: map[string]error{"broken": errors.New("critic: timeout")}}
		rep := Evaluate(context.Background(), v, pipeline.Invoice(), fakeRows(), Options{Concurrency: conc})
		if got := int(v.calls.Load()); got != 7 {
			t.Fatalf("concurrency %d: %d calls", conc, got)
		}
		// Scored: 5 full rows x7 = 35, partial 2, status-error 2 => 39.
		// Wrong: caught 1, silent 2, broken 7 (error), status-error 2 (error).
		check := func(name string, got, want int) {
			t.Helper()
			if got != want {
				t.Errorf("concurrency %d: %s = %d, want %d", conc, name, got, want)
			}
		}
		check("examples", rep.Examples, 7)
		check("fields scored", rep.FieldsScored, 39)
		check("fields correct", rep.FieldsCorrect, 39-1-2-7-2)
		check("wrong fields", rep.WrongFields, 3)
		check("caught", rep.Caught, 1)
		check("silent-wrong", rep.SilentWrong, 2)
		check("false alarms", rep.FalseAlarms, 2) // alarm's vendor_name and tax; partial's vendor is unscored
		check("errored fields", rep.ErroredFields, 9)
		check("exact match", rep.ExactMatch, 3) // right, alarm, partial
		check("needs review", rep.NeedsReview, 3)
		check("error rows", len(rep.ErrorRows), 2)
		check("usage calls", rep.Usage.Calls, 4)
		if rep.CatchRate == nil || *rep.CatchRate != 1.0/3 {
			t.Errorf("catch rate %v", rep.CatchRate)
		}
		ids := []string{}
		for _, r := range rep.Rows {
			ids = append(ids, r.ID)
		}
		if strings.Join(ids, ",") != "right,caught,silent,alarm,partial,broken,status-error" {
			t.Errorf("row order %v", ids)
		}
		var vendor, total FieldStats
		for _, fs := range rep.PerField {
			switch fs.Field {
			case "vendor_name":
				vendor = fs
			case "total":
				total = fs
			}
		}
		if vendor.Flagged != 2 || vendor.FalseAlarms != 1 || vendor.Scored != 5 || vendor.Correct != 4 {
			t.Errorf("vendor stats %+v", vendor)
		}
		if total.Scored != 7 || total.Correct != 4 || total.Caught != 1 || total.Wrong != 1 {
			t.Errorf("total stats %+v", total)
		}
	}
}

func TestEvaluateCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v := &fakeVerifier{results: fakeResults()}
	rep := Evaluate(ctx, v, pipeline.Invoice(), fakeRows(), Options{Concurrency: 2})
	if len(rep.ErrorRows) != 7 || rep.FieldsCorrect != 0 || v.calls.Load() != 0 {
		t.Fatalf("cancelled run: %d error rows, %d correct, %d calls", len(rep.ErrorRows), rep.FieldsCorrect, v.calls.Load())
	}
	if err := rep.Check(0.9, 0); err == nil || !strings.Contains(err.Error(), "field accuracy 0.0% < required 90.0%") {
		t.Fatalf("Check: %v", err)
	}
}

func TestWriteTextTagsAndBars(t *testing.T) {
	v := &fakeVerifier{results: fakeResults(), errs: map[string]error{"broken": errors.New("critic:\ntimeout")}}
	rep := Evaluate(context.Background(), v, pipeline.Invoice(), fakeRows(), Options{Concurrency: 2})
	var b bytes.Buffer
	if err := rep.WriteText(&b, "OFFLINE (replay fixtures)"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		heavyRule + "\nreflect eval  |  mode: OFFLINE (replay fixtures)\n" + heavyRule + "\n",
		"examples          : 7\n",
		"field accuracy    : 69.2%  (27/39)\n",
		"exact-match acc   : 42.9%  (3/7)\n",
		"needs-review rate : 42.9%  (3/7)\n",
		"catch rate        : 33.3%  (1/3)\n",
		"silent-wrong      : 2  (5.13% of 39 scored fields)\n",
		"false alarms      : 2\n",
		"error rows        : 2\n",
		"  [caught] total: expected 583.2 but got 683.2  (flagged)\n",
		"  [silent] invoice_date: expected '2026-02-28' but got '2026-04-14'  (SILENT)\n",
		"  [silent] currency: expected 'GBP' but got 'EUR'  (SILENT)\n",
		"  [broken] ERROR: critic: timeout  (7 field(s) counted wrong)\n",
		"  [status-error] ERROR: generator: replay: no recorded output  (2 field(s) counted wrong)\n",
		"FAIL: field accuracy 69.2% < required 90.0%\n",
		"FAIL: silent-wrong fields 2 > allowed 0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	err := rep.Check(0.9, 0)
	if err == nil || !strings.Contains(err.Error(), "field accuracy 69.2% < required 90.0%") || !strings.Contains(err.Error(), "silent-wrong fields 2 > allowed 0") {
		t.Fatalf("Check: %v", err)
	}
	if err := rep.Check(0.5, 2); err != nil {
		t.Fatalf("Check with loose bars: %v", err)
	}
	if err := rep.Check(0.5, 1); err == nil || strings.Contains(err.Error(), "accuracy") {
		t.Fatalf("Check should fail only silent-wrong: %v", err)
	}

	loose := Bars{MinAccuracy: 0.5, MaxSilentWrong: 2}
	rep = Evaluate(context.Background(), v, pipeline.Invoice(), fakeRows(), Options{Bars: &loose})
	b.Reset()
	if err := rep.WriteText(&b, "test"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PASS: field accuracy 69.2% >= required 50.0%\n", "PASS: silent-wrong fields 2 <= allowed 2\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestReportJSON(t *testing.T) {
	v := &fakeVerifier{results: map[string]pipeline.Result{"right": fakeResults()["right"]}}
	rows := fakeRows()[:1]
	rep := Evaluate(context.Background(), v, pipeline.Invoice(), rows, Options{})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back["field_accuracy"] != 1.0 || back["catch_rate"] != nil || back["silent_wrong"] != 0.0 {
		t.Errorf("JSON report: %s", b)
	}
	if bars, _ := back["bars"].(map[string]any); bars["min_accuracy"] != 0.9 {
		t.Errorf("default bars missing: %s", b)
	}
	var txt bytes.Buffer
	if err := rep.WriteText(&txt, "x"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "catch rate        : n/a  (no wrong fields)") || !strings.Contains(txt.String(), "  none\n") {
		t.Errorf("clean report:\n%s", txt.String())
	}
}

func TestEvaluateWarnsOnUnknownLabel(t *testing.T) {
	v := &fakeVerifier{results: fakeResults()}
	rows := []Row{{ID: "right", Text: "t", Expected: map[string]any{"totl": 5.0, "total": 583.2}}}
	rep := Evaluate(context.Background(), v, pipeline.Invoice(), rows, Options{})
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], `"totl"`) || rep.FieldsScored != 1 {
		t.Fatalf("warnings %v, scored %d", rep.Warnings, rep.FieldsScored)
	}
}

// A null where the label has a value is silent-wrong, but the report tells it
// apart from a wrong value returned as fine.
func TestSilentNullIsToldApart(t *testing.T) {
	rows := []Row{{ID: "a", Text: "t", Expected: map[string]any{"total": 5.0, "currency": "EUR"}}}
	v := &fakeVerifier{results: map[string]pipeline.Result{
		"a": {Status: pipeline.StatusOK, Data: pipeline.Record{"total": nil, "currency": "USD"}},
	}}
	rep := Evaluate(context.Background(), v, pipeline.Invoice(), rows, Options{})
	if rep.SilentWrong != 2 || rep.SilentNull != 1 {
		t.Fatalf("silent-wrong %d, silent null %d", rep.SilentWrong, rep.SilentNull)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, "TEST"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(SILENT: null)", "currency: expected 'EUR' but got 'USD'  (SILENT)", "1 wrong value(s) returned as fine (50.00%), 1 null(s)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// The issue-level figures are shares, barred only when asked for.
func TestShareBars(t *testing.T) {
	v := &fakeVerifier{results: fakeResults(), errs: map[string]error{"broken": errors.New("timeout")}}
	rep := Evaluate(context.Background(), v, pipeline.Invoice(), fakeRows(), Options{Concurrency: 2})
	if rep.SilentWrongRate != 2.0/39 || rep.SilentValueRate != 2.0/39 || rep.OK+rep.NeedsReview+len(rep.ErrorRows) != rep.Examples {
		t.Fatalf("rates %v %v, ok %d needs review %d errors %d of %d", rep.SilentWrongRate, rep.SilentValueRate, rep.OK, rep.NeedsReview, len(rep.ErrorRows), rep.Examples)
	}
	if rep.OKRate != ratio(rep.OK, rep.Examples) {
		t.Errorf("ok rate %v", rep.OKRate)
	}
	loose, tight := 0.06, 0.005
	okBar := 0.9
	b := Bars{MinAccuracy: 0.5, MaxSilentWrong: 5, MaxSilentWrongRate: &loose}
	if err := rep.CheckBars(b); err != nil {
		t.Fatalf("loose share bar: %v", err)
	}
	b = Bars{MinAccuracy: 0.5, MaxSilentWrong: 5, MaxSilentWrongRate: &tight, MaxSilentValueRate: &tight, MinOKRate: &okBar,
		MinFieldAccuracy: map[string]float64{"total": 0.99, "vendor_name": 0, "nosuch": 0.5}}
	err := rep.CheckBars(b)
	if err == nil {
		t.Fatal("tight bars should fail")
	}
	for _, want := range []string{"silent-wrong 5.13% of scored fields > allowed 0.50%", "wrong values returned as fine 5.13% of scored fields > allowed 0.50%", "total accuracy", "nosuch accuracy: the field is not scored", "ok (auto-accepted)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("CheckBars error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "vendor_name") {
		t.Errorf("a zero bar cannot fail: %v", err)
	}
	rep.Bars = b
	var out bytes.Buffer
	if err := rep.WriteText(&out, "x"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PASS: vendor_name accuracy", "FAIL: silent-wrong 5.13% of scored fields > allowed 0.50%", "ok (auto-accepted): "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
