package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func resolveErr(t *testing.T, err error, status int, code string) *ResolveError {
	t.Helper()
	var re *ResolveError
	if !errors.As(err, &re) || re.Status != status || re.Code != code {
		t.Fatalf("err = %v, want %d %s", err, status, code)
	}
	return re
}

func TestResolveCheckOrder(t *testing.T) {
	held := with(bulkDelete, func(s *envSpec) { s.agent = "agent:bot" })
	ana := Principal{Type: "human", ID: "ana"}
	setup := func(t *testing.T, env map[string]string) (*harness, Decision) {
		h := newHarness(t, nil)
		for k, v := range env {
			h.setenv(k, v)
		}
		return h, h.expect(held.json(), RequireApproval, rR2)
	}
	tokens := `{"tok-ana":{"type":"human","id":"ana"},"tok-ai":{"type":"agent","id":"reviewer-ai"}}`
	t.Run("invalid requests", func(t *testing.T) {
		h, d := setup(t, nil)
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "maybe", Principal: ana})
		resolveErr(t, err, 400, "invalid_request")
		_, err = h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{Type: " ", ID: "ana"}})
		resolveErr(t, err, 400, "invalid_request")
	})
	t.Run("missing hold", func(t *testing.T) {
		h, _ := setup(t, nil)
		_, err := h.e.Resolve(t.Context(), "nope", Resolution{Decision: "approve", Principal: ana})
		resolveErr(t, err, 404, "not_resolvable")
	})
	t.Run("not pending and expired", func(t *testing.T) {
		h, d := setup(t, map[string]string{"REEFLEX_RESOLVER_TOKENS": tokens})
		if _, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: ana, Token: "tok-ana"}); err != nil {
			t.Fatal(err)
		}
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "reject", Principal: ana, Token: "tok-ana"})
		if re := resolveErr(t, err, 409, "not_resolvable"); re.Reason != "hold status is 'approved', not pending" {
			t.Fatal(re.Reason)
		}
		d2 := h.expect(held.json(), RequireApproval, rR2)
		h.advance(14400 * time.Second)
		_, err = h.e.Resolve(t.Context(), d2.HoldID, Resolution{Decision: "approve", Principal: ana, Token: "tok-ana"})
		if re := resolveErr(t, err, 409, "not_resolvable"); re.Reason != "hold status is 'expired', not pending" {
			t.Fatal(re.Reason)
		}
	})
	t.Run("strict by default: unverified", func(t *testing.T) {
		h, d := setup(t, nil)
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: ana})
		if re := resolveErr(t, err, 403, "principal_not_verified"); re.Remedy == nil || re.Remedy.Why != "verification_not_configured" {
			t.Fatalf("%+v", re.Remedy)
		}
	})
	t.Run("unbound credential when a map exists", func(t *testing.T) {
		h, d := setup(t, map[string]string{"REEFLEX_RESOLVER_TOKENS": tokens, "REEFLEX_REQUIRE_VERIFIED_APPROVER": "false"})
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: ana, Token: "gate"})
		if re := resolveErr(t, err, 403, "principal_not_verified"); re.Remedy.Why != "unbound_credential" {
			t.Fatal(re.Remedy.Why)
		}
	})
	t.Run("mismatch", func(t *testing.T) {
		h, d := setup(t, map[string]string{"REEFLEX_RESOLVER_TOKENS": tokens})
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"human", "bob", ""}, Token: "tok-ana"})
		if re := resolveErr(t, err, 403, "principal_mismatch"); re.Remedy.BoundPrincipal != "human:ana" || re.Remedy.Why != "credential_bound_to_another_principal" {
			t.Fatalf("%+v", re.Remedy)
		}
	})
	t.Run("type not allowed, asserted and verified", func(t *testing.T) {
		h, d := setup(t, map[string]string{"REEFLEX_RESOLVER_TOKENS": tokens})
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"agent", "reviewer-ai", ""}, Token: "tok-ai"})
		resolveErr(t, err, 403, "principal_type_not_allowed")
		// Asserted human, but the credential is the AI's: the verified type is refused.
		_, err = h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"human", "reviewer-ai", ""}, Token: "tok-ai"})
		resolveErr(t, err, 403, "principal_type_not_allowed")
		// The resolution policy lets agents resolve this rule (AIL).
		h.setenv("REEFLEX_RESOLUTION_POLICY", `{"default":["human"],"irreversible_broad_prod":["human","agent"]}`)
		hd, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"agent", "reviewer-ai", ""}, Token: "tok-ai"})
		if err != nil || hd.DecidedBy != "agent:reviewer-ai" || !hd.DecidedByVerified || hd.PrincipalSource != "credential" {
			t.Fatalf("%+v %v", hd, err)
		}
	})
	t.Run("resolution policy from a file; malformed is human only", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "pol.json")
		os.WriteFile(p, []byte(`{"default":["automation"]}`), 0o600)
		h, d := setup(t, map[string]string{"REEFLEX_RESOLUTION_POLICY": p, "REEFLEX_REQUIRE_VERIFIED_APPROVER": "off"})
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: ana})
		resolveErr(t, err, 403, "principal_type_not_allowed")
		h.setenv("REEFLEX_RESOLUTION_POLICY", `{"default":`)
		hd, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: ana, Note: "ok"})
		if err != nil || hd.PrincipalSource != "asserted" || hd.DecidedByVerified || hd.Note != "ok" {
			t.Fatalf("%+v %v", hd, err)
		}
	})
	t.Run("actor is approver", func(t *testing.T) {
		h, d := setup(t, map[string]string{"REEFLEX_RESOLVER_TOKENS": `{"tok-bot":{"type":"human","id":"bot"}}`})
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"human", "bot", ""}, Token: "tok-bot"})
		resolveErr(t, err, 403, "actor_is_approver")
		_, err = h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"human", "BOT", "local"}})
		resolveErr(t, err, 403, "actor_is_approver")
	})
	t.Run("local approvals are verified by construction", func(t *testing.T) {
		h, d := setup(t, nil)
		hd := h.approve(d.HoldID, "ana")
		if hd.DecidedBy != "human:ana" || hd.PrincipalSource != "local" || !hd.DecidedByVerified || hd.Status != StatusApproved || hd.DecidedTS == "" {
			t.Fatalf("%+v", hd)
		}
		rec := string(hd.AppendJSON(nil))
		if !strings.Contains(rec, `"rule_id":"reeflex.policy/irreversible_broad_prod","status":"approved","decided_by":"human:ana","decided_by_verified":true,"principal_source":"local"`) {
			t.Fatal(rec)
		}
	})
}

func TestRuleNotResolvable(t *testing.T) {
	p, err := LoadPack("p.yaml", []byte(`
rules:
  - id: acme/irreversible_systemic_prod
    priority: 900
    verdict: require_approval
    reason: held for ever by short name
    when: {field: target.environment, eq: staging}
  - id: acme/terminal
    priority: 900
    verdict: require_approval
    resolvable: false
    reason: nobody may approve this
    when: {field: target.environment, eq: dev}
`))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *Options) { o.Pack = p })
	for _, env := range []string{"staging", "dev"} {
		d := h.decide(with(readInternal, func(s *envSpec) { s.environment = env }).json())
		_, err := h.e.Resolve(t.Context(), d.HoldID, Resolution{Decision: "approve", Principal: Principal{"human", "ana", "local"}})
		resolveErr(t, err, 403, "rule_not_resolvable")
	}
}

func TestHoldsListing(t *testing.T) {
	h := newHarness(t, nil)
	var ids []string
	for i := range 5 {
		d := h.decide(with(bulkDelete, func(s *envSpec) { s.session = string(rune('a' + i)) }).json())
		ids = append(ids, d.HoldID)
		h.advance(time.Second)
	}
	h.approve(ids[1], "ana")
	items, next, err := h.e.Holds(t.Context(), "", 2, "")
	if err != nil || len(items) != 2 || items[0].ID != ids[0] || next != ids[1] {
		t.Fatalf("%v %s %v", len(items), next, err)
	}
	items, next, _ = h.e.Holds(t.Context(), "", 2, next)
	if len(items) != 2 || items[0].ID != ids[2] || next != ids[3] {
		t.Fatal(len(items), next)
	}
	items, next, _ = h.e.Holds(t.Context(), "", 2, next)
	if len(items) != 1 || next != "" {
		t.Fatal(len(items), next)
	}
	items, _, _ = h.e.Holds(t.Context(), StatusPending, 100, "unknown-cursor")
	if len(items) != 4 {
		t.Fatal(len(items))
	}
	h.advance(5 * time.Hour)
	items, _, _ = h.e.Holds(t.Context(), StatusExpired, 0, "")
	if len(items) != 1 { // limit 0 clamps to 1
		t.Fatal(len(items))
	}
	items, _, _ = h.e.Holds(t.Context(), StatusExpired, 5000, "")
	if len(items) != 4 {
		t.Fatal(len(items))
	}
}
