package pipeline

import (
	"errors"
	"strings"
	"testing"
)

func TestExtractJSON(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // value of key "a", or "" when an error is expected
	}{
		{"bare", `{"a":"x"}`, "x"},
		{"fenced", "```json\n{\"a\":\"x\"}\n```", "x"},
		{"prose around", "Here you go: {\"a\":\"x\"} hope it helps", "x"},
		{"brace in preamble", "Note {not json} then {\"a\":\"x\"}", "x"},
		{"brace inside string", `{"a":"x}y"}`, "x}y"},
		{"escaped quote", `{"a":"say \"hi\" {"}`, `say "hi" {`},
		{"bom", "\ufeff{\"a\":\"x\"}", "x"},
		{"empty", "", ""},
		{"not json", "I cannot help with that.", ""},
		{"truncated", `{"a":"x", "b": [1,2`, ""},
		{"array only", `[1,2,3]`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ExtractJSON(c.in)
			if c.want == "" {
				if err == nil {
					t.Fatalf("want error, got %v", m)
				}
				if !errors.Is(err, ErrNoJSON) {
					t.Fatalf("error %v does not wrap ErrNoJSON", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m["a"] != c.want {
				t.Fatalf("a = %v, want %q", m["a"], c.want)
			}
		})
	}
	if _, err := ExtractJSON(`{"a":1`); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated output should say so, got %v", err)
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "```json\n{\"total\": 12.5}\n```", `x {"a":"}"} y`, `{{{`, `"}"{"a":[{}]}`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ExtractJSON(s)
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
		if err != nil && m != nil {
			t.Fatal("map with error")
		}
	})
}
