// Package providers is reflect's boundary to language models: one small Client
// interface and the clients behind it (scripted and replay here; real vendors in
// their own files).
package providers

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Message is one chat message. Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one model call.
type Request struct {
	// Purpose is the pipeline stage making the call: "generator" or "critic".
	Purpose string
	Model   string
	// PromptVersion is the versioned prompt the messages were rendered from
	// (e.g. "generator.v1"); part of the cache key.
	PromptVersion string
	Messages      []Message
	// JSONSchema, when set, is the schema the reply must match (structured
	// outputs); SchemaName names it.
	JSONSchema json.RawMessage
	SchemaName string
	MaxTokens  int
	// Source is the document text the call is about. It is already inside
	// Messages; clients that key by document (replay, record) read it here.
	Source string
}

// Usage is what one call cost.
type Usage struct {
	InputTokens  int
	OutputTokens int
	Latency      time.Duration
	CostUSD      float64
}

// Response is a model's reply.
type Response struct {
	Text   string
	Model  string
	Usage  Usage
	Cached bool
}

// Client is anything that answers a Request: a vendor SDK, a cache in front of
// one, a recorded fixture.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ClientFunc adapts a function to Client.
type ClientFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f.
func (f ClientFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// ErrRefused marks a reply in which the model declined the task; retrying the
// same prompt will not help.
var ErrRefused = errors.New("model refused")
