package pipeline

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// sameAsDecoder fails t if decodeObject reads raw at all and encoding/json's
// Decoder (what ExtractJSON used) would not read it to the same value.
func sameAsDecoder(t *testing.T, raw string) (fast bool) {
	t.Helper()
	got, ok := decodeObject([]byte(raw))
	if !ok {
		return false
	}
	var want map[string]any
	if err := json.NewDecoder(bytes.NewReader([]byte(raw))).Decode(&want); err != nil {
		t.Fatalf("%q: read as %v, encoding/json says %v", raw, got, err)
	}
	gb, _ := json.Marshal(got) // tells -0 from 0, which DeepEqual does not
	wb, _ := json.Marshal(want)
	if !reflect.DeepEqual(got, want) || !bytes.Equal(gb, wb) {
		t.Fatalf("%q: read as %#v, encoding/json reads %#v", raw, got, want)
	}
	return true
}

var decodeCases = []string{
	`{"vendor_name":"Globex Ltd","invoice_number":"GLX/2026/778","total":583.2,"tax":null,"paid":true,"x":false}`,
	`{"field_verdicts":[{"field":"total","confidence":0.9,"grounded":true,"reason":"ok \u00e9 \ud83d\ude00"}],"overall_confidence":0.85,"summary":"checked"}`,
	" {\n\t\"a\" : [ 1 , -0 , 1e21 , 1E-7 , 0.5e+3 , [] , {} ] , \"a\" : \"dup\" }\r\n",
	`{"s":"\"\\\/\b\f\n\r\t <>&"}`, `{}`, `{"n":-0.0}`,
}

var decodeRefused = []string{
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":+1}`, `{"a":-}`, `{"a":1e}`, `{"a":1e400}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":1,}`, `{"a":[1,]}`, `{a:1}`, `{"a" 1}`, `{"a":1} x`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":"\u12"}`,
	`{"a":NaN}`, `{"a":Infinity}`, `{"a":"x"`, `[1]`, `{"a":'x'}`, "{\"a\":1\v}",
}

// Every object a model reply holds is read as encoding/json reads it, and
// what JSON's grammar refuses is left to encoding/json's error.
func TestDecodeObjectMatchesEncodingJSON(t *testing.T) {
	for _, c := range decodeCases {
		if !sameAsDecoder(t, c) {
			t.Errorf("%q was left to encoding/json", c)
		}
	}
	for _, c := range decodeRefused {
		if _, ok := decodeObject([]byte(c)); ok {
			t.Errorf("%q was read", c)
		}
	}
}

func FuzzDecodeObject(f *testing.F) {
	for _, c := range append(decodeCases, decodeRefused...) {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		sameAsDecoder(t, raw)
	})
}

func BenchmarkExtractJSON(b *testing.B) {
	reply := "```json\n" + decodeCases[1] + "\n```"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExtractJSON(reply); err != nil {
			b.Fatal(err)
		}
	}
}
