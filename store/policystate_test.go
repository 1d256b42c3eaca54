package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reflect-mcp/reflect/policy"
	"github.com/reflect-mcp/reflect/store"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }
func noEnv(string) string                { return "" }
func envelope(t testing.TB, s string) policy.Envelope {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var m policy.Envelope
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// engineOn opens the store file afresh (as a restarted process would) and
// builds an engine on it.
func engineOn(t testing.TB, path string, c *clock) (*policy.Engine, *store.Store) {
	t.Helper()
	s, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.New(policy.Options{State: s.PolicyState(), Now: c.Now, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return e, s
}

const bulk = `{"agent":{"id":"agent:bot","session_id":"s1"},"action":{"verb":"delete","ability":"notes/delete_notes"},
	"target":{"environment":"production"},"magnitude":{"count":5},"params":{"arguments":{"names":["a","b","c","d","e"]}},
	"axes":{"reversibility":"irreversible","blast_radius":"broad","externality":"internal"}%s}`

func withApproval(holdID string) string {
	return strings.Replace(bulk, "%s", `,"approval":{"present":true,"hold_id":"`+holdID+`"}`, 1)
}

func TestPolicyStateRestartMidHold(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	c := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}

	// Process 1: the action is held.
	e1, _ := engineOn(t, path, c)
	d, err := e1.Decide(ctx, envelope(t, strings.Replace(bulk, "%s", "", 1)))
	if err != nil || d.Decision != policy.RequireApproval || d.HoldID == "" {
		t.Fatalf("%+v %v", d, err)
	}
	// It also spends a nonce and fills the delete budget: 5 now, 15 more.
	for i := range 3 {
		env := `{"agent":{"session_id":"s1"},"action":{"verb":"delete"},"target":{"environment":"production"},"magnitude":{"count":5},
			"axes":{"reversibility":"irreversible","blast_radius":"single","externality":"internal"},"meta":{"nonce":"n` + string(rune('0'+i)) + `"}}`
		if d, err := e1.Decide(ctx, envelope(t, env)); err != nil || d.Decision != policy.Allow {
			t.Fatalf("%+v %v", d, err)
		}
	}
	e1.Close()

	// Process 2 (reflect holds approve on the store file): the hold is
	// still pending and can be approved locally.
	e2, _ := engineOn(t, path, c)
	c.Advance(time.Minute)
	h, err := e2.Hold(ctx, d.HoldID)
	if err != nil || h.Status != policy.StatusPending || h.Reason != "irreversible broad change in production requires human approval" {
		t.Fatalf("%+v %v", h, err)
	}
	if _, err := e2.Resolve(ctx, d.HoldID, policy.Resolution{Decision: "approve", Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}}); err != nil {
		t.Fatal(err)
	}
	e2.Close()

	// Process 3: budgets, nonces and the approval survived.
	e3, s3 := engineOn(t, path, c)
	replay := `{"agent":{"session_id":"s1"},"action":{"verb":"read"},"target":{"environment":"dev"},"meta":{"nonce":"n1"}}`
	if _, err := e3.Decide(ctx, envelope(t, replay)); err == nil || !strings.Contains(err.Error(), "replay: nonce already seen") {
		t.Fatalf("nonce after restart: %v", err)
	}
	other := strings.Replace(withApproval(d.HoldID), `"names":["a","b","c","d","e"]`, `"names":["v","w","x","y","z"]`, 1)
	if r, _ := e3.Decide(ctx, envelope(t, other)); r.Reason != policy.HoldEnvelopeMismatch {
		t.Fatalf("other arguments: %+v", r)
	}
	r, err := e3.Decide(ctx, envelope(t, withApproval(d.HoldID)))
	if err != nil || r.Rule != policy.RuleApproved || r.ParentDecisionID != d.DecisionID {
		t.Fatalf("resubmission after restart: %+v %v", r, err)
	}
	// 5 (held) + 15 + 5 (the approved run counts again) = 25 > 20.
	one := `{"agent":{"session_id":"s1"},"action":{"verb":"delete"},"target":{"environment":"dev"},"axes":{"reversibility":"irreversible"}}`
	if r, _ := e3.Decide(ctx, envelope(t, one)); r.Rule != "reeflex.policy/session_delete_budget" {
		t.Fatalf("budget after restart: %+v", r)
	}
	hd, _ := e3.Hold(ctx, d.HoldID)
	if hd.Status != policy.StatusConsumed || hd.DecidedBy != "human:ana" || hd.PrincipalSource != "local" || hd.ConsumedTS == "" {
		t.Fatalf("%+v", hd)
	}
	audit, err := s3.PolicyAudit(ctx)
	if err != nil || len(audit) < 7 {
		t.Fatalf("%d audit lines, %v", len(audit), err)
	}
	if !strings.Contains(string(audit[4]), `"event":"hold_resolution"`) {
		t.Fatalf("audit[4] = %s", audit[4])
	}
}

func TestPolicyStateSingleUseAcrossEngines(t *testing.T) {
	// Two engines (two processes' worth) on one file, 64 goroutines: the
	// store's write transaction is the compare-and-swap.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	c := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	a, _ := engineOn(t, path, c)
	b, _ := engineOn(t, path, c)
	d, _ := a.Decide(ctx, envelope(t, strings.Replace(bulk, "%s", "", 1)))
	if _, err := a.Resolve(ctx, d.HoldID, policy.Resolution{Decision: "approve", Principal: policy.Principal{Type: "human", ID: "ana", Source: "local"}}); err != nil {
		t.Fatal(err)
	}
	var allowed, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 64 {
		e := a
		if i%2 == 1 {
			e = b
		}
		wg.Go(func() {
			r, err := e.Decide(ctx, envelope(t, withApproval(d.HoldID)))
			switch {
			case err != nil:
				t.Error(err)
			case r.Decision == policy.Allow:
				allowed.Add(1)
			case r.Reason == policy.HoldAlreadyConsumed || r.Reason == policy.HoldConsumed:
				refused.Add(1)
			default:
				t.Errorf("%+v", r)
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 1 || refused.Load() != 63 {
		t.Fatalf("allowed %d refused %d", allowed.Load(), refused.Load())
	}
}

func TestPolicyStatePrune(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ps := s.PolicyState()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i := range 10 {
		ts := t0.Add(time.Duration(i) * time.Minute)
		if err := ps.AppendLedger(ctx, "s\x00odd", policy.LedgerEntry{TS: ts.UnixNano(), Verb: "delete", Externality: "internal", Count: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := ps.SpendNonce(ctx, "n"+string(rune('a'+i)), ts); err != nil {
			t.Fatal(err)
		}
	}
	// A session id that is a prefix of another must not see its entries.
	if err := ps.AppendLedger(ctx, "s", policy.LedgerEntry{TS: t0.UnixNano(), Verb: "read", Externality: "internal", Count: 100}); err != nil {
		t.Fatal(err)
	}
	var cum policy.Cumulative
	if err := ps.Cumulative(ctx, "s\x00odd", t0.Add(5*time.Minute), &cum); err != nil || cum.TotalCount != 10 || cum.CountByVerb["delete"] != 10 {
		t.Fatalf("%+v %v", cum, err)
	}
	if err := ps.Prune(ctx, t0.Add(5*time.Minute), t0.Add(8*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := ps.Cumulative(ctx, "s\x00odd", t0, &cum); err != nil || cum.TotalCount != 10 {
		t.Fatalf("after prune %+v %v", cum, err)
	}
	if seen, _ := ps.SpendNonce(ctx, "na", t0.Add(time.Hour)); seen {
		t.Fatal("a pruned nonce is still remembered")
	}
	if seen, _ := ps.SpendNonce(ctx, "nj", t0.Add(time.Hour)); !seen {
		t.Fatal("a nonce inside retention was pruned")
	}
	if _, err := ps.GetHold(ctx, "missing"); !errors.Is(err, policy.ErrHoldNotFound) {
		t.Fatal(err)
	}
}

// BenchmarkPolicyStateDecide is the decision engine on the store (what
// `reflect core serve` does by default): every decision reads the window
// and appends to the ledger and the audit bucket, each write fsynced.
// Reports decisions/s and p50/p99 from at least 2000 decisions.
func BenchmarkPolicyStateDecide(b *testing.B) {
	c := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	e, _ := engineOn(b, filepath.Join(b.TempDir(), "reflect.db"), c)
	ctx := context.Background()
	n := max(b.N, 2000)
	envs := make([]policy.Envelope, 64)
	for i := range envs {
		envs[i] = envelope(b, `{"agent":{"session_id":"b`+strconv.Itoa(i)+`"},"action":{"verb":"read"},"target":{"environment":"production"},"axes":{"reversibility":"reversible","blast_radius":"single","externality":"internal"}}`)
	}
	lat := make([]time.Duration, n)
	b.ResetTimer()
	start := time.Now()
	for i := range n {
		c.Advance(time.Second)
		st := time.Now()
		if _, err := e.Decide(ctx, envs[i%len(envs)]); err != nil {
			b.Fatal(err)
		}
		lat[i] = time.Since(st)
	}
	wall := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(n)/wall.Seconds(), "decisions/s")
	b.ReportMetric(float64(lat[n/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[n*99/100].Microseconds()), "p99-µs")
}

// BenchmarkPolicyStateDecide16 is the same at 16 concurrent callers (a
// busy reflect core serve): group commit lets them share fsyncs.
func BenchmarkPolicyStateDecide16(b *testing.B) {
	c := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	e, _ := engineOn(b, filepath.Join(b.TempDir(), "reflect.db"), c)
	ctx := context.Background()
	n := max(b.N, 4000)
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range 16 {
		env := envelope(b, `{"agent":{"session_id":"w`+strconv.Itoa(w)+`"},"action":{"verb":"read"},"target":{"environment":"production"},"axes":{"reversibility":"reversible","blast_radius":"single","externality":"internal"}}`)
		wg.Go(func() {
			for i := w; i < n; i += 16 {
				st := time.Now()
				if _, err := e.Decide(ctx, env); err != nil {
					b.Error(err)
					return
				}
				lat[i] = time.Since(st)
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(n)/wall.Seconds(), "decisions/s")
	b.ReportMetric(float64(lat[n/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[n*99/100].Microseconds()), "p99-µs")
}

func TestPolicyStateFreezeSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflect.db")
	c := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	e1, _ := engineOn(t, path, c)
	if on, src := e1.Frozen(ctx); on || src != "env" {
		t.Fatalf("fresh: %v %s", on, src)
	}
	e1.SetFreeze(ctx, true)
	e2, _ := engineOn(t, path, c)
	if on, src := e2.Frozen(ctx); !on || src != "switch" {
		t.Fatalf("after restart: %v %s", on, src)
	}
	d, err := e2.Decide(ctx, envelope(t, `{"agent":{"session_id":"s"},"action":{"verb":"update"},"target":{"environment":"dev"}}`))
	if err != nil || d.Rule != policy.RuleFrozen {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestPolicyStateLedgerRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ps := s.PolicyState()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	entries := []policy.LedgerEntry{
		{TS: t0.UnixNano(), Verb: "transact", Externality: "outbound", Count: 1, Currency: "EUR", Amount: 4999.7, Ability: "shop/pay"},
		{TS: t0.UnixNano() + 1, Verb: "transact", Externality: "outbound", Count: 1, Currency: "EUR", Amount: 0.1, Ability: "shop/pay"},
		{TS: t0.UnixNano() + 2, Verb: "delete", Externality: "internal", Count: 1 << 40, Currency: "NOK", Amount: 3, Ability: "é/ünïcode"},
		{TS: t0.UnixNano() + 3, Verb: "read", Externality: "physical", Count: 7},
	}
	for _, e := range entries {
		if err := ps.AppendLedger(ctx, "money", e); err != nil {
			t.Fatal(err)
		}
	}
	var cum policy.Cumulative
	if err := ps.Cumulative(ctx, "money", t0, &cum); err != nil {
		t.Fatal(err)
	}
	if cum.AmountByCurrency["EUR"] != 4999.7+0.1 || cum.AmountByCurrency["NOK"] != 3 || cum.CountByAbility["shop/pay"] != 2 ||
		cum.CountByAbility["é/ünïcode"] != 1<<40 || cum.CountByExternality["physical"] != 7 || cum.TotalCount != 2+1<<40+7 ||
		cum.CountByVerb["transact"] != 2 || len(cum.CountByAbility) != 2 {
		t.Fatalf("%+v", cum)
	}
}

// countingState is the store's PolicyState, counting the writes the
// engine asks of it.
type countingState struct {
	*store.PolicyState
	writes atomic.Int32
}

func (c *countingState) SpendNonce(ctx context.Context, n string, now time.Time) (bool, error) {
	c.writes.Add(1)
	return c.PolicyState.SpendNonce(ctx, n, now)
}
func (c *countingState) AppendLedgerAudit(ctx context.Context, s string, e policy.LedgerEntry, l []byte) error {
	c.writes.Add(1)
	return c.PolicyState.AppendLedgerAudit(ctx, s, e, l)
}
func (c *countingState) CreateHold(ctx context.Context, h *policy.Hold) error {
	c.writes.Add(1)
	return c.PolicyState.CreateHold(ctx, h)
}
func (c *countingState) WriteDecision(ctx context.Context, w policy.DecisionWrite) (bool, error) {
	c.writes.Add(1)
	return c.PolicyState.WriteDecision(ctx, w)
}

// On the store a decision is one durable write: its nonce, its hold (when
// held), its ledger entry and its audit line in one transaction. A replay
// of the nonce is still refused, a hold so written is resolvable after a
// restart, and the ledger counts the decision.
func TestDecisionIsOneWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	c := &clock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	s, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingState{PolicyState: s.PolicyState()}
	e, err := policy.New(policy.Options{State: cs, Now: c.Now, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	read := `{"agent":{"session_id":"s1"},"action":{"verb":"read"},"target":{"environment":"dev"},"meta":{"nonce":"n-1"}}`
	if d, err := e.Decide(ctx, envelope(t, read)); err != nil || d.Decision != policy.Allow {
		t.Fatalf("read: %+v %v", d, err)
	}
	if n := cs.writes.Load(); n != 1 {
		t.Fatalf("an allow took %d writes, want 1", n)
	}
	var ee *policy.EnvelopeError
	if _, err := e.Decide(ctx, envelope(t, read)); !errors.As(err, &ee) || !strings.Contains(ee.Detail, "replay") {
		t.Fatalf("replayed nonce: %v", err)
	}
	cs.writes.Store(0)
	held := strings.Replace(bulk, "%s", `,"meta":{"nonce":"n-2"}`, 1)
	d, err := e.Decide(ctx, envelope(t, held))
	if err != nil || d.Decision != policy.RequireApproval || d.HoldID == "" {
		t.Fatalf("bulk delete in production: %+v %v", d, err)
	}
	if n := cs.writes.Load(); n != 1 {
		t.Fatalf("a hold took %d writes, want 1", n)
	}
	e2, _ := engineOn(t, path, c)
	if h, err := e2.Hold(ctx, d.HoldID); err != nil || h.Status != policy.StatusPending {
		t.Fatalf("hold after a restart: %+v %v", h, err)
	}
	use, err := e2.BudgetUse(ctx, envelope(t, read))
	if err != nil || !strings.Contains(use, "deletions 5/20") {
		t.Fatalf("ledger after one write: %q %v", use, err)
	}
	lines, err := s.PolicyAudit(ctx)
	if err != nil || len(lines) != 2 {
		t.Fatalf("audit lines %d (%v), want 2 (the replay is not a decision)", len(lines), err)
	}
}
