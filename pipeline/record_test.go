package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeRecordOddValues(t *testing.T) {
	s := Invoice()
	negZero := math.Copysign(0, -1)
	ok := []struct {
		name  string
		field string
		in    any
		want  any
	}{
		{"negative zero money", "total", negZero, 0.0},
		{"negative zero money string", "total", "-0.00", 0.0},
		{"negative zero identifier", "invoice_number", negZero, "0"},
		{"huge identifier has no exponent", "invoice_number", 1e20, "100000000000000000000"},
		{"fractional identifier", "invoice_number", 12.5, "12.5"},
		{"json.Number identifier", "invoice_number", json.Number("1001"), "1001"},
		{"int64 identifier", "invoice_number", int64(7), "7"},
		{"int64 money", "total", int64(7), 7.0},
		{"float32 money", "total", float32(2.5), 2.5},
		{"json.Number money", "total", json.Number("583.20"), 583.2},
		{"huge money", "total", 1e308, 1e308},
		{"blank money string", "total", "  ", nil},
		{"currency upper-cased", "currency", " gbp ", "GBP"},
	}
	for _, c := range ok {
		rec, err := s.NormalizeRecord(map[string]any{c.field: c.in}, Strict)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := rec[c.field]
		if got != c.want {
			t.Errorf("%s: %s = %#v, want %#v", c.name, c.field, got, c.want)
		}
		if f, isF := got.(float64); isF && math.Signbit(f) && f == 0 {
			t.Errorf("%s: negative zero kept", c.name)
		}
	}

	bad := []struct {
		name  string
		field string
		in    any
		want  string
	}{
		{"NaN json.Number", "total", json.Number("NaN"), "not finite"},
		{"overflowing json.Number", "total", json.Number("1e400"), "not finite"},
		{"NaN float", "total", math.NaN(), "not finite"},
		{"infinite identifier", "invoice_number", math.Inf(1), "not finite"},
		{"boolean text", "vendor_name", true, "want a string, got a boolean"},
		{"object text", "vendor_name", map[string]any{"a": 1.0}, "want a string, got an object"},
		{"array money", "total", []any{1.0}, "want a number, got an array"},
		{"boolean money", "total", false, "want a number, got a boolean"},
		{"number date", "invoice_date", 20260228.0, "want a string, got a number"},
		{"words money", "total", "a lot", "not an amount"},
	}
	for _, c := range bad {
		_, err := s.NormalizeRecord(map[string]any{c.field: c.in}, Lenient)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.name, err, c.field, c.want)
		}
	}
}

func TestNormalizeRecordUnknownKeys(t *testing.T) {
	s := Invoice()
	raw := map[string]any{"totl": 1.0, "vendr": "x", "ccy": "GBP", "total": 1.0}
	first, err := s.NormalizeRecord(raw, Strict)
	if err == nil || first != nil {
		t.Fatal("strict mode accepted unknown keys")
	}
	const want = `fields "ccy", "totl", "vendr" are not in schema "invoice"`
	for range 20 { // map order must not change the message
		if _, err := s.NormalizeRecord(raw, Strict); !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("error %q, want it to start %q", err, want)
		}
	}
	if _, err := s.NormalizeRecord(map[string]any{"totl": 1.0}, Strict); err == nil || !strings.Contains(err.Error(), `field "totl" is not in schema`) {
		t.Fatalf("one unknown key: %v", err)
	}
	rec, err := s.NormalizeRecord(raw, Lenient)
	if err != nil || rec["total"] != 1.0 || len(rec) != len(s.Fields) {
		t.Fatalf("lenient mode should drop unknown keys: %v %v", rec, err)
	}
}

func TestResultJSONErrorEnvelope(t *testing.T) {
	res := ErrorResult("doc-1", "trace-x", errors.New(`bad <input> & "quotes"`))
	res.Usage = &Usage{Calls: 3, InputTokens: 30, OutputTokens: 9, LatencyMS: 5}
	// Fields an error result may hold by accident must not leak into the envelope.
	res.Data = Record{"total": 1.0}
	res.Notes = "stale"
	b, err := marshalNoEscape(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"doc-1","status":"error","error_message":"bad <input> & \"quotes\"","trace_id":"trace-x",` +
		`"usage":{"calls":3,"input_tokens":30,"output_tokens":9,"latency_ms":5}}`
	if string(b) != want {
		t.Fatalf("error envelope\n got %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(ErrorResult("", "", errors.New("boom")))
	if string(b) != `{"status":"error","error_message":"boom"}` {
		t.Fatalf("minimal error envelope: %s", b)
	}
}

func TestResultJSONKeysInSchemaOrder(t *testing.T) {
	s := Invoice()
	rec := Record{"vendor_name": "Müller & Söhne <GmbH>", "total": 10.0, "currency": "EUR"}
	res := Gate(s, rec, nil, RunHeuristics("Müller & Söhne <GmbH>\nTotal 10.00 EUR", s, rec), nil, DefaultGate())
	res.Data["zz_extra"] = "x" // keys the schema lacks follow, sorted
	res.Data["aa_extra"] = "y"
	// The CLI writes results with HTML escaping off, as marshalNoEscape does.
	b, err := marshalNoEscape(res)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	if !strings.Contains(out, `"Müller & Söhne <GmbH>"`) {
		t.Errorf("HTML characters were escaped: %s", out)
	}
	order := []string{`"status"`, `"data"`, `"vendor_name"`, `"invoice_number"`, `"invoice_date"`, `"subtotal"`, `"tax"`,
		`"total"`, `"currency"`, `"aa_extra"`, `"zz_extra"`, `"field_confidence"`, `"overall_confidence"`, `"flagged_fields"`,
		`"field_provenance"`, `"trace_id"`, `"critic_summary"`, `"notes"`, `"schema"`, `"prompt_versions"`}
	at := 0
	for _, k := range order {
		i := strings.Index(out[at:], k)
		if i < 0 {
			t.Fatalf("key %s missing or out of order in %s", k, out)
		}
		at += i + len(k)
	}
	if strings.Contains(out, `"usage"`) || strings.Contains(out, `"error_message"`) {
		t.Errorf("unexpected keys in %s", out)
	}
	if !strings.Contains(out, `"prompt_versions":{}`) {
		t.Errorf("prompt_versions should be an object even when unset: %s", out)
	}
	// The envelope decodes back into the same result.
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Data, res.Data) || !reflect.DeepEqual(back.FieldConfidence, res.FieldConfidence) ||
		back.Status != res.Status || back.Notes != res.Notes {
		t.Fatalf("round trip changed the result:\n%+v\n%+v", back, res)
	}
}

// The Critic's prompt shows the record the same whether candidateJSON
// writes it directly or through encoding/json: the bytes are the prompt's,
// and so the call cache's key. Values the direct form does not take (ints,
// lists, NaN) go through encoding/json and must come out as before.
func FuzzCandidateJSON(f *testing.F) {
	f.Add("Acme Ltd", "A-1", 1234.5, true, false, "")
	f.Add("A&B <Ltd>", "\u2028\x00\xff\"\\", -0.0000001, false, true, "note")
	f.Add("", "", 1e21, true, true, "\t")
	f.Add("Øre AS", "№ 7", math.Copysign(0, -1), false, false, "zz")
	s := Invoice()
	f.Fuzz(func(t *testing.T, vendor, number string, total float64, nullTax, extra bool, extraKey string) {
		rec := Record{"vendor_name": vendor, "invoice_number": number, "total": total, "currency": nil}
		if !nullTax {
			rec["tax"] = total / 3
		}
		if extra {
			rec["x-"+extraKey] = extraKey
			rec["a-"+extraKey] = nullTax
		}
		for _, r := range []Record{rec, {}, {"total": int64(5)}, {"total": []any{1.0, "a"}, "vendor_name": vendor}} {
			got, gotErr := candidateJSON(s, r)
			want, wantErr := candidateJSONEncoded(s, r)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("record %#v:\ndirect  %q (%v)\nencoded %q (%v)", r, got, gotErr, want, wantErr)
			}
		}
	})
}

func TestCandidateJSONIsNotHTMLEscaped(t *testing.T) {
	s := Invoice()
	got, err := candidateJSON(s, Record{"vendor_name": "A&B <Ltd>", "total": 5.0})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, `"vendor_name": "A&B <Ltd>"`) {
		t.Fatalf("the Critic must see the value as written:\n%s", got)
	}
	if strings.Index(got, "vendor_name") > strings.Index(got, "total") {
		t.Fatalf("candidate keys out of schema order:\n%s", got)
	}
}

// referenceOrderedJSON is how ordered objects were written before one
// encoder served them all: every key and value marshalled on its own.
func referenceOrderedJSON(o ordered) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalNoEscape(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// A result is written byte for byte as before: nested objects, field order,
// HTML characters and odd keys left unescaped, floats, nulls and extra keys.
func TestOrderedJSONUnchanged(t *testing.T) {
	odd := "Müller & Söhne <GmbH> \"q\" \\ \u2028 \x01"
	r := Result{ID: odd, Status: StatusNeedsReview, FieldOrder: []string{"vendor", "total", "missing"},
		Data:            Record{"vendor": odd, "total": 1250.5, "zz extra": nil, odd: []any{1, "<a>"}},
		FieldConfidence: map[string]float64{"vendor": 0.25, "total": 1e-7},
		FlaggedFields:   []FlaggedField{{Field: "total", Reason: odd}},
		Notes:           odd, Schema: "invoice", TraceID: "t",
		PromptVersions: map[string]string{"generator": "generator.v1"}}
	var o ordered
	o.add("result", r)
	o.add("map", orderedMap(map[string]any{"b": ordered{keys: []string{odd}, vals: []any{odd}}, "a": 1.5}, []string{"b"}))
	o.add("empty", orderedMap[any](nil, nil))
	want, err := referenceOrderedJSON(o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output changed:\n got %s\nwant %s", got, want)
	}
	if _, err := (ordered{keys: []string{"x"}, vals: []any{func() {}}}).MarshalJSON(); err == nil {
		t.Fatal("a value JSON cannot hold was written")
	}
}
