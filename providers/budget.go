package providers

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// ErrBudget marks a call refused because it would exceed a budget.
var ErrBudget = errors.New("budget exceeded")

// Budget caps what model calls may spend: tokens per document, retries
// included, and dollars per run.
//
// Wrap the live client with it and put the cache outside
// (cache.Wrap(p, budget.Wrap(live))): a cache hit then never meets the
// budget, so a run that has spent its --max-cost still answers every call it
// has already paid for. The budget also charges nothing for a Response marked
// Cached, for callers that stack it the other way round.
//
// The cost limit is checked before each call and charged after it, since a
// call's price is known only from its reply: calls already in flight when the
// limit is reached finish, so a run overshoots it by at most one call per
// concurrent document.
type Budget struct {
	maxTokensPerDoc int
	maxCostUSD      float64

	mu       sync.Mutex
	bySource map[string]*llm.DocumentTally // documents not scoped with WithDocument
	cost     float64
}

// NewBudget returns nil when neither limit is set. Limits that are not
// positive numbers (zero, negative, NaN) are off.
func NewBudget(maxTokensPerDoc int, maxCostUSD float64) *Budget {
	if !(maxCostUSD > 0) {
		maxCostUSD = 0
	}
	if maxTokensPerDoc <= 0 && maxCostUSD == 0 {
		return nil
	}
	return &Budget{maxTokensPerDoc: maxTokensPerDoc, maxCostUSD: maxCostUSD, bySource: map[string]*llm.DocumentTally{}}
}

// Wrap returns next limited by the budget (next itself for a nil budget).
// A call that fails after the server answered is charged too: its usage
// comes back with the error, and the vendor bills it.
func (b *Budget) Wrap(next llm.Client) llm.Client {
	if b == nil {
		return next
	}
	return llm.ClientFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		doc := b.tally(ctx, req)
		if err := b.admit(doc, req); err != nil {
			return llm.Response{}, err
		}
		resp, err := next.Complete(ctx, req)
		if !resp.Cached {
			b.charge(doc, resp.Usage)
		}
		return resp, err
	})
}

func (b *Budget) tally(ctx context.Context, req llm.Request) *llm.DocumentTally {
	if t := llm.Document(ctx); t != nil {
		return t
	}
	if b.maxTokensPerDoc <= 0 {
		return nil // nothing to count, and nothing to keep per text
	}
	key := SourceKey(req.Source)
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.bySource[key]
	if t == nil {
		t = &llm.DocumentTally{}
		b.bySource[key] = t
	}
	return t
}

// estimateInput is a rough token count of the prompt (about four bytes a
// token), used only to refuse a call that plainly cannot fit; the real count
// is charged after the call.
func estimateInput(req llm.Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content)
	}
	return n/4 + 1
}

func (b *Budget) admit(doc *llm.DocumentTally, req llm.Request) error {
	b.mu.Lock()
	cost := b.cost
	b.mu.Unlock()
	if b.maxCostUSD > 0 && cost >= b.maxCostUSD {
		return fmt.Errorf("%w: the run has spent $%.4f of its $%.4f limit (--max-cost)", ErrBudget, cost, b.maxCostUSD)
	}
	if b.maxTokensPerDoc > 0 && doc != nil {
		used := doc.Tokens()
		if need := estimateInput(req); used+need > b.maxTokensPerDoc {
			return fmt.Errorf("%w: this document has used %d tokens and the next %s call needs about %d more, over the %d-token limit (--max-tokens-per-doc)",
				ErrBudget, used, req.Purpose, need, b.maxTokensPerDoc)
		}
	}
	return nil
}

func (b *Budget) charge(doc *llm.DocumentTally, u llm.Usage) {
	if doc != nil {
		doc.Add(u.InputTokens + u.OutputTokens)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
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
