package pipeline

import (
	"encoding/json"
	"testing"
)

// FuzzParseSchema: the schema loader (YAML or JSON, from a file or an MCP
// agent's inline schema) never panics; a schema it accepts yields a JSON
// Schema that is JSON, every field it lists can be looked up, and a record
// of nulls normalizes against it.
func FuzzParseSchema(f *testing.F) {
	for _, seed := range []string{
		"name: po\nversion: \"1\"\nfields:\n  - {name: buyer, kind: text}\n  - {name: net, kind: money, role: subtotal, labels: [net]}\n  - {name: vat, kind: money, role: tax}\n  - {name: gross, kind: money, role: total, required: true}\nrelations:\n  - net + vat = gross\ntolerance: 0.01\n",
		`{"name":"x","fields":[{"name":"a","kind":"date"},{"name":"b","kind":"identifier","labels":["ref"]}]}`,
		`{"name":"x","fields":[{"name":"a","kind":"amount"}]}`,
		"fields:\n  - name: a\n    kind: currency\nrelations: [\"a + a = a\"]\n",
		"name: &a [*a]\n",
		"{",
		"",
		"name: x\nfields: []\n",
		"name: x\nfields:\n  - {name: \"\\u0000\", kind: text}\n",
		"name: x\nfields:\n  - {name: t, kind: money, role: total}\n  - {name: t, kind: money}\nrelations: [\"t - t = t + t\"]\ntolerance: -1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSchema(data, "fuzz.yaml")
		if err != nil {
			return
		}
		if !json.Valid(s.JSONSchema()) {
			t.Fatalf("accepted schema derives invalid JSON Schema: %s", s.JSONSchema())
		}
		nulls := map[string]any{}
		for _, name := range s.FieldNames() {
			if _, ok := s.Field(name); !ok {
				t.Fatalf("field %q listed but not found", name)
			}
			nulls[name] = nil
		}
		if _, err := s.NormalizeRecord(nulls, Strict); err != nil {
			t.Fatalf("a record of nulls does not fit an accepted schema: %v", err)
		}
	})
}
