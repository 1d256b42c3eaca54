package mcp

// JSON Schemas of the tools' arguments and results. They are plain maps, not
// inferred from Go types: the handlers decode arguments themselves so that a
// bad argument yields the error envelope, and the result envelope must stay
// permissive so error envelopes validate against the same schema.

type obj = map[string]any

func thresholdProp(what string) obj {
	return obj{
		"type":    "number",
		"minimum": 0,
		"maximum": 1,
		"description": what + " The operator sets a floor (default 0.70 for fields, 0.75 overall); a lower value " +
			"is raised to the floor and notes says so. Pass a higher value for a stricter gate.",
	}
}

func schemaProp() obj {
	return obj{
		"description": "Which record to extract: a built-in schema name (\"invoice\", the default) or an inline " +
			"schema object in reflect's schema format, e.g. {\"name\":\"po\",\"version\":\"1\",\"fields\":" +
			"[{\"name\":\"po_number\",\"kind\":\"identifier\"},{\"name\":\"total\",\"kind\":\"money\",\"role\":\"total\"}]}. " +
			"Field kinds: text, identifier, date, money, currency.",
		"anyOf": []any{
			obj{"type": "string"},
			obj{"type": "object"},
		},
	}
}

func heuristicsOnlyProp() obj {
	return obj{
		"type": "boolean",
		"description": "Skip the second-model Critic and verify with deterministic checks only (grounding in the " +
			"text, amount roles, arithmetic, dates). Faster and free, but a plausible wrong value that appears in " +
			"the text can pass.",
	}
}

func textProp() obj {
	return obj{
		"type":        "string",
		"minLength":   1,
		"description": "The source document as plain text (an email, OCR output, a pasted invoice). Character spans in field_provenance index into exactly this text.",
	}
}

func extractInputSchema() obj {
	return obj{
		"type": "object",
		"properties": obj{
			"text":              textProp(),
			"schema":            schemaProp(),
			"field_threshold":   thresholdProp("Flag any field whose confidence is below this."),
			"overall_threshold": thresholdProp("Send the whole result to review when overall confidence is below this."),
			"heuristics_only":   heuristicsOnlyProp(),
		},
		"required":             []string{"text"},
		"additionalProperties": false,
	}
}

func validateInputSchema() obj {
	in := extractInputSchema()
	props := in["properties"].(obj)
	props["data"] = obj{
		"type": "object",
		"description": "The record to check, as field name to value (strings for text, identifiers, ISO " +
			"YYYY-MM-DD dates and currency codes; numbers for money; null for a field the text does not state). " +
			"A field the schema does not have is an error.",
	}
	in["required"] = []string{"text", "data"}
	return in
}

func reviewInputSchema() obj {
	return obj{
		"type": "object",
		"properties": obj{
			"trace_id": obj{
				"type":        "string",
				"minLength":   1,
				"description": "The trace_id of an extract or validate result whose status was needs_review.",
			},
		},
		"required":             []string{"trace_id"},
		"additionalProperties": false,
	}
}

// resultOutputSchema describes the pipeline's envelope. Only status is
// required: an error envelope carries status and error_message alone.
func resultOutputSchema() obj {
	num01 := obj{"type": "number", "minimum": 0, "maximum": 1}
	span := obj{
		"type":       "object",
		"properties": obj{"start": obj{"type": "integer"}, "end": obj{"type": "integer"}},
	}
	return obj{
		"type": "object",
		"properties": obj{
			"status": obj{
				"type": "string",
				"enum": []string{"ok", "needs_review", "error"},
				"description": "ok: every field passed the gate, data can be used. needs_review: confirm " +
					"flagged_fields with a human before using data. error: see error_message.",
			},
			"data": obj{
				"type":        "object",
				"description": "The record: field name to value, null where the text states nothing.",
			},
			"field_confidence":   obj{"type": "object", "additionalProperties": num01},
			"overall_confidence": num01,
			"flagged_fields": obj{
				"type": "array",
				"items": obj{
					"type": "object",
					"properties": obj{
						"field":      obj{"type": "string"},
						"value":      obj{},
						"confidence": obj{"type": "number"},
						"reason":     obj{"type": "string"},
					},
				},
				"description": "Fields a human must confirm, with the value, its confidence and why.",
			},
			"field_provenance": obj{
				"type":                 "object",
				"additionalProperties": obj{"type": "array", "items": span},
				"description":          "Per field, the character (code point) spans of the source text the value was found at; end is exclusive.",
			},
			"trace_id":        obj{"type": "string"},
			"critic_summary":  obj{"type": "string"},
			"notes":           obj{"type": "string"},
			"schema":          obj{"type": "string"},
			"prompt_versions": obj{"type": "object", "additionalProperties": obj{"type": "string"}},
			"not_given":       obj{"type": "array", "items": obj{"type": "string"}},
			"usage":           obj{"type": "object"},
			"error_message":   obj{"type": "string"},
		},
		"required":             []string{"status"},
		"additionalProperties": true,
	}
}

func reviewOutputSchema() obj {
	return obj{
		"type": "object",
		"properties": obj{
			"trace_id": obj{"type": "string"},
			"status": obj{
				"type": "string",
				"enum": []string{"pending", "reviewed", "rejected", "unknown", "error"},
				"description": "pending: queued, a human has not settled every flagged field yet. reviewed: record " +
					"holds the human-confirmed values. rejected: a human judged the input not a document of this kind " +
					"(note says why); no field is confirmed. unknown: no queued result has this trace_id (ok results are not queued).",
			},
			"note":          obj{"type": "string", "description": "the reviewer's note on a rejected or set-aside document"},
			"queue":         obj{"type": "string"},
			"record":        obj{"type": "object"},
			"reviewer":      obj{"type": "string"},
			"reviewed_at":   obj{"type": "string", "format": "date-time"},
			"error_message": obj{"type": "string"},
		},
		"required":             []string{"trace_id", "status"},
		"additionalProperties": true,
	}
}
