package local_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers/local"
)

// TestExtractorAndHeuristicsAgreeOnEveryLabel: for every label of the
// lexicon, "<label> 12.34" gets the same role from the local extractor (the
// money field it fills with 12.34 by its label, not as a guess) as from the
// heuristics (pipeline.AmountRoles), and that is the role the lexicon lists. A quantity label (cash, change, total qty)
// gives no money field the number.
func TestExtractorAndHeuristicsAgreeOnEveryLabel(t *testing.T) {
	s := pipeline.Invoice()
	lx := pipeline.NewLexicon(s)
	roleField := map[pipeline.Role]string{}
	for _, f := range s.Fields {
		if f.Kind == pipeline.KindMoney && f.Role != pipeline.RoleNone {
			roleField[f.Role] = f.Name
		}
	}
	seen := map[string]bool{}
	e := local.New()
	for _, l := range lx.Labels() {
		key := pipeline.LabelKey(l.Text)
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		want, _ := lx.Role(l.Text)
		text := l.Text + " 12.34"

		ext, err := e.Generate(context.Background(), pipeline.Document{Text: text}, s)
		if err != nil {
			t.Fatal(err)
		}
		extRole := roleOther
		for r, name := range roleField {
			if v, _ := ext.Record[name].(float64); v == 12.34 && strings.HasPrefix(ext.Evidence[name].Tier, string(r)+":labelled") {
				extRole = r
			}
		}

		heurRole := pipeline.Role("none")
		if roles := pipeline.AmountRoles(text, s); len(roles) == 1 {
			heurRole = roles[0]
		}
		if extRole != heurRole || extRole != want {
			t.Errorf("%q: extractor reads %s (%s), heuristics %s, lexicon lists %s", text, extRole, evidenceOf(ext), heurRole, want)
		}
	}
	if len(seen) < 200 {
		t.Fatalf("only %d lexicon labels tried", len(seen))
	}
}

const roleOther = pipeline.RoleOther

func evidenceOf(ext pipeline.Extraction) string {
	out := ""
	for name, ev := range ext.Evidence {
		if _, money := ext.Record[name].(float64); money {
			out += name + ": " + ev.Method + "; "
		}
	}
	return out
}
