package providers

import (
	"context"
	"fmt"
	"sync"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// Scripted answers calls from a fixed script, in order, and fails if asked for
// more than it holds, so a test cannot make an unplanned model call.
type Scripted struct {
	mu      sync.Mutex
	replies []ScriptedReply
	// Requests records every call received, for assertions.
	Requests []llm.Request
}

// ScriptedReply is one scripted answer: Text, or Err when the call must fail.
type ScriptedReply struct {
	Text string
	Err  error
}

// NewScripted returns a client that answers with texts in order.
func NewScripted(texts ...string) *Scripted {
	s := &Scripted{}
	for _, t := range texts {
		s.replies = append(s.replies, ScriptedReply{Text: t})
	}
	return s
}

// Push appends replies to the script.
func (s *Scripted) Push(r ...ScriptedReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, r...)
}

// Complete returns the next scripted reply.
func (s *Scripted) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, req)
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	if len(s.replies) == 0 {
		return llm.Response{}, fmt.Errorf("scripted client: unexpected call %d (%s): script exhausted", len(s.Requests), req.Purpose)
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	if r.Err != nil {
		return llm.Response{}, r.Err
	}
	return llm.Response{Text: r.Text, Model: req.Model}, nil
}

// Remaining is how many scripted replies were not used.
func (s *Scripted) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}
