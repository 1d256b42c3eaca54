package policy

import (
	"strings"
	"testing"
	"time"
)

const (
	rR0   = "reeflex.policy/unclassified_action"
	rR1   = "reeflex.policy/read_only_internal"
	rR2   = "reeflex.policy/irreversible_broad_prod"
	rR3   = "reeflex.policy/irreversible_systemic_prod"
	rR4   = "reeflex.policy/default_allow"
	rDel  = "reeflex.policy/session_delete_budget"
	rBudg = "reeflex.policy/cumulative_budget"
)

func TestEachRuleAndItsReason(t *testing.T) {
	cases := []struct {
		name                  string
		env                   envSpec
		verdict, rule, reason string
	}{
		{"R1", readInternal, Allow, rR1, "read-only internal action"},
		{"R2", bulkDelete, RequireApproval, rR2, "irreversible broad change in production requires human approval"},
		{"R3", with(bulkDelete, func(s *envSpec) { s.blast = "systemic" }), Deny, rR3, "irreversible systemic change in production is not allowed even with approval"},
		{"R4", deleteOne, Allow, rR4, "no high-risk axis matched"},
		{"R0 one guess", with(bulkDelete, func(s *envSpec) { s.rev = "" }), RequireApproval, rR0,
			"this action could not be classified: axes.reversibility was not declared by the adapter and core used its conservative default, so the verdict rests on a guess -- a human decides"},
		{"R0 every guess", envSpec{verb: "Frobnicate", environment: "qa-eu"}, RequireApproval, rR0,
			"this action could not be classified: axes.blast_radius, axes.reversibility, target.environment were not declared by the adapter and core used its conservative default, so the verdict rests on a guess -- a human decides"},
		{"R5 deletions", with(deleteOne, func(s *envSpec) { s.count = 21 }), RequireApproval, rDel, "session delete budget exceeded (fragmentation guard)"},
		{"R5 sends", envSpec{verb: "send", rev: "recoverable", blast: "single", ext: "outbound", count: 51}, RequireApproval, rBudg, "cumulative external_sends budget exceeded (fragmentation guard)"},
		{"R5 objects", with(readInternal, func(s *envSpec) { s.count = 201 }), RequireApproval, rBudg, "cumulative objects_touched budget exceeded (fragmentation guard)"},
		{"R5 money", envSpec{verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: `{"amount":5001,"currency":"EUR"}`}, RequireApproval, rBudg, "cumulative money budget exceeded (fragmentation guard)"},
		{"staging disarms R2/R3", with(bulkDelete, func(s *envSpec) { s.environment = "stg"; s.blast = "systemic" }), Allow, rR4, "no high-risk axis matched"},
		{"dev keeps R5", with(deleteOne, func(s *envSpec) { s.environment = "dev"; s.count = 21 }), RequireApproval, rDel, "session delete budget exceeded (fragmentation guard)"},
		{"read outbound is R4", with(readInternal, func(s *envSpec) { s.ext = "outbound" }), Allow, rR4, "no high-risk axis matched"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			d := h.expect(c.env.json(), c.verdict, c.rule)
			if d.Reason != c.reason {
				t.Errorf("reason %q\nwant %q", d.Reason, c.reason)
			}
			if d.Obligations == nil || d.Modulation != nil || len(d.DecisionID) != 32 {
				t.Errorf("shape: %+v", d)
			}
			if (c.verdict == RequireApproval) != (d.HoldID != "") {
				t.Errorf("hold id %q for %s", d.HoldID, c.verdict)
			}
		})
	}
}

func TestPrecedenceCollisions(t *testing.T) {
	// Each case makes two or more rules hold at once; the winner is fixed by
	// R0 > R3 > R2 > R5 > R1 > R4.
	over := `{"amount":9999,"currency":"EUR"}`
	cases := []struct {
		name string
		env  envSpec
		rule string
	}{
		{"R0 over R3", envSpec{verb: "delete", rev: "irreversible", blast: "systemic", ext: "internal", environment: "qa"}, rR0},
		{"an undeclared externality alone is no guess", envSpec{verb: "delete", rev: "irreversible", blast: "systemic"}, rR3},
		{"R0 over R2", envSpec{verb: "delete", blast: "broad", ext: "internal"}, rR0},
		{"R0 over R5", envSpec{verb: "delete", blast: "broad", ext: "internal", count: 25}, rR0},
		{"R3 over R5", envSpec{verb: "delete", rev: "irreversible", blast: "systemic", ext: "internal", count: 25}, rR3},
		{"R2 over R5", envSpec{verb: "delete", rev: "irreversible", blast: "broad", ext: "internal", count: 25}, rR2},
		{"R5 over R1", envSpec{verb: "read", rev: "reversible", blast: "single", ext: "internal", count: 250}, rBudg},
		{"R5 over R4", envSpec{verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: over}, rBudg},
		{"R1 over R4", readInternal, rR1},
		{"R3 undeclared verb only is still R3", envSpec{verb: "Frobnicate", rev: "irreversible", blast: "systemic", ext: "internal"}, rR3},
		{"deletions first alphabetically", envSpec{verb: "delete", rev: "recoverable", blast: "single", ext: "outbound", count: 300}, rDel},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if d := h.decide(c.env.json()); d.Rule != c.rule {
				t.Fatalf("rule %s (%s), want %s", d.Rule, d.Reason, c.rule)
			}
		})
	}
}

func TestBudgetBoundaries(t *testing.T) {
	t.Run("deletions 20 allowed, 21 held", func(t *testing.T) {
		h := newHarness(t, nil)
		for i := 0; i < 20; i++ {
			h.expect(deleteOne.json(), Allow, rR4)
		}
		h.expect(deleteOne.json(), RequireApproval, rDel)
	})
	t.Run("five calls of 4 then the sixth trips", func(t *testing.T) {
		h := newHarness(t, nil)
		four := with(deleteOne, func(s *envSpec) { s.count = 4 })
		for i := 0; i < 5; i++ {
			h.expect(four.json(), Allow, rR4)
		}
		h.expect(four.json(), RequireApproval, rDel)
	})
	t.Run("sends 50 allowed, 51 held", func(t *testing.T) {
		h := newHarness(t, nil)
		send := envSpec{verb: "email", rev: "irreversible", blast: "single", ext: "outbound", count: 25}
		h.expect(send.json(), Allow, rR4)
		h.expect(send.json(), Allow, rR4)
		h.expect(with(send, func(s *envSpec) { s.count = 1 }).json(), RequireApproval, rBudg)
	})
	t.Run("objects 200 allowed, 201 held, reads held after", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(with(readInternal, func(s *envSpec) { s.count = 200 }).json(), Allow, rR1)
		h.expect(readInternal.json(), RequireApproval, rBudg)
		h.expect(readInternal.json(), RequireApproval, rBudg)
		// The window drains: an hour later reads are allowed again.
		h.advance(time.Hour + time.Second)
		h.expect(readInternal.json(), Allow, rR1)
	})
	pay := func(params string) string {
		return envSpec{verb: "pay", rev: "recoverable", blast: "single", ext: "outbound", params: params}.json()
	}
	t.Run("4999 EUR + 4999 USD exceeded", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(pay(`{"amount":4999,"currency":"EUR"}`), Allow, rR4)
		h.expect(pay(`{"amount":4999,"currency":"USD"}`), RequireApproval, rBudg)
	})
	t.Run("exactly 1.0 allowed", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(pay(`{"amount":2500,"currency":"EUR"}`), Allow, rR4)
		h.expect(pay(`{"amount":2750,"currency":"usd"}`), Allow, rR4) // 0.5 + 0.5
		h.expect(pay(`{"amount":0.01,"currency":"EUR"}`), RequireApproval, rBudg)
	})
	t.Run("negative amounts count by absolute value", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(pay(`{"amount":-5001,"currency":"EUR"}`), RequireApproval, rBudg)
	})
	t.Run("missing currency is the XXX bucket at the fallback limit", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(pay(`{"amount":5000}`), Allow, rR4)
		h.expect(pay(`{"amount":1,"currency":"€"}`), RequireApproval, rBudg)
	})
	t.Run("float sums as the reference", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(pay(`{"amount":4999.7,"currency":"EUR"}`), Allow, rR4)
		h.expect(pay(`{"amount":0.1,"currency":"EUR"}`), Allow, rR4)
		h.expect(pay(`{"amount":0.1,"currency":"EUR"}`), Allow, rR4)
		h.expect(pay(`{"amount":0.1,"currency":"EUR"}`), RequireApproval, rBudg) // 4999.7+0.1*3 > 5000
	})
	t.Run("JPY and a zero limit", func(t *testing.T) {
		zero := 0.0
		h := newHarness(t, func(o *Options) {
			o.Budgets = &Budgets{Default: map[string]Limit{"money": {Limits: map[string]float64{"CHF": zero}}}}
		})
		h.expect(pay(`{"amount":799999,"currency":"JPY"}`), Allow, rR4)
		h.expect(pay(`{"amount":1,"currency":"CHF"}`), RequireApproval, rBudg)
	})
	t.Run("principal budgets by session id", func(t *testing.T) {
		h := newHarness(t, func(o *Options) {
			o.Budgets = &Budgets{Principal: map[string]map[string]Limit{"tight": {"deletions": {Limit: ptr(2)}}}}
		})
		tight := with(deleteOne, func(s *envSpec) { s.session = "tight" })
		h.expect(tight.json(), Allow, rR4)
		h.expect(tight.json(), Allow, rR4)
		h.expect(tight.json(), RequireApproval, rDel)
		h.expect(with(deleteOne, func(s *envSpec) { s.count = 20 }).json(), Allow, rR4) // other sessions keep 20
	})
	t.Run("denies and holds count, frozen and 400 do not", func(t *testing.T) {
		h := newHarness(t, nil)
		h.expect(with(bulkDelete, func(s *envSpec) { s.count = 10 }).json(), RequireApproval, rR2)            // counted: 10
		h.expect(with(bulkDelete, func(s *envSpec) { s.count = 10; s.blast = "systemic" }).json(), Deny, rR3) // 20
		h.setenv("REEFLEX_FREEZE", "1")
		h.expect(deleteOne.json(), Deny, RuleFrozen)
		h.setenv("REEFLEX_FREEZE", "")
		h.decideErr(with(deleteOne, func(s *envSpec) { s.extra = `"magnitude":{"count":0}` }).json())
		h.expect(deleteOne.json(), RequireApproval, rDel) // 21st
	})
}

func TestFreeze(t *testing.T) {
	for _, c := range []struct {
		v      string
		frozen bool
	}{{"true", true}, {"1", true}, {"yes", true}, {" Yes ", true}, {"TRUE", true}, {"on", false}, {"0", false}, {"", false}} {
		h := newHarness(t, nil)
		h.setenv("REEFLEX_FREEZE", c.v)
		d := h.decide(deleteOne.json())
		if (d.Rule == RuleFrozen) != c.frozen {
			t.Errorf("REEFLEX_FREEZE=%q: %s", c.v, d.Rule)
		}
		if c.frozen && d.Reason != "frozen by operator" {
			t.Errorf("reason %q", d.Reason)
		}
		h.expect(readInternal.json(), Allow, rR1) // reads pass a freeze
	}
	// The runtime switch needs no restart and overrides the environment.
	h := newHarness(t, nil)
	h.e.SetFreeze(t.Context(), true)
	h.expect(deleteOne.json(), Deny, RuleFrozen)
	h.setenv("REEFLEX_FREEZE", "yes")
	h.e.SetFreeze(t.Context(), false)
	h.expect(deleteOne.json(), Allow, rR4)
	if on, src := h.e.Frozen(t.Context()); on || src != "switch" {
		t.Errorf("Frozen = %v %s", on, src)
	}
}

func TestFreezeStopsApprovedResubmissions(t *testing.T) {
	h := newHarness(t, nil)
	d := h.expect(bulkDelete.json(), RequireApproval, rR2)
	h.approve(d.HoldID, "ana")
	h.e.SetFreeze(t.Context(), true)
	h.expect(with(bulkDelete, func(s *envSpec) { s.approval = `{"present":true,"hold_id":"` + d.HoldID + `"}` }).json(), Deny, RuleFrozen)
	h.e.SetFreeze(t.Context(), false)
	h.expect(with(bulkDelete, func(s *envSpec) { s.approval = `{"present":true,"hold_id":"` + d.HoldID + `"}` }).json(), Allow, RuleApproved)
}

func TestAuditLines(t *testing.T) {
	h := newHarness(t, nil)
	h.decide(with(readInternal, func(s *envSpec) { s.extra = `"context":{"traceparent":"00-abc-01"}` }).json())
	d := h.decide(bulkDelete.json())
	h.approve(d.HoldID, "ana")
	h.e.SetFreeze(t.Context(), true)
	h.decide(deleteOne.json())
	lines := h.audit.Lines()
	if len(lines) != 5 {
		t.Fatalf("%d audit lines: %s", len(lines), lines)
	}
	want := []string{`"traceparent":"00-abc-01"`, `"hold_id":"` + d.HoldID + `"`, `"event":"hold_resolution"`, `"event_type":"freeze.flipped","freeze_on":true`, `"rule":"reeflex.policy/frozen"`}
	for i, w := range want {
		if !strings.Contains(string(lines[i]), w) {
			t.Errorf("line %d %s lacks %s", i, lines[i], w)
		}
	}
	if !strings.HasPrefix(string(lines[0]), `{"ts":"2026-12-01T10:00:00Z","session_id":"s1","agent_id":null,"action":{`) {
		t.Errorf("line 0: %s", lines[0])
	}
}
