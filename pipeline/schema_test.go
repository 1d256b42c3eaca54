package pipeline

import (
	"errors"
	"strings"
	"testing"
)

const goodFields = "fields:\n  - name: a\n    kind: money\n  - name: b\n    kind: money\n"

// Every bad schema names the line a person must fix.
func TestParseSchemaErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"field value of the wrong type", "name: x\nfields:\n  - name: a\n    kind: text\n  - name: b\n    kind: [x]\n", 6, "cannot unmarshal"},
		{"required not a boolean", "name: x\nversion: 2\nfields:\n  - name: a\n    kind: text\n    required: maybe\n", 6, "maybe"},
		{"labels not a list", "name: x\nfields:\n  - name: a\n    kind: money\n    role: total\n    labels: notalist\n", 6, "notalist"},
		{"negative tolerance", "name: x\ntolerance: -1\n" + goodFields, 2, "tolerance"},
		{"infinite tolerance", "name: x\ntolerance: .inf\n" + goodFields, 2, "finite"},
		{"no fields", "name: x\nfields: []\n", 2, "no fields"},
		{"fields not a list", "name: x\nfields: 5\n", 2, `"fields" must be a list`},
		{"relations not a list", "name: x\n" + goodFields + "relations: a + b = b\n", 7, `"relations" must be a list`},
		{"relation not a string", "name: x\n" + goodFields + "relations:\n  - {a: b}\n", 8, "must be a string"},
		{"relation missing an operator", "name: x\n" + goodFields + "relations:\n  - a + b = b\n  - a b = b\n", 9, "missing '+' or '-'"},
		{"relation with two operators", "name: x\n" + goodFields + "relations:\n  - a + - b = b\n", 8, "two operators"},
		{"relation ending in an operator", "name: x\n" + goodFields + "relations:\n  - a + = b\n", 8, "ends with an operator"},
		{"not a mapping", "\n- a\n- b\n", 2, "must be a mapping"},
		{"unknown top key", "name: x\n" + goodFields + "feilds: []\n", 7, `unknown key "feilds"`},
		{"unknown field key", "name: x\nfields:\n  - name: a\n    knd: text\n", 4, `unknown field key "knd"`},
		{"unknown kind", "{\n\t\"name\": \"x\",\n\t\"fields\": [\n\t\t{\"name\": \"a\", \"kind\": \"txt\"}\n\t]\n}\n", 4, `unknown kind "txt"`},
		{"bad role", "name: x\nfields:\n  - name: a\n    kind: text\n    role: total\n", 5, "needs kind money"},
		{"tab indentation", "name: x\nfields:\n\t- name: a\n", 3, "cannot start any token"},
		{"duplicate key", "name: x\nname: y\n" + goodFields, 2, `"name" already defined at line 1`},
		{"duplicate field", "name: x\n" + goodFields + "  - name: a\n    kind: text\n", 7, "declared twice"},
	}
	for _, c := range cases {
		_, err := ParseSchema([]byte(c.src), "s.yaml")
		var se *SchemaError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v is not a *SchemaError", c.name, err)
			continue
		}
		if se.Line != c.line || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: got line %d %q, want line %d and %q", c.name, se.Line, se.Msg, c.line, c.msg)
		}
		if strings.Contains(se.Msg, "yaml.Node") || strings.Contains(se.Msg, "pipeline.") {
			t.Errorf("%s: message names Go types: %q", c.name, se.Msg)
		}
	}
}

func TestParseSchemaRelations(t *testing.T) {
	s, err := ParseSchema([]byte("name: x\n"+goodFields+"  - name: c\n    kind: money\nrelations:\n  - -a + b - c = a\n  - a+b=c\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Term{{{"a", -1}, {"b", 1}, {"c", -1}}, {{"a", 1}, {"b", 1}}}
	for i, rel := range s.Relations {
		if len(rel.Terms) != len(want[i]) {
			t.Fatalf("relation %d terms %v, want %v", i, rel.Terms, want[i])
		}
		for j := range rel.Terms {
			if rel.Terms[j] != want[i][j] {
				t.Fatalf("relation %d terms %v, want %v", i, rel.Terms, want[i])
			}
		}
	}
	if s.Tolerance != DefaultTolerance {
		t.Fatalf("tolerance %v, want the default", s.Tolerance)
	}
}

// Labels on a date, identifier or text field name its source labels; on a
// money field they name a role's, so they need one.
func TestSchemaFieldLabels(t *testing.T) {
	s, err := ParseSchema([]byte("name: x\nfields:\n  - name: d\n    kind: date\n    labels: [issued]\n  - name: n\n    kind: identifier\n    labels: [ref]\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := s.Field("d"); len(f.Labels) != 1 || f.Labels[0] != "issued" {
		t.Errorf("date labels = %v", f.Labels)
	}
	for _, bad := range []string{
		"name: x\nfields:\n  - name: a\n    kind: money\n    labels: [paid]\n",
		"name: x\nfields:\n  - name: c\n    kind: currency\n    labels: [cur]\n",
	} {
		if _, err := ParseSchema([]byte(bad), "x.yaml"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	inv := Invoice()
	for _, name := range []string{"invoice_number", "invoice_date"} {
		if f, _ := inv.Field(name); len(f.Labels) == 0 {
			t.Errorf("built-in %s has no labels", name)
		}
	}
}
