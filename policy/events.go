package policy

import "time"

// KV is one field of an Event, in order.
type KV struct {
	Key   string
	Value any
}

// Event is a lifecycle notification (the reference's webhook events):
// hold.created, hold.resolved, hold.expired, freeze.flipped.
type Event struct {
	Name   string
	TS     time.Time
	Fields []KV
}

// AppendJSON appends {"event":..., "ts":..., fields...}.
func (ev Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"event":`...)
	b = appendPyString(b, ev.Name)
	b = append(b, `,"ts":`...)
	b = appendPyString(b, fmtTS(ev.TS))
	for _, kv := range ev.Fields {
		b = append(b, ',')
		b = appendPyString(b, kv.Key)
		b = append(b, ':')
		b = appendPyJSON(b, kv.Value)
	}
	return append(b, '}')
}

func (e *Engine) notify(name string, now time.Time, fields ...KV) {
	if e.onEvent != nil {
		e.onEvent(Event{Name: name, TS: now, Fields: fields})
	}
}

func (e *Engine) notifyHold(now time.Time, h *Hold) {
	switch h.Status {
	case StatusPending:
		e.notify("hold.created", now, KV{"hold_id", h.ID}, KV{"rule_id", h.Rule}, KV{"status", h.Status}, KV{"expires_ts", h.ExpiresTS})
	case StatusExpired:
		e.notify("hold.expired", now, KV{"hold_id", h.ID}, KV{"rule_id", h.Rule}, KV{"status", h.Status},
			KV{"expired_ts", h.ExpiresTS}, KV{"observed_ts", fmtTS(now)})
	default:
		e.notify("hold.resolved", now, KV{"hold_id", h.ID}, KV{"rule_id", h.Rule}, KV{"status", h.Status},
			KV{"decided_by", nilIfEmpty(h.DecidedBy)}, KV{"decided_by_verified", h.DecidedByVerified}, KV{"principal_source", nilIfEmpty(h.PrincipalSource)})
	}
}
