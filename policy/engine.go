package policy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// ErrFailClosed is wrapped by Decide when the answer is a fail-closed deny
// (HTTP 500 with a Decision body): a caller that only checks err denies.
var ErrFailClosed = errors.New("policy: failing closed")

// Decision is the wire response of POST /v1/decide (spec §2.3).
type Decision struct {
	Decision         string   `json:"decision"` // allow | deny | require_approval
	Reason           string   `json:"reason"`
	Rule             string   `json:"rule"`
	Obligations      []string `json:"obligations"` // never nil on the wire: []
	Modulation       any      `json:"modulation"`  // always null
	DecisionID       string   `json:"decision_id"`
	HoldID           string   `json:"hold_id,omitempty"`
	ExpiresTS        string   `json:"expires_ts,omitempty"`
	ParentDecisionID string   `json:"parent_decision_id,omitempty"`
}

// AppendJSON appends the wire form, pure ASCII, keys in the reference's order.
func (d *Decision) AppendJSON(b []byte) []byte {
	b = append(b, `{"decision":`...)
	b = appendPyString(b, d.Decision)
	b = append(b, `,"reason":`...)
	b = appendPyString(b, d.Reason)
	b = append(b, `,"rule":`...)
	b = appendPyString(b, d.Rule)
	b = append(b, `,"obligations":`...)
	b = appendPyJSON(b, nonNil(d.Obligations))
	b = append(b, `,"modulation":null,"decision_id":`...)
	b = appendPyString(b, d.DecisionID)
	if d.HoldID != "" {
		b = append(b, `,"hold_id":`...)
		b = appendPyString(b, d.HoldID)
		b = append(b, `,"expires_ts":`...)
		b = appendPyString(b, d.ExpiresTS)
	}
	if d.ParentDecisionID != "" {
		b = append(b, `,"parent_decision_id":`...)
		b = appendPyString(b, d.ParentDecisionID)
	}
	return append(b, '}')
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Rule ids and reasons the engine itself emits (spec §2.3).
const (
	RuleFrozen       = "reeflex.policy/frozen"
	RuleApproved     = "reeflex.policy/approved_resubmission"
	RuleHoldCheck    = "reeflex.core/hold_validation"
	RuleFailClosed   = "reeflex.core/fail_closed"
	RuleInternal     = "reeflex.core/internal_error"
	RuleHoldCreation = "reeflex.core/hold_creation_failed"
)

// Options configure an Engine. Zero values take the reference's defaults.
type Options struct {
	Pack    *Pack    // nil: the base pack
	Budgets *Budgets // applied over the pack's budgets (--budgets FILE)
	State   State    // nil: a new MemState
	Now     func() time.Time
	Window  time.Duration // REEFLEX_WINDOW_SECONDS, default 3600 s
	HoldTTL time.Duration // REEFLEX_HOLD_TTL_SECONDS, default 14400 s
	// Getenv reads REEFLEX_FREEZE, REEFLEX_RESOLUTION_POLICY,
	// REEFLEX_RESOLVER_TOKENS and REEFLEX_REQUIRE_VERIFIED_APPROVER on every
	// request, as the reference does; nil is os.Getenv.
	Getenv func(string) string
	// AuditPath is REEFLEX_AUDIT_LOG: JSONL, appended and fsynced. Empty
	// writes no file (a State that keeps audit lines still gets them).
	AuditPath string
	// Audit is another sink for audit lines; a State that is an Auditor
	// (the store) gets them too.
	Audit  Auditor
	Logger *slog.Logger
	// Backend replaces the built-in rule evaluation (the pack) with another
	// one, e.g. OPA for operators who bring Rego. Normalization, freeze,
	// holds, budgets' ledger and audit stay the engine's.
	Backend Backend
	// OnEvent receives hold.created, hold.resolved, hold.expired and
	// freeze.flipped (the reference's webhook events). It must not block.
	OnEvent func(Event)
	NewID   func() string // uuid4 hex; for tests
}

// Engine decides. Safe for concurrent use.
type Engine struct {
	// active is the pack and its budgets, swapped whole by SetPack so a
	// decision never sees one pack's rules with another's budgets.
	active   atomic.Pointer[activePack]
	override *Budgets // --budgets, applied over every pack set

	state   State
	now     func() time.Time
	window  time.Duration
	ttl     time.Duration
	getenv  func(string) string
	log     *slog.Logger
	newID   func() string
	audit   *auditLog
	sinks   []Auditor
	onEvent func(Event)
	backend Backend
	// stateAudits: sinks[0] is the State itself.
	stateAudits bool

	// sessions serialises read-ledger -> decide -> append per session, so
	// concurrent calls cannot both spend the last unit of a budget.
	sessions [64]sync.Mutex
	seed     maphash.Seed

	lastPrune    atomic.Int64
	ids          idGen
	freezeSwitch atomic.Int32 // switchUnread, switchOn, switchOff or switchUnset (freeze.go)
	lastFrozen   atomic.Int32 // switchUnread (unknown), switchOn or switchOff
	pool         sync.Pool
}

type scratch struct {
	f   facts
	cum Cumulative
	x   evalCtx
}

// New builds an Engine.
func New(o Options) (*Engine, error) {
	e := &Engine{override: o.Budgets, state: o.State, now: o.Now, window: o.Window, ttl: o.HoldTTL,
		getenv: o.Getenv, log: o.Logger, newID: o.NewID, seed: maphash.MakeSeed(), onEvent: o.OnEvent, backend: o.Backend}
	p := o.Pack
	if p == nil {
		var err error
		if p, err = BasePack(); err != nil {
			return nil, err
		}
	}
	if o.Budgets != nil {
		if err := o.Budgets.Validate(); err != nil {
			return nil, err
		}
	}
	e.SetPack(p)
	if e.state == nil {
		e.state = NewMemState()
	}
	if a, ok := e.state.(Auditor); ok {
		e.sinks = append(e.sinks, a) // always first: emitTo relies on it
		e.stateAudits = true
	}
	if o.Audit != nil {
		e.sinks = append(e.sinks, o.Audit)
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.window <= 0 {
		e.window = 3600 * time.Second
	}
	if e.ttl <= 0 {
		e.ttl = 14400 * time.Second
	}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	if e.log == nil {
		e.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if e.newID == nil {
		e.newID = e.ids.next
	}
	if o.AuditPath != "" {
		a, err := openAudit(o.AuditPath)
		if err != nil {
			return nil, err
		}
		e.audit = a
	}
	e.pool.New = func() any { s := &scratch{}; s.cum.Reset(); return s }
	return e, nil
}

type activePack struct {
	pack    *Pack
	budgets Budgets
}

// SetPack makes p (a pack from LoadPack or BasePack) decide from the next
// call on, with its budgets under the engine's --budgets override; a call
// being decided finishes under the pack it started with. It is how an
// operator pack is hot-reloaded: load it first, and only a pack that loaded
// is set, so a bad file never leaves the engine without a pack.
func (e *Engine) SetPack(p *Pack) {
	a := &activePack{pack: p, budgets: p.budgets.clone()}
	if e.override != nil {
		a.budgets.Override(*e.override)
	}
	e.active.Store(a)
}

// Close releases the audit file.
func (e *Engine) Close() error {
	if e.audit != nil {
		return e.audit.close()
	}
	return nil
}

// State is the engine's state.
func (e *Engine) State() State { return e.state }

// Window is the ledger window.
func (e *Engine) Window() time.Duration { return e.window }

// NewID is a uuid4 as 32 lowercase hex characters.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [32]byte
	hex.Encode(out[:], b[:])
	return string(out[:])
}

// idGen hands out uuid4 ids cut from one batch of random bytes, so the
// decision path does one allocation per 64 ids instead of one per id.
type idGen struct {
	mu  sync.Mutex
	buf string
	off int
}

const idBatch = 64

func (g *idGen) next() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.off >= len(g.buf) {
		var raw [idBatch * 16]byte
		_, _ = rand.Read(raw[:])
		out := make([]byte, idBatch*32)
		for i := 0; i < idBatch; i++ {
			b := raw[i*16 : i*16+16]
			b[6] = b[6]&0x0f | 0x40
			b[8] = b[8]&0x3f | 0x80
			hex.Encode(out[i*32:], b)
		}
		g.buf, g.off = string(out), 0
	}
	id := g.buf[g.off : g.off+32]
	g.off += 32
	return id
}

func (e *Engine) sessionLock(s string) *sync.Mutex {
	return &e.sessions[maphash.String(e.seed, s)%uint64(len(e.sessions))]
}

func failClosed(id, rule, reason string, cause error) (Decision, error) {
	d := Decision{Decision: Deny, Reason: reason, Rule: rule, Obligations: []string{}, DecisionID: id}
	if cause == nil {
		return d, ErrFailClosed
	}
	return d, fmt.Errorf("%w: %w", ErrFailClosed, cause)
}

// Decide normalizes env and returns the verdict (spec §2.3). A 400-class
// problem is an *EnvelopeError; a fail-closed outcome returns its Decision
// and an error wrapping ErrFailClosed.
func (e *Engine) Decide(ctx context.Context, env Envelope) (d Decision, err error) {
	id := e.newID()
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("decide panicked", "decision_id", id, "panic", p, "stack", string(debug.Stack()))
			d, err = failClosed(id, RuleInternal, "internal error - failing closed", fmt.Errorf("panic: %v", p))
		}
	}()
	s := e.pool.Get().(*scratch)
	defer func() {
		s.f = facts{}
		s.x = evalCtx{}
		e.pool.Put(s)
	}()
	f := &s.f
	if verr := validate(env, f); verr != nil {
		return Decision{}, verr
	}
	now := e.now()
	// One write: on a store, the nonce is spent in the transaction that
	// records the decision, not in one of its own before it.
	dw, oneWrite := e.state.(DecisionWriter)
	oneWrite = oneWrite && e.stateAudits && f.nonce != ""
	if !oneWrite {
		if stop, d, err := e.spendNonce(ctx, id, f, now); stop {
			return d, err
		}
	}
	if verr := normalize(f); verr != nil {
		if oneWrite {
			if stop, d, err := e.spendNonce(ctx, id, f, now); stop {
				return d, err
			}
		}
		return Decision{}, verr
	}
	e.maybePrune(ctx, now)
	frozen := e.frozen(ctx, now) && f.verb != "read"
	if oneWrite && (frozen || f.approvalPresent) {
		// These paths write on their own: the nonce first, as before.
		if stop, d, err := e.spendNonce(ctx, id, f, now); stop {
			return d, err
		}
		oneWrite = false
	}
	if oneWrite {
		// A fail-closed answer, which writes no decision, still spends
		// the nonce, as the reference does.
		defer func() {
			if err != nil && !isReplay(err) {
				_, _ = e.state.SpendNonce(context.WithoutCancel(ctx), f.nonce, now)
			}
		}()
	}
	if frozen {
		d = Decision{Decision: Deny, Reason: "frozen by operator", Rule: RuleFrozen, Obligations: []string{}, DecisionID: id}
		e.auditDecision(ctx, now, f, &d, nil)
		return d, nil
	}
	if f.approvalPresent {
		return e.resubmit(ctx, id, now, f)
	}

	mu := e.sessionLock(f.sessionID)
	mu.Lock()
	defer mu.Unlock()
	s.cum.WindowSeconds = int64(e.window / time.Second)
	if err := e.state.Cumulative(ctx, f.sessionID, now.Add(-e.window), &s.cum); err != nil {
		return failClosed(id, RuleFailClosed, "policy evaluation unavailable - failing closed", err)
	}
	s.cum.WindowSeconds = int64(e.window / time.Second)
	if d, err = e.evaluate(ctx, id, s, now); err != nil {
		return d, err
	}
	if !oneWrite {
		dw = nil
	}
	return e.record(ctx, dw, id, now, f, d, &s.cum)
}

// evaluate is the verdict of the policy backend, or of the active pack, on
// the call in s; an error comes with the fail-closed deny.
func (e *Engine) evaluate(ctx context.Context, id string, s *scratch, now time.Time) (Decision, error) {
	f := &s.f
	act := e.active.Load()
	s.x = evalCtx{f: f, cum: &s.cum, bud: &act.budgets, now: now}
	if e.backend != nil {
		v, err := e.backend.Evaluate(ctx, e.backendInput(f, &s.cum))
		if err != nil || !validVerdict(v.Decision) || v.Rule == "" {
			return failClosed(id, RuleFailClosed, "policy evaluation unavailable - failing closed", err)
		}
		return Decision{Decision: v.Decision, Reason: v.Reason, Rule: v.Rule, Obligations: nonNil(v.Obligations), DecisionID: id}, nil
	}
	r := act.pack.evaluate(&s.x)
	if r == nil {
		return failClosed(id, RuleFailClosed, "policy evaluation unavailable - failing closed", errors.New("no rule matched"))
	}
	rule, reason := r.output(&s.x)
	return Decision{Decision: r.Verdict, Reason: reason, Rule: rule, Obligations: nonNil(r.Obligations), DecisionID: id}, nil
}

// record makes d durable: its hold when it holds, the ledger entry and the
// audit line; in one write through dw when it is set, else one by one.
func (e *Engine) record(ctx context.Context, dw DecisionWriter, id string, now time.Time, f *facts, d Decision, cum *Cumulative) (Decision, error) {
	var h *Hold
	if d.Decision == RequireApproval {
		h = &Hold{ID: e.newID(), CreatedTS: fmtTS(now), ExpiresTS: fmtTS(now.Truncate(time.Second).Add(e.ttl)),
			Envelope: f.normalized(), EnvelopeHash: f.envHash(), Rule: d.Rule, Status: StatusPending, DecisionID: id, Reason: d.Reason}
		d.HoldID, d.ExpiresTS = h.ID, h.ExpiresTS
	}
	if dw != nil {
		return e.writeDecision(ctx, dw, id, now, f, d, h, cum)
	}
	if h != nil {
		if err := e.state.CreateHold(ctx, h); err != nil {
			return failClosed(id, RuleHoldCreation, "hold creation failed - failing closed", err)
		}
		e.notifyHold(now, h)
	}
	e.recordDecision(ctx, now, f, &d, cum)
	return d, nil
}

// writeDecision makes a decision durable in one write (DecisionWriter).
// A hold that cannot be written fails closed; a ledger entry that cannot
// is logged and the verdict stands, as with separate writes.
func (e *Engine) writeDecision(ctx context.Context, dw DecisionWriter, id string, now time.Time, f *facts, d Decision, h *Hold,
	cum *Cumulative) (Decision, error) {
	line := append(e.decisionRecord(now, f, &d, cum), '\n')
	seen, err := dw.WriteDecision(ctx, DecisionWrite{Nonce: f.nonce, Now: now, Session: f.sessionID, Entry: f.ledgerEntry(now),
		Hold: h, Audit: line})
	switch {
	case seen:
		return Decision{}, badEnvelope("replay: nonce already seen")
	case err != nil && h != nil:
		return failClosed(id, RuleHoldCreation, "hold creation failed - failing closed", err)
	case err != nil:
		e.log.Error("decision write (nonce, ledger, audit) failed", "decision_id", d.DecisionID, "err", err)
	}
	e.emitTo(ctx, line, false)
	if h != nil {
		e.notifyHold(now, h)
	}
	return d, nil
}

// spendNonce spends f's nonce; stop is set, with the answer, when the call
// ends there (a replay, or a state that cannot be written).
func (e *Engine) spendNonce(ctx context.Context, id string, f *facts, now time.Time) (stop bool, d Decision, err error) {
	if f.nonce == "" {
		return false, d, nil
	}
	seen, serr := e.state.SpendNonce(ctx, f.nonce, now)
	if serr != nil {
		d, err = failClosed(id, RuleInternal, "internal error - failing closed", serr)
		return true, d, err
	}
	if seen {
		return true, Decision{}, badEnvelope("replay: nonce already seen")
	}
	return false, d, nil
}

func isReplay(err error) bool {
	var ee *EnvelopeError
	return errors.As(err, &ee) && ee.Detail == "replay: nonce already seen"
}

// pruneEvery is how often a decision also drops ledger entries and nonces
// that have left the window, so memory (or the store) stays bounded.
const pruneEvery = time.Minute

func (e *Engine) maybePrune(ctx context.Context, now time.Time) {
	last := e.lastPrune.Load()
	if now.UnixNano()-last < int64(pruneEvery) || !e.lastPrune.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	if last == 0 {
		return // first decision: nothing old yet in memory; a store prunes on open
	}
	if err := e.state.Prune(ctx, now.Add(-e.window), now.Add(-e.NonceRetention())); err != nil {
		e.log.Error("prune state", "err", err)
	}
}

// NonceRetention is how long a spent nonce is remembered: the longer of the
// ledger window and the hold TTL, so a replay inside either is refused.
func (e *Engine) NonceRetention() time.Duration { return max(e.window, e.ttl) }

func (f *facts) ledgerEntry(now time.Time) LedgerEntry {
	le := LedgerEntry{TS: now.UnixNano(), Verb: f.verb, Ability: f.ability, Externality: f.external, Count: f.count}
	if f.hasAmount {
		le.Currency = f.currency
		if f.amount < 0 {
			le.Amount = -f.amount
		} else {
			le.Amount = f.amount
		}
	}
	return le
}
