package policy

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Resubmission reason codes (spec §2.4).
const (
	HoldNotFound         = "reeflex_hold_not_found"
	HoldConsumed         = "reeflex_hold_consumed"
	HoldRejected         = "reeflex_hold_rejected"
	HoldExpired          = "reeflex_hold_expired"
	HoldNotApproved      = "reeflex_hold_not_approved"
	HoldEnvelopeMismatch = "reeflex_hold_envelope_mismatch"
	HoldActorIsApprover  = "reeflex_hold_actor_is_approver"
	HoldActorMismatch    = "reeflex_hold_actor_mismatch"
	HoldAlreadyConsumed  = "reeflex_hold_already_consumed"
	HoldConsumeFailed    = "reeflex_hold_consume_failed"
)

var errLostRace = errors.New("hold is no longer approved")

func (e *Engine) resubmit(ctx context.Context, id string, now time.Time, f *facts) (Decision, error) {
	deny := func(code string) (Decision, error) {
		d := Decision{Decision: Deny, Reason: code, Rule: RuleHoldCheck, Obligations: []string{}, DecisionID: id}
		e.auditDecision(ctx, now, f, &d, nil)
		return d, nil
	}
	if f.holdID == "" {
		return deny(HoldNotFound)
	}
	h, err := e.readHold(ctx, f.holdID, now)
	if errors.Is(err, ErrHoldNotFound) {
		return deny(HoldNotFound)
	}
	if err != nil {
		return failClosed(id, RuleInternal, "internal error - failing closed", err)
	}
	if code := e.holdMismatch(now, f, h); code != "" {
		return deny(code)
	}
	nowTS := fmtTS(now)
	_, err = e.state.UpdateHold(ctx, h.ID, func(cur *Hold) error {
		if cur.Status != StatusApproved {
			return errLostRace
		}
		cur.Status, cur.ConsumedTS = StatusConsumed, nowTS
		return nil
	})
	switch {
	case errors.Is(err, errLostRace):
		return deny(HoldAlreadyConsumed)
	case err != nil:
		e.log.Error("consume hold", "hold_id", h.ID, "err", err)
		return deny(HoldConsumeFailed)
	}
	parent := f.parentDecisionID
	if parent == "" {
		parent = h.DecisionID
	}
	d := Decision{Decision: Allow, Reason: "approved hold resubmission", Rule: RuleApproved, Obligations: []string{},
		DecisionID: id, ParentDecisionID: parent}
	mu := e.sessionLock(f.sessionID)
	mu.Lock()
	if err := e.state.AppendLedger(ctx, f.sessionID, f.ledgerEntry(now)); err != nil {
		e.log.Error("ledger append failed", "decision_id", id, "err", err)
	}
	mu.Unlock()
	e.auditResubmission(ctx, now, f, &d, h.ID)
	return d, nil
}

// holdMismatch runs checks 2-8 of the resubmission chain (spec §2.4) and
// returns the first failing reason code, or "".
func (e *Engine) holdMismatch(now time.Time, f *facts, h *Hold) string {
	switch h.Status {
	case StatusApproved:
	case StatusConsumed:
		return HoldConsumed
	case StatusRejected:
		return HoldRejected
	case StatusExpired:
		return HoldExpired
	default:
		return HoldNotApproved
	}
	if !now.Before(h.expiresAt()) {
		return HoldExpired
	}
	if f.envHash() != h.EnvelopeHash {
		return HoldEnvelopeMismatch
	}
	if h.DecidedBy != "" {
		typ, pid, _ := strings.Cut(h.DecidedBy, ":")
		if intersects(actorForms(f.agentID, f.onBehalfOf, f.sessionID), approverForms(typ, pid)) {
			return HoldActorIsApprover
		}
	}
	heldParams, _ := asMap(h.Envelope["params"])
	nowParams := copyMap(f.params, 1)
	if f.hasAmount {
		nowParams["currency"] = f.currency
	}
	if !sameBound(heldParams, nowParams, "amount") || !sameBound(heldParams, nowParams, "currency") ||
		digestParams(heldParams) != digestParams(nowParams) {
		return HoldEnvelopeMismatch
	}
	heldAgent, _ := asMap(h.Envelope["agent"])
	if actorKey(f.agentID, f.onBehalfOf, f.sessionID) != actorKey(str(heldAgent["id"]), str(heldAgent["on_behalf_of"]), str(heldAgent["session_id"])) {
		return HoldActorMismatch
	}
	return ""
}

// sameBound is check 7 for one approval-bound params key: both absent, or
// equal (numbers numerically, strictly typed otherwise).
func sameBound(held, now map[string]any, key string) bool {
	a, okA := held[key]
	b, okB := now[key]
	if !okA || !okB {
		return okA == okB
	}
	return jsonEqual(a, b)
}

func foldOrRaw(s string) string {
	if f := Fold(s); f != "" {
		return f
	}
	return strings.TrimFunc(s, isPySpace)
}

// actorKey binds an approval to who acted: the named agent and principal,
// or, when neither is named, the session.
func actorKey(id, obo, session string) [3]string {
	fid, fobo := foldOrRaw(id), foldOrRaw(obo)
	if fid != "" || fobo != "" {
		return [3]string{fid, fobo, ""}
	}
	return [3]string{"", "", foldOrRaw(session)}
}

func afterColon(s string) string {
	if _, rest, ok := strings.Cut(s, ":"); ok {
		return rest
	}
	return ""
}

// actorForms is every form that names the acting agent (spec §2.7).
func actorForms(vals ...string) []string {
	var out []string
	for _, v := range vals {
		if f := Fold(v); f != "" {
			out = append(out, f)
		}
		if f := Fold(afterColon(v)); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// approverForms is every form that names an approver.
func approverForms(typ, id string) []string {
	var out []string
	if f := Fold(id); f != "" {
		out = append(out, f)
		out = append(out, Fold(typ)+":"+f)
	}
	if f := Fold(afterColon(id)); f != "" {
		out = append(out, f)
	}
	return out
}

func intersects(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}
