package pipeline

import (
	"context"
	"errors"
)

// Generator turns source text into a record of a schema.
type Generator interface {
	Generate(ctx context.Context, doc Document, s *Schema) (Extraction, error)
}

// Critic grades a candidate record against its source.
type Critic interface {
	Critique(ctx context.Context, doc Document, s *Schema, rec Record) (Critique, error)
}

// Document is one source text and the ids that follow it through the pipeline.
type Document struct {
	ID      string
	Text    string
	TraceID string
}

// Extraction is a Generator's output. Evidence is optional: a Generator that
// knows how it found a value (the keyless local extractor) says so, and in
// heuristics-only mode the gate uses that confidence as its base.
type Extraction struct {
	Record   Record
	Evidence map[string]Evidence
	Usage    Usage
}

// Evidence is how a Generator found one value.
type Evidence struct {
	Confidence float64 `json:"confidence"`
	Method     string  `json:"method"`
	// Tier names the kind of evidence ("total:labelled+arithmetic",
	// "vendor:letterhead-suffix"), stable across documents, so a calibrator
	// can learn each tier's real accuracy from reviewed data.
	Tier string `json:"tier,omitempty"`
}

// Verdict is the Critic's judgement of one field.
type FieldVerdict struct {
	Field      string  `json:"field"`
	Confidence float64 `json:"confidence"`
	Grounded   bool    `json:"grounded"`
	Reason     string  `json:"reason,omitempty"`
}

// Critique is the Critic's judgement of a whole record.
type Critique struct {
	FieldVerdicts     []FieldVerdict `json:"field_verdicts"`
	OverallConfidence float64        `json:"overall_confidence"`
	Summary           string         `json:"summary"`
	Usage             Usage          `json:"-"`
}

// ErrInput marks a problem with the caller's input (empty text, invalid UTF-8,
// data that does not fit the schema): exit code 2, never retried.
var ErrInput = errors.New("invalid input")

// GeneratorError is returned when the Generator's output cannot be used after
// every retry, or its model call failed.
type GeneratorError struct{ Err error }

func (e *GeneratorError) Error() string { return "generator: " + e.Err.Error() }
func (e *GeneratorError) Unwrap() error { return e.Err }

// CriticError is returned when the Critic's output cannot be used after every
// retry, or its model call failed.
type CriticError struct{ Err error }

func (e *CriticError) Error() string { return "critic: " + e.Err.Error() }
func (e *CriticError) Unwrap() error { return e.Err }
