package policy

import (
	"cmp"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Principal is who resolves a hold. Source "local" marks an approval made
// on this machine (the workstation, `reflect holds`), verified by
// construction; the REST route never sets it.
type Principal struct{ Type, ID, Source string }

// Resolution is a resolve request.
type Resolution struct {
	Decision  string // approve | reject
	Principal Principal
	Note      string // the body's reason
	Token     string // the bearer presented, for resolver-token verification
}

// ResolveError is a refused resolve (spec §2.5): Status is the HTTP code.
type ResolveError struct {
	Status int
	Code   string
	Reason string
	HoldID string
	Remedy *Remedy
}

func (e *ResolveError) Error() string { return e.Code + ": " + e.Reason }

// Remedy tells an operator how to make an approver verifiable.
type Remedy struct {
	Principal      string   `json:"principal"`
	Why            string   `json:"why"`
	Actions        []string `json:"actions"`
	Docs           string   `json:"docs"`
	BoundPrincipal string   `json:"bound_principal,omitempty"`
}

// readHold reads a hold, expiring it first when it is pending past its
// deadline (expiry is lazy, as in the reference).
func (e *Engine) readHold(ctx context.Context, id string, now time.Time) (*Hold, error) {
	h, err := e.state.GetHold(ctx, id)
	if err != nil {
		return nil, err
	}
	if h.Status == StatusPending && !now.Before(h.expiresAt()) {
		return e.expire(ctx, h.ID, now)
	}
	return h, nil
}

func (e *Engine) expire(ctx context.Context, id string, now time.Time) (*Hold, error) {
	expired := false
	h, err := e.state.UpdateHold(ctx, id, func(cur *Hold) error {
		if cur.Status == StatusPending && !now.Before(cur.expiresAt()) {
			cur.Status, expired = StatusExpired, true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if expired {
		e.auditResolution(ctx, now, h, StatusExpired, true)
		e.notifyHold(now, h)
	}
	return h, nil
}

// Hold returns one hold record (ErrHoldNotFound when unknown).
func (e *Engine) Hold(ctx context.Context, id string) (Hold, error) {
	h, err := e.readHold(ctx, id, e.now())
	if err != nil {
		return Hold{}, err
	}
	return *h, nil
}

// Holds lists holds by (created_ts, id) after sweeping expiry: status
// filters exactly ("" is all), cursor starts after that id, limit is
// clamped to 1..1000. next is the cursor for the following page, or "".
func (e *Engine) Holds(ctx context.Context, status string, limit int, cursor string) (items []Hold, next string, err error) {
	now := e.now()
	all, err := e.state.ListHolds(ctx)
	if err != nil {
		return nil, "", err
	}
	for i, h := range all {
		if h.Status == StatusPending && !now.Before(h.expiresAt()) {
			if all[i], err = e.expire(ctx, h.ID, now); err != nil {
				return nil, "", err
			}
		}
	}
	slices.SortFunc(all, func(a, b *Hold) int {
		return cmp.Or(strings.Compare(a.CreatedTS, b.CreatedTS), strings.Compare(a.ID, b.ID))
	})
	var filtered []*Hold
	for _, h := range all {
		if status == "" || h.Status == status {
			filtered = append(filtered, h)
		}
	}
	if cursor != "" {
		for i, h := range filtered {
			if h.ID == cursor {
				filtered = filtered[i+1:]
				break
			}
		}
	}
	limit = min(max(limit, 1), 1000)
	if len(filtered) > limit {
		next = filtered[limit-1].ID
		filtered = filtered[:limit]
	}
	items = make([]Hold, len(filtered))
	for i, h := range filtered {
		items[i] = *h
	}
	return items, next, nil
}

// ShortName is a rule id's text after its last '/'.
func ShortName(rule string) string {
	if i := strings.LastIndexByte(rule, '/'); i >= 0 {
		return rule[i+1:]
	}
	return rule
}

func (e *Engine) ruleResolvable(rule string) bool {
	if ShortName(rule) == "irreversible_systemic_prod" {
		return false
	}
	for _, r := range e.active.Load().pack.rules {
		if r.ID == rule {
			return r.Resolvable
		}
		for _, o := range r.ByDimension {
			if o.ID == rule {
				return r.Resolvable
			}
		}
	}
	return true
}

// jsonOrFile reads an env value that is JSON or a path to a JSON file.
func jsonOrFile(v string, into any) error {
	v = strings.TrimSpace(v)
	if v == "" {
		return errors.New("unset")
	}
	data := []byte(v)
	if !strings.HasPrefix(v, "{") {
		b, err := os.ReadFile(v)
		if err != nil {
			return err
		}
		data = b
	}
	return json.Unmarshal(data, into)
}

func (e *Engine) allowedTypes(rule string) []string {
	var pol map[string][]string
	if err := jsonOrFile(e.getenv("REEFLEX_RESOLUTION_POLICY"), &pol); err == nil {
		if t, ok := pol[ShortName(rule)]; ok {
			return t
		}
		if t, ok := pol["default"]; ok {
			return t
		}
	}
	return []string{"human"}
}

func (e *Engine) typeAllowed(rule, typ string) bool {
	ft := Fold(typ)
	for _, t := range e.allowedTypes(rule) {
		if Fold(t) == ft {
			return true
		}
	}
	return false
}

type boundPrincipal struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

func (e *Engine) requireVerified() bool {
	switch Fold(e.getenv("REEFLEX_REQUIRE_VERIFIED_APPROVER")) {
	case "false", "0", "no", "off":
		return false
	case "", "true", "1", "yes", "on":
		return true
	}
	e.log.Warn("REEFLEX_REQUIRE_VERIFIED_APPROVER is not a boolean; requiring verified approvers")
	return true
}

const remedyDocs = "README.md#operators-moving-from-reeflex-core"

// verify is spec §2.7: the approver is the credential's principal when the
// bearer is bound, else the asserted one only when verification is off.
func (e *Engine) verify(holdID string, p Principal, token string) (Principal, bool, *ResolveError) {
	if p.Source == "local" {
		return p, true, nil
	}
	var tokens map[string]boundPrincipal
	mapErr := jsonOrFile(e.getenv("REEFLEX_RESOLVER_TOKENS"), &tokens)
	asserted := p.Type + ":" + p.ID
	var bound *boundPrincipal
	tok := []byte(strings.TrimSpace(token))
	for k, v := range tokens {
		if subtle.ConstantTimeCompare([]byte(k), tok) == 1 && len(tok) > 0 {
			b := v
			bound = &b
		}
	}
	if bound != nil {
		if !intersects(approverForms(p.Type, p.ID), approverForms(bound.Type, bound.ID)) {
			return p, false, &ResolveError{Status: 403, Code: "principal_mismatch", HoldID: holdID,
				Reason: "the credential presented is bound to another principal",
				Remedy: &Remedy{Principal: asserted, Why: "credential_bound_to_another_principal", Docs: remedyDocs,
					BoundPrincipal: bound.Type + ":" + bound.ID,
					Actions:        []string{"resolve as the principal the credential is bound to", "or use the credential bound to " + asserted}}}
		}
		return Principal{Type: bound.Type, ID: bound.ID, Source: "credential"}, true, nil
	}
	if mapErr == nil || e.requireVerified() {
		why := "verification_not_configured"
		if mapErr == nil {
			why = "unbound_credential"
		}
		return p, false, &ResolveError{Status: 403, Code: "principal_not_verified", HoldID: holdID,
			Reason: "the approver cannot be verified: the credential presented is not bound to a principal",
			Remedy: &Remedy{Principal: asserted, Why: why, Docs: remedyDocs, Actions: []string{
				"bind a resolver token to " + asserted + " in REEFLEX_RESOLVER_TOKENS and present it as the bearer",
				"or approve locally with `reflect holds approve`",
				"or set REEFLEX_REQUIRE_VERIFIED_APPROVER=false to accept asserted approvers (not recommended)"}}}
	}
	e.log.Warn("accepting an asserted, unverified approver", "hold_id", holdID, "principal", asserted)
	return Principal{Type: p.Type, ID: p.ID, Source: "asserted"}, false, nil
}

// Resolve approves or rejects a pending hold, in the reference's check
// order (spec §2.5). A refusal is a *ResolveError.
func (e *Engine) Resolve(ctx context.Context, id string, r Resolution) (Hold, error) {
	bad := func(reason string) (Hold, error) {
		return Hold{}, &ResolveError{Status: 400, Code: "invalid_request", Reason: reason, HoldID: id}
	}
	if r.Decision != "approve" && r.Decision != "reject" {
		return bad(`decision must be "approve" or "reject"`)
	}
	p := Principal{Type: strings.TrimFunc(r.Principal.Type, isPySpace), ID: strings.TrimFunc(r.Principal.ID, isPySpace), Source: r.Principal.Source}
	if p.Type == "" || p.ID == "" {
		return bad("principal must be an object with a non-empty type and id")
	}
	now := e.now()
	h, err := e.readHold(ctx, id, now)
	if errors.Is(err, ErrHoldNotFound) {
		return Hold{}, &ResolveError{Status: 404, Code: "not_resolvable", Reason: "hold not found", HoldID: id}
	}
	if err != nil {
		return Hold{}, err
	}
	notPending := func(status string) (Hold, error) {
		return Hold{}, &ResolveError{Status: 409, Code: "not_resolvable", HoldID: id,
			Reason: fmt.Sprintf("hold status is '%s', not pending", status)}
	}
	if h.Status != StatusPending {
		return notPending(h.Status)
	}
	if !e.ruleResolvable(h.Rule) {
		return Hold{}, &ResolveError{Status: 403, Code: "rule_not_resolvable", HoldID: id,
			Reason: "rule " + h.Rule + " cannot be resolved by any principal"}
	}
	typeRefused := func(t string) (Hold, error) {
		return Hold{}, &ResolveError{Status: 403, Code: "principal_type_not_allowed", HoldID: id,
			Reason: fmt.Sprintf("principal type '%s' may not resolve %s (allowed: %s)", t, ShortName(h.Rule),
				strings.Join(e.allowedTypes(h.Rule), ", "))}
	}
	if !e.typeAllowed(h.Rule, p.Type) {
		return typeRefused(p.Type)
	}
	approver, verified, verr := e.verify(id, p, r.Token)
	if verr != nil {
		return Hold{}, verr
	}
	if !e.typeAllowed(h.Rule, approver.Type) {
		return typeRefused(approver.Type)
	}
	agent, _ := asMap(h.Envelope["agent"])
	if intersects(actorForms(str(agent["id"]), str(agent["on_behalf_of"]), str(agent["session_id"])), approverForms(approver.Type, approver.ID)) {
		return Hold{}, &ResolveError{Status: 403, Code: "actor_is_approver", HoldID: id,
			Reason: "the acting agent or its principal cannot approve its own action"}
	}
	status := StatusApproved
	if r.Decision == "reject" {
		status = StatusRejected
	}
	var lost string
	out, err := e.state.UpdateHold(ctx, id, func(cur *Hold) error {
		if cur.Status != StatusPending {
			lost = cur.Status
			return errLostRace
		}
		cur.Status = status
		cur.DecidedBy = approver.Type + ":" + approver.ID
		cur.DecidedByVerified = verified
		cur.PrincipalSource = approver.Source
		cur.DecidedTS = fmtTS(now)
		cur.Note = r.Note
		return nil
	})
	if errors.Is(err, errLostRace) {
		return notPending(lost)
	}
	if err != nil {
		return Hold{}, err
	}
	e.auditResolution(ctx, now, out, status, false)
	e.notifyHold(now, out)
	return *out, nil
}

// AppendJSON appends the error body: {"error","reason","hold_id"[,"remedy"]}.
func (e *ResolveError) AppendJSON(b []byte) []byte {
	b = append(b, `{"error":`...)
	b = appendPyString(b, e.Code)
	b = append(b, `,"reason":`...)
	b = appendPyString(b, e.Reason)
	b = append(b, `,"hold_id":`...)
	b = appendPyString(b, e.HoldID)
	if e.Remedy != nil {
		r := e.Remedy
		b = append(b, `,"remedy":{"principal":`...)
		b = appendPyString(b, r.Principal)
		b = append(b, `,"why":`...)
		b = appendPyString(b, r.Why)
		b = append(b, `,"actions":`...)
		b = appendPyJSON(b, nonNil(r.Actions))
		b = append(b, `,"docs":`...)
		b = appendPyString(b, r.Docs)
		if r.BoundPrincipal != "" {
			b = append(b, `,"bound_principal":`...)
			b = appendPyString(b, r.BoundPrincipal)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// IsResolverToken reports whether tok is bound in REEFLEX_RESOLVER_TOKENS
// (read fresh, constant-time): such a bearer may call the resolve route.
func (e *Engine) IsResolverToken(tok string) bool {
	var tokens map[string]boundPrincipal
	if jsonOrFile(e.getenv("REEFLEX_RESOLVER_TOKENS"), &tokens) != nil {
		return false
	}
	t := []byte(strings.TrimSpace(tok))
	found := 0
	for k := range tokens {
		found |= subtle.ConstantTimeCompare([]byte(k), t)
	}
	return found == 1 && len(t) > 0
}
