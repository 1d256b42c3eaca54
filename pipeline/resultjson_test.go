package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
)

// sameAsReflective fails t unless MarshalJSON writes r exactly as the
// encoding/json path does, bytes or error.
func sameAsReflective(t testing.TB, what string, r Result) {
	t.Helper()
	got, gerr := r.MarshalJSON()
	want, werr := r.marshalReflective()
	if (gerr != nil) != (werr != nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%s: error %v, want %v", what, gerr, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: output changed:\n got %s\nwant %s", what, got, want)
	}
}

// goldenDocuments are the stored documents the golden and black-box tests
// verify (never the held-out sets): each with its schema, its expected
// record and the wrong records written for it.
func goldenDocuments(t *testing.T) (docs []struct {
	schema string
	id     string
	text   string
	datas  []map[string]any
}) {
	t.Helper()
	for file, schema := range map[string]string{
		"../golden/testdata/blackbox/documents.jsonl":    "invoice",
		"../golden/testdata/blackbox/documents-r1.jsonl": "invoice",
		"../golden/testdata/blackbox/documents-r2.jsonl": "invoice",
		"../golden/testdata/unseen_invoices.jsonl":       "invoice",
		"../golden/testdata/purchase_orders.jsonl":       "../golden/testdata/purchase_order.yaml",
	} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line struct {
				ID       string         `json:"id"`
				Text     string         `json:"text"`
				Expected map[string]any `json:"expected"`
				Wrong    []struct {
					Data map[string]any `json:"data"`
				} `json:"wrong"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			datas := []map[string]any{line.Expected, {}}
			for _, w := range line.Wrong {
				datas = append(datas, w.Data)
			}
			docs = append(docs, struct {
				schema string
				id     string
				text   string
				datas  []map[string]any
			}{schema, line.ID, line.Text, datas})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return docs
}

// Every result the pipeline makes of the golden documents (right, wrong and
// empty records, heuristics only) is written byte for byte as encoding/json
// wrote it.
func TestAppendResultMatchesReflectiveOnGoldenResults(t *testing.T) {
	pipes := map[string]*Pipeline{}
	n := 0
	for _, d := range goldenDocuments(t) {
		p := pipes[d.schema]
		if p == nil {
			s, err := LoadSchema(d.schema)
			if err != nil {
				t.Fatal(err)
			}
			if p, err = New(Config{Schema: s, Gate: DefaultGate()}); err != nil {
				t.Fatal(err)
			}
			pipes[d.schema] = p
		}
		for _, data := range d.datas {
			res, err := p.Validate(context.Background(), Document{ID: d.id, Text: d.text}, data)
			if err != nil {
				res = ErrorResult(d.id, "trace", err)
			}
			res.Usage = &Usage{Calls: 2, CachedCalls: 2, InputTokens: 1234, LatencyMS: 17, CostUSD: 0.00042}
			sameAsReflective(t, d.id, res)
			if _, ok := appendResult(nil, &res); !ok {
				t.Fatalf("%s: a pipeline result was left to encoding/json", d.id)
			}
			n++
		}
	}
	if n < 200 {
		t.Fatalf("only %d results compared", n)
	}
}

func edgeResult(s string, f float64) Result {
	return Result{ID: s, Status: StatusNeedsReview, FieldOrder: []string{"vendor", "total", s, "vendor", "missing"},
		Data:            Record{"vendor": s, "total": f, "zz extra": nil, s: true, "n": 7, "a": math.Copysign(0, -1)},
		FieldConfidence: map[string]float64{"vendor": f, "total": 1e-7, "z": 1e21, "y": 583.2, s: 1e20},
		FlaggedFields:   []FlaggedField{{Field: s, Value: f, Confidence: f, Reason: s}, {Field: "total", Value: nil}},
		FieldProvenance: map[string][]Span{"vendor": {{Start: 1, End: 2, Primary: true}, {Start: 3, End: 9}}, "total": {}, s: nil},
		TraceID:         s, CriticSummary: s, Notes: s, Schema: "invoice",
		PromptVersions: map[string]string{"generator": s, "critic": "critic.v2", s: s},
		NotGiven:       []string{s, "tax"},
		Usage:          &Usage{Calls: 1, CostUSD: f}}
}

// Generated results: escapes, unicode, HTML characters, odd floats, nil and
// empty maps and slices, values of types a Record does not usually hold,
// and NaN, which stays an error.
func TestAppendResultMatchesReflectiveOnEdgeCases(t *testing.T) {
	strs := []string{"", "Müller & Söhne <GmbH>", "\"q\" \\ / \b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029", "bad \xff utf8", "日本語 ¥1,000 😀"}
	floats := []float64{0, math.Copysign(0, -1), 583.2, 1e21, 1e20, 1e-6, 1e-7, -1.5e-300, math.MaxFloat64, 12345678.9, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, s := range strs {
		for _, f := range floats {
			r := edgeResult(s, f)
			sameAsReflective(t, "edge", r)
			r.Status = StatusOK
			r.Data, r.FieldConfidence, r.FieldProvenance, r.PromptVersions, r.FlaggedFields, r.NotGiven, r.Usage = nil, nil, nil, nil, nil, nil, nil
			sameAsReflective(t, "nil", r)
			r.Data, r.FieldConfidence, r.FieldProvenance, r.PromptVersions, r.FlaggedFields, r.NotGiven = Record{}, map[string]float64{}, map[string][]Span{}, map[string]string{}, []FlaggedField{}, []string{}
			r.OverallConfidence = f
			sameAsReflective(t, "empty", r)
			e := ErrorResult(s, s, errors.New(s+" <failed>"))
			e.Usage = &Usage{CostUSD: f, LatencyMS: -3}
			sameAsReflective(t, "error", e)
			e.ID, e.TraceID = "", ""
			sameAsReflective(t, "error, no id", e)
		}
	}
	// Values a Record does not hold go the reflective way, with its result.
	for _, v := range []any{json.Number("12.50"), []any{1, "<a>"}, map[string]any{"b": 1}, float32(1.5), int64(-9), func() {}} {
		r := edgeResult("x", 1)
		r.Data["odd"] = v
		r.FlaggedFields[0].Value = v
		sameAsReflective(t, "odd value", r)
	}
	if _, err := edgeResult("x", math.NaN()).MarshalJSON(); err == nil {
		t.Fatal("NaN was written")
	}
}

func FuzzAppendResult(f *testing.F) {
	f.Add("Müller & Söhne <GmbH>", "total", 583.2, 0.5, 3)
	f.Add("\xff\u2028\"\\", "", 1e21, math.NaN(), -1)
	f.Fuzz(func(t *testing.T, s, key string, x, y float64, n int) {
		r := edgeResult(s, x)
		r.Data[key] = s
		r.FieldConfidence[key] = y
		r.FieldOrder = append(r.FieldOrder, key)
		r.FieldProvenance[key] = []Span{{Start: n, End: n + 1, Primary: n%2 == 0}}
		r.Usage.InputTokens = n
		r.OverallConfidence = y
		sameAsReflective(t, "fuzz", r)
	})
}

func BenchmarkResultMarshalJSON(b *testing.B) {
	p, err := New(Config{Schema: Invoice(), Gate: DefaultGate()})
	if err != nil {
		b.Fatal(err)
	}
	text := "Hi team, forwarding the bill from Globex Ltd below.\nRef: GLX/2026/778\nBilling date 2026-02-28.\nItems came to 540.00 before tax, tax was 43.20, and the amount due is 583.20. Please pay in GBP. Thanks!"
	res, err := p.Validate(context.Background(), Document{ID: "demo", Text: text}, map[string]any{"vendor_name": "Globex Ltd",
		"invoice_number": "GLX/2026/778", "invoice_date": "2026-02-28", "subtotal": 540.0, "tax": 43.2, "total": 683.2, "currency": "GBP"})
	if err != nil {
		b.Fatal(err)
	}
	res.Usage = &Usage{Calls: 2, CachedCalls: 2, InputTokens: 1234, OutputTokens: 321, LatencyMS: 17}
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := res.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reflective", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := res.marshalReflective(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
