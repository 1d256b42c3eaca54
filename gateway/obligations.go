package gateway

import (
	"log/slog"
	"sync"
)

// ObligationContext is what a handler sees.
type ObligationContext struct {
	Obligation    string
	Envelope      Envelope
	Decision      Decision
	CorrelationID string
	Upstream      string
	Tool          string
}

// ObligationHandler honours one obligation. It may log or count; it must
// never decide anything (no model, no network decision).
type ObligationHandler func(ObligationContext)

// Obligations is the registry: a deterministic string lookup, no fuzzy match.
type Obligations struct {
	mu sync.RWMutex
	h  map[string]ObligationHandler
}

// NewObligations has audit:full built in: the full envelope to the log,
// tagged with the correlation id (additive to the engine's own audit).
func NewObligations(log *slog.Logger) *Obligations {
	o := &Obligations{h: map[string]ObligationHandler{}}
	o.Register("audit:full", func(c ObligationContext) {
		log.Info("obligation audit:full", "gateway_correlation_id", c.CorrelationID, "decision_id", c.Decision.DecisionID,
			"upstream", c.Upstream, "tool", c.Tool, "envelope", c.Envelope)
	})
	return o
}

// Register adds or replaces a handler (the last registration wins).
func (o *Obligations) Register(name string, h ObligationHandler) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.h[name] = h
}

func (o *Obligations) lookup(name string) (ObligationHandler, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	h, ok := o.h[name]
	return h, ok
}
