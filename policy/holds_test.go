package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func resub(s envSpec, holdID string) string {
	return with(s, func(e *envSpec) { e.approval = `{"present":true,"hold_id":"` + holdID + `"}` }).json()
}

func TestResubmissionChain(t *testing.T) {
	held := with(bulkDelete, func(s *envSpec) { s.agent = "agent:bot"; s.params = `{"amount":6000,"currency":"EUR","note":"x"}` })
	setup := func(t *testing.T) (*harness, Decision) {
		h := newHarness(t, nil)
		d := h.expect(held.json(), RequireApproval, rR2)
		return h, d
	}
	t.Run("no hold id", func(t *testing.T) {
		h, _ := setup(t)
		h.expect(with(held, func(s *envSpec) { s.approval = `{"present":true}` }).json(), Deny, RuleHoldCheck)
		if d := h.decide(with(held, func(s *envSpec) { s.approval = `{"present":true,"hold_id":""}` }).json()); d.Reason != HoldNotFound {
			t.Fatal(d.Reason)
		}
	})
	t.Run("unknown hold", func(t *testing.T) {
		h, _ := setup(t)
		if d := h.decide(resub(held, "feedface")); d.Reason != HoldNotFound {
			t.Fatal(d.Reason)
		}
	})
	t.Run("pending is not approved", func(t *testing.T) {
		h, d := setup(t)
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldNotApproved || r.Rule != RuleHoldCheck {
			t.Fatal(r)
		}
	})
	t.Run("rejected", func(t *testing.T) {
		h, d := setup(t)
		if _, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "reject", Principal: Principal{"human", "ana", "local"}}); err != nil {
			t.Fatal(err)
		}
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldRejected {
			t.Fatal(r.Reason)
		}
	})
	t.Run("pending past its TTL expires lazily", func(t *testing.T) {
		h, d := setup(t)
		h.advance(4*time.Hour + time.Second)
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldExpired {
			t.Fatal(r.Reason)
		}
		if hd, _ := h.e.Hold(t.Context(), d.HoldID); hd.Status != StatusExpired {
			t.Fatal(hd.Status)
		}
	})
	t.Run("approved past its TTL", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		h.advance(4 * time.Hour)
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldExpired {
			t.Fatal(r.Reason)
		}
	})
	t.Run("envelope mismatch", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		if r := h.decide(resub(with(held, func(s *envSpec) { s.count = 6 }), d.HoldID)); r.Reason != HoldEnvelopeMismatch {
			t.Fatal(r.Reason)
		}
	})
	t.Run("amount is bound, compared numerically", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		if r := h.decide(resub(with(held, func(s *envSpec) { s.params = `{"amount":6001,"currency":"EUR","note":"x"}` }), d.HoldID)); r.Reason != HoldEnvelopeMismatch {
			t.Fatal(r.Reason)
		}
		if r := h.decide(resub(with(held, func(s *envSpec) { s.params = `{"amount":6000,"currency":"USD","note":"x"}` }), d.HoldID)); r.Reason != HoldEnvelopeMismatch {
			t.Fatal(r.Reason)
		}
		if r := h.decide(resub(with(held, func(s *envSpec) { s.params = `{"amount":6000.0,"currency":"eur","note":"x"}` }), d.HoldID)); r.Rule != RuleApproved {
			t.Fatal(r.Reason)
		}
	})
	t.Run("the approver cannot resubmit", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		if r := h.decide(resub(with(held, func(s *envSpec) { s.agent = "human:ana" }), d.HoldID)); r.Reason != HoldActorIsApprover {
			t.Fatal(r.Reason)
		}
	})
	t.Run("another agent cannot spend it", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		if r := h.decide(resub(with(held, func(s *envSpec) { s.agent = "agent:other" }), d.HoldID)); r.Reason != HoldActorMismatch {
			t.Fatal(r.Reason)
		}
		// A named agent keeps its approval across a new session.
		if r := h.decide(resub(with(held, func(s *envSpec) { s.session = "s-restarted" }), d.HoldID)); r.Rule != RuleApproved {
			t.Fatal(r.Reason)
		}
	})
	t.Run("unnamed agents are bound by session", func(t *testing.T) {
		h := newHarness(t, nil)
		d := h.expect(bulkDelete.json(), RequireApproval, rR2)
		h.approve(d.HoldID, "ana")
		if r := h.decide(resub(with(bulkDelete, func(s *envSpec) { s.session = "s2" }), d.HoldID)); r.Reason != HoldActorMismatch {
			t.Fatal(r.Reason)
		}
	})
	t.Run("success, then consumed; parent fallback and explicit", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		r := h.expect(resub(held, d.HoldID), Allow, RuleApproved)
		if r.ParentDecisionID != d.DecisionID || r.Reason != "approved hold resubmission" || len(r.Obligations) != 0 {
			t.Fatalf("%+v", r)
		}
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldConsumed {
			t.Fatal(r.Reason)
		}
		d2 := h.expect(held.json(), RequireApproval, rR2)
		h.approve(d2.HoldID, "ana")
		r = h.decide(with(held, func(s *envSpec) {
			s.approval = `{"present":true,"hold_id":"` + d2.HoldID + `","parent_decision_id":"p1"}`
		}).json())
		if r.ParentDecisionID != "p1" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a failure never consumes", func(t *testing.T) {
		h, d := setup(t)
		h.approve(d.HoldID, "ana")
		h.decide(resub(with(held, func(s *envSpec) { s.agent = "agent:other" }), d.HoldID))
		h.decide(resub(with(held, func(s *envSpec) { s.count = 9 }), d.HoldID))
		h.expect(resub(held, d.HoldID), Allow, RuleApproved)
	})
	t.Run("consume failure", func(t *testing.T) {
		fs := &failingState{MemState: NewMemState()}
		h := newHarness(t, func(o *Options) { o.State = fs })
		d := h.expect(held.json(), RequireApproval, rR2)
		h.approve(d.HoldID, "ana")
		fs.failUpdates.Store(true)
		if r := h.decide(resub(held, d.HoldID)); r.Reason != HoldConsumeFailed {
			t.Fatal(r.Reason)
		}
		fs.failUpdates.Store(false)
		h.expect(resub(held, d.HoldID), Allow, RuleApproved)
	})
	t.Run("approved resubmission counts in the ledger again", func(t *testing.T) {
		h := newHarness(t, nil)
		big := with(bulkDelete, func(s *envSpec) { s.count = 15 })
		d := h.expect(big.json(), RequireApproval, rR2) // 15
		h.approve(d.HoldID, "ana")
		h.expect(resub(big, d.HoldID), Allow, RuleApproved) // 30
		h.expect(with(deleteOne, func(s *envSpec) { s.environment = "dev" }).json(), RequireApproval, rDel)
	})
}

type failingState struct {
	*MemState
	failUpdates atomic.Bool
	failCreate  atomic.Bool
}

func (f *failingState) UpdateHold(ctx context.Context, id string, fn func(*Hold) error) (*Hold, error) {
	if f.failUpdates.Load() {
		return nil, errors.New("disk on fire")
	}
	return f.MemState.UpdateHold(ctx, id, fn)
}

func (f *failingState) CreateHold(ctx context.Context, h *Hold) error {
	if f.failCreate.Load() {
		return errors.New("disk full")
	}
	return f.MemState.CreateHold(ctx, h)
}

func TestHoldCreationFailureFailsClosed(t *testing.T) {
	fs := &failingState{MemState: NewMemState()}
	fs.failCreate.Store(true)
	h := newHarness(t, func(o *Options) { o.State = fs })
	d, err := h.decideErr(bulkDelete.json())
	if !errors.Is(err, ErrFailClosed) || d.Decision != Deny || d.Rule != RuleHoldCreation || d.Reason != "hold creation failed - failing closed" {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestNoMatchFailsClosed(t *testing.T) {
	p, err := LoadPack("p.yaml", []byte("disable: [R4]\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *Options) { o.Pack = p })
	d, err := h.decideErr(deleteOne.json())
	if !errors.Is(err, ErrFailClosed) || d.Rule != RuleFailClosed || d.Reason != "policy evaluation unavailable - failing closed" {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestSingleUseUnderConcurrency(t *testing.T) {
	h := newHarness(t, nil)
	d := h.expect(bulkDelete.json(), RequireApproval, rR2)
	h.approve(d.HoldID, "ana")
	body := resub(bulkDelete, d.HoldID)
	var wg sync.WaitGroup
	var allowed, lost, consumed atomic.Int32
	start := make(chan struct{})
	for range 64 {
		wg.Go(func() {
			<-start
			r, err := h.e.Decide(context.Background(), decode(t, body))
			switch {
			case err != nil:
				t.Error(err)
			case r.Decision == Allow:
				allowed.Add(1)
			case r.Reason == HoldAlreadyConsumed:
				lost.Add(1)
			case r.Reason == HoldConsumed:
				consumed.Add(1)
			default:
				t.Errorf("unexpected %+v", r)
			}
		})
	}
	close(start)
	wg.Wait()
	if allowed.Load() != 1 || lost.Load()+consumed.Load() != 63 {
		t.Fatalf("allowed %d, already_consumed %d, consumed %d", allowed.Load(), lost.Load(), consumed.Load())
	}
	t.Logf("1 allowed, %d lost the compare-and-swap, %d saw it consumed", lost.Load(), consumed.Load())
}

// The gateway's envelope for delete_notes(names=[...]): the arguments are
// outside envelope_hash, so only the params digest binds them.
func deleteNotes(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return fmt.Sprintf(`{"reeflex_version":"0.1","agent":{"id":"agent:mcp-client","on_behalf_of":null,"session_id":"mcp-gateway:1"},
		"action":{"namespace":"notes","verb":"delete","ability":"notes/delete_notes"},"target":{"kind":"delete_notes","ref":null,"environment":"production"},
		"params":{"upstream":"notes","tool_name":"delete_notes","arguments":{"names":[%s]}},"magnitude":{"count":%d},
		"axes":{"reversibility":"irreversible","blast_radius":"broad","externality":"internal"},"approval":%%s}`, strings.Join(q, ","), len(names))
}

func TestArgumentBinding(t *testing.T) {
	var first, other []string
	for c := 'a'; c <= 'y'; c++ {
		first = append(first, string(c))
		other = append(other, "other-"+string(c))
	}
	h := newHarness(t, nil)
	d := h.expect(fmt.Sprintf(deleteNotes(first), `{"present":false,"hold_id":null}`), RequireApproval, rR2)
	h.approve(d.HoldID, "ana")
	approval := `{"present":true,"hold_id":"` + d.HoldID + `","parent_decision_id":"` + d.DecisionID + `"}`
	// Same hash as the reference would compute: only the digest differs.
	a, _ := Normalize(decode(t, fmt.Sprintf(deleteNotes(first), approval)))
	b, _ := Normalize(decode(t, fmt.Sprintf(deleteNotes(other), approval)))
	if CanonicalHash(a) != CanonicalHash(b) {
		t.Fatal("test premise: the 25 other names should keep envelope_hash")
	}
	r := h.decide(fmt.Sprintf(deleteNotes(other), approval))
	if r.Decision != Deny || r.Reason != HoldEnvelopeMismatch {
		t.Fatalf("other names: %+v", r)
	}
	h.expect(fmt.Sprintf(deleteNotes(first), approval), Allow, RuleApproved)
}
