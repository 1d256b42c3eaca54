// Package llm is the model interface the pipeline consumes: one small Client
// and the request, response and usage it speaks, plus the per-document scope
// that budgets count against. Vendor clients, caches and fixtures in
// providers implement it; the pipeline depends on nothing above it.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
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

// DocumentTally counts the tokens one document has used. Every budget that
// sees the document shares it, hence its own atomic counter.
type DocumentTally struct{ tokens atomic.Int64 }

// Add records n more tokens.
func (d *DocumentTally) Add(n int) { d.tokens.Add(int64(n)) }

// Tokens is the count so far.
func (d *DocumentTally) Tokens() int { return int(d.tokens.Load()) }

type tallyKey struct{}

// WithDocument starts the token count of one document: every call made with
// the returned context counts against the same per-document limit, and no
// call made with another context does. Without it a budget counts by the
// document's text, which lumps together identical documents of a batch and
// repeated requests to a long-running server.
func WithDocument(ctx context.Context) context.Context {
	return context.WithValue(ctx, tallyKey{}, &DocumentTally{})
}

// Document is the tally WithDocument put in ctx, or nil.
func Document(ctx context.Context) *DocumentTally {
	t, _ := ctx.Value(tallyKey{}).(*DocumentTally)
	return t
}
