package pipeline

import (
	"reflect"
	"testing"
)

func TestFindSpans(t *testing.T) {
	cases := []struct {
		text, needle string
		want         []Span
	}{
		{"Bill from Globex Ltd below", "globex ltd", []Span{{10, 20}}},
		{"GLOBEX\n  LTD and globex ltd", "Globex Ltd", []Span{{0, 12}, {17, 27}}},
		{"Globex Ltd", "  Globex    Ltd ", []Span{{0, 10}}},
		{"Ünïcode Café — Café", "café", []Span{{8, 12}, {15, 19}}},
		{"abc", "", nil},
		{"ab", "abc", nil},
		{"aaaa", "aa", []Span{{0, 2}, {2, 4}}},
	}
	for _, tc := range cases {
		if got := FindSpans(tc.text, tc.needle); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindSpans(%q, %q) = %v, want %v", tc.text, tc.needle, got, tc.want)
		}
	}
}
