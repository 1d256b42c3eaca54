package pipeline

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// LLMOptions configures a model-backed stage.
type LLMOptions struct {
	Model string
	// Retries is how many more times a reply that cannot be parsed is asked
	// for again, with the parse error fed back. Default 2; negative means 0.
	Retries   int
	MaxTokens int
}

func (o LLMOptions) retries() int {
	switch {
	case o.Retries < 0:
		return 0
	case o.Retries == 0:
		return 2
	}
	return o.Retries
}

// LLMGenerator extracts a record with one model call (plus retries on
// unparseable output).
type LLMGenerator struct {
	client llm.Client
	opts   LLMOptions
}

// NewLLMGenerator returns a Generator backed by client.
func NewLLMGenerator(client llm.Client, opts LLMOptions) *LLMGenerator {
	return &LLMGenerator{client: client, opts: opts}
}

// Generate implements Generator. On failure the Extraction still carries the
// usage of every call made, so a failed document reports what it cost.
func (g *LLMGenerator) Generate(ctx context.Context, doc Document, s *Schema) (Extraction, error) {
	prompt, err := s.prompt(GeneratorPrompt, doc.Text, "")
	if err != nil {
		return Extraction{}, &GeneratorError{Err: err}
	}
	var ext Extraction
	err = converse(ctx, g.client, g.opts, llm.Request{
		Purpose: "generator", PromptVersion: GeneratorPrompt, JSONSchema: s.jsonSchema(), SchemaName: s.Name, Source: doc.Text,
	}, prompt, &ext.Usage, func(m map[string]any) error {
		rec, err := s.NormalizeRecord(m, Lenient)
		if err != nil {
			return err
		}
		ext.Record = rec
		return nil
	})
	if err != nil {
		return Extraction{Usage: ext.Usage}, &GeneratorError{Err: err}
	}
	return ext, nil
}

// LLMCritic grades a record with a (different) model.
type LLMCritic struct {
	client llm.Client
	opts   LLMOptions
}

// NewLLMCritic returns a Critic backed by client.
func NewLLMCritic(client llm.Client, opts LLMOptions) *LLMCritic {
	return &LLMCritic{client: client, opts: opts}
}

// critiqueSchema is the JSON Schema the Critic's reply must match.
const critiqueSchema = `{"type":"object","properties":{"field_verdicts":{"type":"array","items":{"type":"object","properties":{"field":{"type":"string"},"confidence":{"type":"number"},"grounded":{"type":"boolean"},"reason":{"type":"string"}},"required":["field","confidence","grounded","reason"],"additionalProperties":false}},"overall_confidence":{"type":"number"},"summary":{"type":"string"}},"required":["field_verdicts","overall_confidence","summary"],"additionalProperties":false}`

// Critique implements Critic. On failure the Critique still carries the usage
// of every call made.
func (c *LLMCritic) Critique(ctx context.Context, doc Document, s *Schema, rec Record) (Critique, error) {
	candidate, err := candidateJSON(s, rec)
	if err != nil {
		return Critique{}, &CriticError{Err: err}
	}
	prompt, err := s.prompt(CriticPrompt, doc.Text, candidate)
	if err != nil {
		return Critique{}, &CriticError{Err: err}
	}
	var out Critique
	var usage Usage
	err = converse(ctx, c.client, c.opts, llm.Request{
		Purpose: "critic", PromptVersion: CriticPrompt, JSONSchema: []byte(critiqueSchema), SchemaName: "critique", Source: doc.Text,
	}, prompt, &usage, func(m map[string]any) error {
		crit, err := parseCritique(m)
		if err != nil {
			return err
		}
		out = crit
		return nil
	})
	if err != nil {
		return Critique{Usage: usage}, &CriticError{Err: err}
	}
	out.Usage = usage
	return out, nil
}

func parseCritique(m map[string]any) (Critique, error) {
	var c Critique
	raw, ok := m["field_verdicts"].([]any)
	if !ok {
		return c, errors.New(`"field_verdicts" must be an array`)
	}
	oc, ok := m["overall_confidence"].(float64)
	if !ok {
		return c, errors.New(`"overall_confidence" must be a number`)
	}
	if oc < 0 || oc > 1 {
		return c, fmt.Errorf(`"overall_confidence" %v is outside [0,1]`, oc)
	}
	c.OverallConfidence = oc
	c.Summary, _ = m["summary"].(string)
	for i, r := range raw {
		vm, ok := r.(map[string]any)
		if !ok {
			return c, fmt.Errorf("field_verdicts[%d] must be an object", i)
		}
		var v FieldVerdict
		if v.Field, ok = vm["field"].(string); !ok || v.Field == "" {
			return c, fmt.Errorf("field_verdicts[%d].field must be a field name", i)
		}
		if v.Confidence, ok = vm["confidence"].(float64); !ok || v.Confidence < 0 || v.Confidence > 1 {
			return c, fmt.Errorf("field_verdicts[%d].confidence must be a number in [0,1]", i)
		}
		if v.Grounded, ok = vm["grounded"].(bool); !ok {
			return c, fmt.Errorf("field_verdicts[%d].grounded must be true or false", i)
		}
		v.Reason, _ = vm["reason"].(string)
		c.FieldVerdicts = append(c.FieldVerdicts, v)
	}
	return c, nil
}

func addUsage(u *Usage, resp llm.Response) {
	u.Calls++
	if resp.Cached {
		u.CachedCalls++
	}
	u.InputTokens += resp.Usage.InputTokens
	u.OutputTokens += resp.Usage.OutputTokens
	u.LatencyMS += resp.Usage.Latency.Milliseconds()
	u.CostUSD += resp.Usage.CostUSD
}

// converse makes the call and, while the reply cannot be used, asks again with
// the error fed back. Transport failures are not retried here: the provider
// clients already retry what is worth retrying. usage counts every call that
// answered, including the unusable ones: they were paid for. A cancelled
// context stops the retries even when the client would answer anyway (a cache
// hit does not look at the context).
func converse(ctx context.Context, client llm.Client, opts LLMOptions, req llm.Request, prompt string, usage *Usage, accept func(map[string]any) error) error {
	req.Model = opts.Model
	req.MaxTokens = opts.MaxTokens
	req.Messages = []llm.Message{{Role: "user", Content: prompt}}
	var lastErr error
	for attempt := 0; attempt <= opts.retries(); attempt++ {
		if err := ctx.Err(); err != nil {
			if lastErr != nil {
				return fmt.Errorf("stopped before attempt %d: %w (the last reply was unusable: %w)", attempt+1, err, lastErr)
			}
			return err
		}
		resp, err := client.Complete(ctx, req)
		if err != nil {
			// A call that failed after the vendor billed it (cut off at the
			// token limit, refused) still reports what it cost.
			if resp.Usage.InputTokens+resp.Usage.OutputTokens > 0 || resp.Usage.CostUSD > 0 {
				addUsage(usage, resp)
			}
			return err
		}
		addUsage(usage, resp)
		m, err := ExtractJSON(resp.Text)
		if err == nil {
			err = accept(m)
		}
		if err == nil {
			return nil
		}
		lastErr = err
		// Rebuilt, not appended: a re-ask carries only the latest reply, clipped,
		// so a huge or runaway reply is not re-sent (and grown) on every attempt.
		req.Messages = []llm.Message{
			{Role: "user", Content: prompt},
			{Role: "assistant", Content: clipText(resp.Text, reaskReplyMax)},
			{Role: "user", Content: "Your reply could not be used: " + clipText(err.Error(), reaskErrMax) + ". Reply with only the corrected JSON object."},
		}
	}
	return fmt.Errorf("unusable output after %d attempt(s): %w", opts.retries()+1, lastErr)
}

// What a re-ask feeds back of the unusable reply and of its error. 4 KB of
// reply is enough for the model to see what it did wrong.
const (
	reaskReplyMax = 4 << 10
	reaskErrMax   = 500
)

// clipText returns s cut to at most max bytes on a UTF-8 character boundary,
// saying how much was left out.
func clipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [%d more bytes not shown]", len(s)-cut)
}
