package pipeline

import (
	"testing"
)

// Every label of the lexicon gives a number its listed role, both when the
// lexicon classifies the phrase (what the local extractor reads) and when
// the heuristics label "<label> 12.34" in a document.
func TestLexiconEveryLabelHasItsRole(t *testing.T) {
	s := Invoice()
	lx := NewLexicon(s)
	labels := lx.Labels()
	if len(labels) < 200 {
		t.Fatalf("lexicon has %d labels, want the full set", len(labels))
	}
	index := s.labelSets()
	for _, l := range labels {
		want, ok := lx.Role(l.Text)
		if !ok || want == RoleNone {
			t.Errorf("%q: no role", l.Text)
			continue
		}
		if v := lx.Classify(l.Text); !v.OK || v.Role != want {
			t.Errorf("Classify(%q) = %q (ok %v), want %q", l.Text, v.Role, v.OK, want)
		}
		text := l.Text + " 12.34"
		rs := []rune(text)
		f := foldRunes(rs, foldSpaces)
		got := labelAmounts(rs, lineStartsOf(rs), findAmounts(rs, "", scanDates(rs, "", nil), nil), findLabelSets(rs, "", f, index, nil, nil)[0], nil)
		if len(got) != 1 || got[0].role != want {
			var role Role
			if len(got) == 1 {
				role = got[0].role
			}
			t.Errorf("heuristics read %q as %q, want %q", text, role, want)
		}
	}
}

func TestLexiconClassifyQualifiers(t *testing.T) {
	lx := NewLexicon(Invoice())
	for _, c := range []struct {
		seg  string
		role Role
		incl bool
	}{
		{"TOTAL SALES (EXCL. GST)", RoleSubtotal, false},
		{"TOTAL (INCL. GST)", RoleTotal, true},
		{"GST INCLUDED IN TOTAL", RoleTotal, false},
		{"TOTAL QTY", RoleOther, false},
		{"ITEM TOTAL", RoleTotal, false},
		{"ROUNDING ADJ.", RoleOther, false},
		{"Gesamtbetrag", RoleTotal, false},
		{"うち消費税", RoleTax, false},
	} {
		v := lx.Classify(c.seg)
		if !v.OK || v.Role != c.role || v.Inclusive != c.incl {
			t.Errorf("Classify(%q) = %+v, want role %q inclusive %v", c.seg, v, c.role, c.incl)
		}
		if v.OK && (v.Start < 0 || v.End > len([]rune(c.seg)) || v.Start >= v.End) {
			t.Errorf("Classify(%q) span %d-%d out of the segment", c.seg, v.Start, v.End)
		}
	}
}
