package policy

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Envelope is an action envelope as decoded from JSON (json.Decoder.UseNumber),
// before normalization. Normalized envelopes have the same type.
type Envelope = map[string]any

// EnvelopeError is a 400: Code "invalid_envelope" (or "invalid_json"),
// Detail the human-readable reason.
type EnvelopeError struct{ Code, Detail string }

func (e *EnvelopeError) Error() string { return e.Code + ": " + e.Detail }

func badEnvelope(detail string) *EnvelopeError {
	return &EnvelopeError{Code: "invalid_envelope", Detail: detail}
}

// Canonical axis values and their coerced defaults (the most guarded value).
var (
	reversibilities = []string{"reversible", "recoverable", "irreversible"}
	blastRadii      = []string{"single", "scoped", "broad", "systemic"}
	externalities   = []string{"internal", "outbound", "physical"}
)

// Undeclared-field bits, in the sorted order provenance.undeclared lists them.
const (
	undVerb uint8 = 1 << iota
	undBlast
	undExternality
	undReversibility
	undEnvironment
)

var undeclaredNames = []string{"action.verb", "axes.blast_radius", "axes.externality", "axes.reversibility", "target.environment"}

// facts is a normalized envelope in typed form: the rules read these fields
// and the normalized map is only built when something keeps it (a hold, the
// Normalize API), which keeps the common decision path nearly allocation free.
type facts struct {
	raw                            Envelope
	agent, action, target          map[string]any
	axes, params, magnitude, appr  map[string]any // nil when absent
	sessionID                      string
	agentID, onBehalfOf            string // "" when not a string
	verb, env                      string
	reversibility, blast, external string
	ability                        string
	count                          int64 // saturated at MaxInt64
	countRaw                       any   // as sent (json.Number keeps its digits for the hash)
	amount                         float64
	hasAmount                      bool
	amountRaw                      any
	currency                       string // canonical; "" unless hasAmount
	undeclared                     uint8
	approvalPresent                bool
	holdID, parentDecisionID       string
	nonce                          string
	traceparent                    string
	h                              string // envelope_hash, once computed
}

func asMap(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// validate runs spec §1.2 steps 1-5 (the checks before the nonce is spent).
func validate(env Envelope, f *facts) *EnvelopeError {
	if env == nil {
		return badEnvelope("envelope must be a JSON object")
	}
	f.raw = env
	action, ok := asMap(env["action"])
	if !ok {
		return badEnvelope("action must be an object")
	}
	if v, ok := action["verb"].(string); !ok || v == "" {
		return badEnvelope("action.verb must be a non-empty string")
	}
	target, ok := asMap(env["target"])
	if !ok {
		return badEnvelope("target must be an object")
	}
	if v, ok := target["environment"].(string); !ok || v == "" {
		return badEnvelope("target.environment must be a non-empty string")
	}
	if v, present := env["axes"]; present && v != nil {
		if f.axes, ok = asMap(v); !ok {
			return badEnvelope("axes must be an object when present")
		}
	}
	agent, ok := asMap(env["agent"])
	if !ok {
		return badEnvelope("agent must be an object")
	}
	sid, ok := agent["session_id"].(string)
	if !ok || strings.TrimFunc(sid, isPySpace) == "" {
		return badEnvelope("agent.session_id must be a non-empty string")
	}
	f.action, f.target, f.agent, f.sessionID = action, target, agent, sid
	if meta, ok := asMap(env["meta"]); ok {
		switch n := meta["nonce"].(type) {
		case string:
			f.nonce = n
		case nil:
		default:
			// The reference str()s it, so 1, 1.0 and true collide; a nonce
			// is an opaque string here.
			return badEnvelope("meta.nonce must be a string")
		}
	}
	return nil
}

func pick(raw any, enum []string, def string) (value string, declared bool) {
	s, ok := raw.(string)
	if !ok {
		return def, false
	}
	value = def
	for _, e := range enum {
		if s == e {
			value = e
			break
		}
	}
	folded := Fold(s)
	for _, e := range enum {
		if folded == e {
			return value, true
		}
	}
	return value, false
}

// normalize runs spec §1.2 steps 7-13 on a validated envelope.
func normalize(f *facts) *EnvelopeError {
	var declared bool
	envRaw := f.target["environment"].(string)
	if f.env, declared = canonEnv(envRaw); !declared {
		f.undeclared |= undEnvironment
	}
	if p, ok := asMap(f.raw["params"]); ok {
		f.params = p
		if err := f.readAmount(p); err != nil {
			return err
		}
	}
	if f.reversibility, declared = pick(f.axes["reversibility"], reversibilities, "irreversible"); !declared {
		f.undeclared |= undReversibility
	}
	if f.blast, declared = pick(f.axes["blast_radius"], blastRadii, "systemic"); !declared {
		f.undeclared |= undBlast
	}
	if f.external, declared = pick(f.axes["externality"], externalities, "physical"); !declared {
		f.undeclared |= undExternality
	}
	if f.verb, declared = canonVerb(f.action["verb"].(string), f.reversibility); !declared {
		f.undeclared |= undVerb
	}
	f.ability = str(f.action["ability"])
	if f.verb != "delete" && f.ability != "" && abilityIsDelete(f.ability) {
		f.verb = "delete"
	}
	if err := f.readMagnitude(); err != nil {
		return err
	}
	if a, ok := asMap(f.raw["approval"]); ok {
		f.appr = a
		f.approvalPresent, _ = a["present"].(bool)
		f.holdID = str(a["hold_id"])
		f.parentDecisionID = str(a["parent_decision_id"])
	}
	f.agentID, f.onBehalfOf = str(f.agent["id"]), str(f.agent["on_behalf_of"])
	if c, ok := asMap(f.raw["context"]); ok {
		f.traceparent = str(c["traceparent"])
	}
	return nil
}

func (f *facts) readAmount(p map[string]any) *EnvelopeError {
	v := p["amount"]
	switch x := v.(type) {
	case json.Number:
		a, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(a, 0) || math.IsNaN(a) {
			if isIntLiteral(string(x)) {
				return badEnvelope("params.amount is too large")
			}
			return badEnvelope("params.amount must be a finite number")
		}
		f.amount = a
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return badEnvelope("params.amount must be a finite number")
		}
		f.amount = x
	case float32:
		f.amount = float64(x)
	case int:
		f.amount = float64(x)
	case int64:
		f.amount = float64(x)
	default:
		return nil
	}
	f.hasAmount, f.amountRaw = true, v
	f.currency = canonCurrency(p["currency"])
	return nil
}

// canonCurrency folds and upper-cases; only three ASCII letters survive,
// anything else is the real bucket XXX.
func canonCurrency(v any) string {
	s, ok := v.(string)
	if !ok {
		return "XXX"
	}
	s = strings.ToUpper(Fold(s))
	if len(s) != 3 {
		return "XXX"
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return "XXX"
		}
	}
	return s
}

func (f *facts) readMagnitude() *EnvelopeError {
	f.count, f.countRaw = 1, nil
	mv, present := f.raw["magnitude"]
	if !present || mv == nil {
		return nil
	}
	m, ok := asMap(mv)
	if !ok {
		return badEnvelope("magnitude must be an object when present")
	}
	f.magnitude = m
	c, present := m["count"]
	if !present || c == nil {
		return nil
	}
	const msg = "magnitude.count must be an integer >= 1"
	switch x := c.(type) {
	case json.Number:
		s := string(x)
		if !isIntLiteral(s) {
			return badEnvelope(msg)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			if strings.HasPrefix(s, "-") {
				return badEnvelope(msg)
			}
			n = math.MaxInt64
		}
		if n < 1 {
			return badEnvelope(msg)
		}
		f.count = n
	case int:
		if x < 1 {
			return badEnvelope(msg)
		}
		f.count = int64(x)
	case int64:
		if x < 1 {
			return badEnvelope(msg)
		}
		f.count = x
	default:
		return badEnvelope(msg)
	}
	f.countRaw = c
	return nil
}

// undeclaredList is provenance.undeclared, sorted.
func (f *facts) undeclaredList() []any {
	out := make([]any, 0, 5)
	for i, n := range undeclaredNames {
		if f.undeclared&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func (f *facts) countValue() any {
	if f.countRaw == nil {
		return json.Number("1")
	}
	return f.countRaw
}

func copyMap(m map[string]any, extra int) map[string]any {
	c := make(map[string]any, len(m)+extra)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// normalized builds the normalized envelope map (spec §1.2 step 7 onward).
func (f *facts) normalized() Envelope {
	n := copyMap(f.raw, 2)
	t := copyMap(f.target, 0)
	t["environment"] = f.env
	n["target"] = t
	p := copyMap(f.params, 1)
	if f.hasAmount {
		p["currency"] = f.currency
	}
	n["params"] = p
	ax := copyMap(f.axes, 3)
	ax["reversibility"], ax["blast_radius"], ax["externality"] = f.reversibility, f.blast, f.external
	n["axes"] = ax
	a := copyMap(f.action, 0)
	a["verb"] = f.verb
	n["action"] = a
	n["provenance"] = map[string]any{"undeclared": f.undeclaredList()}
	mg := copyMap(f.magnitude, 1)
	mg["count"] = f.countValue()
	n["magnitude"] = mg
	ap := copyMap(f.appr, 2)
	ap["present"] = f.approvalPresent
	if _, ok := ap["hold_id"]; !ok {
		ap["hold_id"] = nil
	}
	n["approval"] = ap
	return n
}

// Normalize validates and normalizes env as POST /v1/decide would, without
// the nonce check or a decision.
func Normalize(env Envelope) (Envelope, error) {
	var f facts
	if err := validate(env, &f); err != nil {
		return nil, err
	}
	if err := normalize(&f); err != nil {
		return nil, err
	}
	return f.normalized(), nil
}
