package tui

import (
	"strings"
	"testing"
)

// A correction brought back by u (or by another reviewer's decision
// arriving) says whether its value is in the source, as it did when it was
// typed: "corrected value found in source at 104–110", not "not found" for
// the same value.
func TestUndoneBackToACorrectionKeepsItsSourceSpan(t *testing.T) {
	f := newFixture(t)
	m := selectField(t, openDoc(t, loaded(t, f.config()), "inv-001"), "total")
	m = press(t, m, "e")
	m = typeText(t, m, "583.20")
	m = press(t, m, "enter")
	m = selectField(t, m, "total")
	want := "corrected value found in source at "
	if v := viewText(m); !strings.Contains(v, want) {
		t.Fatalf("after the correction:\n%s", v)
	}
	m = press(t, m, "x") // set it to null, then take that back
	m = selectField(t, m, "total")
	m = press(t, m, "u")
	m = selectField(t, m, "total")
	if v := viewText(m); !strings.Contains(v, want) || strings.Contains(v, "corrected value not found") {
		t.Errorf("after u brought the correction back:\n%s", v)
	}
}
