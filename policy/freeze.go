package policy

import (
	"context"
	"time"
)

// The freeze switch: a runtime switch (SetFreeze, kept by a FreezeState)
// overrides the REEFLEX_FREEZE environment variable; a flip is audited
// where it is first seen (SetFreeze itself, or the next decision after the
// environment changed).

// The freeze switch's states, in Engine.freezeSwitch (and, without
// switchUnread and switchUnset, Engine.lastFrozen).
const (
	switchUnread int32 = iota // the store not looked at yet
	switchOn
	switchOff
	switchUnset // looked: nothing stored, REEFLEX_FREEZE decides
)

func switchOf(on bool) int32 {
	if on {
		return switchOn
	}
	return switchOff
}

// SetFreeze flips the runtime freeze switch, which overrides REEFLEX_FREEZE
// from then on (kept across restarts when the State is a FreezeState).
func (e *Engine) SetFreeze(ctx context.Context, on bool) {
	e.freezeSwitch.Store(switchOf(on))
	if fs, ok := e.state.(FreezeState); ok {
		if err := fs.SetFreeze(ctx, on); err != nil {
			e.log.Error("persist freeze switch", "err", err)
		}
	}
	e.frozen(ctx, e.now())
}

// FreezeState is implemented by a State that keeps the freeze switch.
type FreezeState interface {
	SetFreeze(ctx context.Context, on bool) error
	// Freeze reports the stored switch: set false when never flipped.
	Freeze(ctx context.Context) (on, set bool, err error)
}

// Frozen reports whether non-read actions are denied, and why: "switch"
// (the runtime switch) or "env" (REEFLEX_FREEZE).
func (e *Engine) Frozen(ctx context.Context) (frozen bool, source string) {
	return e.frozenState(ctx), e.freezeSource(ctx)
}

func (e *Engine) loadSwitch(ctx context.Context) int32 {
	v := e.freezeSwitch.Load()
	if v == switchUnread {
		if fs, ok := e.state.(FreezeState); ok {
			if on, set, err := fs.Freeze(ctx); err == nil && set {
				v = switchOf(on)
				e.freezeSwitch.CompareAndSwap(switchUnread, v)
			}
		}
		if v == switchUnread {
			e.freezeSwitch.CompareAndSwap(switchUnread, switchUnset)
			v = switchUnset
		}
	}
	return v
}

func (e *Engine) freezeSource(ctx context.Context) string {
	if v := e.loadSwitch(ctx); v == switchOn || v == switchOff {
		return "switch"
	}
	return "env"
}

func (e *Engine) frozenState(ctx context.Context) bool {
	switch e.loadSwitch(ctx) {
	case switchOn:
		return true
	case switchOff:
		return false
	}
	switch Fold(e.getenv("REEFLEX_FREEZE")) {
	case "true", "1", "yes":
		return true
	}
	return false
}

// frozen reads the freeze state and audits a flip since the last request.
func (e *Engine) frozen(ctx context.Context, now time.Time) bool {
	on := e.frozenState(ctx)
	v := switchOf(on)
	if old := e.lastFrozen.Swap(v); old != switchUnread && old != v {
		e.auditFreeze(ctx, now, on)
		e.notify("freeze.flipped", now, KV{"freeze_on", on})
	}
	return on
}
