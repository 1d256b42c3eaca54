package gateway

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// PendingHold is a hold the gateway is tracking for the identical retry.
type PendingHold struct {
	HoldID     string `json:"hold_id"`
	DecisionID string `json:"decision_id"`
	ExpiresTS  string `json:"expires_ts"`
	Rule       string `json:"rule"`
	Reason     string `json:"reason"`
}

// expired: a blank or unparseable expiry counts as not expired, as in the
// reference.
func (h PendingHold) expired(now time.Time) bool {
	t, err := time.Parse("2006-01-02T15:04:05Z", h.ExpiresTS)
	return err == nil && !now.Before(t)
}

// HeldCall is everything a reviewer needs to decide a held call.
type HeldCall struct {
	PendingHold
	// Client is the front client's name (the review queue is named for it).
	Client    string
	SessionID string
	Upstream  string
	Tool      string // the upstream's own name
	Arguments json.RawMessage
	Class     Classification
	// Envelope is what the engine was asked about.
	Envelope Envelope
	// Budget is the session's budget use with this call counted
	// ("deletions 25/20 (over)"); "" when the engine cannot say (remote).
	Budget string
	// Link is the unsettled extraction whose value the arguments carry.
	Link *Link
}

// HoldTracker maps (session, identical call) to its pending hold.
type HoldTracker interface {
	Get(ctx context.Context, key string) (PendingHold, bool, error)
	Put(ctx context.Context, key string, h PendingHold) error
	Delete(ctx context.Context, key string) error
}

// MemoryHolds tracks for the life of the process.
type MemoryHolds struct {
	mu sync.Mutex
	m  map[string]PendingHold
}

// NewMemoryHolds returns an empty tracker.
func NewMemoryHolds() *MemoryHolds { return &MemoryHolds{m: map[string]PendingHold{}} }

// Get implements HoldTracker.
func (t *MemoryHolds) Get(_ context.Context, key string) (PendingHold, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.m[key]
	return h, ok, nil
}

// Put implements HoldTracker.
func (t *MemoryHolds) Put(_ context.Context, key string, h PendingHold) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[key] = h
	return nil
}

// Delete implements HoldTracker.
func (t *MemoryHolds) Delete(_ context.Context, key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
	return nil
}
