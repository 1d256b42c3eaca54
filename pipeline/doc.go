// Package pipeline is reflect's core and its ground floor: it imports no
// other package of reflect.
//
// It holds the schema a record is extracted into (Schema, built-ins such as
// Invoice, or YAML), the Generator and Critic stages and the model interface
// they consume (package pipeline/llm, which providers implements), the
// deterministic checks (RunHeuristics: value, amount-role and date grounding,
// arithmetic over the schema's relations), the confidence gate (Gate), the
// versioned prompts, and the orchestration that runs them on one Document
// (Pipeline.Extract, Pipeline.Validate) into a Result: ok, or needs_review
// naming the fields a human must confirm, with spans into the source.
//
// Subpackages: llm (the model client interface and per-document budget
// scope) and runner (the ordered worker pool that runs many documents).
package pipeline
