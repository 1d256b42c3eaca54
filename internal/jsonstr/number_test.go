package jsonstr

import (
	"encoding/json"
	"testing"
)

// A number NumberEnd reads whole is one encoding/json accepts, and one it
// refuses is never read whole: the hand-written readers that call it fall
// back to encoding/json on anything else, so they must not accept more.
func FuzzNumberEnd(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "-12.5", "1e9", "1E+9", "2.5e-3", "012", "1.", ".5", "-", "+1", "1e", "1e+", "00", "-01.0", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		end, ok := NumberEnd(b, 0)
		whole := ok && end == len(b)
		// A JSON text that is a number and nothing else: no space around it.
		valid := json.Valid(b) && (b[0] == '-' || isDigit(b[0])) && isDigit(b[len(b)-1])
		if whole != valid {
			t.Errorf("%q: NumberEnd reads it whole %v, encoding/json accepts it %v", s, whole, valid)
		}
		if iend, iok := IntegerEnd(b, 0); ok && (!iok || iend > end) {
			t.Errorf("%q: a number ending at %d, but its integer ends at %d, %v", s, end, iend, iok)
		}
	})
}

func TestIntegerEndStopsAtAFraction(t *testing.T) {
	for s, want := range map[string]int{"12.5": 2, "-7,": 2, "0x": 1, "-0": 2, "42": 2} {
		if end, ok := IntegerEnd([]byte(s), 0); !ok || end != want {
			t.Errorf("IntegerEnd(%q) = %d, %v; want %d", s, end, ok, want)
		}
	}
	for _, s := range []string{"", "-", "x", "-a", ".5"} {
		if _, ok := IntegerEnd([]byte(s), 0); ok {
			t.Errorf("IntegerEnd(%q) reads an integer", s)
		}
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
