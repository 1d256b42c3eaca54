package policy

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
)

// auditLog appends JSONL lines and fsyncs each one.
type auditLog struct {
	mu sync.Mutex
	f  *os.File
}

func openAudit(path string) (*auditLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return &auditLog{f: f}, nil
}

func (a *auditLog) write(line []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(line); err != nil {
		return err
	}
	return a.f.Sync()
}

func (a *auditLog) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.f.Close()
}

// emit writes one audit line to the file and the State. A failure is
// logged and never changes the decision already made.
func (e *Engine) emit(ctx context.Context, line []byte) {
	e.emitTo(ctx, append(line, '\n'), true)
}

// emitTo writes line to the audit file and the sinks; withState false
// skips the State, which already has it.
func (e *Engine) emitTo(ctx context.Context, line []byte, withState bool) {
	if e.audit != nil {
		if err := e.audit.write(line); err != nil {
			e.log.Error("audit log write failed", "err", err)
		}
	}
	for i, a := range e.sinks {
		if i == 0 && e.stateAudits && !withState {
			continue
		}
		if err := a.AppendAudit(ctx, line); err != nil {
			e.log.Error("audit append failed", "err", err)
		}
	}
}

func (e *Engine) auditing() bool {
	return len(e.sinks) > 0 || e.audit != nil
}

func appendKV(b []byte, k string, v any) []byte {
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = appendPyString(b, k)
	b = append(b, ':')
	return appendPyJSON(b, v)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (e *Engine) decisionLine(now time.Time, f *facts, d *Decision, cum *Cumulative) []byte {
	b := append(make([]byte, 0, 512), '{')
	b = appendKV(b, "ts", fmtTS(now))
	b = appendKV(b, "session_id", f.sessionID)
	b = appendKV(b, "agent_id", nilIfEmpty(f.agentID))
	b = appendKV(b, "action", map[string]any{"namespace": f.action["namespace"], "verb": f.verb, "ability": f.action["ability"],
		"environment": f.env, "target_system": f.target["system"]})
	b = appendKV(b, "magnitude_count", f.count)
	var ci any
	if cum != nil {
		ci = cum.Object()
	}
	b = appendKV(b, "cumulative_injected", ci)
	b = appendKV(b, "decision", d.Decision)
	b = appendKV(b, "rule", d.Rule)
	b = appendKV(b, "reason", d.Reason)
	b = appendKV(b, "decision_id", d.DecisionID)
	b = appendKV(b, "envelope_hash", f.envHash())
	return b
}

func (e *Engine) auditDecision(ctx context.Context, now time.Time, f *facts, d *Decision, cum *Cumulative) {
	if !e.auditing() {
		return
	}
	e.emit(ctx, e.decisionRecord(now, f, d, cum))
}

func (e *Engine) decisionRecord(now time.Time, f *facts, d *Decision, cum *Cumulative) []byte {
	b := e.decisionLine(now, f, d, cum)
	if d.HoldID != "" {
		b = appendKV(b, "hold_id", d.HoldID)
		b = appendKV(b, "expires_ts", d.ExpiresTS)
	}
	if f.traceparent != "" {
		b = appendKV(b, "traceparent", f.traceparent)
	}
	return append(b, '}')
}

// LedgerAuditor is implemented by a State that can write a decision's
// ledger entry and its audit line in one durable write.
type LedgerAuditor interface {
	AppendLedgerAudit(ctx context.Context, session string, e LedgerEntry, line []byte) error
}

// DecisionWriter is implemented by a State that can make a decision
// durable in one write: the nonce spent, the hold when there is one, the
// ledger entry and the audit line, in one transaction (one fsync instead of
// two or three). A nonce spent meanwhile (a concurrent replay) writes
// nothing and reports seen.
type DecisionWriter interface {
	WriteDecision(ctx context.Context, w DecisionWrite) (seen bool, err error)
}

// DecisionWrite is everything one decision writes.
type DecisionWrite struct {
	Nonce   string
	Now     time.Time
	Session string
	Entry   LedgerEntry
	Hold    *Hold // nil unless require_approval
	Audit   []byte
}

// recordDecision appends the ledger entry and audits the decision, in one
// write when the State can.
func (e *Engine) recordDecision(ctx context.Context, now time.Time, f *facts, d *Decision, cum *Cumulative) {
	la, combined := e.state.(LedgerAuditor)
	if !combined || !e.stateAudits {
		if err := e.state.AppendLedger(ctx, f.sessionID, f.ledgerEntry(now)); err != nil {
			// The verdict stands (a hold may already exist); the window
			// under-counts this one action, so say so loudly.
			e.log.Error("ledger append failed", "decision_id", d.DecisionID, "err", err)
		}
		e.auditDecision(ctx, now, f, d, cum)
		return
	}
	line := append(e.decisionRecord(now, f, d, cum), '\n')
	if err := la.AppendLedgerAudit(ctx, f.sessionID, f.ledgerEntry(now), line); err != nil {
		e.log.Error("ledger and audit append failed", "decision_id", d.DecisionID, "err", err)
	}
	e.emitTo(ctx, line, false)
}

func (e *Engine) auditResubmission(ctx context.Context, now time.Time, f *facts, d *Decision, holdID string) {
	if !e.auditing() {
		return
	}
	b := e.decisionLine(now, f, d, nil)
	b = appendKV(b, "hold_id", holdID)
	b = appendKV(b, "parent_decision_id", d.ParentDecisionID)
	if f.traceparent != "" {
		b = appendKV(b, "traceparent", f.traceparent)
	}
	e.emit(ctx, append(b, '}'))
}

func (e *Engine) auditResolution(ctx context.Context, now time.Time, h *Hold, resolution string, observed bool) {
	if !e.auditing() {
		return
	}
	b := append(make([]byte, 0, 256), '{')
	b = appendKV(b, "ts", fmtTS(now))
	b = appendKV(b, "event", "hold_resolution")
	b = appendKV(b, "hold_id", h.ID)
	b = appendKV(b, "resolution", resolution)
	decidedBy, src := nilIfEmpty(h.DecidedBy), nilIfEmpty(h.PrincipalSource)
	resolved := h.DecidedTS
	if resolution == StatusExpired {
		decidedBy, src, resolved = "system:reeflex-core", "system", h.ExpiresTS
	}
	b = appendKV(b, "decided_by", decidedBy)
	b = appendKV(b, "decided_by_verified", h.DecidedByVerified)
	b = appendKV(b, "principal_source", src)
	b = appendKV(b, "decision_id", "")
	b = appendKV(b, "resolved_ts", resolved)
	if observed {
		b = appendKV(b, "observed_ts", fmtTS(now))
	}
	e.emit(ctx, append(b, '}'))
}

func (e *Engine) auditFreeze(ctx context.Context, now time.Time, on bool) {
	if !e.auditing() {
		return
	}
	b := append(make([]byte, 0, 64), '{')
	b = appendKV(b, "ts", fmtTS(now))
	b = appendKV(b, "event_type", "freeze.flipped")
	b = appendKV(b, "freeze_on", on)
	e.emit(ctx, append(b, '}'))
}
