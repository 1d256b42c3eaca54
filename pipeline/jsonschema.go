package pipeline

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSONSchema is the JSON Schema of a record of this schema. Every field is
// required and nullable, which is what strict structured outputs demand and what
// "absent fields are null" means. The caller owns the returned bytes.
func (s *Schema) JSONSchema() json.RawMessage {
	return bytes.Clone(s.jsonSchema())
}

// jsonSchema is JSONSchema built once per schema (it is part of every
// Generator call); the bytes are shared, never to be written to.
func (s *Schema) jsonSchema() json.RawMessage {
	s.prompts.schemaOnce.Do(func() { s.prompts.jsonSchema = s.buildJSONSchema() })
	return s.prompts.jsonSchema
}

func (s *Schema) buildJSONSchema() json.RawMessage {
	props := map[string]any{}
	for _, f := range s.Fields {
		p := map[string]any{}
		desc := f.Description
		switch f.Kind {
		case KindMoney:
			p["type"] = []string{"number", "null"}
			if desc == "" {
				desc = "An amount of money as a plain number."
			}
		case KindDate:
			p["type"] = []string{"string", "null"}
			desc = strings.TrimSpace(desc + " Format YYYY-MM-DD.")
		case KindCurrency:
			p["type"] = []string{"string", "null"}
			desc = strings.TrimSpace(desc + " ISO 4217 code.")
		default:
			p["type"] = []string{"string", "null"}
		}
		if desc != "" {
			p["description"] = desc
		}
		props[f.Name] = p
	}
	out := map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             s.FieldNames(),
		"additionalProperties": false,
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // only maps of strings: cannot fail
	}
	return b
}
