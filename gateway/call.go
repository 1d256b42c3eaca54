package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reflect-mcp/reflect/mcp"
)

// Verdicts and the hold-validation codes the gateway reads.
const (
	VerdictAllow    = "allow"
	VerdictDeny     = "deny"
	VerdictApproval = "require_approval"

	ruleHoldValidation = "reeflex.core/hold_validation"
	reasonNotApproved  = "reeflex_hold_not_approved"
)

// _meta keys the gateway sets on calls to a built-in upstream.
const (
	MetaClient  = mcp.MetaGatewayClient
	MetaSession = mcp.MetaGatewaySession
)

// call is every tools/call: classify, build the envelope, decide, enforce.
func (g *Gateway) call(ctx context.Context, req *mcpsdk.CallToolRequest, name string) (*mcpsdk.CallToolResult, error) {
	e := g.lookup(name)
	var cs *mcpsdk.ClientSession
	var err error
	if e != nil {
		cs, err = e.up.state()
	}
	if e == nil || err != nil {
		return blocked(fmt.Sprintf("reeflex-mcp: unknown tool or upstream unavailable: '%s'", name), nil), nil
	}
	args := json.RawMessage(bytes.TrimSpace(req.Params.Arguments))
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	who := g.identity(req)
	who.Client = ClientName(req)
	c := &callState{g: g, req: req, e: e, cs: cs, args: args, who: who}
	if e.changed() && g.recheckPin(ctx, e) {
		c.class = floor(firstListLen(args), SourcePinChanged)
	} else {
		c.class = Classify((*g.maps.Load())[e.up.cfg.System], e.tool.Name, e.tool.Annotations, args)
	}
	if _, _, err := c.envelope(); err != nil {
		return blocked("reeflex-mcp: could not normalize the call, not forwarded -- "+err.Error(), nil), nil
	}
	g.log.Info(fmt.Sprintf("classified '%s' via '%s' -> verb='%s'", name, c.class.Source, c.class.Verb),
		"upstream", e.up.cfg.Name, "session_id", c.who.SessionID, "mode", string(g.opts.Mode))
	if g.opts.Mode == ModeEnforce {
		return c.enforce(ctx)
	}
	return c.observe(ctx)
}

// recheckPin reports whether e is still changed against its pin: a human
// may have accepted the new definition since (in another process).
func (g *Gateway) recheckPin(ctx context.Context, e *entry) bool {
	st, err := g.opts.Pins.Check(ctx, e.up.cfg.Name, e.tool.Name, PinHash(e.tool))
	if err != nil || st == PinChanged {
		return true
	}
	e.pinState.Store(int32(st))
	g.log.Info("changed tool definition was accepted", "tool", e.name)
	return false
}

// callState is one call in flight.
type callState struct {
	g     *Gateway
	req   *mcpsdk.CallToolRequest
	e     *entry
	cs    *mcpsdk.ClientSession
	args  json.RawMessage
	who   Identity
	class Classification
	// approval is set on a resubmission of a tracked hold.
	approval *PendingHold
	// linked caches the guard's answer: one store read per call.
	linked  *Link
	linkErr error
	checked bool
}

// link is the unsettled reviewed value the arguments carry, if any.
func (c *callState) link(ctx context.Context) (*Link, error) {
	if c.g.opts.Guard == nil {
		return nil, nil
	}
	if !c.checked {
		c.linked, c.linkErr = c.g.opts.Guard.Check(ctx, c.who, c.e.up.cfg.Name, c.e.tool.Name, c.args)
		c.checked = true
	}
	return c.linked, c.linkErr
}

// linkedHeld is the answer to a retry carrying an approval while its
// linked extraction is unsettled: held, the approval not spent.
func (c *callState) linkedHeld(link *Link, err error, corr string) *mcpsdk.CallToolResult {
	if err != nil {
		link = &Link{TraceID: "(unknown: " + err.Error() + ")"}
	}
	if link == nil {
		return nil
	}
	return blocked(fmt.Sprintf("reeflex-mcp: still held -- %s [rule=reflect.gateway/unreviewed_value] hold_id=%s. "+
		"The hold's approval, if given, is kept: settle the extraction in reflect's review queue, then retry this exact call.",
		link.Reason(), c.approval.HoldID), metaIDs(corr, Decision{HoldID: c.approval.HoldID}))
}

// held is the review item of a new hold: the call, the session's budget
// use as the engine counts it, and the linked extraction.
func (c *callState) held(ctx context.Context, p PendingHold, env Envelope, link *Link) HeldCall {
	h := HeldCall{PendingHold: p, Client: c.who.Client, SessionID: c.who.SessionID, Upstream: c.e.up.cfg.Name,
		Tool: c.e.tool.Name, Arguments: c.args, Class: c.class, Envelope: env, Link: link}
	if br, ok := c.g.opts.Decider.(BudgetReporter); ok {
		use, err := br.BudgetUse(ctx, env)
		if err != nil {
			c.g.log.Warn("budget use unknown for the held call", "hold_id", p.HoldID, "error", err.Error())
		}
		h.Budget = use
	}
	return h
}

// envelope builds a fresh envelope (a new nonce each time: the engine
// refuses a repeated one) with the approval when resubmitting.
func (c *callState) envelope() (Envelope, string, error) {
	u := c.e.up.cfg
	env, corr, err := buildEnvelope(callInfo{Upstream: u.Name, System: u.System, Environment: u.Environment,
		Tool: c.e.tool.Name, Args: c.args, Class: c.class, Who: c.who, Now: c.g.opts.Now()})
	if err != nil {
		return nil, "", err
	}
	if c.approval != nil {
		env["approval"] = map[string]any{"present": true, "hold_id": c.approval.HoldID, "parent_decision_id": c.approval.DecisionID}
	}
	return env, corr, nil
}

func (c *callState) observe(ctx context.Context) (*mcpsdk.CallToolResult, error) {
	env, corr, _ := c.envelope()
	d, err := c.g.opts.Decider.Decide(ctx, env)
	if err != nil && d.Decision == "" {
		c.g.log.Warn("observe mode: decision engine unreachable -- forwarding anyway (fail open)", "tool", c.e.name,
			"gateway_correlation_id", corr, "error", err.Error())
		return c.forward(ctx, corr, Decision{})
	}
	c.g.log.Info("observe: would-"+d.Decision, "tool", c.e.name, "rule", d.Rule, "reason", d.Reason,
		"decision_id", d.DecisionID, "hold_id", d.HoldID, "gateway_correlation_id", corr)
	if len(d.Obligations) > 0 {
		c.g.log.Info("observe mode -- would-honor obligation(s)", "tool", c.e.name, "obligations", d.Obligations,
			"decision_id", d.DecisionID)
	}
	if c.e.changed() {
		c.g.log.Warn("observe: would-hold: tool definition changed since pinned", "tool", c.e.name)
	}
	return c.forward(ctx, corr, d)
}

func (c *callState) enforce(ctx context.Context) (*mcpsdk.CallToolResult, error) {
	g := c.g
	key := ""
	for attempt := 0; ; attempt++ {
		env, corr, _ := c.envelope()
		if key == "" {
			key = holdKey(c.g.trackerScope(c.req, c.who), env)
			if p, ok, err := g.opts.Holds.Get(ctx, key); err != nil {
				g.log.Warn("holds tracker unreadable: treating the call as new", "error", err.Error())
			} else if ok && p.expired(g.opts.Now()) {
				// Pruned on lookup, as in the reference: the call is new.
				g.untrack(ctx, key)
			} else if ok {
				c.approval = &p
				env, corr, _ = c.envelope()
			}
		}
		if c.approval != nil {
			// Checked before the engine sees the approval: resubmitting
			// would spend it on a call that cannot run yet.
			link, err := c.link(ctx)
			if res := c.linkedHeld(link, err, corr); res != nil {
				return res, nil
			}
		}
		d, err := g.opts.Decider.Decide(ctx, env)
		if err != nil && d.Decision == "" {
			return blocked("reeflex-mcp: reeflex-core unreachable -- failing closed: "+err.Error(), metaIDs(corr, d)), nil
		}
		switch d.Decision {
		case VerdictAllow:
			c.forget(ctx, key)
			if res := c.honour(env, corr, d); res != nil {
				return res, nil
			}
			if res := c.override(ctx, corr, d); res != nil {
				return res, nil
			}
			return c.forward(ctx, corr, d)
		case VerdictApproval:
			if res := c.pinOverride(corr, d); res != nil {
				return res, nil
			}
			if d.HoldID == "" {
				return blocked(heldText(d), metaIDs(corr, d)), nil
			}
			p := PendingHold{HoldID: d.HoldID, DecisionID: d.DecisionID, ExpiresTS: d.ExpiresTS, Rule: d.Rule, Reason: d.Reason}
			if err := g.opts.Holds.Put(ctx, key, p); err != nil {
				g.log.Warn("could not track the hold: its retry will mint a new one", "hold_id", d.HoldID, "error", err.Error())
			}
			link, _ := c.link(ctx)
			if g.opts.OnHold != nil && attempt == 0 {
				g.opts.OnHold(ctx, c.held(ctx, p, env, link))
			}
			if attempt == 0 && c.wait(ctx, p) {
				c.approval = &p
				continue
			}
			text := heldText(d)
			if link != nil {
				text += " The arguments also carry an " + link.Reason() + ": settle it too, or the approved retry stays held."
			}
			return blocked(text, metaIDs(corr, d)), nil
		case VerdictDeny:
			if d.Rule == ruleHoldValidation && d.Reason == reasonNotApproved && c.approval != nil {
				// Still pending: the same hold, never a new one.
				if attempt == 0 && c.wait(ctx, *c.approval) {
					continue
				}
				return blocked(stillHeldText(*c.approval, d), metaIDs(corr, d)), nil
			}
			c.forget(ctx, key)
			return blocked(fmt.Sprintf("reeflex-mcp: denied -- %s [rule=%s] decision_id=%s", d.Reason, d.Rule, d.DecisionID),
				metaIDs(corr, d)), nil
		default:
			c.forget(ctx, key)
			return blocked(fmt.Sprintf("reeflex-mcp: unknown decision '%s' -- failing closed decision_id=%s", d.Decision, d.DecisionID),
				metaIDs(corr, d)), nil
		}
	}
}

// forget clears the tracked hold this call carried, if any (a write only
// when there is one: most calls carry none).
func (c *callState) forget(ctx context.Context, key string) {
	if c.approval != nil {
		c.g.untrack(ctx, key)
	}
}

func (g *Gateway) untrack(ctx context.Context, key string) {
	if err := g.opts.Holds.Delete(ctx, key); err != nil {
		g.log.Warn("holds tracker: could not clear an entry", "error", err.Error())
	}
}

// honour runs the obligations of an allow in order; the first unknown one
// blocks before dispatch.
func (c *callState) honour(env Envelope, corr string, d Decision) *mcpsdk.CallToolResult {
	for _, o := range d.Obligations {
		if o == "" {
			continue
		}
		h, ok := c.g.opts.Obligations.lookup(o)
		if !ok {
			return blocked(fmt.Sprintf("reeflex-mcp: unsupported obligation '%s' -- cannot honor, failing closed decision_id=%s", o, d.DecisionID),
				metaIDs(corr, d))
		}
		h(ObligationContext{Obligation: o, Envelope: env, Decision: d, CorrelationID: corr, Upstream: c.e.up.cfg.Name, Tool: c.e.tool.Name})
	}
	return nil
}

// override holds what policy alone would let through: a tool whose
// definition changed since it was pinned, and a call that carries a value
// reflect flagged for review and nobody has settled yet.
func (c *callState) override(ctx context.Context, corr string, d Decision) *mcpsdk.CallToolResult {
	if res := c.pinOverride(corr, d); res != nil {
		return res
	}
	link, err := c.link(ctx)
	if err != nil {
		// The guard could not tell: fail closed like the engine.
		link = &Link{TraceID: "(unknown)", Field: "(unknown)", Value: "?", Argument: "could not check the arguments: " + err.Error()}
	}
	if link != nil {
		return blocked(fmt.Sprintf("reeflex-mcp: held for approval -- %s [rule=reflect.gateway/unreviewed_value] decision_id=%s. "+
			"Settle the extraction in reflect's review queue, then retry this exact call.", link.Reason(), d.DecisionID), metaIDs(corr, d))
	}
	return nil
}

func (c *callState) pinOverride(corr string, d Decision) *mcpsdk.CallToolResult {
	if c.e.changed() {
		return blocked(fmt.Sprintf("reeflex-mcp: held for approval -- the definition of '%s' (description, schemas or annotations) "+
			"changed since it was pinned, so it is classified at the floor [rule=reflect.gateway/tool_definition_changed] decision_id=%s. "+
			"A human must accept the new definition (reflect gateway pins accept %s), then retry this exact call.",
			c.e.name, d.DecisionID, c.e.name), metaIDs(corr, d))
	}
	return nil
}

func heldText(d Decision) string {
	return fmt.Sprintf("reeflex-mcp: held for approval -- %s [rule=%s] hold_id=%s expires_ts=%s decision_id=%s. %s",
		d.Reason, d.Rule, d.HoldID, d.ExpiresTS, d.DecisionID, resolveAdvice(d.HoldID))
}

func stillHeldText(p PendingHold, d Decision) string {
	return fmt.Sprintf("reeflex-mcp: still held for approval (not yet resolved) -- hold_id=%s expires_ts=%s decision_id=%s (original decision_id=%s). %s",
		p.HoldID, p.ExpiresTS, d.DecisionID, p.DecisionID, resolveAdvice(p.HoldID))
}

// resolveAdvice tells the agent what is true: no tool of its own resolves
// a hold (the reference named a reeflex-holds server reflect does not
// have); a human does, with reflect holds, and the agent then retries the
// identical call, which carries the approval.
func resolveAdvice(holdID string) string {
	return fmt.Sprintf("A human must approve it (reflect holds approve %s; reflect holds reject %s refuses it); "+
		"then retry this exact call with the same arguments.", holdID, holdID)
}

// wait waits up to --hold-wait for a human, sending progress so clients
// keep the request open. It reports whether the hold was decided (approved,
// rejected or expired): then the call is resubmitted in the same request.
func (c *callState) wait(ctx context.Context, p PendingHold) bool {
	w, ok := c.g.opts.Decider.(HoldWatcher)
	if !ok || c.g.opts.HoldWait <= 0 {
		return false
	}
	start := time.Now()
	deadline := time.NewTimer(c.g.opts.HoldWait)
	defer deadline.Stop()
	poll := time.NewTicker(200 * time.Millisecond)
	defer poll.Stop()
	token := c.req.Params.GetProgressToken()
	lastProgress := time.Time{}
	for {
		st, err := w.HoldStatus(ctx, p.HoldID)
		if err == nil && st != "pending" {
			c.g.log.Info("hold decided while the call waited", "hold_id", p.HoldID, "status", st, "waited_ms", time.Since(start).Milliseconds())
			return true
		}
		if token != nil && c.req.Session != nil && time.Since(lastProgress) >= time.Second {
			lastProgress = time.Now()
			left := c.g.opts.HoldWait - time.Since(start)
			_ = c.req.Session.NotifyProgress(ctx, &mcpsdk.ProgressNotificationParams{ProgressToken: token,
				Progress: time.Since(start).Seconds(), Total: c.g.opts.HoldWait.Seconds(),
				Message: fmt.Sprintf("held for approval (hold_id=%s): waiting up to %s more for a human", p.HoldID, left.Round(time.Second))})
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		case <-poll.C:
		}
	}
}

// forward dispatches to the upstream under the per-call timeout and tags the
// result with the decision ids; everything else in the result is the
// upstream's.
func (c *callState) forward(ctx context.Context, corr string, d Decision) (*mcpsdk.CallToolResult, error) {
	cctx, cancel := context.WithTimeout(ctx, c.g.opts.CallTimeout)
	defer cancel()
	params := &mcpsdk.CallToolParams{Name: c.e.tool.Name, Arguments: c.args}
	if c.e.up.builtin != nil {
		// One session serves every front client, so an in-process server
		// sees the gateway as its client; this names the real one (reflect's
		// server can queue needs_review results for it).
		params.Meta = mcpsdk.Meta{MetaClient: c.who.Client, MetaSession: c.who.SessionID}
	}
	res, err := c.cs.CallTool(cctx, params)
	if err != nil {
		msg := fmt.Sprintf("reeflex-mcp: upstream '%s' failed calling '%s': %v", c.e.up.cfg.Name, c.e.tool.Name, err)
		if errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			msg = fmt.Sprintf("reeflex-mcp: upstream '%s' timed out after %s calling '%s'", c.e.up.cfg.Name, c.g.opts.CallTimeout, c.e.tool.Name)
		}
		return blocked(msg, metaIDs(corr, d)), nil
	}
	if c.g.opts.Guard != nil {
		c.g.opts.Guard.Observe(ctx, c.who, c.e.up.cfg.Name, c.e.tool.Name, res)
	}
	if res.Meta == nil {
		res.Meta = mcpsdk.Meta{}
	}
	for k, v := range metaIDs(corr, d) {
		res.Meta[k] = v
	}
	return res, nil
}

func metaIDs(corr string, d Decision) mcpsdk.Meta {
	m := mcpsdk.Meta{"gateway_correlation_id": corr}
	if d.DecisionID != "" {
		m["decision_id"] = d.DecisionID
	}
	if d.ParentDecisionID != "" {
		m["parent_decision_id"] = d.ParentDecisionID
	}
	if d.HoldID != "" {
		m["hold_id"] = d.HoldID
	}
	return m
}

func blocked(text string, meta mcpsdk.Meta) *mcpsdk.CallToolResult {
	return &mcpsdk.CallToolResult{Meta: meta, IsError: true, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}}
}
