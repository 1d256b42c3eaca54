package providers

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrBudget marks a call refused because it would exceed a budget.
var ErrBudget = errors.New("budget exceeded")

// Budget caps what model calls may spend: tokens per document (keyed by the
// document text, so retries count against it) and dollars per run.
type Budget struct {
	MaxTokensPerDoc int
	MaxCostUSD      float64

	mu     sync.Mutex
	tokens map[string]int
	cost   float64
}

// NewBudget returns nil when neither limit is set.
func NewBudget(maxTokensPerDoc int, maxCostUSD float64) *Budget {
	if maxTokensPerDoc <= 0 && maxCostUSD <= 0 {
		return nil
	}
	return &Budget{MaxTokensPerDoc: maxTokensPerDoc, MaxCostUSD: maxCostUSD, tokens: map[string]int{}}
}

// Wrap returns next limited by the budget (next itself for a nil budget).
func (b *Budget) Wrap(next Client) Client {
	if b == nil {
		return next
	}
	return ClientFunc(func(ctx context.Context, req Request) (Response, error) {
		key := SourceKey(req.Source)
		if err := b.admit(key, req); err != nil {
			return Response{}, err
		}
		resp, err := next.Complete(ctx, req)
		if err == nil && !resp.Cached {
			b.charge(key, resp.Usage)
		}
		return resp, err
	})
}

// estimateInput is a conservative token count for the prompt: about four
// bytes a token for English and numbers.
func estimateInput(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content)
	}
	return n/4 + 1
}

func (b *Budget) admit(key string, req Request) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.MaxCostUSD > 0 && b.cost >= b.MaxCostUSD {
		return fmt.Errorf("%w: the run has spent $%.4f of its $%.4f limit (--max-cost)", ErrBudget, b.cost, b.MaxCostUSD)
	}
	if b.MaxTokensPerDoc > 0 {
		used := b.tokens[key]
		if need := used + estimateInput(req); need > b.MaxTokensPerDoc {
			return fmt.Errorf("%w: this document has used %d tokens and the next %s call needs about %d more, over the %d-token limit (--max-tokens-per-doc)",
				ErrBudget, used, req.Purpose, need-used, b.MaxTokensPerDoc)
		}
	}
	return nil
}

func (b *Budget) charge(key string, u Usage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens[key] += u.InputTokens + u.OutputTokens
	b.cost += u.CostUSD
}

// Spent is the run's cost so far.
func (b *Budget) Spent() float64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cost
}
