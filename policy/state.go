package policy

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// ErrHoldNotFound is wrapped when a hold id is unknown.
var ErrHoldNotFound = errors.New("hold not found")

// LedgerEntry is one counted action in a session's rolling window.
type LedgerEntry struct {
	TS          int64   `json:"ts"` // unix nanoseconds
	Verb        string  `json:"verb"`
	Ability     string  `json:"ability,omitempty"`
	Externality string  `json:"externality"`
	Count       int64   `json:"count"`
	Currency    string  `json:"currency,omitempty"` // set when the action carried an amount
	Amount      float64 `json:"amount,omitempty"`   // abs(params.amount)
}

// Cumulative is the session's aggregate over the window's prior entries
// (spec §3.4), the `cumulative` object the rules see.
type Cumulative struct {
	WindowSeconds      int64
	CountByVerb        map[string]int64
	CountByAbility     map[string]int64
	CountByExternality map[string]int64
	AmountByCurrency   map[string]float64
	TotalCount         int64
}

// Reset empties c, keeping its maps for reuse.
func (c *Cumulative) Reset() {
	if c.CountByVerb == nil {
		c.CountByVerb = map[string]int64{}
		c.CountByAbility = map[string]int64{}
		c.CountByExternality = map[string]int64{}
		c.AmountByCurrency = map[string]float64{}
	}
	clear(c.CountByVerb)
	clear(c.CountByAbility)
	clear(c.CountByExternality)
	clear(c.AmountByCurrency)
	c.TotalCount = 0
}

// Add counts e into c.
func (c *Cumulative) Add(e LedgerEntry) {
	c.CountByVerb[e.Verb] = satAdd(c.CountByVerb[e.Verb], e.Count)
	if e.Ability != "" {
		c.CountByAbility[e.Ability] = satAdd(c.CountByAbility[e.Ability], e.Count)
	}
	c.CountByExternality[e.Externality] = satAdd(c.CountByExternality[e.Externality], e.Count)
	if e.Currency != "" {
		c.AmountByCurrency[e.Currency] += e.Amount
	}
	c.TotalCount = satAdd(c.TotalCount, e.Count)
}

// sub removes e from c (the in-memory ledger's running totals); money is
// not kept running because float subtraction would drift from the
// reference's fresh sums.
func (c *Cumulative) sub(e LedgerEntry) {
	dec := func(m map[string]int64, k string) {
		if v := m[k] - e.Count; v > 0 {
			m[k] = v
		} else {
			delete(m, k)
		}
	}
	dec(c.CountByVerb, e.Verb)
	if e.Ability != "" {
		dec(c.CountByAbility, e.Ability)
	}
	dec(c.CountByExternality, e.Externality)
	c.TotalCount -= e.Count
}

// Object is the cumulative object as the rules and the audit see it.
func (c *Cumulative) Object() map[string]any {
	conv := func(m map[string]int64) map[string]any {
		o := make(map[string]any, len(m))
		for k, v := range m {
			o[k] = v
		}
		return o
	}
	money := make(map[string]any, len(c.AmountByCurrency))
	for k, v := range c.AmountByCurrency {
		money[k] = v
	}
	return map[string]any{
		"window_seconds": c.WindowSeconds, "count_by_verb": conv(c.CountByVerb), "count_by_ability": conv(c.CountByAbility),
		"count_by_externality": conv(c.CountByExternality), "amount_by_currency": money, "total_count": c.TotalCount,
	}
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

// State is where the engine keeps what must outlive one decision: the
// ledger, the holds and the nonce set. MemState is the in-memory one; the
// store package has the bbolt one, so a restart keeps all three.
type State interface {
	// SpendNonce records nonce, reporting whether it had been seen already.
	SpendNonce(ctx context.Context, nonce string, now time.Time) (seen bool, err error)
	// Cumulative fills into with session's entries at or after since.
	Cumulative(ctx context.Context, session string, since time.Time, into *Cumulative) error
	AppendLedger(ctx context.Context, session string, e LedgerEntry) error
	// CreateHold stores a new hold.
	CreateHold(ctx context.Context, h *Hold) error
	// GetHold returns a copy of the hold or an error wrapping ErrHoldNotFound.
	GetHold(ctx context.Context, id string) (*Hold, error)
	// UpdateHold runs fn on the stored hold atomically: a concurrent
	// UpdateHold of the same hold sees fn's result or runs before it.
	// When fn returns an error nothing is written.
	UpdateHold(ctx context.Context, id string, fn func(h *Hold) error) (*Hold, error)
	// ListHolds returns every hold, in any order.
	ListHolds(ctx context.Context) ([]*Hold, error)
	// Prune drops ledger entries before ledgerBefore and nonces spent before
	// nonceBefore.
	Prune(ctx context.Context, ledgerBefore, nonceBefore time.Time) error
}

// Auditor is implemented by a State that also keeps audit lines.
type Auditor interface {
	AppendAudit(ctx context.Context, line []byte) error
}

// MemState is an in-memory State. Ledgers keep running totals so a decision
// costs the same with 10 or 10,000 entries in the window.
type MemState struct {
	mu       sync.Mutex
	sessions map[string]*memLedger
	nonces   map[string]int64
	holds    map[string]*Hold
}

type memLedger struct {
	entries []LedgerEntry
	head    int
	totals  Cumulative
	money   int // entries in the window carrying an amount
}

// NewMemState returns an empty in-memory State.
func NewMemState() *MemState {
	return &MemState{sessions: map[string]*memLedger{}, nonces: map[string]int64{}, holds: map[string]*Hold{}}
}

func (m *MemState) SpendNonce(_ context.Context, nonce string, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.nonces[nonce]; ok {
		return true, nil
	}
	m.nonces[nonce] = now.UnixNano()
	return false, nil
}

func (l *memLedger) evict(since int64) {
	for l.head < len(l.entries) && l.entries[l.head].TS < since {
		e := l.entries[l.head]
		l.totals.sub(e)
		if e.Currency != "" {
			l.money--
		}
		l.entries[l.head] = LedgerEntry{}
		l.head++
	}
	if l.head > 64 && l.head*2 > len(l.entries) {
		n := copy(l.entries, l.entries[l.head:])
		l.entries = l.entries[:n]
		l.head = 0
	}
}

func (m *MemState) Cumulative(_ context.Context, session string, since time.Time, into *Cumulative) error {
	into.Reset()
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil {
		return nil
	}
	l.evict(since.UnixNano())
	for k, v := range l.totals.CountByVerb {
		into.CountByVerb[k] = v
	}
	for k, v := range l.totals.CountByAbility {
		into.CountByAbility[k] = v
	}
	for k, v := range l.totals.CountByExternality {
		into.CountByExternality[k] = v
	}
	into.TotalCount = l.totals.TotalCount
	if l.money > 0 {
		for _, e := range l.entries[l.head:] {
			if e.Currency != "" {
				into.AmountByCurrency[e.Currency] += e.Amount
			}
		}
	}
	return nil
}

func (m *MemState) AppendLedger(_ context.Context, session string, e LedgerEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil {
		l = &memLedger{}
		l.totals.Reset()
		m.sessions[session] = l
	}
	l.entries = append(l.entries, e)
	l.totals.Add(e)
	if e.Currency != "" {
		l.money++
	}
	return nil
}

func (m *MemState) CreateHold(_ context.Context, h *Hold) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.holds[h.ID]; ok {
		return errors.New("hold id already exists")
	}
	c := *h
	m.holds[h.ID] = &c
	return nil
}

func (m *MemState) GetHold(_ context.Context, id string) (*Hold, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.holds[id]
	if !ok {
		return nil, ErrHoldNotFound
	}
	c := *h
	return &c, nil
}

func (m *MemState) UpdateHold(_ context.Context, id string, fn func(h *Hold) error) (*Hold, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.holds[id]
	if !ok {
		return nil, ErrHoldNotFound
	}
	c := *h
	if err := fn(&c); err != nil {
		return nil, err
	}
	m.holds[id] = &c
	out := c
	return &out, nil
}

func (m *MemState) ListHolds(_ context.Context) ([]*Hold, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Hold, 0, len(m.holds))
	for _, h := range m.holds {
		c := *h
		out = append(out, &c)
	}
	return out, nil
}

func (m *MemState) Prune(_ context.Context, ledgerBefore, nonceBefore time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	lb, nb := ledgerBefore.UnixNano(), nonceBefore.UnixNano()
	for k, l := range m.sessions {
		l.evict(lb)
		if l.head == len(l.entries) {
			delete(m.sessions, k)
		}
	}
	for k, ts := range m.nonces {
		if ts < nb {
			delete(m.nonces, k)
		}
	}
	return nil
}

// Sizes reports how many sessions, ledger entries and nonces are held (for
// the bounded-memory tests).
func (m *MemState) Sizes() (sessions, entries, nonces int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, l := range m.sessions {
		entries += len(l.entries) - l.head
	}
	return len(m.sessions), entries, len(m.nonces)
}

// MemAudit keeps audit lines in memory (tests, `policy check`).
type MemAudit struct {
	mu    sync.Mutex
	lines [][]byte
}

// AppendAudit keeps a copy of line.
func (m *MemAudit) AppendAudit(_ context.Context, line []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lines = append(m.lines, slices.Clone(line))
	return nil
}

// Lines returns the audit lines kept so far.
func (m *MemAudit) Lines() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.lines)
}
