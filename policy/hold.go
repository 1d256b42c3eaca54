package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Hold statuses.
const (
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
	StatusExpired  = "expired"
	StatusConsumed = "consumed"
)

// TimeFormat is the reference's second-precision UTC timestamp.
const TimeFormat = "2006-01-02T15:04:05Z"

func fmtTS(t time.Time) string { return t.UTC().Format(TimeFormat) }

// Hold is one hold record (spec §2.5). Empty strings are null on the wire.
type Hold struct {
	ID                string
	CreatedTS         string
	ExpiresTS         string
	Envelope          Envelope // normalized
	EnvelopeHash      string
	Rule              string // rule_id
	Status            string
	DecidedBy         string // "type:id"
	DecidedByVerified bool
	PrincipalSource   string // credential | asserted | system | local
	DecidedTS         string
	Note              string // the resolver's reason (wire "reason")
	ConsumedTS        string
	DecisionID        string
	// Reason is the decision's reason; it is not part of the wire record.
	Reason string
}

func nullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendPyString(b, s)
}

// AppendJSON appends the wire record in the reference's key order.
func (h *Hold) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendPyString(b, h.ID)
	b = append(b, `,"event_type":"created","created_ts":`...)
	b = appendPyString(b, h.CreatedTS)
	b = append(b, `,"expires_ts":`...)
	b = appendPyString(b, h.ExpiresTS)
	b = append(b, `,"envelope":`...)
	b = appendPyJSON(b, h.Envelope)
	b = append(b, `,"envelope_hash":`...)
	b = appendPyString(b, h.EnvelopeHash)
	b = append(b, `,"rule_id":`...)
	b = appendPyString(b, h.Rule)
	b = append(b, `,"status":`...)
	b = appendPyString(b, h.Status)
	b = append(b, `,"decided_by":`...)
	b = nullable(b, h.DecidedBy)
	b = append(b, `,"decided_by_verified":`...)
	b = appendPyJSON(b, h.DecidedByVerified)
	b = append(b, `,"principal_source":`...)
	b = nullable(b, h.PrincipalSource)
	b = append(b, `,"decided_ts":`...)
	b = nullable(b, h.DecidedTS)
	b = append(b, `,"reason":`...)
	b = nullable(b, h.Note)
	b = append(b, `,"consumed_ts":`...)
	b = nullable(b, h.ConsumedTS)
	b = append(b, `,"decision_id":`...)
	b = appendPyString(b, h.DecisionID)
	b = append(b, `,"ts":`...)
	b = appendPyString(b, h.CreatedTS)
	return append(b, '}')
}

// MarshalJSON is the wire record.
func (h *Hold) MarshalJSON() ([]byte, error) { return h.AppendJSON(nil), nil }

// holdDisk is the storage form: every field, including the decision reason.
type holdDisk struct {
	ID                string   `json:"id"`
	CreatedTS         string   `json:"created_ts"`
	ExpiresTS         string   `json:"expires_ts"`
	Envelope          Envelope `json:"envelope"`
	EnvelopeHash      string   `json:"envelope_hash"`
	Rule              string   `json:"rule_id"`
	Status            string   `json:"status"`
	DecidedBy         string   `json:"decided_by,omitempty"`
	DecidedByVerified bool     `json:"decided_by_verified,omitempty"`
	PrincipalSource   string   `json:"principal_source,omitempty"`
	DecidedTS         string   `json:"decided_ts,omitempty"`
	Note              string   `json:"note,omitempty"`
	ConsumedTS        string   `json:"consumed_ts,omitempty"`
	DecisionID        string   `json:"decision_id"`
	Reason            string   `json:"decision_reason,omitempty"`
}

// EncodeHold is the form a State stores a hold in.
func EncodeHold(h *Hold) ([]byte, error) {
	d := holdDisk(*h)
	return json.Marshal(&d)
}

// DecodeHold reads EncodeHold's output; numbers keep their literal form.
func DecodeHold(data []byte) (*Hold, error) {
	var d holdDisk
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("decode hold: %w", err)
	}
	h := Hold(d)
	return &h, nil
}

func (h *Hold) expiresAt() time.Time {
	t, err := time.Parse(TimeFormat, h.ExpiresTS)
	if err != nil {
		return time.Time{} // unparseable: already expired, fail closed
	}
	return t
}

// CreatedAt is CreatedTS parsed.
func (h *Hold) CreatedAt() time.Time {
	t, _ := time.Parse(TimeFormat, h.CreatedTS)
	return t
}

// Session is the held envelope's agent.session_id.
func (h *Hold) Session() string {
	a, _ := asMap(h.Envelope["agent"])
	return str(a["session_id"])
}
