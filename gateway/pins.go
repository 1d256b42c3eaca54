package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PinState is what a tool's definition is against its pin.
type PinState int

// Pin states.
const (
	// PinNew: first sight; the definition is now pinned.
	PinNew PinState = iota
	// PinSame: the definition is the pinned one.
	PinSame
	// PinChanged: it differs (a rug pull, or a tool that dropped
	// destructiveHint): classified at the floor and held until accepted.
	PinChanged
)

// PinStore remembers the hash of every tool definition at first sight.
type PinStore interface {
	// Check pins hash when the tool is new and reports the state. A changed
	// definition stays unaccepted (the pin keeps the old hash) until Accept.
	Check(ctx context.Context, upstream, tool, hash string) (PinState, error)
	// Accept pins the definition a human looked at.
	Accept(ctx context.Context, upstream, tool, hash string) error
}

// PinHash hashes what a tool says about itself: name, description, schemas,
// annotations (title and _meta are display data and may change freely).
func PinHash(t *mcpsdk.Tool) string {
	b, _ := json.Marshal(struct {
		Name         string                  `json:"name"`
		Description  string                  `json:"description"`
		InputSchema  any                     `json:"inputSchema"`
		OutputSchema any                     `json:"outputSchema"`
		Annotations  *mcpsdk.ToolAnnotations `json:"annotations"`
	}{t.Name, t.Description, t.InputSchema, t.OutputSchema, t.Annotations})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// MemoryPins pins for the life of the process.
type MemoryPins struct {
	mu   sync.Mutex
	pins map[string]string
}

// NewMemoryPins returns an empty pin store.
func NewMemoryPins() *MemoryPins { return &MemoryPins{pins: map[string]string{}} }

// Check implements PinStore.
func (m *MemoryPins) Check(_ context.Context, upstream, tool, hash string) (PinState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := upstream + Separator + tool
	old, ok := m.pins[k]
	switch {
	case !ok:
		m.pins[k] = hash
		return PinNew, nil
	case old == hash:
		return PinSame, nil
	}
	return PinChanged, nil
}

// Accept implements PinStore.
func (m *MemoryPins) Accept(_ context.Context, upstream, tool, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pins[upstream+Separator+tool] = hash
	return nil
}
