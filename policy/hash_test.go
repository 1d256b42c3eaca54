package policy

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func decode(t testing.TB, s string) Envelope {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var m Envelope
	if err := d.Decode(&m); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return m
}

func TestCanonicalHashGoldenVectors(t *testing.T) {
	cases := []struct {
		name, env, preimage, hash string
		undeclared                []any
	}{
		{"bulk delete", `{"agent":{"id":"agent:demo","session_id":"ref-hold"},"action":{"namespace":"store","verb":"delete","ability":"store/bulk-delete-products"},"target":{"environment":"production"},"magnitude":{"count":200},"axes":{"reversibility":"irreversible","blast_radius":"broad","externality":"internal"}}`,
			`{"action":{"ability":"store/bulk-delete-products","namespace":"store","verb":"delete"},"axes":{"blast_radius":"broad","externality":"internal","reversibility":"irreversible"},"magnitude":{"count":200},"target":{"environment":"production"}}`,
			"a1aae69efdca73e9239a3fbb1e8821c6b6dc8e77eec25a805d22934a64a804c7", []any{}},
		{"frobnicate", `{"agent":{"session_id":"s1"},"action":{"verb":"Frobnicate"},"target":{"environment":"qa-eu"},"axes":{}}`, "",
			"858eeb6549da2a758511196260120581549451a7644af63caf16c249efa5d839",
			[]any{"action.verb", "axes.blast_radius", "axes.externality", "axes.reversibility", "target.environment"}},
		{"DeleteObject café", `{"agent":{"session_id":"s1"},"action":{"verb":"DeleteObject","ability":"s3/DeleteObject","namespace":"s3"},"target":{"environment":"Prod ","ref":"café"},"axes":{"reversibility":"Irreversible","blast_radius":"single","externality":"internal"},"magnitude":{"count":3}}`,
			"", "20ce03a6fd5490885fb6134d7486b3ff2dea41cb9effe4ea29f3ff2a234ca091", []any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := decode(t, c.env)
			var f facts
			if err := validate(env, &f); err != nil {
				t.Fatal(err)
			}
			if err := normalize(&f); err != nil {
				t.Fatal(err)
			}
			n := f.normalized()
			proj := map[string]any{"action": n["action"], "axes": n["axes"], "magnitude": n["magnitude"], "target": n["target"]}
			pre := string(CanonicalJSON(proj))
			if c.preimage != "" && pre != c.preimage {
				t.Errorf("preimage\n got %s\nwant %s", pre, c.preimage)
			}
			if got := CanonicalHash(n); got != c.hash {
				t.Errorf("CanonicalHash = %s, want %s (preimage %s)", got, c.hash, pre)
			}
			if got := f.hash(); got != c.hash {
				t.Errorf("fast hash = %s, want %s", got, c.hash)
			}
			und := n["provenance"].(map[string]any)["undeclared"]
			if string(CanonicalJSON(und)) != string(CanonicalJSON(c.undeclared)) {
				t.Errorf("undeclared = %v, want %v", und, c.undeclared)
			}
		})
	}
}

func TestPythonJSONForms(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{json.Number("100.0"), "100.0"}, {json.Number("1e2"), "100.0"}, {json.Number("0.0001"), "0.0001"},
		{json.Number("0.00001"), "1e-05"}, {json.Number("1e16"), "1e+16"}, {json.Number("123456789012345678.0"), "1.2345678901234568e+17"},
		{json.Number("-0"), "0"}, {json.Number("-0.0"), "-0.0"}, {json.Number("12345678901234567890123"), "12345678901234567890123"},
		{json.Number("1e400"), "Infinity"}, {json.Number("-1e400"), "-Infinity"}, {math.NaN(), "NaN"},
		{json.Number("1.5"), "1.5"}, {json.Number("9999999999999998.0"), "9999999999999998.0"}, {json.Number("0.1"), "0.1"},
		{json.Number("123.456e5"), "12345600.0"}, {json.Number("2.5E-7"), "2.5e-07"},
		{"a\"b\\c\n\r\t\b\f\x01\x7f/<>&", `"a\"b\\c\n\r\t\b\f\u0001` + "\x7f" + `/<>&"`},
		{"é€😀\u2028", `"\u00e9\u20ac\ud83d\ude00\u2028"`},
		{map[string]any{"b": 1, "a": []any{true, false, nil}, "é": "x", "Z": "y"}, `{"Z":"y","a":[true,false,null],"b":1,"\u00e9":"x"}`},
	}
	for _, c := range cases {
		if got := string(CanonicalJSON(c.in)); got != c.want {
			t.Errorf("CanonicalJSON(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
}
