package pipeline_test

import (
	"context"
	"fmt"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/providers"
)

// Build a pipeline, extract, and read the flags. A scripted client stands in
// for the models here; providers.Config.NewClient gives a real one.
func Example() {
	text := "ACME Corp, Invoice #A-99, total $250.00 USD"
	generator := providers.NewScripted(`{"vendor_name":"ACME Corp","invoice_number":"A-99","total":520.0,"currency":"USD"}`)
	critic := providers.NewScripted(`{"field_verdicts":[
		{"field":"vendor_name","confidence":0.95,"grounded":true},
		{"field":"invoice_number","confidence":0.95,"grounded":true},
		{"field":"total","confidence":0.3,"grounded":false,"reason":"the source says 250.00"},
		{"field":"currency","confidence":0.9,"grounded":true}],
		"overall_confidence":0.6,"summary":"Total looks transposed."}`)
	p, err := pipeline.New(pipeline.Config{
		Schema:    pipeline.Invoice(),
		Generator: pipeline.NewLLMGenerator(generator, pipeline.LLMOptions{Model: "generator-model"}),
		Critic:    pipeline.NewLLMCritic(critic, pipeline.LLMOptions{Model: "critic-model"}),
		Gate:      pipeline.GateConfig{FieldThreshold: 0.80, OverallThreshold: 0.85},
	})
	if err != nil {
		panic(err)
	}
	res, err := p.Extract(context.Background(), pipeline.Document{Text: text})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status)
	for _, f := range res.FlaggedFields {
		fmt.Printf("%s = %v\n", f.Field, f.Value)
	}
	// Output:
	// needs_review
	// total = 520
}

// Gate-only verification of data you already have.
func ExampleGate() {
	s := pipeline.Invoice()
	text := "ACME Corp, total $250.00 USD"
	rec, err := s.NormalizeRecord(map[string]any{"vendor_name": "ACME Corp", "total": 250.0, "currency": "USD"}, pipeline.Strict)
	if err != nil {
		panic(err)
	}
	crit := &pipeline.Critique{OverallConfidence: 0.92, FieldVerdicts: []pipeline.FieldVerdict{
		{Field: "vendor_name", Confidence: 0.95, Grounded: true},
		{Field: "total", Confidence: 0.95, Grounded: true},
		{Field: "currency", Confidence: 0.95, Grounded: true},
	}}
	res := pipeline.Gate(s, rec, crit, pipeline.RunHeuristics(text, s, rec), nil, pipeline.DefaultGate())
	fmt.Println(res.Status, res.FieldProvenance["total"])
	// Output: ok [{18 24 false}]
}

// Validate-only, heuristics-only: no model at all.
func ExamplePipeline_Validate() {
	p, err := pipeline.New(pipeline.Config{Gate: pipeline.DefaultGate()})
	if err != nil {
		panic(err)
	}
	res, err := p.Validate(context.Background(), pipeline.Document{Text: "Northwind Traders\nTotal due: 75.00 EUR"},
		map[string]any{"vendor_name": "Northwind Traders", "total": 57.0, "currency": "EUR"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.FlaggedFields[0].Field)
	// Output: needs_review total
}
